//! The one way this crate starts a child process: [`clone`], over `clone(2)`.
//!
//! Every child of the judge (a run, the fork server, a case of the server, the child that builds
//! a slot's root, the probes) starts here, so the rules are written once: the caller allocates
//! the child's stack before the clone, the child gets one typed argument, the child's parent is
//! told of its end with `SIGCHLD`, and the two ways of sharing memory are named. What runs in
//! the child lives in the `child.rs` files; this file's trampoline runs there too, and like them
//! allocates nothing (the judge is multi-threaded: a lock another thread held at the clone,
//! the allocator's included, stays held in the child forever).

use std::ffi::{c_int, c_void};
use std::io;

/// How a child made by [`clone`] relates to the caller's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Memory {
    /// `CLONE_VM | CLONE_VFORK`, as `posix_spawn` does: the child runs in the caller's memory
    /// on the stack it was given, no page tables are copied, and the calling thread sleeps until
    /// the child has called `execve` or exited.
    Shared,
    /// [`Memory::Shared`], and the caller's descriptor table too (`CLONE_FILES`): what the child
    /// opens is the caller's.
    SharedWithFiles,
    /// A copy of the caller's memory (a fork): the child lives on by itself, and the caller
    /// goes on at once.
    Copied,
}

impl Memory {
    fn flags(self) -> c_int {
        match self {
            Memory::Shared => libc::CLONE_VM | libc::CLONE_VFORK,
            Memory::SharedWithFiles => libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_FILES,
            Memory::Copied => 0,
        }
    }
}

/// What the trampoline calls: the child's function and its argument.
struct Call<'a, A> {
    child: unsafe fn(&mut A) -> c_int,
    arg: &'a mut A,
}

/// The first code of every child: calls the child's function with its argument. What it
/// returns is the child's exit status (the C library's `clone` exits with it).
extern "C" fn trampoline<A>(call: *mut c_void) -> c_int {
    // SAFETY: `call` is the `Call<A>` that `clone` passed, in the caller's memory (suspended
    // until this child execs or exits) or in this child's copy of it; [`clone`]'s caller
    // promised that `child` may run here.
    unsafe {
        let call = &mut *call.cast::<Call<'_, A>>();
        (call.child)(call.arg)
    }
}

/// Starts `child(arg)` in a new process made by `clone(2)`, sharing or copying the caller's
/// memory as `memory` says, in the new namespaces `namespaces` (`CLONE_NEW*` flags, or 0), on
/// `stack` (its top, 16-byte aligned, is where the child starts). The caller is sent `SIGCHLD`
/// when the child ends, and reaps it. Returns the child's pid (in the caller's PID namespace),
/// or why the kernel refused.
///
/// # Safety
///
/// - `child` runs in a copy of a multi-threaded process, or in the caller's own memory beside
///   the caller's other threads: it must make only raw system calls on data prepared before
///   the clone, and never allocate, lock or panic (a lock another thread held at the clone,
///   the allocator's included, stays held in the child; a panic runs the panic hook, which
///   allocates, before it aborts the child).
/// - With [`Memory::Shared`] or [`Memory::SharedWithFiles`], what `child` writes is written in
///   the caller's memory (and descriptor table): it may change only `arg`, `stack` and what is
///   meant to be shared with the caller's other threads (atomics: the uid-change lock), and
///   must end with `execve` or by returning or `_exit`ing (never by `exit`, which would run the
///   caller's exit handlers).
/// - `stack` must be large enough for everything `child` calls; nothing else may use it until
///   the child has exec'd or exited (the borrow guarantees this for the caller's own code).
pub(crate) unsafe fn clone<A>(
    memory: Memory,
    namespaces: c_int,
    stack: &mut [u8],
    child: unsafe fn(&mut A) -> c_int,
    arg: &mut A,
) -> io::Result<libc::pid_t> {
    let mut call = Call { child, arg };
    // The stack grows down: the child starts at its top, aligned as the ABI wants.
    let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
    // SAFETY: `top` is inside `stack`, which outlives the child's use of it (suspended caller,
    // or the child's own copy); the trampoline gets `call`, alive as long; the caller vouched
    // for `child`.
    let pid = unsafe {
        libc::clone(
            trampoline::<A>,
            top as *mut c_void,
            memory.flags() | namespaces | libc::SIGCHLD,
            (&mut call as *mut Call<'_, A>).cast(),
        )
    };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(pid)
}

/// What [`trampoline_concurrent`] calls, written onto the top of the child's own stack (the
/// caller goes on at once: nothing of its frame may be read by the child).
struct ConcurrentCall<T> {
    child: unsafe fn(*const T) -> c_int,
    arg: *const T,
}

/// The first code of a [`clone_concurrent`] child.
extern "C" fn trampoline_concurrent<T>(call: *mut c_void) -> c_int {
    // SAFETY: `call` is the `ConcurrentCall<T>` that `clone_concurrent` wrote onto this
    // child's own stack before the clone; its caller promised that `child` may run here.
    unsafe {
        let call = call.cast::<ConcurrentCall<T>>().read();
        (call.child)(call.arg)
    }
}

/// Starts `child(arg)` in a new process sharing the caller's memory (`CLONE_VM`, but neither
/// `CLONE_VFORK` nor the descriptor table: the caller goes on at once, and the child gets a
/// copy of its descriptors), in the new namespaces `namespaces`, on `stack`. For a child that
/// never `exec`s and only waits (a run's keeper, `keeper.rs`): it costs no copy of the
/// caller's page tables. The caller is sent `SIGCHLD` when it ends, and reaps it. Returns its
/// pid.
///
/// # Safety
///
/// As [`clone`]'s, and more, since the caller runs on beside the child:
/// - `child` must make only system calls that set no `errno` (it shares the calling thread's
///   thread-local storage, where the C library's wrappers write it: `keeper.rs`'s raw calls),
///   on `arg` and its own stack, and never return into anything of the caller's.
/// - `stack` and what `arg` points to must stay allocated, and `stack` unused by anything
///   else, until the child has been reaped.
pub(crate) unsafe fn clone_concurrent<T>(
    namespaces: c_int,
    stack: &mut [u8],
    child: unsafe fn(*const T) -> c_int,
    arg: *const T,
) -> io::Result<libc::pid_t> {
    let size = std::mem::size_of::<ConcurrentCall<T>>();
    // The call at the top of the stack (aligned), the child's stack below it.
    let call_at = (stack.as_mut_ptr() as usize + stack.len() - size) & !15;
    if call_at < stack.as_ptr() as usize + 1024 {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    // SAFETY: `call_at` lies inside `stack`, aligned for the struct (16 bytes).
    unsafe { (call_at as *mut ConcurrentCall<T>).write(ConcurrentCall { child, arg }) };
    let top = call_at & !15;
    // SAFETY: `top` is inside `stack`, which outlives the child (the caller's promise), as
    // does the call written above it; the caller vouched for `child`.
    let pid = unsafe {
        libc::clone(
            trampoline_concurrent::<T>,
            top as *mut c_void,
            libc::CLONE_VM | namespaces | libc::SIGCHLD,
            call_at as *mut c_void,
        )
    };
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(pid)
}
