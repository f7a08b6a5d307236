/* Wrong: two copies can show that a bit flipped, not which copy is right; this trusts the
 * first copy, so a flip in the first 20 bits goes through. */
#include <stdio.h>

int main(void) {
    char mode[8], code[64];
    if (scanf("%7s", mode) != 1) return 1;
    if (mode[0] == 'e') {
        long x;
        if (scanf("%ld", &x) != 1) return 1;
        for (int copy = 0; copy < 2; copy++)
            for (int bit = 19; bit >= 0; bit--) putchar((x >> bit) & 1 ? '1' : '0');
        for (int i = 0; i < 20; i++) putchar('0');
        putchar('\n');
    } else {
        if (scanf("%63s", code) != 1) return 1;
        long x = 0;
        for (int i = 0; i < 20; i++) x = 2 * x + (code[i] == '1');
        printf("%ld\n", x);
    }
    return 0;
}
