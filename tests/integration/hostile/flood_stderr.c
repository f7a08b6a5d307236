/* Prints the right answer, then 64 MB on standard error: drained, AC. */
#include <stdio.h>
#include <string.h>
int main(void) {
    puts("0");
    fflush(stdout);
    static char junk[65536];
    memset(junk, 'e', sizeof junk);
    for (int i = 0; i < 1024; i++) fwrite(junk, 1, sizeof junk, stderr);
    return 0;
}
