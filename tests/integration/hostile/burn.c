/* Burns argv[1] milliseconds of CPU (a step of wrapper.sh). */
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv) {
  clock_t end = clock() + atol(argc > 1 ? argv[1] : "0") * (CLOCKS_PER_SEC / 1000);
  volatile unsigned x = 0;
  while (clock() < end) x++;
  return 0;
}
