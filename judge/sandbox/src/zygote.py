# The Python zygote of a fork server's lane (judge/sandbox/src/server.rs): started once, as a
# case of the lane would be (its uid, groups, Landlock domain, PID namespace), before any of the
# submission's code; then, per case, it forks and the child becomes `python3 SCRIPT`, so a case
# does not pay for the interpreter's start. Trusted code: it reads and runs nothing of the
# submission before the fork. Its standard input is its control socket (the judge's), its
# standard output and error a pipe the judge reads if it fails to start.
#
# Per case the child gets what a case started from the server gets: PID 1 of a PID namespace
# of its own (killed with everything it started), new IPC and cgroup namespaces, a user
# namespace and session keyring of its own, no capabilities, a Landlock domain of its own (it
# can neither signal nor trace the zygote), the lane's fresh /tmp as working directory, and
# its own CPU-time limit.
import ctypes
import gc
import importlib.machinery
import os
import platform
import resource
import signal
import socket
import struct
import sys
import traceback

# What solutions commonly import, imported once here (a case's `import` is then a lookup).
import bisect, collections, functools, heapq, io, itertools, math, random, re, string  # noqa

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
# (capset, keyctl, landlock_create_ruleset, landlock_restrict_self)
SYSCALLS = {'x86_64': (126, 250, 444, 446), 'aarch64': (91, 219, 444, 446)}
KEYCTL_JOIN_SESSION_KEYRING = 1
LANDLOCK_SCOPES = 0b11  # abstract unix sockets and signals outside the domain (ABI 6)

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
unshare, prctl, syscall, setns, mount = libc.unshare, libc.prctl, libc.syscall, libc.setns, libc.mount
CAPSET, KEYCTL, LANDLOCK_CREATE_RULESET, LANDLOCK_RESTRICT_SELF = SYSCALLS[platform.machine()]
CAP_HEADER = ctypes.create_string_buffer(struct.pack('<Ii', 0x20080522, 0))
CAP_DATA = ctypes.create_string_buffer(bytes(24))
LANDLOCK_ATTR = ctypes.create_string_buffer(struct.pack('<QQQ', 0, 0, LANDLOCK_SCOPES))
IDENTITY = (f'{os.getuid()} {os.getuid()} 1'.encode(), f'{os.getgid()} {os.getgid()} 1'.encode())


def check(result, what):
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f'{what}: {os.strerror(errno)}')
    return result


def write(path, data):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def own_user_namespace():
    check(unshare(CLONE_NEWUSER), 'a user namespace')
    write('/proc/self/setgroups', b'deny')
    write('/proc/self/uid_map', IDENTITY[0])
    write('/proc/self/gid_map', IDENTITY[1])


