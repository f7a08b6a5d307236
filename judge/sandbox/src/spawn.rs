//! Starting one submission process and collecting what it did.
//!
//! The submission is started the way `posix_spawn` does it: `clone(CLONE_VM | CLONE_VFORK)`
//! on a stack of its own (no page tables copied; the judge's thread sleeps until `exec`). With
//! a PID namespace (the judge runs as root) the clone also has `CLONE_NEWPID`, so the
//! submission is PID 1 of a namespace of its own: when it exits, or is killed, the kernel
//! kills every other process in that namespace, grandchildren that called `setsid` included,
//! before the exit completes, so once `wait4` has returned nothing of the run is left. Measured
//! here, the namespace adds ~30 µs to a spawn, where an extra process in between (a separate
//! init) would add ~350 µs.
//!
//! Being PID 1 has one visible effect: a signal the submission sends itself with the default
//! action is ignored, so `abort()` ends in glibc's fallback fault and is reported as SIGSEGV
//! rather than SIGABRT.
//!
//! A judge that is not root gets the same PID namespace inside a new user namespace, where the
//! kernel allows unprivileged ones. Without any namespace the submission is the judge's child,
//! in its own process group, killed as a group; a grandchild that calls `setsid` can then
//! escape (documented in the README).
//!
//! Everything in the child before `exec` uses raw system calls only: it shares the judge's
//! memory, and the judge is multi-threaded.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use super::landlock;

/// Everything the child needs, prepared before the fork.
pub struct Plan<'a> {
    /// Absolute path of the program to execute.
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    pub workdir: CString,
    /// In the read-only tree: the one folder left writable (the scratch directory: the
    /// working directory of a run, the whole box of a build).
    pub writable: CString,
    /// Run as this uid and gid (the judge must be root).
    pub uid: Option<u32>,
    /// With `uid`: the line `UID UID 1` for the run's own user namespace's uid and gid maps
    /// (see [`own_user_namespace`]).
    pub identity_map: Option<CString>,
    /// (resource, soft, hard).
    pub rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    pub landlock: Option<RawFd>,
    pub pid_namespace: bool,
    /// With the PID namespace, also a user namespace (how a judge that is not root may make
    /// one).
    pub user_namespace: bool,
    /// A new IPC namespace (and, without `private_root`, a new network namespace).
    pub ipc_namespace: bool,
    /// As root: the slot's namespaces to enter, and this run's own mounts.
    pub private_root: Option<PrivateRoot>,
    /// In a user namespace: a mount namespace where everything but `workdir` is read-only.
    pub read_only_tree: bool,
    /// In the read-only tree: paths to cover with an empty mount, and whether each is a
    /// directory (an empty tmpfs) or a file (`/dev/null`, unusable there: no devices).
    pub covered: &'a [(CString, bool)],
    /// cgroup files (`tasks` / `cgroup.procs`) the child writes `0` to, joining the groups.
    pub cgroup_join: Vec<RawFd>,
    /// Then a cgroup namespace of its own (rooted at the groups it just joined), so that
    /// `/proc/self/cgroup` shows `/` rather than the host's tree and the judge's group.
    pub cgroup_namespace: bool,
    /// Then a `/proc` of its own PID namespace over the one it sees (a fork server's case, in
    /// its lane's mount namespace: the server unmounts it after the case).
    pub mount_proc: bool,
    /// A pidfd of the judge: the child gives up if the judge is already gone (its death
    /// signal would come too late).
    pub judge_pidfd: RawFd,
}

/// What a run does to enter its slot's private root (see [`crate::rootfs`]).
pub struct PrivateRoot {
    pub mount_namespace: RawFd,
    pub network_namespace: RawFd,
    pub uts_namespace: RawFd,
    /// Options of this run's `/tmp` tmpfs (owner, size).
    pub tmp_options: CString,
}

/// What happened to the submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_kb: u64,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Killed because standard output exceeded the cap.
    pub output_exceeded: bool,
    /// Killed because the wall-clock limit passed.
    pub wall_exceeded: bool,
    /// Killed because the run's CPU time (all its processes) passed the limit.
    pub cpu_exceeded: bool,
    /// A process of the run was killed at the memory limit (its cgroup's).
    pub memory_exceeded: bool,
    /// Killed because the judge was interrupted.
    pub interrupted: bool,
}

