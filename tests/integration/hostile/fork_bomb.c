/* Forks without end: contained by the process limit, everything killed at the end. */
#include <unistd.h>
int main(void) { for (;;) fork(); }
