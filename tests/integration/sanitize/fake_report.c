/* Writes a fake AddressSanitizer report full of markup and terminal escapes, then the right
 * answer of othello-flips sample 2 (0): under --sanitize the report is the verdict's detail,
 * and every writer must escape it. */
#include <stdio.h>
int main(void) {
    fprintf(stderr, "==1==ERROR: AddressSanitizer: <script>alert(1)</script>\x1b[2J on address 0x0\n"
                    "READ of size 4 at 0x0 thread T0\n"
                    "    #0 0x0 in main <img src=x onerror=alert(2)>.c:1\n");
    printf("0\n");
    return 0;
}
