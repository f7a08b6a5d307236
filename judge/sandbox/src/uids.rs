//! Sandbox uids that no other judge on the machine uses at the same time: each is leased by
//! holding an exclusive `flock` on its own lock file (`/run/lock/boardjudge/uid-N`, or under
//! the temporary directory if `/run/lock` is missing). The kernel drops the lock when the
//! judge exits however it exits, so a killed judge never leaks a uid.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::PathBuf;

use crate::error::{SandboxError, Stage};

/// The uids handed out: `FIRST_UID ..= FIRST_UID + UID_COUNT - 1`.
pub const FIRST_UID: u32 = 61000;
pub const UID_COUNT: u32 = 4000;

/// A uid this process holds until the lease is dropped.
#[derive(Debug)]
pub struct UidLease {
    pub uid: u32,
    _lock: File,
}

fn lock_dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = if std::path::Path::new("/run/lock").is_dir() {
        PathBuf::from("/run/lock")
    } else {
        std::env::temp_dir()
    };
    let dir = base.join("boardjudge");
    match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(dir),
    }
}

impl UidLease {
    /// Another handle on the lease's lock: the uid stays leased until both are dropped (the
    /// cgroups named after it hold one, so they are never taken for a dead judge's).
    pub fn hold(&self) -> io::Result<File> {
        self._lock.try_clone()
    }
}

/// Holds the lock of `uid` if no judge does (a dead judge's lock is free): the caller then
/// owns what is named after it until the file is dropped. `None` if a judge holds it.
pub fn hold_if_free(uid: u32) -> Option<File> {
    let path = lock_dir().ok()?.join(format!("uid-{uid}"));
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .ok()?;
    // SAFETY: flock on a descriptor we own.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    locked.then_some(file)
}

/// Leases `count` uids nobody else holds.
pub fn lease(count: usize) -> io::Result<Vec<UidLease>> {
    let dir = lock_dir()?;
    let mut leases = Vec::with_capacity(count);
    for uid in FIRST_UID..FIRST_UID + UID_COUNT {
        if leases.len() == count {
            break;
        }
        let path = dir.join(format!("uid-{uid}"));
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| SandboxError::at_path(Stage::Uids, &path, e))?;
        // SAFETY: flock on a descriptor we own.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            leases.push(UidLease { uid, _lock: file });
        }
    }
    if leases.len() < count {
        return Err(SandboxError::new(
            Stage::Uids,
            format!(
                "only {} of {count} sandbox uids are free (other judges hold the rest)",
                leases.len()
            ),
        )
        .into());
    }
    Ok(leases)
}
