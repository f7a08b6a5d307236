// Wrong: rounds to two decimals, far outside the 1e-6 tolerance for most distances.
#include <cmath>
#include <cstdio>

int main() {
    int q;
    if (std::scanf("%d", &q) != 1) return 1;
    while (q--) {
        double x1, y1, x2, y2;
        if (std::scanf("%lf %lf %lf %lf", &x1, &y1, &x2, &y2) != 4) return 1;
        std::printf("%.2f\n", std::hypot(x2 - x1, y2 - y1));
    }
}
