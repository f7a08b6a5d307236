//! Starting one submission process and collecting what it did.
//!
//! The submission is started the way `posix_spawn` does it: `clone(CLONE_VM | CLONE_VFORK)`
//! on a stack of its own (no page tables copied; the judge's thread sleeps until `exec`). With
//! a PID namespace (the judge runs as root) the clone also has `CLONE_NEWPID`, so the
//! submission is in a namespace of its own, as its pid 2: the namespace's init (pid 1) is a
//! keeper ([`crate::keeper`]: a clone sharing the judge's memory, which only waits), because the
//! kernel does not let a namespace's init die of a signal it sends itself (`raise(SIGTERM)`,
//! `abort()`). The submission is still the judge's own child (`wait4` gives its true status).
//! When it exits the keeper exits, and the kernel kills every other process in the namespace,
//! grandchildren that called `setsid` included; the judge reaps the submission, then kills and
//! reaps the keeper, whose exit completes only once nothing else of the namespace is left.
//!
//! A judge that is not root gets a PID namespace inside a new user namespace, where the kernel
//! allows unprivileged ones; there the submission is still its namespace's init (a process
//! that is not root cannot move its children into a namespace it made, `setns`), so a signal
//! it sends itself with the default action is ignored, and `abort()` ends in glibc's fallback
//! fault, reported as SIGSEGV. Without any namespace the submission is the judge's child, in
//! its own process group, killed as a group; a grandchild that calls `setsid` can then escape
//! (documented in the README).
//!
//! Everything in the child before `exec` uses raw system calls only: it shares the judge's
//! memory, and the judge is multi-threaded.

mod child;
pub mod probe;
mod supervise;

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

use crate::clone::{self, Memory};
use crate::error::SandboxError;
use crate::keeper::{self, KEEPER_STACK, KeeperState};
use crate::types::Finished;

use child::{ChildArgs, child_main};
pub(crate) use child::{Start, become_submission, sockets_in_use, unlock_uid_change};
pub use probe::{unprivileged_user_namespaces_work, user_namespaces_work};
use supervise::kill_all;
pub use supervise::{ABORT, Paired, Watch};
pub(crate) use supervise::{decode, supervise};

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
    /// (see [`child::own_user_namespace`]).
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

pub(crate) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: both were just created.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A run's keeper, started by the judge's thread (see [`crate::keeper`]): killed and reaped
/// when dropped, which must come after the run's program was reaped.
struct RunKeeper {
    /// 0 until started, and once reaped.
    pid: libc::pid_t,
    /// Where the keeper runs and what it shares with this thread: alive until it is reaped (the
    /// drop kills and reaps it before they are freed).
    state: Box<KeeperState>,
    stack: Vec<u8>,
    /// The judge's own PID namespace, where this thread's children go back.
    own_namespace: RawFd,
}

impl RunKeeper {
    /// A keeper for `plan`'s run, if it gets one: a PID namespace made as root, on an
    /// architecture with keepers, where the judge's own namespace can be named.
    fn for_plan(plan: &Plan) -> Option<RunKeeper> {
        static OWN: std::sync::OnceLock<Option<OwnedFd>> = std::sync::OnceLock::new();
        if !plan.pid_namespace || plan.user_namespace || !keeper::AVAILABLE {
            return None;
        }
        let own = OWN.get_or_init(|| {
            std::fs::File::open("/proc/self/ns/pid")
                .ok()
                .map(OwnedFd::from)
        });
        Some(RunKeeper {
            pid: 0,
            state: Box::new(KeeperState::new(plan.judge_pidfd)),
            stack: vec![0u8; KEEPER_STACK],
            own_namespace: own.as_ref()?.as_raw_fd(),
        })
    }
}

impl Drop for RunKeeper {
    fn drop(&mut self) {
        if self.pid > 0 {
            // SAFETY: our own child, whose program (if any) was reaped first.
            unsafe { keeper::end(self.pid) };
            self.pid = 0;
        }
    }
}

