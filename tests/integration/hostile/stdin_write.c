/* Tries to change its input for whoever reads it next: writes to descriptor 0, reopens it
   through /proc/self/fd/0 and /dev/stdin for writing, truncates it, maps it shared and
   writable, changes its mode, adds seals. Prints 0 if every attempt failed and the input is
   still the board, else the number of the attempt that worked. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
  int failed = 0;
  if (write(0, "X", 1) == 1) failed = 1;
  if (!failed) {
    int fd = open("/proc/self/fd/0", O_RDWR);
    if (fd >= 0 && (write(fd, "X", 1) == 1 || ftruncate(fd, 0) == 0)) failed = 2;
  }
  if (!failed) {
    int fd = open("/dev/stdin", O_WRONLY);
    if (fd >= 0 && write(fd, "X", 1) == 1) failed = 3;
  }
  if (!failed && (ftruncate(0, 0) == 0 || ftruncate(0, 1000) == 0)) failed = 4;
  if (!failed && mmap(0, 72, PROT_READ | PROT_WRITE, MAP_SHARED, 0, 0) != MAP_FAILED) failed = 5;
  if (!failed && fchmod(0, 0666) == 0) failed = 6;
  if (!failed && fcntl(0, F_ADD_SEALS, F_SEAL_WRITE) == 0) failed = 7;
  if (!failed) {
    char all[128];
    struct stat st;
    if (fstat(0, &st) != 0 || st.st_size != 72 || pread(0, all, sizeof all, 0) != 72 ||
        memcmp(all + 27, "NNNWBNNN", 8) != 0)
      failed = 8;
  }
  printf("%d\n", failed);
  return 0;
}
