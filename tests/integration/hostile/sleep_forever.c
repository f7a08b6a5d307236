/* Uses no CPU, never ends: TLE on the wall clock, without hanging the judge. */
#include <unistd.h>
int main(void) { for (;;) sleep(1000); }
