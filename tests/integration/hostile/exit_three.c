/* Prints the right answer, then exits with status 3: RE (exit 3). */
#include <stdio.h>
int main(void) { puts("0"); return 3; }
