//! What the kernel allows, tried once with a short-lived child: user namespaces (a judge that
//! is not root) and unprivileged user namespaces (a run's own, as root).

use crate::clone::{self, Memory};

use super::child::{probe_unprivileged_user_namespace, probe_user_namespaces};

/// Can this process start a program in a new user and PID namespace (unprivileged user
/// namespaces enabled), and with `full`, also in new IPC, network and mount namespaces with
/// every mount read-only (what a run without root gets)? Tried once with `/bin/true`.
pub fn user_namespaces_work(full: bool) -> bool {
    let mut stack = vec![0u8; 16 * 1024];
    let mut namespaces = libc::CLONE_NEWUSER | libc::CLONE_NEWPID;
    if full {
        namespaces |= libc::CLONE_NEWIPC | libc::CLONE_NEWNET | libc::CLONE_NEWNS;
    }
    let mut read_only = full;
    // SAFETY: a child that only makes raw calls, then execs or exits.
    let child = unsafe {
        clone::clone(
            Memory::Shared,
            namespaces,
            &mut stack,
            probe_user_namespaces,
            &mut read_only,
        )
    };
    child.is_ok_and(exited_cleanly)
}

/// As root: can a process that dropped to `uid` make a user namespace of its own (what
/// [`super::child::own_user_namespace`] does in every run)? Distributions may forbid
/// unprivileged ones.
pub fn unprivileged_user_namespaces_work(uid: u32) -> bool {
    let mut stack = vec![0u8; 16 * 1024];
    let mut uid = uid;
    // SAFETY: a child that only makes raw calls and exits.
    let child = unsafe {
        clone::clone(
            Memory::Shared,
            0,
            &mut stack,
            probe_unprivileged_user_namespace,
            &mut uid,
        )
    };
    child.is_ok_and(exited_cleanly)
}

/// Reaps our child `pid`: did it exit with status 0?
fn exited_cleanly(pid: libc::pid_t) -> bool {
    let mut status = 0;
    // SAFETY: reaping our own child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}