/// Why the child could not start the program: (stage, errno), written before `_exit`.
pub(crate) const STAGE_NAMES: [&str; 15] = [
    "dup2",
    "chdir",
    "setrlimit",
    "landlock",
    "setgid/setuid",
    "execve",
    "joining the cgroups",
    "entering the slot's namespaces",
    "mounting /tmp and /proc",
    "parent-death signal",
    "making the tree read-only",
    "a session keyring of its own",
    "a user namespace of its own",
    "a cgroup namespace of its own",
    "stopping at exec (ptrace)",
];

pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just created.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

pub(crate) unsafe fn fail(error_fd: RawFd, stage: u8) -> ! {
    // SAFETY: raw calls on plain data.
    unsafe {
        let errno = *libc::__errno_location();
        let mut record = [0u8; 5];
        record[0] = stage;
        record[1..].copy_from_slice(&errno.to_ne_bytes());
        libc::write(error_fd, record.as_ptr().cast(), record.len());
        libc::_exit(127)
    }
}

/// The submission's side: set up and `execve`. Never returns. (`rlimits` apart from the plan:
/// the fork server's plan is made once, its limits come with each case.)
pub(crate) unsafe fn become_submission(
    plan: &Plan,
    rlimits: &[(libc::__rlimit_resource_t, u64, u64)],
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
    stop_at_exec: bool,
) -> ! {
    // SAFETY: raw system calls on descriptors and buffers prepared before the fork.
    unsafe {
        // A clean signal state for the submission: nothing blocked, and SIGPIPE back to its
        // default (Rust programs ignore it, and an ignored disposition survives exec).
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        for (target, fd) in stdio.iter().enumerate() {
            if libc::dup2(*fd, target as i32) < 0 {
                fail(error_fd, 0);
            }
        }
        // Every other inherited descriptor closes at exec (the error pipe and the ruleset
        // must stay open until then).
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
        libc::setpgid(0, 0);
        // Into the slot's groups first, so everything from here on is accounted there.
        for &fd in &plan.cgroup_join {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                fail(error_fd, 6);
            }
        }
        if plan.cgroup_namespace && libc::unshare(libc::CLONE_NEWCGROUP) != 0 {
            fail(error_fd, 13);
        }
        if plan.mount_proc
            && libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                std::ptr::null(),
            ) != 0
        {
            fail(error_fd, 8);
        }
        if let Some(root) = &plan.private_root {
            enter_private_root(root, error_fd);
        }
        if plan.read_only_tree {
            make_tree_read_only(&plan.writable, plan.covered, error_fd);
        }
        if libc::chdir(plan.workdir.as_ptr()) != 0 {
            fail(error_fd, 1);
        }
        for &(resource, soft, hard) in rlimits {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &limit) != 0 {
                fail(error_fd, 2);
            }
        }
        // A session keyring of the run's own (as root, made before the uid change, so it
        // counts against root's key quota): otherwise the run would possess the judge's
        // session keyring (a login's, with the invoking user's secrets) or, as root, the
        // leased uid's user-session keyring, which outlives it.
        if libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        ) < 0
            && *libc::__errno_location() != libc::ENOSYS
        {
            fail(error_fd, 11);
        }
        if let Some(uid) = plan.uid {
            // Raw system calls: glibc's setuid/setgid would try to change every thread of the
            // judge too (its "setxid" broadcast), which in this clone is wrong and unsafe.
            lock_uid_change();
            let groups =
                libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>());
            let gid = libc::syscall(libc::SYS_setresgid, uid, uid, uid);
            let uid = libc::syscall(libc::SYS_setresuid, uid, uid, uid);
            if groups != 0 || gid != 0 || uid != 0 {
                unlock_uid_change();
                fail(error_fd, 4);
            }
            let own = plan
                .identity_map
                .as_ref()
                .is_none_or(|map| own_user_namespace(map));
            unlock_uid_change();
            if !own {
                fail(error_fd, 12);
            }
        }
        // After the uid change and the user namespace (Landlock needs no privilege).
        if let Some(fd) = plan.landlock
            && !landlock::restrict_self(fd)
        {
            fail(error_fd, 3);
        }
        // After the uid change, which clears it: the submission is killed when the judge's
        // thread that started it dies, however it dies. The judge may already be gone (killed
        // between the clone and here): then stop.
        if libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        ) != 0
        {
            fail(error_fd, 9);
        }
        let mut judge = libc::pollfd {
            fd: plan.judge_pidfd,
            events: libc::POLLIN,
            revents: 0,
        };
        if plan.judge_pidfd >= 0 && libc::poll(&mut judge, 1, 0) != 0 {
            libc::_exit(127);
        }
        // A fork server's case is started before its input is written ("prestart"): it stops
        // at the end of its `exec`, before the program's first instruction, until the server
        // (its tracer from here) lets it go when the input is there. What a program did
        // before then (sleep, say) would run on a wall clock not yet started, for as long as
        // the case before it took.
        if stop_at_exec && libc::ptrace(libc::PTRACE_TRACEME, 0, 0, 0) != 0 {
            fail(error_fd, 14);
        }
        libc::execve(plan.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(error_fd, 5)
    }
}

