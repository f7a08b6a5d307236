/* A correct multi-process program: three short-lived worker processes (0.25 s of CPU each, in
   turn), then the answer. 0.75 s of CPU in all: AC under a 1 s limit, however busy the
   machine is. */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static void burn(double seconds) {
  clock_t end = clock() + (clock_t)(seconds * CLOCKS_PER_SEC);
  volatile unsigned x = 0;
  while (clock() < end) x++;
}
int main(void) {
  for (int k = 0; k < 3; k++) {
    pid_t p = fork();
    if (p == 0) { burn(0.25); _exit(0); }
    waitpid(p, NULL, 0);
  }
  char line[64];
  while (fgets(line, sizeof line, stdin)) {}
  puts("0");
  return 0;
}
