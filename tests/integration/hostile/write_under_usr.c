// Writes into a host mount that lies under /usr (a separate /usr/local, a container's bind
// into /etc): binding /usr recursively and remounting only its top read-only leaves such
// mounts as they are on the host, writable. Prints 1 if the file `path=PATH` could be
// created, else 0.
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    const char *path = NULL;
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], "path=", 5)) path = argv[i] + 5;
    if (!path) return 2;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        puts("0");
        return 0;
    }
    fputs("left behind by a submission\n", f);
    fclose(f);
    puts("1");
    return 0;
}
