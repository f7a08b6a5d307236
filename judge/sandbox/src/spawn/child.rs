//! The child's side of a spawn, between the `clone` and the `execve`: it shares the judge's
//! memory (`CLONE_VM`), and the judge is multi-threaded, so only raw system calls on data
//! prepared before the clone run here, and nothing allocates.

use std::ffi::CString;
use std::os::fd::RawFd;

use crate::error::ChildStage;

use super::{Plan, PrivateRoot};

/// Ends the child that could not start its program: the stage and errno go to `error_fd`
/// (the judge, or the server, reads them there once the child is gone), then `_exit(127)`.
///
/// # Safety
///
/// For a [`crate::clone::clone`] child only: it ends the calling process with `_exit` (no exit
/// handlers: in a child sharing the judge's memory they would be the judge's). `error_fd` must
/// be the write end of its error pipe.
pub(crate) unsafe fn fail(error_fd: RawFd, stage: ChildStage) -> ! {
    // SAFETY: raw calls on plain data.
    unsafe {
        let errno = *libc::__errno_location();
        let mut record = [0u8; 5];
        record[0] = stage as u8;
        record[1..].copy_from_slice(&errno.to_ne_bytes());
        libc::write(error_fd, record.as_ptr().cast(), record.len());
        libc::_exit(127)
    }
}

/// How the program [`become_submission`] execs starts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// At once, under the system-call filter.
    Run,
    /// Stopped at the end of its `exec` as its parent's tracee (a fork server's case), under
    /// the filter.
    StoppedAtExec,
    /// At once, without the filter: an interpreter's zygote, which makes a user namespace and
    /// a keyring for each of its cases, and installs the filter in each itself.
    Zygote,
}

/// The submission's side: set up and `execve`. Never returns. (`rlimits` apart from the plan:
/// the fork server's plan is made once, its limits come with each case.)
///
/// # Safety
///
/// Only in a [`crate::clone::clone`] child, once, before anything else: it changes the calling
/// process's descriptors, signal state, groups, namespaces, mounts, uid and limits, then execs
/// or ends. The plan's descriptors (cgroup files, Landlock ruleset, namespaces, judge's pidfd)
/// and `stdio` must be open in this process, `error_fd` the write end of the error pipe, and
/// `argv` and `envp` null-terminated arrays of pointers to NUL-terminated strings, alive until
/// the `execve`.
pub(crate) unsafe fn become_submission(
    plan: &Plan,
    rlimits: &[(libc::__rlimit_resource_t, u64, u64)],
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
    start: Start,
) -> ! {
    let stop_at_exec = start == Start::StoppedAtExec;
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
                fail(error_fd, ChildStage::Dup2);
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
                fail(error_fd, ChildStage::JoinCgroups);
            }
        }
        if plan.cgroup_namespace && libc::unshare(libc::CLONE_NEWCGROUP) != 0 {
            fail(error_fd, ChildStage::CgroupNamespace);
        }
        // Showing only the processes it could trace: its own, not its namespace's keeper
        // (pid 1, the server's or the judge's, whose command line and mounts are not its to
        // read).
        if plan.mount_proc
            && libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                c"hidepid=invisible".as_ptr().cast(),
            ) != 0
        {
            fail(error_fd, ChildStage::MountTmpProc);
        }
        if let Some(root) = &plan.private_root {
            enter_private_root(root, error_fd);
        }
        if plan.read_only_tree {
            make_tree_read_only(&plan.writable, plan.covered, error_fd);
        }
        if libc::chdir(plan.workdir.as_ptr()) != 0 {
            fail(error_fd, ChildStage::Chdir);
        }
        for &(resource, soft, hard) in rlimits {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &limit) != 0 {
                fail(error_fd, ChildStage::Setrlimit);
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
            fail(error_fd, ChildStage::SessionKeyring);
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
                fail(error_fd, ChildStage::SetUid);
            }
            let own = plan
                .identity_map
                .as_ref()
                .is_none_or(|map| own_user_namespace(map));
            unlock_uid_change();
            if !own {
                fail(error_fd, ChildStage::OwnUserNamespace);
            }
        }
        // After the uid change and the user namespace (Landlock needs no privilege).
        if let Some(fd) = plan.landlock
            && !restrict_self(fd)
        {
            fail(error_fd, ChildStage::Landlock);
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
            fail(error_fd, ChildStage::ParentDeathSignal);
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
            fail(error_fd, ChildStage::StopAtExec);
        }
        // Last, after everything above that the filter denies (the keyring, the user
        // namespace, `/proc`'s mount, `PTRACE_TRACEME`): from here on the program cannot make
        // those calls itself.
        if start != Start::Zygote && !install_filter() {
            fail(error_fd, ChildStage::Seccomp);
        }
        libc::execve(plan.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
        fail(error_fd, ChildStage::Exec)
    }
}

/// Applies the Landlock ruleset `fd` (made by [`crate::landlock::Ruleset`]) to the calling
/// thread, with no new privileges from here on. False on failure (errno set).
///
/// # Safety
///
/// `fd` must be a Landlock ruleset descriptor; for the child (raw system calls only).
unsafe fn restrict_self(fd: RawFd) -> bool {
    // SAFETY: plain system calls with integer arguments.
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) == 0
    }
}