const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

/// Held by a child from its uid change until its user namespace maps are written. The
/// children share the judge's memory (`CLONE_VM`), and "dumpable" is a flag of that memory: a
/// concurrent child's uid change clears it while another needs it set to write its own maps
/// (`EACCES`). A spin lock on shared memory (the children may only make raw system calls),
/// held for some microseconds; a holder killed inside it is waited for at most ~1 s.
static UID_CHANGE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn lock_uid_change() {
    use std::sync::atomic::Ordering;
    for _ in 0..1_000_000 {
        if UID_CHANGE
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
        {
            return;
        }
        // SAFETY: no arguments, no preconditions.
        unsafe { libc::sched_yield() };
    }
}

pub(crate) fn unlock_uid_change() {
    UID_CHANGE.store(false, std::sync::atomic::Ordering::Release);
}

/// Writes `contents` to the file `path`. For the child: raw system calls only.
unsafe fn write_file(path: &std::ffi::CStr, contents: &[u8]) -> bool {
    // SAFETY: raw system calls on a prepared string and a live slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let written = libc::write(fd, contents.as_ptr().cast(), contents.len());
        libc::close(fd);
        written == contents.len() as isize
    }
}

/// Moves the (already unprivileged) child into a user namespace of its own that maps only its
/// uid and gid. What the kernel keeps per uid *and user namespace* then starts empty and dies
/// with the run: the user keyring (`@u`), the user-session and persistent keyrings. Without
/// it, the leased uid's keyrings outlive every run, even the judge, and a run leaves a counter
/// there for the next (another contestant's, later). The namespace grants nothing outside
/// itself; `execve` of a uid that is not 0 in it drops the capabilities it holds inside.
/// For the child: raw system calls only; false on failure (errno set).
unsafe fn own_user_namespace(map: &std::ffi::CStr) -> bool {
    // SAFETY: raw system calls on prepared strings.
    unsafe {
        // The uid change made the process undumpable, which makes its /proc files root's:
        // dumpable again (as `execve` would make it anyway) so it may write its own maps.
        libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) == 0
            && libc::unshare(libc::CLONE_NEWUSER) == 0
            && write_file(c"/proc/self/setgroups", b"deny")
            && write_file(c"/proc/self/uid_map", map.to_bytes())
            && write_file(c"/proc/self/gid_map", map.to_bytes())
    }
}

