/* Maps its standard input whole, at the size fstat gives, as fast readers do (a test file on
   DOMjudge, Codeforces or AtCoder is a regular file): prints 0 if the board is there. */
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  struct stat st;
  if (fstat(0, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 72) {
    write(1, "1\n", 2);
    return 0;
  }
  const char *in = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, 0, 0);
  if (in == MAP_FAILED) {
    write(1, "2\n", 2);
    return 0;
  }
  int lines = 0;
  for (off_t k = 0; k < st.st_size; k++) lines += in[k] == '\n';
  int ok = lines == 8 && memcmp(in + 27, "NNNWBNNN", 8) == 0;
  write(1, ok ? "0\n" : "3\n", 2);
  return 0;
}
