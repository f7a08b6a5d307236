// Keeps state in kernel keyrings, which no IPC namespace covers: counts the keys named
// `name=NAME` it finds through its user keyring (@u: the uid's, in its user namespace) and its
// session keyring (@s: inherited from the judge, or the uid's user-session keyring), prints
// that count, and leaves one more in each. Outside a sandbox the second run prints 2; a run
// that reaches the judge's session keyring finds what the judge keeps there. With `unlink`
// it removes what it left (for the control's cleanup).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SPEC_SESSION_KEYRING -3
#define KEY_SPEC_USER_KEYRING -4
#define KEYCTL_UNLINK 9
#define KEYCTL_SEARCH 10
#define KEYCTL_READ 11

int main(int argc, char **argv) {
    const char *name = "boardjudge-keyring-counter";
    int unlink_them = 0;
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "name=", 5)) name = argv[i] + 5;
        if (!strcmp(argv[i], "unlink")) unlink_them = 1;
    }
    long rings[2] = {KEY_SPEC_USER_KEYRING, KEY_SPEC_SESSION_KEYRING};
    int found = 0;
    for (int r = 0; r < 2; r++) {
        long id = syscall(SYS_keyctl, KEYCTL_SEARCH, rings[r], "user", name, 0);
        if (id < 0) continue;
        char payload[64] = {0};
        if (syscall(SYS_keyctl, KEYCTL_READ, id, payload, sizeof payload - 1) >= 0) {
            found++;
            fprintf(stderr, "found %s in keyring %ld: %s\n", name, rings[r], payload);
        }
        if (unlink_them) syscall(SYS_keyctl, KEYCTL_UNLINK, id, rings[r]);
    }
    if (unlink_them) return 0;
    for (int r = 0; r < 2; r++) {
        char key[80];
        snprintf(key, sizeof key, "%s", name);
        // A new key of the same name replaces the old one in that keyring.
        syscall(SYS_add_key, "user", key, "left by a run", 13, rings[r]);
    }
    printf("%d\n", found);
    return 0;
}