/// Installs the system-call filter ([`crate::seccomp`]) on the calling thread, with no new
/// privileges from here on. False on failure (errno set); true, doing nothing, where there is
/// no filter.
///
/// # Safety
///
/// Raw system calls on a constant. Afterwards the calling process can no longer make the calls
/// the filter denies.
unsafe fn install_filter() -> bool {
    let Some(program) = crate::seccomp::FILTER else {
        return true;
    };
    let program = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_ptr().cast_mut(),
    };
    // SAFETY: `program` points to a constant, valid filter for the duration of the call.
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
            && libc::syscall(
                libc::SYS_seccomp,
                libc::SECCOMP_SET_MODE_FILTER,
                0u32,
                &program as *const libc::sock_fprog,
            ) == 0
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
fn write_file(path: &std::ffi::CStr, contents: &[u8]) -> bool {
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
///
/// # Safety
///
/// For a [`crate::clone::clone`] child only, after its uid change and holding the uid-change
/// lock: it makes the calling process dumpable and moves it into a new user namespace.
pub(super) unsafe fn own_user_namespace(map: &std::ffi::CStr) -> bool {
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
///
/// # Safety
///
/// For a [`crate::clone::clone`] child only (it moves the calling process into the slot's
/// namespaces, or ends it with [`fail`]): `root`'s descriptors must be open in this process,
/// `error_fd` the write end of the error pipe.
unsafe fn enter_private_root(root: &PrivateRoot, error_fd: RawFd) {
    // SAFETY: raw system calls on descriptors and strings prepared before the fork.
    unsafe {
        if libc::setns(root.network_namespace, libc::CLONE_NEWNET) != 0
            // A socket of a run before, which only the kernel's collector frees (one in flight
            // in an SCM_RIGHTS cycle), may hold an abstract name in the slot's namespace: this
            // run then gets a namespace of its own (issue 33.4; read through the judge's
            // `/proc`, before the slot's mounts).
            || sockets_in_use() != Some(0) && libc::unshare(libc::CLONE_NEWNET) != 0
            || libc::setns(root.uts_namespace, libc::CLONE_NEWUTS) != 0
            || libc::setns(root.mount_namespace, libc::CLONE_NEWNS) != 0
            || libc::unshare(libc::CLONE_NEWNS) != 0
        {
            fail(error_fd, ChildStage::EnterNamespaces);
        }
        if libc::mount(
            c"tmp".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            root.tmp_options.as_ptr().cast(),
        ) != 0
            // Showing only the processes it could trace (not its namespace's keeper, pid 1).
            || libc::mount(
                c"proc".as_ptr(),
                c"/proc".as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                c"hidepid=invisible".as_ptr().cast(),
            ) != 0
        {
            fail(error_fd, ChildStage::MountTmpProc);
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
///
/// # Safety
///
/// For a [`crate::clone::clone`] child only, in a mount namespace of its own (it mounts over
/// `covered` and changes every mount, or ends the process with [`fail`]); `error_fd` must be
/// the write end of the error pipe.
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
                fail(error_fd, ChildStage::ReadOnlyTree);
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
            fail(error_fd, ChildStage::ReadOnlyTree);
        }
    }
}

/// What the vfork-style child needs; lives on the parent's stack while the parent waits.
pub(super) struct ChildArgs<'a> {
    pub(super) plan: &'a Plan<'a>,
    pub(super) argv: &'a [*const libc::c_char],
    pub(super) envp: &'a [*const libc::c_char],
    pub(super) stdio: [RawFd; 3],
    pub(super) error_fd: RawFd,
}

/// The child's side of [`super::spawn_submission`]: set up and exec the plan's program.
///
/// # Safety
///
/// As [`become_submission`]'s: called only as a [`crate::clone::clone`] child.
pub(super) unsafe fn child_main(a: &mut ChildArgs<'_>) -> libc::c_int {
    // SAFETY: the ChildArgs of `spawn_submission`, alive until exec or exit (the parent is
    // suspended until then).
    unsafe {
        become_submission(
            a.plan,
            &a.plan.rlimits,
            a.argv,
            a.envp,
            a.stdio,
            a.error_fd,
            Start::Run,
        )
    }
}

/// The child of [`super::probe::user_namespaces_work`], in new user and PID namespaces (and,
/// with `read_only`, new IPC, network and mount namespaces): with `read_only`, every mount made
/// read-only, then `/bin/true` executed. Its exit status says how far it got.
///
/// # Safety
///
/// Called only as a [`crate::clone::clone`] child.
pub(super) unsafe fn probe_user_namespaces(read_only: &mut bool) -> libc::c_int {
    // SAFETY: raw system calls with static strings and a local structure; _exit on failure.
    unsafe {
        if *read_only {
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

/// The child of [`super::probe::unprivileged_user_namespaces_work`]: drops to `uid`, then
/// tries to make a user namespace of its own. Exits 0 if it could.
///
/// # Safety
///
/// Called only as a [`crate::clone::clone`] child (of a judge that is root).
pub(super) unsafe fn probe_unprivileged_user_namespace(uid: &mut u32) -> libc::c_int {
    let uid = libc::c_long::from(*uid);
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

/// The sockets of the calling process's network namespace (`sockets: used N`, the first line
/// of `/proc/self/net/sockstat`, which counts per namespace), if it can be read. At rest a
/// slot's or lane's namespace holds none: one counted there outlived the run that made it.
/// Raw calls into a local buffer: for a child after a fork, and the fork server.
pub(crate) fn sockets_in_use() -> Option<u64> {
    // SAFETY: raw system calls into a local buffer.
    unsafe {
        let fd = libc::open(
            c"/proc/self/net/sockstat".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if fd < 0 {
            return None;
        }
        let mut buffer = [0u8; 64];
        let n = libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len());
        libc::close(fd);
        let line = buffer
            .get(..n.max(0) as usize)?
            .strip_prefix(b"sockets: used ")?;
        let mut value = 0u64;
        let mut digits = 0;
        for &b in line {
            if !b.is_ascii_digit() {
                break;
            }
            value = value * 10 + u64::from(b - b'0');
            digits += 1;
        }
        (digits > 0).then_some(value)
    }
}
