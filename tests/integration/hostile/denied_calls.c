// Makes every system call the box's seccomp filter denies (issue 33.7), with arguments under
// which each would do something else without the filter (succeed, or fail otherwise) where
// there are such, and says on standard error what each got. Prints the answer, 0, only if
// every one was refused as the filter refuses it (EPERM; ENOSYS for clone3) and a filter is
// there: a run that got through any of them is WA.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int refused = 0, calls = 0;

// A call that made a process (clone, clone3): the child leaves at once.
static void child_leaves(long r) {
    if (r == 0) _exit(0);
    if (r > 0) waitpid((pid_t)r, NULL, __WALL);
}

static void check(const char *name, long r, int expected) {
    int e = errno;
    calls++;
    if (r == -1 && e == expected) {
        refused++;
        fprintf(stderr, "%s: refused (%s)\n", name, strerror(e));
    } else if (r == -1) {
        fprintf(stderr, "%s: failed otherwise (%s)\n", name, strerror(e));
    } else {
        fprintf(stderr, "%s: went through (%ld)\n", name, r);
    }
}

int main(void) {
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.exit_signal = SIGCHLD;
    long r;
    mkdir("/tmp/c", 0700);

    check("io_uring_setup", syscall(SYS_io_uring_setup, 1, NULL), EPERM);
    check("io_uring_enter", syscall(SYS_io_uring_enter, -1, 0, 0, 0, NULL, 0), EPERM);
    check("io_uring_register", syscall(SYS_io_uring_register, -1, 0, NULL, 0), EPERM);
    check("unshare(CLONE_NEWUSER)", unshare(CLONE_NEWUSER), EPERM);
    check("unshare(CLONE_NEWUSER|CLONE_NEWNS)", unshare(CLONE_NEWUSER | CLONE_NEWNS), EPERM);
    r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
    child_leaves(r);
    check("clone(CLONE_NEWUSER)", r, EPERM);
    args.flags = CLONE_NEWUSER;
    r = syscall(SYS_clone3, &args, sizeof args);
    child_leaves(r);
    check("clone3(CLONE_NEWUSER)", r, ENOSYS);
    args.flags = 0;
    r = syscall(SYS_clone3, &args, sizeof args);
    child_leaves(r);
    check("clone3", r, ENOSYS);
    // The cgroup file systems, v2 and v1, and a tmpfs.
    check("mount(cgroup2)", mount("none", "/tmp/c", "cgroup2", 0, NULL), EPERM);
    check("mount(cgroup)", mount("none", "/tmp/c", "cgroup", 0, "memory"), EPERM);
    check("mount(tmpfs)", mount("none", "/tmp/c", "tmpfs", 0, NULL), EPERM);
    check("umount2", syscall(SYS_umount2, "/proc", MNT_DETACH), EPERM);
    check("pivot_root", syscall(SYS_pivot_root, "/tmp", "/tmp/c"), EPERM);
    check("move_mount", syscall(SYS_move_mount, -1, "", -1, "", 0), EPERM);
    check("fsopen(cgroup2)", syscall(SYS_fsopen, "cgroup2", 0), EPERM);
    check("fsconfig", syscall(SYS_fsconfig, -1, 0, NULL, NULL, 0), EPERM);
    check("fsmount", syscall(SYS_fsmount, -1, 0, 0), EPERM);
    check("fspick", syscall(SYS_fspick, AT_FDCWD, "/tmp", 0), EPERM);
    check("open_tree", syscall(SYS_open_tree, AT_FDCWD, "/tmp", 0), EPERM);
    check("mount_setattr", syscall(SYS_mount_setattr, -1, "", 0, NULL, 0), EPERM);
    check("bpf", syscall(SYS_bpf, 0, NULL, 0), EPERM);
    check("keyctl", syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3, 0), EPERM);
    check("add_key", syscall(SYS_add_key, "user", "x", "y", 1, -3), EPERM);
    check("request_key", syscall(SYS_request_key, "user", "nothing", NULL, -3), EPERM);
    check("perf_event_open", syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0), EPERM);
    check("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC | 1 /* UFFD_USER_MODE_ONLY */),
          EPERM);
    check("open_by_handle_at", syscall(SYS_open_by_handle_at, AT_FDCWD, NULL, 0), EPERM);
    int mount_id;
    check("name_to_handle_at",
          syscall(SYS_name_to_handle_at, AT_FDCWD, "/tmp", NULL, &mount_id, 0), EPERM);
    check("kexec_load", syscall(SYS_kexec_load, 0, 0, NULL, 0), EPERM);
    check("kexec_file_load", syscall(SYS_kexec_file_load, -1, -1, 0, "", 0), EPERM);
    check("init_module", syscall(SYS_init_module, NULL, 0, ""), EPERM);
    check("finit_module", syscall(SYS_finit_module, -1, "", 0), EPERM);
    check("delete_module", syscall(SYS_delete_module, "nothing", 0), EPERM);
    // No such process: ESRCH without the filter.
    check("ptrace(PTRACE_ATTACH)", ptrace(PTRACE_ATTACH, 0x3fffffff, NULL, NULL), EPERM);
    // In a child, which says what it got (without the filter it would become its parent's
    // tracee, harmless for a child that exits at once).
    pid_t tracee = fork();
    if (tracee == 0) _exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == -1 ? errno : 0);
    int traced = -1;
    if (tracee > 0 && waitpid(tracee, &traced, 0) == tracee && WIFEXITED(traced))
        errno = WEXITSTATUS(traced);
    check("ptrace(PTRACE_TRACEME)", errno == 0 ? 0 : -1, EPERM);

    // And the filter is there (a kernel that refuses all of the above anyway would not do).
    int filtered = 0;
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    while (status && fgets(line, sizeof line, status))
        if (strcmp(line, "Seccomp:\t2\n") == 0) filtered = 1;
    fprintf(stderr, "%d of %d refused; seccomp filter: %s\n", refused, calls,
            filtered ? "yes" : "no");
    if (refused == calls && filtered)
        puts("0");
    else
        printf("%d of %d refused, filter %d\n", refused, calls, filtered);
    return 0;
}
