#include <stdio.h>
int main(void) {
  FILE *in = fopen("/dev/stdin", "r"), *out = fopen("/dev/stdout", "w");
  if (!in || !out) return 1;
  char line[64];
  int lines = 0;
  while (fgets(line, sizeof line, in)) lines++;
  fprintf(out, "%d\n", lines == 8 ? 0 : 1);
  return 0;
}
