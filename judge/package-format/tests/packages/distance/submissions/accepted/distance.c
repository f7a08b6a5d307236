/* hypot, printed with nine decimals. */
#include <math.h>
#include <stdio.h>

int main(void) {
    int q;
    if (scanf("%d", &q) != 1) return 1;
    while (q--) {
        double x1, y1, x2, y2;
        if (scanf("%lf %lf %lf %lf", &x1, &y1, &x2, &y2) != 4) return 1;
        printf("%.9f\n", hypot(x2 - x1, y2 - y1));
    }
    return 0;
}