/// Enters the slot's network and mount namespaces, then makes a copy of the mount namespace of
/// its own with a fresh `/tmp` and a `/proc` of the run's PID namespace. For the child: raw
/// system calls only.
unsafe fn enter_private_root(root: &PrivateRoot, error_fd: RawFd) {
    const NONE: *const libc::c_char = std::ptr::null();
    // SAFETY: raw system calls on descriptors and strings prepared before the fork.
    unsafe {
        if libc::setns(root.network_namespace, libc::CLONE_NEWNET) != 0
            || libc::setns(root.uts_namespace, libc::CLONE_NEWUTS) != 0
            || libc::setns(root.mount_namespace, libc::CLONE_NEWNS) != 0
            || libc::unshare(libc::CLONE_NEWNS) != 0
        {
            fail(error_fd, 7);
        }
        if libc::mount(
            c"tmp".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            root.tmp_options.as_ptr().cast(),
        ) != 0
            || libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                NONE.cast(),
            ) != 0
        {
            fail(error_fd, 8);
        }
    }
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 1;
const AT_RECURSIVE: libc::c_uint = 0x8000;

/// In the run's own mount namespace (inside its user namespace): every mount read-only,
/// except a bind of `workdir` onto itself. For the child: raw system calls only.
unsafe fn make_tree_read_only(
    workdir: &std::ffi::CStr,
    covered: &[(CString, bool)],
    error_fd: RawFd,
) {
    let attr = |set, clear| MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    let read_only = attr(MOUNT_ATTR_RDONLY, 0);
    let writable = attr(0, MOUNT_ATTR_RDONLY);
    // SAFETY: raw system calls on prepared strings and local structures.
    unsafe {
        for (path, is_dir) in covered {
            let covered_ok = if *is_dir {
                libc::mount(
                    c"hidden".as_ptr(),
                    path.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    c"size=4k,mode=0555".as_ptr().cast(),
                ) == 0
            } else {
                libc::mount(
                    c"/dev/null".as_ptr(),
                    path.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND,
                    std::ptr::null(),
                ) == 0
            };
            if !covered_ok {
                fail(error_fd, 10);
            }
        }
        let ok = libc::mount(
            workdir.as_ptr(),
            workdir.as_ptr(),
            std::ptr::null(),
            libc::MS_BIND,
            std::ptr::null(),
        ) == 0
            && libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                c"/".as_ptr(),
                AT_RECURSIVE,
                &read_only as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            ) == 0
            && libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                workdir.as_ptr(),
                0u32,
                &writable as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            ) == 0;
        if !ok {
            fail(error_fd, 10);
        }
    }
}

/// What the vfork-style child needs; lives on the parent's stack while the parent waits.
struct ChildArgs<'a> {
    plan: &'a Plan<'a>,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
}

