//! Sandbox uids that no other judge on the machine uses at the same time: each is a
//! [lease](crate::leases) (`/run/lock/boardjudge/uid-N`), so a killed judge never leaks a uid.

use std::fs::File;
use std::io;

use crate::error::{SandboxError, Stage};
use crate::leases;

/// The uids handed out: `FIRST_UID ..= FIRST_UID + UID_COUNT - 1`.
pub const FIRST_UID: u32 = 61000;
pub const UID_COUNT: u32 = 4000;

/// A uid this process holds until the lease is dropped.
#[derive(Debug)]
pub struct UidLease {
    pub uid: u32,
    _lock: File,
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
    let path = leases::dir().ok()?.join(format!("uid-{uid}"));
    leases::hold(&path).ok().flatten()
}

/// Leases `count` uids nobody else holds.
pub fn lease(count: usize) -> io::Result<Vec<UidLease>> {
    let dir = leases::dir()?;
    let mut held = Vec::with_capacity(count);
    for uid in FIRST_UID..FIRST_UID + UID_COUNT {
        if held.len() == count {
            break;
        }
        let path = dir.join(format!("uid-{uid}"));
        let lock = leases::hold(&path).map_err(|e| SandboxError::at_path(Stage::Uids, &path, e))?;
        if let Some(file) = lock {
            held.push(UidLease { uid, _lock: file });
        }
    }
    if held.len() < count {
        return Err(SandboxError::new(
            Stage::Uids,
            format!(
                "only {} of {count} sandbox uids are free (other judges hold the rest)",
                held.len()
            ),
        )
        .into());
    }
    Ok(held)
}
