/* Partial: reads the numbers into 32-bit ints, so only subtask 1 (values up to 100) is right. */
#include <stdio.h>

int main(void) {
    int n;
    static int a[2000];
    if (scanf("%d", &n) != 1) return 1;
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int i = n - 1; i >= 0; i--) printf("%d%c", a[i], i > 0 ? ' ' : '\n');
    return 0;
}
