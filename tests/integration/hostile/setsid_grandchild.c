/* Leaves a grandchild in its own session, sleeping (marked 4242427 on its command line), and
   answers correctly: AC, and the grandchild must not survive the test. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            execl("/bin/sleep", "sleep", "4242427", (char *)0);
            _exit(1);
        }
        _exit(0);
    }
    sleep(1);
    puts("0");
    return 0;
}
