//! What the kernel allows, tried once with a short-lived child: user namespaces (a judge that
//! is not root) and unprivileged user namespaces (a run's own, as root).

use super::child::{
    AT_RECURSIVE, MOUNT_ATTR_RDONLY, MountAttr, lock_uid_change, unlock_uid_change,
};

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
/// [`super::child::own_user_namespace`] does in every run)? Distributions may forbid
/// unprivileged ones.
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