extern "C" fn child_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` points at the ChildArgs of `spawn_submission`, alive until exec or exit
    // (the parent is suspended until then).
    unsafe {
        let a = &*(arg as *const ChildArgs<'_>);
        become_submission(
            a.plan,
            &a.plan.rlimits,
            a.argv,
            a.envp,
            a.stdio,
            a.error_fd,
            false,
        )
    }
}

/// Starts the submission the way `posix_spawn` does: `clone(CLONE_VM | CLONE_VFORK)` on a
/// stack of its own, so no page tables are copied and the caller sleeps until `exec` (or
/// `_exit`). Returns the pid, or -1.
unsafe fn spawn_submission(
    plan: &Plan,
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
    stack: &mut [u8],
) -> libc::pid_t {
    let mut namespace = match (plan.pid_namespace, plan.user_namespace) {
        (false, _) => 0,
        (true, false) => libc::CLONE_NEWPID,
        (true, true) => libc::CLONE_NEWPID | libc::CLONE_NEWUSER,
    };
    if plan.ipc_namespace {
        namespace |= libc::CLONE_NEWIPC;
        if plan.private_root.is_none() {
            // Without the slot's network namespace to enter, a new (empty) one.
            namespace |= libc::CLONE_NEWNET;
        }
    }
    if plan.read_only_tree {
        namespace |= libc::CLONE_NEWNS;
    }
    let args = ChildArgs {
        plan,
        argv,
        envp,
        stdio,
        error_fd,
    };
    // The stack grows down: start at its (16-byte aligned) top.
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // SAFETY: a private stack, a callback that only makes raw system calls, and arguments
    // that outlive the child's use of them.
    unsafe {
        libc::clone(
            child_main,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | namespace | libc::SIGCHLD,
            (&args as *const ChildArgs<'_>).cast_mut().cast(),
        )
    }
}

/// Can this process start a program in a new user and PID namespace (unprivileged user
/// namespaces enabled), and with `full`, also in new IPC, network and mount namespaces with
/// every mount read-only (what a run without root gets)? Tried once with `/bin/true`.
pub fn user_namespaces_work(full: bool) -> bool {
    extern "C" fn run_true(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: raw system calls with static strings and a local structure; _exit on
        // failure.
        unsafe {
            if !arg.is_null() {
                let read_only = MountAttr {
                    attr_set: MOUNT_ATTR_RDONLY,
                    attr_clr: 0,
                    propagation: 0,
                    userns_fd: 0,
                };
                if libc::syscall(
                    libc::SYS_mount_setattr,
                    libc::AT_FDCWD,
                    c"/".as_ptr(),
                    AT_RECURSIVE,
                    &read_only as *const MountAttr,
                    std::mem::size_of::<MountAttr>(),
                ) != 0
                {
                    libc::_exit(126);
                }
            }
            let path = c"/bin/true".as_ptr();
            let argv = [path, std::ptr::null()];
            let envp = [std::ptr::null::<libc::c_char>()];
            libc::execve(path, argv.as_ptr(), envp.as_ptr());
            libc::_exit(127)
        }
    }
    let mut stack = vec![0u8; 16 * 1024];
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    let mut flags = libc::CLONE_VM
        | libc::CLONE_VFORK
        | libc::CLONE_NEWUSER
        | libc::CLONE_NEWPID
        | libc::SIGCHLD;
    if full {
        flags |= libc::CLONE_NEWIPC | libc::CLONE_NEWNET | libc::CLONE_NEWNS;
    }
    // Any non-null pointer asks the child for the read-only remount.
    let marker = if full {
        top as *mut libc::c_void
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: a private stack and a callback that only makes raw calls, execs or exits.
    let pid = unsafe { libc::clone(run_true, top as *mut libc::c_void, flags, marker) };
    if pid < 0 {
        return false;
    }
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

/// As root: can a process that dropped to `uid` make a user namespace of its own (what
/// [`own_user_namespace`] does in every run)? Distributions may forbid unprivileged ones.
pub fn unprivileged_user_namespaces_work(uid: u32) -> bool {
    extern "C" fn try_it(arg: *mut libc::c_void) -> libc::c_int {
        let uid = arg as usize as libc::c_long;
        // SAFETY: raw system calls on integers; _exit either way.
        unsafe {
            // Its uid change would clear the shared "dumpable" flag under a starting run.
            lock_uid_change();
            let dropped = libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<u32>()) == 0
                && libc::syscall(libc::SYS_setresgid, uid, uid, uid) == 0
                && libc::syscall(libc::SYS_setresuid, uid, uid, uid) == 0;
            unlock_uid_change();
            let ok = dropped && libc::unshare(libc::CLONE_NEWUSER) == 0;
            libc::_exit(if ok { 0 } else { 1 })
        }
    }
    let mut stack = vec![0u8; 16 * 1024];
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // SAFETY: a private stack and a callback that only makes raw calls and exits.
    let pid = unsafe {
        libc::clone(
            try_it,
            top as *mut libc::c_void,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            uid as usize as *mut libc::c_void,
        )
    };
    if pid < 0 {
        return false;
    }
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

/// Limits the parent enforces while the child runs.
pub struct Watch<'a> {
    pub stdin: &'a [u8],
    pub wall: Duration,
    pub output_cap: usize,
    pub stderr_cap: usize,
    pub interrupted: &'a std::sync::atomic::AtomicBool,
    /// The CPU-time limit, enforced while the run goes on when `cpu_usage` can tell.
    pub cpu_limit: Duration,
    /// CPU time of everything the run started so far (its cgroup), if known.
    pub cpu_usage: Option<&'a (dyn Fn() -> Option<Duration> + Sync)>,
    /// How long the run's processes were all kept waiting for a CPU since `adopt` was first
    /// called (its cgroup's pressure stall information), if known: given back on the wall
    /// clock.
    pub waited: Option<&'a (dyn Fn() -> Option<Duration> + Sync)>,
    /// Called once the run has lasted [`SAMPLE_WAITS`], and at every sample after: starts
    /// measuring its pressure.
    pub adopt: Option<&'a (dyn Fn() + Sync)>,
    /// The processes of the run (its cgroup's), if known; else only the child is looked at.
    /// Their waiting times (`/proc/PID/schedstat`) are summed too, as a second measure.
    pub tasks: Option<&'a (dyn Fn() -> Vec<libc::pid_t> + Sync)>,
    /// Stop the run when standard output passes `output_cap` (else the rest is drained).
    pub stop_at_output_cap: bool,
    /// Called once the run has its input (the first of it written, or none to write): what the
    /// judge does then (start the next case of a fork server) overlaps the run.
    pub after_input: Option<&'a (dyn Fn() + Sync)>,
}

/// How often the run's tasks' waiting times are sampled.
const SAMPLE_WAITS: Duration = Duration::from_millis(50);

/// Time the run's tasks spent runnable but waiting for a CPU, from `/proc/PID/schedstat`,
/// summed over every task ever seen (exited ones with their last sample, taken every
/// [`SAMPLE_WAITS`]).
#[derive(Default)]
struct QueueWaits {
    /// pid → last `run_delay` seen, ns.
    last: std::collections::HashMap<libc::pid_t, u64>,
    /// Waits of tasks whose pid was reused by a later task of the run.
    gone: u64,
}

impl QueueWaits {
    fn sample(&mut self, tasks: &[libc::pid_t]) {
        for &pid in tasks {
            let Some(delay) = std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
                .ok()
                .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
            else {
                continue;
            };
            let last = self.last.entry(pid).or_insert(0);
            if delay < *last {
                // A new task with a pid the run used before.
                self.gone += *last;
            }
            *last = delay;
        }
    }

    fn total(&self) -> Duration {
        Duration::from_nanos(self.gone + self.last.values().sum::<u64>())
    }
}

pub(crate) fn decode(status: i32) -> Exit {
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

/// Runs `plan` to the end under `watch`.
pub fn run(plan: &Plan, watch: &Watch<'_>) -> io::Result<Finished> {
    let (in_r, in_w) = pipe()?;
    let (out_r, out_w) = pipe()?;
    let (err_r, err_w) = pipe()?;
    let (error_r, error_w) = pipe()?;
    let argv: Vec<*const libc::c_char> = plan
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    let envp: Vec<*const libc::c_char> = plan
        .envp
        .iter()
        .map(|a| a.as_ptr())
        .chain([std::ptr::null()])
        .collect();
    let stdio = [in_r.as_raw_fd(), out_w.as_raw_fd(), err_w.as_raw_fd()];
    if let Some(uid) = plan.uid {
        // The pipes belong to the run's user, as a shell's pipes belong to its user: opening
        // `/dev/stdin` (`/proc/self/fd/0`) reopens the pipe, which checks its owner.
        for fd in stdio {
            // SAFETY: changing the owner of a pipe we just made.
            if unsafe { libc::fchown(fd, uid, uid) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    // The child's stack until exec: it only makes system calls.
    let mut stack = vec![0u8; 32 * 1024];
    let started = Instant::now();
    // SAFETY: the child runs only raw system calls on data prepared above, then execs or exits.
    let pid =
        unsafe { spawn_submission(plan, &argv, &envp, stdio, error_w.as_raw_fd(), &mut stack) };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    drop((in_r, out_w, err_w, error_w));
    // SAFETY: pidfd_open on our own child; it becomes readable when the child exits.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let result = if pidfd < 0 {
        Err(io::Error::last_os_error())
    } else {
        // SAFETY: just created.
        let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) };
        supervise(&pidfd, pid, in_w, out_r, err_r, watch, started)
    };
    // Whatever happened, nothing of this run may survive it.
    kill_all(pid, plan.pid_namespace);
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: reaping our own child. With a namespace, its PID 1 has finished exiting only
    // once every other process of the namespace is gone.
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let mut finished = result?;
    finished.exit = decode(status);
    let micros = |t: libc::timeval| (t.tv_sec * 1_000_000 + t.tv_usec).max(0) as u64;
    finished.cpu = Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime));
    finished.peak_kb = usage.ru_maxrss.max(0) as u64;
    let mut error = [0u8; 5];
    // SAFETY: reading into a local buffer.
    let n = unsafe { libc::read(error_r.as_raw_fd(), error.as_mut_ptr().cast(), error.len()) };
    if n == 5 {
        let errno = i32::from_ne_bytes([error[1], error[2], error[3], error[4]]);
        return Err(start_error(error[0], errno));
    }
    Ok(finished)
}

/// The error of a child that could not start the program: the stage it failed at and why.
pub(crate) fn start_error(stage: u8, errno: i32) -> io::Error {
    let stage = STAGE_NAMES.get(stage as usize).copied().unwrap_or("start");
    io::Error::other(format!(
        "could not start the submission ({stage}): {}",
        io::Error::from_raw_os_error(errno)
    ))
}

fn kill_all(pid: libc::pid_t, namespace: bool) {
    // SAFETY: signals to our own child (and, without a namespace, its process group).
    unsafe {
        if namespace {
            libc::kill(pid, libc::SIGKILL);
        } else {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Feeds standard input, collects standard output and error, and watches the clock, the
/// output cap and the interrupt flag until the submission has exited and its pipes are closed.
/// `pidfd` becomes readable when the submission's top process exits; `pid` (in this process's
/// PID namespace, 0 if unknown) is whose waits are sampled when `watch` has no task list.
pub(crate) fn supervise(
    pidfd: &OwnedFd,
    pid: libc::pid_t,
    stdin: OwnedFd,
    stdout: OwnedFd,
    stderr: OwnedFd,
    watch: &Watch<'_>,
    started: Instant,
) -> io::Result<Finished> {
    use std::sync::atomic::Ordering;
    for fd in [&stdin, &stdout, &stderr] {
        // SAFETY: setting O_NONBLOCK on the judge's ends of the pipes.
        unsafe {
            let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
    let mut stdin = (!watch.stdin.is_empty()).then_some(stdin);
    let mut written = 0usize;
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let (mut out_open, mut err_open, mut exited) = (true, true, false);
    let mut finished = Finished {
        exit: Exit::Code(0),
        cpu: Duration::ZERO,
        wall: Duration::ZERO,
        peak_kb: 0,
        stdout: Vec::new(),
        stderr: Vec::new(),
        output_exceeded: false,
        wall_exceeded: false,
        cpu_exceeded: false,
        memory_exceeded: false,
        interrupted: false,
    };
    // When to look at the CPU time next (nothing of the run has run before its input).
    let mut cpu_look_at = started + Duration::from_millis(2);
    let mut after_input = watch.after_input;
    // Asked once: it reads the cgroup's CPU quota files, every time.
    static CORES: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let cores =
        *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()) as u32);
    let mut buffer = vec![0u8; 16 * 1024];
    let mut deadline = started + watch.wall;
    let mut queue = QueueWaits::default();
    // A run shorter than this is never near its wall clock: nothing to sample.
    let mut sample_at = started + SAMPLE_WAITS;
    // After the exit, how long pipes held open by leftovers (without a namespace) may delay us.
    let mut grace: Option<Instant> = None;
    loop {
        if exited && !out_open && !err_open {
            break;
        }
        let now = Instant::now();
        if !exited && now >= sample_at {
            sample_at = now + SAMPLE_WAITS;
            if let Some(adopt) = watch.adopt {
                adopt();
            }
            queue.sample(&watch.tasks.map_or_else(|| vec![pid], |t| t()));
        }
        if now >= deadline && !exited {
            // The wall clock is there for runs that sleep or block. A run that was kept
            // waiting for a CPU by others' load gets that time back (up to 10 x the wall
            // limit in all), for every process it ran, exited ones included: the verdict
            // must not depend on the machine's load. Two measures, each short of the truth,
            // the larger stands: the group's pressure (exact for exited processes, but
            // averaged over the CPUs the run's tasks moved between, so short of the wait
            // when they move) and the sum of every task's own wait (exact per task, but an
            // exited task's last ≤ 50 ms are not seen). Both start after the run's first
            // SAMPLE_WAITS.
            queue.sample(&watch.tasks.map_or_else(|| vec![pid], |t| t()));
            let pressure = watch.waited.and_then(|w| w()).unwrap_or(Duration::ZERO);
            let waited = pressure.max(queue.total());
            let elapsed = now.duration_since(started);
            if elapsed.saturating_sub(waited) < watch.wall && elapsed < watch.wall * 10 {
                deadline = started + watch.wall + waited.max(Duration::from_millis(10));
                continue;
            }
            finished.wall_exceeded = true;
            break;
        }
        if grace.is_some_and(|g| now >= g) {
            break;
        }
        if watch.interrupted.load(Ordering::Relaxed) {
            finished.interrupted = true;
            break;
        }
        let mut fds = [libc::pollfd {
            fd: -1,
            events: 0,
            revents: 0,
        }; 4];
        if let Some(fd) = &stdin {
            fds[0] = libc::pollfd {
                fd: fd.as_raw_fd(),
                events: libc::POLLOUT,
                revents: 0,
            };
        }
        if out_open {
            fds[1] = libc::pollfd {
                fd: stdout.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        if err_open {
            fds[2] = libc::pollfd {
                fd: stderr.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        if !exited {
            fds[3] = libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
        }
        // With a CPU gauge, look again before the run could have used what it has left,
        // however many cores it keeps busy: a CPU-bound run is stopped just past its limit.
        let mut next_look = now + Duration::from_millis(100);
        if let (Some(usage), false) = (watch.cpu_usage, exited) {
            if now >= cpu_look_at {
                cpu_look_at = now + Duration::from_millis(100);
                if let Some(used) = usage() {
                    if used > watch.cpu_limit {
                        finished.cpu_exceeded = true;
                        break;
                    }
                    let left = (watch.cpu_limit - used) / cores;
                    cpu_look_at =
                        now + left.clamp(Duration::from_millis(2), Duration::from_millis(100));
                }
            }
            next_look = cpu_look_at;
        }
        if !exited {
            next_look = next_look.min(sample_at);
        }
        let until = grace.unwrap_or(deadline).min(next_look);
        let timeout = until
            .saturating_duration_since(now)
            .as_millis()
            .clamp(1, 100) as i32;
        // SAFETY: a valid array of pollfd (negative fds are ignored by poll).
        unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if fds[0].revents != 0 {
            let rest = &watch.stdin[written..];
            // SAFETY: writing from a live slice.
            let n = unsafe { libc::write(fds[0].fd, rest.as_ptr().cast(), rest.len()) };
            if n > 0 {
                written += n as usize;
            }
            // Done, or the submission closed its input: either way stop writing.
            if written == watch.stdin.len()
                || n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::WouldBlock
            {
                stdin = None;
            }
        }
        if let Some(hook) = after_input.take_if(|_| written > 0 || stdin.is_none()) {
            hook();
        }
        for (k, open) in [(1, &mut out_open), (2, &mut err_open)] {
            if fds[k].revents == 0 {
                continue;
            }
            // SAFETY: reading into our buffer.
            let n = unsafe { libc::read(fds[k].fd, buffer.as_mut_ptr().cast(), buffer.len()) };
            if n == 0 || n < 0 && io::Error::last_os_error().kind() != io::ErrorKind::WouldBlock {
                *open = false;
            } else if n > 0 {
                let chunk = &buffer[..n as usize];
                if k == 1 {
                    if out.len() <= watch.output_cap {
                        out.extend_from_slice(chunk);
                    }
                    if out.len() > watch.output_cap {
                        out.truncate(watch.output_cap);
                        finished.output_exceeded = true;
                    }
                } else if err.len() < watch.stderr_cap {
                    // Keep the start of standard error; drain the rest.
                    let keep = (watch.stderr_cap - err.len()).min(chunk.len());
                    err.extend_from_slice(&chunk[..keep]);
                }
            }
        }
        if fds[3].revents != 0 {
            exited = true;
            grace = Some(Instant::now() + Duration::from_secs(2));
        }
        if finished.output_exceeded && watch.stop_at_output_cap {
            break;
        }
    }
    finished.wall = started.elapsed();
    finished.stdout = out;
    finished.stderr = err;
    Ok(finished)
}
