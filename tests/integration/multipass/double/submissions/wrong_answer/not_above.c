/* Wrong in pass 1: k = n, not above it. */
#include <stdio.h>

int main(void) {
    long long n;
    if (scanf("%lld", &n) != 1) return 1;
    printf("%lld\n", n);
    return 0;
}
