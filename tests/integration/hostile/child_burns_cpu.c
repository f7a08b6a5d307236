/* Ignores SIGCHLD (so its children are reaped by the kernel and never counted in its
   rusage), starts a grandchild-to-be that burns 2.5 s of CPU, waits for the grandchild to
   finish (through a pipe, not wait) and answers right: the run's CPU time must still count
   the burn (TLE under a 1 s limit). */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    int done[2];
    pipe(done);
    signal(SIGCHLD, SIG_IGN);
    if (fork() == 0) {
        if (fork() == 0) {
            close(done[0]);
            volatile unsigned long x = 0;
            clock_t start = clock();
            while (clock() - start < 2.5 * CLOCKS_PER_SEC) x++;
            _exit(0);
        }
        _exit(0);
    }
    close(done[1]);
    char c;
    read(done[0], &c, 1); /* returns at end of file: when the grandchild is gone */
    puts("0");
    return 0;
}
