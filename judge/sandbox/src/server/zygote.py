# The Python zygote of a fork server's lane (judge/sandbox/src/server.rs): started once, as a
# case of the lane would be (its uid, groups, Landlock domain, PID namespace), before any of the
# submission's code; then, per case, it forks and the child becomes `python3 SCRIPT`, so a case
# does not pay for the interpreter's start. Trusted code: it reads and runs nothing of the
# submission before the fork. Its standard input is its control socket (the judge's), its
# standard output and error a pipe the judge reads if it fails to start.
#
# Per case the child gets what a case started from the server gets: pid 2 of a PID namespace
# of its own whose init is a keeper (killed, with everything the case started, when the case
# ends), new IPC and cgroup namespaces, a user
# namespace and session keyring of its own, no capabilities, a Landlock domain of its own (it
# can neither signal nor trace the zygote), the lane's fresh /tmp as working directory, and
# its own CPU-time limit. None of the script runs before the judge lets it go (on a start pipe
# of its own), once the case's input is there.
#
# Where it cannot give a script what `python3 SCRIPT` would (see `unsuitable`), it says so
# (`N`) instead of `R`, and the judge starts the interpreter per case.
import sys

# The modules a script's interpreter has loaded when the script starts (this one's, before any
# import of its own): any other module the zygote holds is one the script would import itself.
STARTUP_MODULES = frozenset(name.partition('.')[0] for name in sys.modules)

# Light modules only (C ones where there is one): every page the zygote holds is copied
# into the page tables of every case, and unmapped when it ends.
import _signal as signal
import _socket
import _weakref
import atexit
import builtins
import ctypes
import gc
import os
import resource
import struct
import time
import warnings

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
# (capset, keyctl, landlock_create_ruleset, landlock_restrict_self, seccomp)
SYSCALLS = {'x86_64': (126, 250, 444, 446, 317), 'aarch64': (91, 219, 444, 446, 277)}
SECCOMP_SET_MODE_FILTER = 1
# The judge's system-call filter (judge/sandbox/src/seccomp.rs, `struct sock_filter`s), put
# here by the judge as it starts the zygote; empty where the judge has none. Each case installs
# it last, after its namespaces and keyring, which it denies.
SECCOMP_FILTER = b''
KEYCTL_JOIN_SESSION_KEYRING = 1
LANDLOCK_SCOPES = 0b11  # abstract unix sockets and signals outside the domain (ABI 6)
EDQUOT = 122

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
unshare, prctl, syscall, setns, mount = libc.unshare, libc.prctl, libc.syscall, libc.setns, libc.mount
CAPSET, KEYCTL, LANDLOCK_CREATE_RULESET, LANDLOCK_RESTRICT_SELF, SECCOMP = SYSCALLS[os.uname().machine]
CAP_HEADER = ctypes.create_string_buffer(struct.pack('<Ii', 0x20080522, 0))
CAP_DATA = ctypes.create_string_buffer(bytes(24))
LANDLOCK_ATTR = ctypes.create_string_buffer(struct.pack('<QQQ', 0, 0, LANDLOCK_SCOPES))
SECCOMP_INSTRUCTIONS = ctypes.create_string_buffer(SECCOMP_FILTER, len(SECCOMP_FILTER) + 1)
# struct sock_fprog: the instruction count, then (aligned) a pointer to them.
SECCOMP_PROGRAM = ctypes.create_string_buffer(
    struct.pack('<H6xQ', len(SECCOMP_FILTER) // 8, ctypes.addressof(SECCOMP_INSTRUCTIONS)))
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


def session_keyring():
    # A keyring of its own, charged to the lane's uid: the keys of the case before it may not
    # have been collected yet (the kernel does that a moment after it ends).
    for _ in range(50):
        if syscall(KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None) >= 0:
            return
        if ctypes.get_errno() != EDQUOT:
            break
        time.sleep(0.002)
    check(-1, 'a session keyring')


def become_case(cpu):
    # Everything it calls was looked up and built by the zygote: a case pays only for the calls.
    check(prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), 'parent-death signal')
    # A process group of its own, as a case started by the server has (so `setsid` is refused
    # alike).
    os.setpgid(0, 0)
    # Dumpable as an exec'd program is (its own /proc files are then its own: the maps below).
    check(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 'dumpable')
    # A /proc of its own PID namespace (it is pid 2 there, and sees no other), in a mount
    # namespace of its own: it is still privileged in the zygote's user namespace, which owns
    # both.
    check(unshare(CLONE_NEWNS), 'a mount namespace')
    # Showing only the processes it could trace: not its keeper (pid 1, not dumpable, outside
    # its Landlock domain).
    check(mount(b'proc', b'/proc', b'proc', MS_NOSUID | MS_NODEV | MS_NOEXEC, b'hidepid=invisible'),
          '/proc')
    own_user_namespace()
    # A cgroup namespace rooted at the lane's groups it was moved into, and an IPC namespace
    # of its own (the zygote never enters it: a segment the case leaves goes with the case).
    check(unshare(CLONE_NEWCGROUP | CLONE_NEWIPC), 'cgroup and IPC namespaces')
    session_keyring()
    # No capabilities left in its user namespace (version 3 header, all sets empty).
    check(syscall(CAPSET, CAP_HEADER, CAP_DATA), 'dropping capabilities')
    check(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 'no new privileges')
    ruleset = check(syscall(LANDLOCK_CREATE_RULESET, LANDLOCK_ATTR, 24, 0), 'a Landlock ruleset')
    check(syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0), 'a Landlock domain')
    os.close(ruleset)
    if SECCOMP_FILTER:
        check(syscall(SECCOMP, SECCOMP_SET_MODE_FILTER, 0, SECCOMP_PROGRAM), 'the system-call filter')
    resource.setrlimit(resource.RLIMIT_CPU, cpu)
    os.chdir('/tmp')


