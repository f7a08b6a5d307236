/* Tries to chmod, utime and setxattr the file "path=FILE" (a file of the user who runs the
   judge), then answers right: the test checks the file is unchanged. */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <utime.h>
int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] + 5 : "";
    chmod(path, 0777);
    struct utimbuf t = {.actime = 1, .modtime = 1};
    utime(path, &t);
    setxattr(path, "user.pwned", "1", 1, 0);
    puts("0");
    return 0;
}
