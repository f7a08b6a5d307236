/* Holds as many processes as it may for 3 s (marked 6363636 on the command line of the
   test), then answers: another judge's submissions must not feel it. */
#include <stdio.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 10000; i++) {
        pid_t p = fork();
        if (p < 0) break;
        if (p == 0) { sleep(3); _exit(0); }
    }
    sleep(3);
    puts("0");
    return 0;
}
