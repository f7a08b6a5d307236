/* Leaves a 30,000-deep directory chain (longer than PATH_MAX) in its working directory,
   with a locked (mode 000) directory every 1,000 levels, and answers right. */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 30000; i++) {
        if (i % 1000 == 999) mkdir("locked", 0);
        if (mkdir("d", 0700) != 0 || chdir("d") != 0) break;
    }
    puts("0");
    return 0;
}
