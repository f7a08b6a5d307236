/* Input validator of "Distance": q on a line, then q lines of four integers in [-10^4, 10^4].
 * Usage: validate < input. Exit code 42: valid; 43: invalid (the reason on stderr). */
#include <stdio.h>
#include <stdlib.h>

static void reject(const char *why) {
    fprintf(stderr, "%s\n", why);
    exit(43);
}

static void expect(int want, const char *what) {
    if (getchar() != want) reject(what);
}

/* An integer in canonical form (optional '-', no leading zeros, no "-0") within [lo, hi]. */
static long integer(long lo, long hi) {
    char text[8];
    int length = 0, c;
    while (length < 7 && ((c = getchar()) == '-' ? length == 0 : (c >= '0' && c <= '9')))
        text[length++] = (char)c;
    if (length < 7 && c != EOF) ungetc(c, stdin);
    text[length] = '\0';
    int negative = length > 0 && text[0] == '-';
    const char *digits = text + negative;
    if (digits[0] == '\0' || (digits[0] == '0' && (digits[1] != '\0' || negative)))
        reject("expected an integer");
    long value = strtol(text, NULL, 10);
    if (value < lo || value > hi) reject("integer out of range");
    return value;
}

int main(void) {
    long q = integer(1, 100);
    expect('\n', "expected a newline after q");
    for (long i = 0; i < q; i++) {
        for (int j = 0; j < 4; j++) {
            if (j > 0) expect(' ', "expected a single space between coordinates");
            integer(-10000, 10000);
        }
        expect('\n', "expected a newline after four coordinates");
    }
    if (getchar() != EOF) reject("trailing data");
    return 42;
}