# A case's keeper: the first process (init) of the case's PID namespace, so that the case is not
# (the kernel does not let an init die of a signal it sends itself: `os.kill(os.getpid(),
# signal.SIGTERM)` would be ignored). A fork would copy the zygote's page tables (about a
# millisecond a case), so it is a clone sharing the zygote's memory (CLONE_VM) that runs no
# Python: it waits forever in the C library's `pthread_mutex_lock` on a lock held for good (a
# futex wait, touching nothing but that word and its own stack), until the zygote kills it when
# the case ends; its end kills whatever the case left in the namespace. Its SIGCHLD is ignored
# (what the case leaves is reparented to it, and reaped by the kernel); nothing can signal it
# but the zygote and the judge (the case is in a nested Landlock domain, and cannot see it).
CLONE_VM = 0x00000100
KEEPER_STACK = ctypes.create_string_buffer(64 << 10)
KEEPER_STACK_TOP = (ctypes.addressof(KEEPER_STACK) + len(KEEPER_STACK) - 64) & ~15
# A normal mutex (kind 0), locked with waiters: never released.
HELD_FOR_GOOD = ctypes.create_string_buffer(struct.pack('<i', 2), 64)
WAIT_FOREVER = ctypes.cast(libc.pthread_mutex_lock, ctypes.c_void_p)
libc.clone.restype = ctypes.c_int
libc.clone.argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
POLLFDS = struct.Struct('ihhihh')  # two struct pollfd
POLLIN = 1


def next_namespace(namespace, last_pid):
    """The next case's PID namespace, made while the zygote waits for the case: its keeper
    cloned into it, the zygote's next child to follow (its pid 2). Returns the keeper's pid."""
    # Children back in its own PID namespace, then a new one for the next case's.
    check(setns(namespace, CLONE_NEWPID), 'its PID namespace')
    check(unshare(CLONE_NEWPID), 'a PID namespace')
    os.pwrite(last_pid, b'1', 0)
    # The keeper gets a copy of the zygote's signal dispositions: SIGCHLD ignored for it. (No
    # child of the zygote is alive here to end meanwhile: no case, its keeper reaped.)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        # The first process of the new namespace is its init.
        return check(libc.clone(WAIT_FOREVER, KEEPER_STACK_TOP, CLONE_VM | signal.SIGCHLD,
                                ctypes.addressof(HELD_FOR_GOOD)), 'a keeper')
    finally:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)


