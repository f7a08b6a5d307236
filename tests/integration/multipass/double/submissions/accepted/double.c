/* Pass 1: k = 3n; pass 2: `double k` -> 2k. */
#include <stdio.h>

int main(void) {
    char word[16];
    long long value;
    if (scanf("%15s", word) != 1) return 1;
    if (word[0] == 'd') {
        if (scanf("%lld", &value) != 1) return 1;
        printf("%lld\n", 2 * value);
    } else {
        sscanf(word, "%lld", &value);
        printf("%lld\n", 3 * value);
    }
    return 0;
}
