# What programs commonly expect of /dev, /proc, /tmp and the account database, one check per
# line: prints the answer, 0, only if every check passes, else the checks that failed.
import os, sys, tempfile, multiprocessing
failed = []
def check(what, f):
    try:
        f()
    except BaseException as e:
        failed.append(f"FAIL {what}: {type(e).__name__}: {e}")
def require(condition):
    if not condition:
        raise AssertionError("no")
def full_is_full():
    try:
        with open("/dev/full", "w") as f:
            f.write("x")
            f.flush()
    except OSError as e:
        return e.errno == 28
    return False
check("read /dev/stdin", lambda: open("/dev/stdin").read())
check("list /dev/fd", lambda: os.listdir("/dev/fd"))
check("open /dev/stderr", lambda: open("/dev/stderr", "w").close())
check("/dev/null, /dev/zero, /dev/full, /dev/urandom", lambda: [os.stat(f"/dev/{d}") for d in ("null", "zero", "full", "urandom")])
check("/dev/full is full", lambda: require(full_is_full()))
check("multiprocessing.Lock (a POSIX semaphore in /dev/shm)", lambda: multiprocessing.Lock())
check("multiprocessing.Pool(2).map", lambda: require(multiprocessing.Pool(2).map(abs, [-1, -2]) == [1, 2]))
check("os.cpu_count", lambda: require(os.cpu_count()))
check("tempfile.mkstemp", tempfile.mkstemp)
check("/proc/self/exe", lambda: os.readlink("/proc/self/exe"))
check("/proc/meminfo", lambda: open("/proc/meminfo").readline())
check("/proc/cpuinfo", lambda: open("/proc/cpuinfo").read())
check("getpwuid of my uid", lambda: __import__("pwd").getpwuid(os.getuid()))
check("HOME and TMPDIR writable", lambda: [open(os.path.join(os.environ[v], v), "w").close() for v in ("HOME", "TMPDIR")])
print("\n".join(failed) if failed else 0)