def become_case(fds, cpu):
    # Everything it calls was looked up and built by the zygote: a case pays only for the calls.
    check(prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), 'parent-death signal')
    # A process group of its own, as a case started by the server has (so `setsid` is refused
    # alike).
    os.setpgid(0, 0)
    # Dumpable as an exec'd program is (its own /proc files are then its own: the maps below).
    check(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 'dumpable')
    # A /proc of its own PID namespace (it is pid 1 there, and sees no other), in a mount
    # namespace of its own: it is still privileged in the zygote's user namespace, which owns
    # both.
    check(unshare(CLONE_NEWNS), 'a mount namespace')
    check(mount(b'proc', b'/proc', b'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC, None), '/proc')
    own_user_namespace()
    # A cgroup namespace rooted at the lane's groups it was moved into, and an IPC namespace
    # of its own (the zygote never enters it: a segment the case leaves goes with the case).
    check(unshare(CLONE_NEWCGROUP | CLONE_NEWIPC), 'cgroup and IPC namespaces')
    check(syscall(KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None), 'a session keyring')
    # No capabilities left in its user namespace (version 3 header, all sets empty).
    check(syscall(CAPSET, CAP_HEADER, CAP_DATA), 'dropping capabilities')
    check(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 'no new privileges')
    ruleset = check(syscall(LANDLOCK_CREATE_RULESET, LANDLOCK_ATTR, 24, 0), 'a Landlock ruleset')
    check(syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0), 'a Landlock domain')
    os.close(ruleset)
    resource.setrlimit(resource.RLIMIT_CPU, cpu)
    os.chdir('/tmp')
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.closerange(3, 1 << 16)


def serve():
    """Returns in the child of each case; the zygote itself never returns."""
    control = socket.socket(fileno=os.dup(0))
    os.close(0)
    os.chdir('/')  # not in /tmp: the lane's /tmp is replaced for every case
    # Capabilities in a user namespace of its own, and PID 1 of a PID namespace that user
    # namespace owns: what it takes to make a PID namespace per case (the first process only
    # waits).
    own_user_namespace()
    check(unshare(CLONE_NEWPID), 'a PID namespace')
    if os.fork():
        check(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), 'not dumpable')
        control.close()
        os.closerange(0, 1 << 16)
        os.wait()
        os._exit(0)
    check(prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), 'parent-death signal')
    namespace = os.open('/proc/self/ns/pid', os.O_RDONLY)
    # Its PID namespace holds only itself and the case: every case is pid 2 there.
    last_pid = os.open('/proc/sys/kernel/ns_last_pid', os.O_WRONLY)
    check(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), 'not dumpable')
    # Everything a case's set-up needs works here (a kernel without Landlock scopes, say, would
    # fail every case): else the judge starts the interpreter per case instead.
    check(setns(namespace, CLONE_NEWPID), 'its PID namespace')
    check(unshare(CLONE_NEWPID), 'a PID namespace')
    probe = os.fork()
    if probe == 0:
        try:
            become_case((), (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except BaseException as e:
            os.write(1, f'a case cannot be set up here: {e}\n'.encode())
            os._exit(1)
        os._exit(0)
    if os.waitpid(probe, 0)[1] != 0:
        os._exit(1)
    gc.freeze()  # the zygote's objects stay shared: a case's collections do not copy them
    control.send(b'R')
    child = 0
    while True:
        message, fds, _, _ = socket.recv_fds(control, 64, 8)
        if not message:
            os._exit(0)
        if message[:1] == b'K':
            status = 0
            if child:
                try:
                    os.kill(child, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                _, status = os.waitpid(child, 0)
                child = 0
            control.send(struct.pack('<i', status))
            continue
        if message[:1] != b'F' or len(fds) < 3:
            for fd in fds:
                os.close(fd)
            control.send(b'Ea malformed request')
            continue
        # Signed: the judge's RLIM_INFINITY (all ones) reads as -1, which is setrlimit's.
        cpu = struct.unpack('<qq', message[1:17])
        streams, groups = fds[:3], fds[3:]
        try:
            # Children back in its own PID namespace, then a new one for this case's.
            check(setns(namespace, CLONE_NEWPID), 'its PID namespace')
            check(unshare(CLONE_NEWPID), 'a PID namespace')
            os.pwrite(last_pid, b'1', 0)
            go_r, go_w = os.pipe()
            pid = os.fork()
        except OSError as e:
            for fd in fds:
                os.close(fd)
            control.send(b'E' + str(e).encode())
            continue
        if pid == 0:
            control.close()
            os.close(go_w)
            # Nothing of its own runs until it is in the lane's groups.
            if os.read(go_r, 1) != b'1':
                os._exit(126)
            os.close(go_r)
            for fd in groups:
                os.close(fd)
            try:
                become_case(streams, cpu)
            except BaseException as e:
                os.write(2, f'zygote: could not start the case: {e}\n'.encode())
                os._exit(126)
            return
        os.close(go_r)
        moved = None
        try:
            for fd in groups:
                os.write(fd, str(pid).encode())
            os.write(go_w, b'1')
        except OSError as e:
            moved = e
        os.close(go_w)
        for fd in fds:
            os.close(fd)
        if moved is not None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            control.send(b'Ecould not move the case into its groups: ' + str(moved).encode())
            continue
        child = pid
        pidfd = os.pidfd_open(pid)
        socket.send_fds(control, [b'S'], [pidfd])
        os.close(pidfd)


def flush_standard_streams(code, streams):
    """Flushes the streams as the interpreter does at exit: an error is reported ("Exception
    ignored in: ...") and makes the status 120."""
    for stream in streams:
        if stream is None or getattr(stream, 'closed', False):
            continue
        try:
            stream.flush()
        except Exception as e:
            code = code or 120
            try:
                print(f'Exception ignored in: {stream!r}', file=sys.__stderr__)
                print(''.join(traceback.format_exception_only(e)), end='', file=sys.__stderr__)
                sys.__stderr__.flush()
            except Exception:
                pass
    return code


def finish(code, sigint=False):
    # What interpreter shutdown does that a program can observe, in its order: non-daemon
    # threads joined, atexit handlers, the standard streams flushed, then the program's own
    # objects finalized (an unclosed file it wrote to is flushed, a __del__ runs), and the
    # streams flushed again. Not the rest of the teardown: it would copy every page the case
    # shares with the zygote (5 ms a case).
    threading = sys.modules.get('threading')
    if threading is not None:
        threading._shutdown()
    import atexit
    atexit._run_exitfuncs()
    code = flush_standard_streams(code, (sys.stdout, sys.stderr))
    main.__dict__.clear()
    gc.collect()
    # The streams the interpreter started with are finalized last, whatever sys.stdout is now.
    code = flush_standard_streams(code, (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__))
    if sigint:
        # As the interpreter ends on an unhandled Ctrl-C: by SIGINT, else (PID 1 ignores it)
        # with 130.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code)


def exit_status(value):
    """The exit status of `sys.exit(value)`, as the interpreter computes it (a C long, then an
    int: 255 when it does not fit)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xff if -(1 << 63) <= value < (1 << 63) else 255
    print(value, file=sys.stderr)
    return 1


script = sys.argv[1]
# Compiled once, here: parsing runs nothing of it. A syntax error is raised in every case, as
# `python3 SCRIPT` would report it.
try:
    with open(script, 'rb') as f:
        code, error = compile(f.read(), script, 'exec', dont_inherit=True), None
except Exception as e:
    code, error = None, e
serve()
# The child: `python3 SCRIPT` (its folder first on sys.path, argv as python sets it).
del serve, become_case, own_user_namespace
sys.argv = [script]
sys.path[0] = os.path.dirname(script)
main = type(sys)('__main__')
main.__file__ = script
main.__builtins__ = __builtins__
main.__loader__ = importlib.machinery.SourceFileLoader('__main__', script)
main.__spec__ = None
main.__cached__ = None
main.__annotations__ = {}
sys.orig_argv = [sys.orig_argv[0], script]
sys.modules['__main__'] = main
try:
    if error is not None:
        raise error
    exec(code, main.__dict__)
except SystemExit as e:
    finish(exit_status(e.code))
except KeyboardInterrupt:
    sys.excepthook(*sys.exc_info())
    finish(130, sigint=True)
except BaseException:
    sys.excepthook(*sys.exc_info())
    finish(1)
finish(0)
