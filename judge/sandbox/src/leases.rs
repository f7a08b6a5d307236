//! Leases that no other judge on the machine holds at the same time (sandbox uids, CPUs): each
//! is an exclusive `flock` on its own file in a root-owned folder (`/run/lock/boardjudge`, or
//! under the temporary directory if `/run/lock` is missing), which only judges run as root can
//! take. The kernel drops the lock when the judge exits however it exits, so a killed judge
//! never leaks a lease.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The folder of the lease files, made (mode 0700) if it is missing.
pub(crate) fn dir() -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let base = if Path::new("/run/lock").is_dir() {
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

/// Opens (making it if needed) the lease file `path`; `Ok(None)` if another judge holds it.
pub(crate) fn hold(path: &Path) -> io::Result<Option<File>> {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    // SAFETY: flock on a descriptor we own.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    Ok(locked.then_some(file))
}
