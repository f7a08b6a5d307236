# The seccomp filter in a Python case (the zygote's cases install it themselves): a few of the
# denied calls through ctypes, each refused as the filter refuses it, while threads (glibc's
# clone3, which gets ENOSYS, then clone) and fork still work. Prints the answer, 0, only then.
import ctypes
import os
import sys
import threading

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
EPERM, ENOSYS = 1, 38
CLONE_NEWUSER, CLONE_NEWNS = 0x10000000, 0x00020000
# (io_uring_setup, keyctl, ptrace, clone3, bpf, userfaultfd, perf_event_open) on x86_64
IO_URING_SETUP, KEYCTL, PTRACE, CLONE3, BPF, USERFAULTFD, PERF = 425, 250, 101, 435, 321, 323, 298

results = []


def check(name, result, expected):
    errno = ctypes.get_errno()
    ok = result == -1 and errno == expected
    results.append(ok)
    print(f'{name}: {"refused" if ok else f"got {result} (errno {errno})"}', file=sys.stderr)


os.makedirs('/tmp/c', exist_ok=True)
check('unshare(CLONE_NEWUSER)', libc.unshare(CLONE_NEWUSER), EPERM)
check('unshare(CLONE_NEWUSER|CLONE_NEWNS)', libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), EPERM)
check('mount(cgroup2)', libc.mount(b'none', b'/tmp/c', b'cgroup2', 0, None), EPERM)
check('mount(cgroup)', libc.mount(b'none', b'/tmp/c', b'cgroup', 0, b'memory'), EPERM)
check('io_uring_setup', libc.syscall(IO_URING_SETUP, 1, None), EPERM)
check('keyctl', libc.syscall(KEYCTL, 0, -3, 0), EPERM)
# PTRACE_ATTACH to no process: ESRCH without the filter.
check('ptrace', libc.syscall(PTRACE, 16, 0x3fffffff, 0, 0), EPERM)
check('bpf', libc.syscall(BPF, 0, None, 0), EPERM)
check('userfaultfd', libc.syscall(USERFAULTFD, 0o2000000 | 1), EPERM)
check('perf_event_open', libc.syscall(PERF, None, 0, -1, -1, 0), EPERM)
args = ctypes.create_string_buffer(88)
made = libc.syscall(CLONE3, args, 88)
if made == 0:  # a child, without the filter: it leaves at once
    os._exit(0)
check('clone3', made, ENOSYS)

seen = []
thread = threading.Thread(target=lambda: seen.append(1))
thread.start()
thread.join()
pid = os.fork()
if pid == 0:
    os._exit(7)
forked = os.waitpid(pid, 0)[1] >> 8 == 7
filtered = 'Seccomp:\t2\n' in open('/proc/self/status').readlines()
print(f'thread {seen}, fork {forked}, filter {filtered}', file=sys.stderr)
print(0 if all(results) and seen == [1] and forked and filtered else 'got through')
