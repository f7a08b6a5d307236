/* Right in pass 1, never ends in pass 2: each pass has the time limit on its own. */
#include <stdio.h>

int main(void) {
    char word[16];
    long long value;
    if (scanf("%15s", word) != 1) return 1;
    if (word[0] == 'd') {
        volatile unsigned long spin = 0;
        for (;;) spin++;
    }
    sscanf(word, "%lld", &value);
    printf("%lld\n", value + 1);
    return 0;
}