def wait_for_judge(control, case, keeper):
    """Waits until the judge speaks; if the case (`case`, its pidfd) ends first, kills its
    keeper meanwhile, which kills whatever the case left running (it would hold the case's
    output open and be charged for its CPU time until the judge ends the case). Returns whether
    the keeper was killed."""
    fds = ctypes.create_string_buffer(POLLFDS.pack(control.fileno(), POLLIN, 0, case, POLLIN, 0))
    while True:
        if libc.poll(fds, 2, -1) < 0:
            if ctypes.get_errno() == EINTR:
                continue
            return False
        _, _, control_ready, _, _, case_ended = POLLFDS.unpack(fds.raw[:POLLFDS.size])
        if case_ended:
            os.kill(keeper, signal.SIGKILL)
            return True
        if control_ready:
            return False


EINTR = 4


def end(pid):
    """Kills and reaps a child of the zygote (a case, then its keeper); its wait status."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


def serve():
    """Returns in the child of each case, once its input is there; the zygote itself never
    returns."""
    control = _socket.socket(fileno=os.dup(0))
    os.close(0)
    os.chdir('/')  # not in /tmp: the lane's /tmp is replaced for every case
    why = unsuitable()
    if why:
        control.send(b'N' + why.encode())
        os._exit(0)
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
            become_case((resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        except BaseException as e:
            os.write(1, f'a case cannot be set up here: {e}\n'.encode())
            os._exit(1)
        os._exit(0)
    if os.waitpid(probe, 0)[1] != 0:
        os._exit(1)
    # And its keeper can be made (else the judge starts the interpreter per case).
    try:
        end(next_namespace(namespace, last_pid))
    except BaseException as e:
        os.write(1, f'a case cannot be set up here: {e}\n'.encode())
        os._exit(1)
    gc.freeze()  # the zygote's objects stay shared: a case's collections do not copy them
    control.send(b'R')
    child = keeper = 0
    case = -1  # the case's pidfd
    while True:
        if not keeper:
            try:
                keeper = next_namespace(namespace, last_pid)
            except OSError:
                pass  # tried again for the case, which says why if it fails again
        elif case >= 0:
            if wait_for_judge(control, case, keeper):
                os.close(case)
                case = -1
        message, fds = receive(control)
        if not message:
            os._exit(0)
        if message[:1] == b'K':
            status = 0
            # The case first: its keeper's end waits until every other process of the
            # namespace is reaped.
            if child:
                status = end(child)
                child = 0
                end(keeper)
                keeper = 0
            if case >= 0:
                os.close(case)
                case = -1
            control.send(struct.pack('<i', status))
            continue
        if message[:1] != b'F' or len(fds) < 4:
            for fd in fds:
                os.close(fd)
            control.send(b'Ea malformed request')
            continue
        # Signed: the judge's RLIM_INFINITY (all ones) reads as -1, which is setrlimit's.
        cpu = struct.unpack('<qq', message[1:17])
        streams, start, groups = fds[:3], fds[3], fds[4:]
        pipes = []
        # (A lane has one case at a time: one the judge did not end is ended now.)
        if child:
            end(child)
            child = 0
            end(keeper)
            keeper = 0
        if case >= 0:
            os.close(case)
            case = -1
        try:
            if not keeper:
                keeper = next_namespace(namespace, last_pid)
            go_r, go_w = os.pipe()
            pipes += (go_r, go_w)
            ready_r, ready_w = os.pipe()
            pipes += (ready_r, ready_w)
            # Pid 2 of the keeper's namespace.
            pid = os.fork()
        except OSError as e:
            for fd in fds + pipes:
                os.close(fd)
            if keeper:
                end(keeper)
                keeper = 0
            control.send(b'E' + str(e).encode())
            continue
        if pid == 0:
            control.close()
            os.close(go_w)
            os.close(ready_r)
            # Nothing of its own runs until it is in the lane's groups.
            if os.read(go_r, 1) != b'1':
                os._exit(126)
            os.close(go_r)
            for fd in groups:
                os.close(fd)
            try:
                become_case(cpu)
                for target, fd in enumerate(streams):
                    os.dup2(fd, target)
                    os.close(fd)
                low, high = sorted((start, ready_w))
                os.closerange(3, low)
                os.closerange(low + 1, high)
                os.closerange(high + 1, 1 << 16)
            except BaseException as e:
                os.write(ready_w, f'E{e}'.encode())
                os._exit(126)
            os.write(ready_w, b'R')
            os.close(ready_w)
            # Let go by the judge once its input is there, before anything of the script runs:
            # time the script spent before it would be a head start that depends on how long
            # the case before took. (Not its standard input: a file is readable at once, and an
            # interactive pair's pipe stays empty while the script is to speak first.)
            said = os.read(start, 1)
            os.close(start)
            if said != b'1':
                os._exit(126)
            return
        os.close(go_r)
        os.close(ready_w)
        problem = None
        try:
            for fd in groups:
                os.write(fd, str(pid).encode())
            os.write(go_w, b'1')
            said = os.read(ready_r, 4096)
            if said != b'R':
                problem = said[1:].decode(errors='replace') or 'it ended'
        except OSError as e:
            problem = f'could not move the case into its groups: {e}'
        for fd in fds + [go_w, ready_r]:
            os.close(fd)
        if problem is not None:
            end(pid)
            end(keeper)
            keeper = 0
            control.send(b'E' + problem.encode())
            continue
        child = pid
        # Kept: the zygote watches it too (`wait_for_judge`).
        case = os.pidfd_open(pid)
        control.sendmsg([b'S'], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack('i', case))])


def receive(control):
    """A message of the judge's and the descriptors it carries."""
    message, ancillary, _, _ = control.recvmsg(64, _socket.CMSG_SPACE(8 * 4))
    fds = []
    for level, kind, data in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            fds += struct.unpack(f'{len(data) // 4}i', data[:len(data) // 4 * 4])
    return message, fds


def execute(code, namespace):
    """Runs a module's code: the script's, and the probes of `unsuitable`, at the same depth."""
    exec(code, namespace)


def available_depth():
    """How many calls deep a function called here can go before RecursionError."""
    depth = 0

    def down():
        nonlocal depth
        depth += 1
        down()

    try:
        down()
    except RecursionError:
        pass
    return depth


def recursion_count():
    """The thread state's count of the calls left before RecursionError (CPython keeps it next
    to the limit: found by setting a limit no other field holds), as a C int, or None."""
    limit = sys.getrecursionlimit()
    marker = 97531
    try:
        sys.setrecursionlimit(marker)
        get_state = ctypes.pythonapi.PyThreadState_Get
        get_state.restype = ctypes.c_void_p
        words = (ctypes.c_int * 32).from_address(get_state())
        found = [i for i in range(1, 32) if words[i] == marker and 0 < marker - words[i - 1] < 500]
        return ctypes.c_int.from_address(ctypes.addressof(words) + 4 * (found[0] - 1)) \
            if len(found) == 1 else None
    except Exception:
        return None
    finally:
        sys.setrecursionlimit(limit)


def unsuitable():
    """Why a case forked here would not be what `python3 SCRIPT` is, if it would not."""
    # A module of the script's folder named like one the zygote loaded would be imported by the
    # script's interpreter; here the loaded one would be found first.
    folder = os.path.dirname(script)
    ours = {name.partition('.')[0] for name in sys.modules} - STARTUP_MODULES
    for entry in os.listdir(folder):
        if entry.partition('.')[0] in ours:
            return f'{entry} in {folder} is named like a module the zygote loaded'
    # The script is compiled once, here (parsing runs nothing of it). A script that does not
    # compile, or warns as it compiles, is the interpreter's to report, in every case.
    if error is not None:
        return f'{script} does not compile'
    if compile_warnings:
        return f'{script} warns as it compiles'
    # A case is not charged for the compiling done here: only as much as an interpreter's own
    # start is left out (a table of a megabyte takes 170 ms and 115 MiB to compile: found by a
    # hostile review).
    seconds, kib = compile_cost
    if seconds > 0.02 or kib > 16 << 10:
        return f'{script} takes {seconds * 1000:.0f} ms and {kib >> 10} MiB to compile'
    # The script runs two calls below where the interpreter runs it (this module's level and
    # `exec`): the thread's recursion count is raised by the difference, so that the script can
    # go as deep as it could started afresh. Checked, not assumed.
    top = available_depth()
    probe = {'available_depth': available_depth}
    inside = compile('depth = available_depth()', script, 'exec')
    execute(inside, probe)
    count = recursion_count()
    if count is None:
        return 'the recursion count of this interpreter could not be found'
    count.value += top - probe['depth']
    execute(inside, probe)
    if probe['depth'] != top:
        return 'the recursion depth of a case could not be made the interpreter\'s'
    return None


def flush_standard_streams():
    """Flushes sys.stdout and sys.stderr as the interpreter does at exit; False if either
    fails (an error of stdout's is reported, "Exception ignored in: ...")."""
    ok = True
    for stream, report in ((sys.stdout, True), (sys.stderr, False)):
        if stream is None or getattr(stream, 'closed', False):
            continue
        try:
            stream.flush()
        except Exception as e:
            ok = False
            if report:
                try:
                    print(f'Exception ignored in: {stream!r}', file=sys.__stderr__)
                    import traceback
                    print(''.join(traceback.format_exception_only(e)), end='', file=sys.__stderr__)
                    sys.__stderr__.flush()
                except Exception:
                    pass
    return ok


def clear_module_dict(namespace):
    """What the interpreter does to a module that outlives its removal: `_name`s to None
    first, then every other name but `__builtins__`."""
    for key in list(namespace):
        if isinstance(key, str) and key[:1] == '_' and key[1:2] != '_' \
                and namespace.get(key) is not None:
            namespace[key] = None
    for key in list(namespace):
        if isinstance(key, str) and key != '__builtins__' and namespace.get(key) is not None:
            namespace[key] = None


# What the interpreter clears in sys when it ends (Python/pylifecycle.c,
# finalize_modules_delete_special).
SYS_DELETES = ('path', 'argv', 'ps1', 'ps2', 'last_exc', 'last_type', 'last_value',
               'last_traceback', 'path_hooks', 'path_importer_cache', 'meta_path',
               '__interactivehook__')
# Names `site` adds to builtins: not in the interpreter's copy of builtins, which it restores.
SITE_BUILTINS = ('exit', 'quit', 'copyright', 'credits', 'license', 'help', '_')
RUN_EXIT_FUNCTIONS = atexit._run_exitfuncs


def finish(code, sigint=False):
    """Ends the case as the interpreter ends (Py_FinalizeEx) as far as a program can see it:
    non-daemon threads joined, atexit handlers, the standard streams flushed (a failure makes the
    status 120), a collection, then the special names of sys and builtins cleared, the standard
    streams restored, `__main__` and the modules the script imported removed, the builtins
    restored (if the script added to them), a collection (`__main__`'s objects are finalized
    with its globals still there), what is left of those modules cleared, names the script
    added to sys cleared, a last collection, and the original streams flushed. Not the rest of
    the teardown: it would copy every page the case shares with the zygote (5 ms a case); so an
    object the script keeps in a module the zygote had loaded (other than sys and builtins), or
    under a name of builtins it replaced, is not finalized."""
    global main
    threading = MODULES.get('threading')
    if threading is not None:
        threading._shutdown()
    RUN_EXIT_FUNCTIONS()
    flushed = flush_standard_streams()
    gc.collect()
    # (Python code touches every object it looks at: each check below that spares a loop over a
    # table spares copying the pages of its objects.)
    names = builtins.__dict__
    builtins_changed = len(names) != len(BUILTINS)
    names['_'] = None
    system = sys.__dict__
    sys_grown = len(system) != len(SYS_NAMES)
    for name in SYS_DELETES:
        system[name] = None
    for name in ('stdin', 'stdout', 'stderr'):
        system[name] = system.get(f'__{name}__')
    modules = MODULES
    if len(modules) == len(ZYGOTE_MODULES):
        # It imported nothing the zygote had not: its `__main__` is all there is to remove.
        doomed = [('__main__', _weakref.ref(main))]
    else:
        doomed = [(name, _weakref.ref(module)) for name, module in list(modules.items())
                  if isinstance(module, Module) and ZYGOTE_MODULES.get(name) is not module]
    for name, _ in doomed:
        modules.pop(name, None)
    del main
    if builtins_changed:
        names.clear()
        names.update(BUILTINS)
    for name in SITE_BUILTINS:
        names.pop(name, None)
    gc.collect()
    cleared = False
    for _, alive in reversed(doomed):
        if alive() is not None:
            clear_module_dict(alive().__dict__)
            cleared = True
    del doomed
    if sys_grown:
        for name in [n for n in system if n not in SYS_NAMES and n not in SYS_DELETES]:
            system[name] = None
            cleared = True
    if cleared:
        gc.collect()
    # The original streams are finalized last (their buffers written; errors unreported).
    for stream in (sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:
            pass
    if sigint:
        # As the interpreter ends on an unhandled Ctrl-C: by SIGINT (else, should the signal
        # not end it, with 130).
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    os._exit(code if flushed else 120)


def exit_status(value):
    """The exit status of `sys.exit(value)`, as the interpreter computes it (a C long, then an
    int: 255 when it does not fit); any other value is printed as the interpreter prints it (to
    sys.stderr, else to the process's standard error; errors ignored)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xff if -(1 << 63) <= value < (1 << 63) else 255
    stream = sys.stderr
    try:
        if stream is None:
            os.write(2, str(value).encode(errors='backslashreplace'))
        else:
            stream.write(str(value))
    except Exception:
        pass
    try:
        stream.write('\n')
    except Exception:
        os.write(2, b'\n')
    return 1


def script_frames(trace):
    """A traceback from its first frame that is not the zygote's."""
    while trace is not None and trace.tb_frame.f_code in ZYGOTE_CODE:
        trace = trace.tb_next
    return trace


def report(kind, value, trace, status):
    """An exception the script did not catch, reported as the interpreter reports it: from
    the script's own frames (not the zygote's), with sys.last_* set first, through
    sys.excepthook (and if that fails, as the interpreter says it). The exit status: `status`,
    or the one of a SystemExit the hook raised."""
    trace = script_frames(trace)
    value.__traceback__ = trace
    sys.last_type, sys.last_value, sys.last_traceback = kind, value, trace
    if sys.version_info >= (3, 12):
        sys.last_exc = value
    hook = getattr(sys, 'excepthook', None)
    try:
        if hook is None:
            raise RuntimeError('lost sys.excepthook')
        hook(kind, value, trace)
    except SystemExit as e:
        return exit_status(e.code)
    except BaseException as e:
        try:
            sys.stderr.write('Error in sys.excepthook:\n')
            e.__traceback__ = script_frames(e.__traceback__)
            sys.__excepthook__(type(e), e, e.__traceback__)
            sys.stderr.write('\nOriginal exception was:\n')
            sys.__excepthook__(kind, value, trace)
        except Exception:
            pass
    return status


script = sys.argv[1]
# Compiled once, here: parsing runs nothing of it.
# What compiling it would print (with the filters its interpreter has) is recorded, and what it
# costs.
with warnings.catch_warnings(record=True) as compile_warnings:
    started, peak = time.process_time(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with open(script, 'rb') as f:
            code, error = compile(f.read(), script, 'exec', dont_inherit=True), None
    except Exception as e:
        code, error = None, e
    compile_cost = (time.process_time() - started,
                    resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak)
ZYGOTE_CODE = (sys._getframe().f_code, execute.__code__, report.__code__)
Module = type(sys)
# The interpreter's own module table (what `sys.modules` names unless a script rebinds it).
MODULES = sys.modules
ZYGOTE_MODULES = dict(MODULES)
BUILTINS = {k: v for k, v in builtins.__dict__.items()}
SYS_NAMES = frozenset(sys.__dict__)
serve()
# The child: `python3 SCRIPT` (its folder first on sys.path, argv as python sets it).
del serve, become_case, own_user_namespace
sys.argv = [script]
sys.path[0] = os.path.dirname(script)
main = Module('__main__')
# `__main__` as the interpreter makes it, names in its order.
main.__loader__ = sys.modules['_frozen_importlib_external'].SourceFileLoader('__main__', script)
main.__annotations__ = {}
main.__builtins__ = builtins
main.__file__ = script
main.__cached__ = None
sys.orig_argv = [sys.orig_argv[0], script]
sys.modules['__main__'] = main
# The interpreter reports an uncaught exception, and ends, outside any handler (inside one, an
# exception of sys.excepthook would have the script's as its context, and the script's frames,
# so its globals, would stay alive through the collections of `finish`).
status, uncaught = 0, None
try:
    execute(code, main.__dict__)
except SystemExit as e:
    status = exit_status(e.code)
except BaseException:
    uncaught = sys.exc_info()
interrupted = uncaught is not None and issubclass(uncaught[0], KeyboardInterrupt)
if uncaught is not None:
    status = report(*uncaught, 130 if interrupted else 1)
    del uncaught
finish(status, interrupted)
