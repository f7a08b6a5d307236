/* Writes terminal escape sequences (clear screen, set the window title, the one-byte CSI)
   to standard error and exits 3: its stderr is quoted in the RE message. */
#include <stdio.h>
int main(void) {
    printf("0\n");
    fprintf(stderr, "\x1b[2J\x1b]0;pwned\x07\xc2\x9b" "31m\n");
    return 3;
}
