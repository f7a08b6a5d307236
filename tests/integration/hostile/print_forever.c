/* Floods standard output: OLE, not a hang. */
#include <stdio.h>
int main(void) { for (;;) fputs("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", stdout); }
