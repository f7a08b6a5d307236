/* Seeks in its standard input (to the end for the size, back to the start, into the middle),
   as a regular file allows: prints 0 if every seek and read gives what a file would. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  struct stat st;
  char all[128], row[9];
  int ok = fstat(0, &st) == 0 && st.st_size == 72 && lseek(0, 0, SEEK_CUR) == 0 &&
           lseek(0, 0, SEEK_END) == 72 && lseek(0, 27, SEEK_SET) == 27 &&
           read(0, row, 8) == 8 && memcmp(row, "NNNWBNNN", 8) == 0 &&
           lseek(0, 0, SEEK_SET) == 0 && read(0, all, sizeof all) == 72 &&
           read(0, all, sizeof all) == 0 && pread(0, row, 8, 36) == 8 &&
           memcmp(row, "NNNBWNNN", 8) == 0;
  write(1, ok ? "0\n" : "1\n", 2);
  return 0;
}