/// Starts the submission the way `posix_spawn` does: `clone(CLONE_VM | CLONE_VFORK)` on a
/// stack of its own, so no page tables are copied and the caller sleeps until `exec` (or
/// `_exit`). Returns the pid.
///
/// # Safety
///
/// `argv` and `envp` must be null-terminated arrays of pointers to NUL-terminated strings,
/// alive until the child execs (this call returns after it has); `stdio`, `error_fd` (the
/// write end of the error pipe) and the plan's descriptors must be open in this process;
/// nothing else may use `stack` during the call. With a `keeper` (not started), the
/// submission is made its namespace's pid 2, and the caller must reap the submission before it
/// drops the keeper.
unsafe fn spawn_submission(
    plan: &Plan,
    argv: &[*const libc::c_char],
    envp: &[*const libc::c_char],
    stdio: [RawFd; 3],
    error_fd: RawFd,
    stack: &mut [u8],
    keeper: Option<&mut RunKeeper>,
) -> io::Result<libc::pid_t> {
    let mut namespace = match (plan.pid_namespace, plan.user_namespace) {
        (false, _) => 0,
        // The keeper's namespace instead.
        (true, false) if keeper.is_some() => 0,
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
    let mut args = ChildArgs {
        plan,
        argv,
        envp,
        stdio,
        error_fd,
    };
    let Some(keeper) = keeper else {
        // SAFETY: a child that only makes raw system calls on the arguments, which outlive its
        // use of them (the caller sleeps until it execs or exits).
        return unsafe { clone::clone(Memory::Shared, namespace, stack, child_main, &mut args) };
    };
    // SAFETY: the keeper's stack and state live in `keeper` until it is reaped (its drop);
    // this thread's children go back to its own namespace right after the submission's clone.
    unsafe {
        keeper.pid = keeper::start(&mut keeper.stack, &keeper.state, keeper.own_namespace)?;
        let child = clone::clone(Memory::Shared, namespace, stack, child_main, &mut args);
        if !keeper::program_started(&keeper.state, keeper.own_namespace, child.is_ok()) {
            // This thread's children would be made in the run's namespace, which dies with it.
            let error = io::Error::last_os_error();
            if let Ok(pid) = child {
                kill_all(pid, true);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
            panic!("the judge's thread could not return to its own PID namespace: {error}");
        }
        child
    }
}

/// Runs `plan` to the end under `watch`, with `stdin` as its standard input and `stdout` (if
/// given; else a pipe the judge reads) as its standard output.
pub fn run(
    plan: &Plan,
    stdin: OwnedFd,
    stdout: Option<OwnedFd>,
    watch: &Watch<'_>,
) -> io::Result<Finished> {
    let (out_r, out_w) = match stdout {
        Some(given) => (None, given),
        None => {
            let (r, w) = pipe()?;
            (Some(r), w)
        }
    };
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
    let stdio = [stdin.as_raw_fd(), out_w.as_raw_fd(), err_w.as_raw_fd()];
    if let Some(uid) = plan.uid {
        // The output pipes belong to the run's user, as a shell's pipes belong to its user:
        // opening `/dev/stdout` (`/proc/self/fd/1`) reopens the pipe, which checks its owner.
        // (Its input is a file readable by all, or a descriptor the caller made.)
        let own = [out_r.is_some().then_some(stdio[1]), Some(stdio[2])];
        for fd in own.into_iter().flatten() {
            // SAFETY: changing the owner of a pipe we just made.
            if unsafe { libc::fchown(fd, uid, uid) } != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    // The child's stack until exec: it only makes system calls.
    let mut stack = vec![0u8; 32 * 1024];
    // Dropped (killed and reaped) only after the submission is reaped below, or if it could
    // not be started.
    let mut keeper = RunKeeper::for_plan(plan);
    let started = Instant::now();
    // SAFETY: the child runs only raw system calls on data prepared above, then execs or exits.
    let pid = unsafe {
        spawn_submission(
            plan,
            &argv,
            &envp,
            stdio,
            error_w.as_raw_fd(),
            &mut stack,
            keeper.as_mut(),
        )?
    };
    drop((stdin, out_w, err_w, error_w));
    // SAFETY: pidfd_open on our own child; it becomes readable when the child exits.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    let result = if pidfd < 0 {
        Err(io::Error::last_os_error())
    } else {
        // SAFETY: just created.
        let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) };
        supervise(&pidfd, pid, out_r, err_r, watch, started)
    };
    // Whatever happened, nothing of this run may survive it.
    kill_all(pid, plan.pid_namespace);
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: reaping our own child.
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    // Then its keeper: the namespace's init, whose exit completes only once every other
    // process of the namespace is gone. (Without a keeper, the submission was the init.)
    drop(keeper);
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
        return Err(SandboxError::child(error[0], errno).into());
    }
    Ok(finished)
}
