//! A run's keeper: the first process (the init) of the run's PID namespace, so that the
//! program is not.
//!
//! The kernel never lets a process kill its own PID namespace's init with a signal left at its
//! default action (`SIGNAL_UNKILLABLE`): a program that was init could not die of the
//! `raise(SIGTERM)`, `abort()` or `kill(getpid(), SIGKILL)` it sent itself, and went on (a
//! wrong WA; glibc's `abort` then ends in a fault, reported as SIGSEGV). isolate has a proxy
//! process as its box's init for this reason; here the keeper is that init, and does nothing
//! but wait:
//!
//! - the caller (the fork server, or the judge's thread for a run in fresh namespaces) moves
//!   its children's PID namespace to a new one (`unshare(CLONE_NEWPID)`), clones the keeper
//!   into it (the first process there: its init, pid 1), clones the program as before (pid 2,
//!   the caller's own child: the caller still reaps it with its true status, and traces it),
//!   and moves its children's namespace back to its own ([`start`], then [`program_started`]);
//! - the keeper shares the caller's memory (`CLONE_VM`, no copy of page tables), closes every
//!   descriptor it got, blocks every signal, ignores `SIGCHLD` (what the program leaves behind
//!   when it exits is reparented to it and reaped by the kernel), and waits until the program
//!   exits (a pidfd of pid 2); then it exits, and the kernel kills whatever else is left in the
//!   namespace at once, as it did when the program was init itself;
//! - the caller reaps the program first, then kills and reaps the keeper ([`end`]): an init's
//!   exit completes only once every other process of its namespace is gone and reaped, so once
//!   [`end`] returns nothing of the run is left.
//!
//! The keeper is not charged to the run: it stays in the caller's cgroups (the run's program
//! joins its own groups itself), touches only its small stack, and runs for microseconds. The
//! run's `/proc` is mounted with `hidepid=invisible`, so the program does not see it (a process
//! of another user, not dumpable, or outside its Landlock domain).
//!
//! The keeper runs beside the caller in the caller's memory: it makes its system calls here,
//! with inline assembly, so that none sets `errno` (the C library keeps it in the calling
//! thread's storage, which the keeper shares); it allocates nothing.

use std::ffi::c_int;
use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::clone;

/// The keeper's stack (it calls nothing but the kernel).
pub(crate) const KEEPER_STACK: usize = 16 * 1024;

/// The keeper waits for the program to be started.
const WAITING: u32 = 0;
/// The program was started: the keeper waits for its end.
const STARTED: u32 = 1;
/// No program is coming: the keeper exits.
const ABANDONED: u32 = 2;

/// What the caller and its keeper share (in the caller's memory, alive until the keeper is
/// reaped).
pub(crate) struct KeeperState {
    /// [`WAITING`], [`STARTED`] or [`ABANDONED`] (a futex word).
    word: AtomicU32,
    /// A pidfd of the judge, or -1: a keeper that waits for its program stops once the judge
    /// is gone (it has no parent-death signal of its own while it waits).
    judge: RawFd,
}

impl KeeperState {
    pub(crate) const fn new(judge: RawFd) -> KeeperState {
        KeeperState {
            word: AtomicU32::new(WAITING),
            judge,
        }
    }
}

/// Moves the calling thread's next children into a new PID namespace and starts its keeper
/// there (its pid 1). The next child the thread makes is pid 2 of that namespace: the
/// program. The caller must then call [`program_started`] (whether or not the program could be
/// started), which moves its children back to `own_namespace`. On failure, nothing is left
/// changed.
///
/// # Safety
///
/// `own_namespace` must be a descriptor of the caller's own PID namespace; `stack`
/// ([`KEEPER_STACK`] bytes) and `state` must stay allocated and unused by anything else
/// until the keeper is reaped ([`end`]). In the fork server, raw calls only.
pub(crate) unsafe fn start(
    stack: &mut [u8],
    state: &KeeperState,
    own_namespace: RawFd,
) -> io::Result<libc::pid_t> {
    state.word.store(WAITING, Ordering::Release);
    // SAFETY: raw calls on the caller's own descriptors; the keeper is a child that makes
    // only errno-free system calls on `state` and its stack, both alive until it is reaped.
    unsafe {
        if libc::unshare(libc::CLONE_NEWPID) != 0 {
            return Err(io::Error::last_os_error());
        }
        let keeper = clone::clone_concurrent(0, stack, keeper_main, state);
        if keeper.is_err() {
            libc::setns(own_namespace, libc::CLONE_NEWPID);
        }
        keeper
    }
}

/// After [`start`] and the program's `clone`: moves the caller's next children back into
/// `own_namespace`, and tells the keeper whether a program was started (it then waits for its
/// end, else exits). False if the caller could not go back (errno set): its children would be
/// made in the run's namespace, which dies with it.
///
/// # Safety
///
/// Right after [`start`] and the program's clone, with its `state` and `own_namespace`.
pub(crate) unsafe fn program_started(
    state: &KeeperState,
    own_namespace: RawFd,
    started: bool,
) -> bool {
    // SAFETY: raw calls on the caller's descriptor and the shared futex word.
    unsafe {
        let back = libc::setns(own_namespace, libc::CLONE_NEWPID) == 0;
        let errno = *libc::__errno_location();
        state
            .word
            .store(if started { STARTED } else { ABANDONED }, Ordering::Release);
        libc::syscall(
            libc::SYS_futex,
            state.word.as_ptr(),
            libc::FUTEX_WAKE,
            1,
            0usize,
        );
        *libc::__errno_location() = errno;
        back
    }
}

/// Kills and reaps a keeper (and so whatever is left of its namespace). The program, its
/// child's sibling, must have been reaped first: the keeper's exit waits for every other
/// process of its namespace to be reaped.
///
/// # Safety
///
/// `keeper` must be a keeper the caller started and has not reaped.
pub(crate) unsafe fn end(keeper: libc::pid_t) {
    let mut status = 0;
    // SAFETY: a signal to and the reaping of our own child.
    unsafe {
        libc::kill(keeper, libc::SIGKILL);
        while libc::waitpid(keeper, &mut status, libc::__WALL) < 0
            && *libc::__errno_location() == libc::EINTR
        {}
    }
}

/// The keeper's life (see the module's comment). Returns its exit status.
///
/// # Safety
///
/// Only as a [`clone::clone_concurrent`] child started by [`start`]: `state` alive until it
/// is reaped.
unsafe fn keeper_main(state: *const KeeperState) -> c_int {
    // SAFETY: `state` is the caller's, alive until this process is reaped; every call below
    // is a raw system call on local data.
    unsafe {
        let state = &*state;
        let judge = state.judge;
        // Every signal blocked (SIGKILL cannot be): none of the caller's handlers, which are in
        // the memory it shares, ever runs here.
        let all: u64 = !0;
        raw::call(
            libc::SYS_rt_sigprocmask,
            [
                libc::SIG_SETMASK as usize,
                &all as *const u64 as usize,
                0,
                8,
            ],
        );
        // SIGCHLD ignored: a process the program leaves behind that ends is reaped by the
        // kernel (it is reparented here when its parent ends).
        let ignore: [usize; 4] = [libc::SIG_IGN, 0, 0, 0];
        raw::call(
            libc::SYS_rt_sigaction,
            [libc::SIGCHLD as usize, ignore.as_ptr() as usize, 0, 8],
        );
        // Its copies of the caller's descriptors (another run's pipes among them) closed: a
        // pipe's reader sees its end only once every copy is gone. The judge's pidfd kept.
        if judge > 0 {
            raw::call(libc::SYS_close_range, [0, judge as usize - 1, 0, 0]);
        }
        raw::call(
            libc::SYS_close_range,
            [(judge + 1).max(0) as usize, u32::MAX as usize, 0, 0],
        );
        let word = state.word.as_ptr();
        let second = libc::timespec {
            tv_sec: 1,
            tv_nsec: 0,
        };
        let mut told = state.word.load(Ordering::Acquire);
        while told == WAITING {
            raw::call(
                libc::SYS_futex,
                [
                    word as usize,
                    libc::FUTEX_WAIT as usize,
                    WAITING as usize,
                    &second as *const libc::timespec as usize,
                ],
            );
            told = state.word.load(Ordering::Acquire);
            // The judge gone before the program was started: nobody will tell.
            if told == WAITING
                && judge >= 0
                && raw::call(libc::SYS_pidfd_send_signal, [judge as usize, 0, 0, 0]) < 0
            {
                return 0;
            }
        }
        if told != STARTED {
            return 0;
        }
        // The program is pid 2 here (the first process after this one); a zombie until the
        // caller reaps it, so the number is its until then.
        let program = raw::call(libc::SYS_pidfd_open, [2, 0, 0, 0]);
        if program < 0 {
            return 0;
        }
        let mut ended = libc::pollfd {
            fd: program as c_int,
            events: libc::POLLIN,
            revents: 0,
        };
        // No signal can interrupt (all blocked); a failure other than that ends the wait.
        while raw::call(
            libc::SYS_ppoll,
            [&mut ended as *mut libc::pollfd as usize, 1, 0, 0],
        ) == 0
        {}
        0
    }
}

/// System calls without the C library: no `errno` is written (see the module's comment).
mod raw {
    /// Makes system call `number` with four arguments; returns its result (a negative errno on
    /// failure).
    ///
    /// # Safety
    ///
    /// As the system call's own: the arguments must be what it expects.
    #[cfg(target_arch = "x86_64")]
    pub(super) unsafe fn call(number: libc::c_long, args: [usize; 4]) -> isize {
        let result: isize;
        // SAFETY: the x86_64 system-call convention; the caller vouches for the arguments.
        unsafe {
            std::arch::asm!(
                "syscall",
                inlateout("rax") number as isize => result,
                in("rdi") args[0],
                in("rsi") args[1],
                in("rdx") args[2],
                in("r10") args[3],
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        result
    }

    /// Makes system call `number` with four arguments; returns its result (a negative errno on
    /// failure).
    ///
    /// # Safety
    ///
    /// As the system call's own: the arguments must be what it expects.
    #[cfg(target_arch = "aarch64")]
    pub(super) unsafe fn call(number: libc::c_long, args: [usize; 4]) -> isize {
        let result: isize;
        // SAFETY: the aarch64 system-call convention; the caller vouches for the arguments.
        unsafe {
            std::arch::asm!(
                "svc 0",
                in("x8") number,
                inlateout("x0") args[0] as isize => result,
                in("x1") args[1],
                in("x2") args[2],
                in("x3") args[3],
                options(nostack),
            );
        }
        result
    }

    /// No keeper elsewhere ([`super::AVAILABLE`]).
    ///
    /// # Safety
    ///
    /// None: it makes no call.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) unsafe fn call(_number: libc::c_long, _args: [usize; 4]) -> isize {
        -(libc::ENOSYS as isize)
    }
}

/// Whether runs get a keeper on this architecture (its system calls are written for
/// x86_64 and aarch64; elsewhere the program is its namespace's init, as before).
pub(crate) const AVAILABLE: bool = cfg!(any(target_arch = "x86_64", target_arch = "aarch64"));
