//! Emptying a directory the submission wrote into, without recursion: any depth (a 30,000-deep
//! chain is longer than `PATH_MAX`, so everything is relative to directory descriptors), any
//! permissions (directories are made writable before their entries are removed), any names.
//! One descriptor is open at a time besides the root's: the walk goes down into the first
//! directory that is not empty and back up through `..` once a directory is empty, so memory
//! and stack stay constant whatever the depth.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use crate::error::SandboxError;

fn last_error() -> io::Error {
    io::Error::last_os_error()
}

/// Opens the directory `name` of `parent` for reading, not following a link there.
pub(crate) fn open_dir_at(parent: RawFd, name: &CStr) -> io::Result<OwnedFd> {
    // SAFETY: a valid C string; the flags never follow a symbolic link.
    let fd = unsafe {
        libc::openat(
            parent,
            name.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(last_error());
    }
    // SAFETY: the kernel just returned this descriptor.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// The names in directory `dir` (without `.` and `..`), up to `limit` of them, in the order
/// the directory lists them. (`dir` must be open for reading: not `O_PATH`.)
pub(crate) fn names(dir: &OwnedFd, limit: usize) -> io::Result<Vec<CString>> {
    // fdopendir takes the descriptor it is given: hand it a duplicate.
    // SAFETY: duplicating a descriptor we own.
    let copy = unsafe { libc::fcntl(dir.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 0) };
    if copy < 0 {
        return Err(last_error());
    }
    // SAFETY: `copy` is a directory descriptor we own; it now belongs to the stream.
    let stream = unsafe { libc::fdopendir(copy) };
    if stream.is_null() {
        let error = last_error();
        // SAFETY: fdopendir failed, so `copy` is still ours to close.
        unsafe { libc::close(copy) };
        return Err(error);
    }
    // A duplicate shares the offset: start from the beginning each time.
    // SAFETY: a valid stream.
    unsafe { libc::rewinddir(stream) };
    let mut found = Vec::new();
    while found.len() < limit {
        // SAFETY: a valid stream; the entry stays valid until the next readdir.
        let entry = unsafe { libc::readdir64(stream) };
        if entry.is_null() {
            break;
        }
        // SAFETY: d_name is NUL-terminated.
        let name = unsafe { CStr::from_ptr((*entry).d_name.as_ptr()) };
        if name != c"." && name != c".." {
            found.push(name.to_owned());
        }
    }
    // SAFETY: closing the stream we opened (and its descriptor).
    unsafe { libc::closedir(stream) };
    Ok(found)
}

/// Removes every entry of `dir` (the directory itself stays).
pub fn empty_dir(dir: &Path) -> io::Result<()> {
    let path =
        CString::new(dir.as_os_str().as_bytes()).map_err(|_| SandboxError::nul_byte("a path"))?;
    empty(open_dir_at(libc::AT_FDCWD, &path)?)
}

/// Removes every entry of the directory `dir` refers to (an `O_PATH` descriptor will do: a
/// jury box's folder, from outside its mount namespace); the directory itself stays.
pub fn empty_dir_fd(dir: &OwnedFd) -> io::Result<()> {
    empty(open_dir_at(dir.as_raw_fd(), c".")?)
}

/// Removes every entry of the directory `current`, going no higher than it.
fn empty(mut current: OwnedFd) -> io::Result<()> {
    let mut depth = 0usize;
    'walk: loop {
        // SAFETY: making a directory we own writable and searchable.
        unsafe { libc::fchmod(current.as_raw_fd(), 0o700) };
        // Batches keep memory bounded for huge directories; the listing restarts after each.
        loop {
            let batch = names(&current, 4096)?;
            if batch.is_empty() {
                break;
            }
            for name in &batch {
                // SAFETY: a name relative to a directory descriptor we own.
                if unsafe { libc::unlinkat(current.as_raw_fd(), name.as_ptr(), 0) } == 0 {
                    continue;
                }
                let error = last_error();
                match error.raw_os_error() {
                    Some(libc::ENOENT) => continue,
                    Some(libc::EISDIR) | Some(libc::EPERM) => {}
                    _ => return Err(error),
                }
                // A directory: remove it if empty, otherwise go down into it.
                // SAFETY: as above.
                let r = unsafe {
                    libc::unlinkat(current.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR)
                };
                if r == 0 {
                    continue;
                }
                let error = last_error();
                if !matches!(
                    error.raw_os_error(),
                    Some(libc::ENOTEMPTY) | Some(libc::EEXIST)
                ) {
                    return Err(error);
                }
                let child = match open_dir_at(current.as_raw_fd(), name) {
                    Ok(child) => child,
                    Err(e) if e.raw_os_error() == Some(libc::EACCES) => {
                        // SAFETY: as above; a directory we own made searchable.
                        unsafe { libc::fchmodat(current.as_raw_fd(), name.as_ptr(), 0o700, 0) };
                        open_dir_at(current.as_raw_fd(), name)?
                    }
                    Err(e) => return Err(e),
                };
                current = child;
                depth += 1;
                continue 'walk;
            }
        }
        if depth == 0 {
            return Ok(());
        }
        // Empty now: back up; the parent's next listing removes it.
        current = open_dir_at(current.as_raw_fd(), c"..")?;
        depth -= 1;
    }
}

/// Removes `dir` and everything in it.
pub fn remove_dir(dir: &Path) -> io::Result<()> {
    match empty_dir(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        other => other?,
    }
    std::fs::remove_dir(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_a_tree_deeper_than_path_max_with_locked_directories() {
        // In memory where there is a tmpfs (a disk under load makes 30,000 mkdirs slow).
        let base = if Path::new("/dev/shm").is_dir() {
            std::path::PathBuf::from("/dev/shm")
        } else {
            std::env::temp_dir()
        };
        let root = base.join(format!("remove-test-{}", std::process::id()));
        std::fs::create_dir_all(&root).unwrap();
        let top = CString::new(root.as_os_str().as_bytes()).unwrap();
        let mut fd = open_dir_at(libc::AT_FDCWD, &top).unwrap();
        // 60,000 bytes of path, far beyond PATH_MAX.
        for depth in 0..30_000 {
            // SAFETY: creating a directory under one we own.
            let made = unsafe { libc::mkdirat(fd.as_raw_fd(), c"d".as_ptr(), 0o700) };
            assert_eq!(made, 0);
            if depth % 1000 == 0 {
                let file = c"f";
                // SAFETY: as above.
                let f = unsafe {
                    libc::openat(
                        fd.as_raw_fd(),
                        file.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY,
                        0o600,
                    )
                };
                // SAFETY: closing what we opened.
                unsafe { libc::close(f) };
            }
            let next = open_dir_at(fd.as_raw_fd(), c"d").unwrap();
            if depth % 997 == 0 {
                // SAFETY: a directory we own made unreadable and unwritable.
                unsafe { libc::fchmod(fd.as_raw_fd(), 0o000) };
            }
            fd = next;
        }
        drop(fd);
        empty_dir(&root).unwrap();
        assert_eq!(std::fs::read_dir(&root).unwrap().count(), 0);
        remove_dir(&root).unwrap();
        assert!(!root.exists());
    }

    #[test]
    fn a_folder_is_emptied_through_a_path_descriptor_and_nothing_above_it() {
        let base = std::env::temp_dir().join(format!("remove-fd-test-{}", std::process::id()));
        let inside = base.join("inside");
        std::fs::create_dir_all(inside.join("a/b/c")).unwrap();
        std::fs::write(inside.join("a/b/c/file"), "x").unwrap();
        std::fs::write(inside.join("top"), "y").unwrap();
        std::fs::write(base.join("beside"), "z").unwrap();
        let path = CString::new(inside.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid C string.
        let fd = unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        };
        assert!(fd >= 0);
        // SAFETY: just opened.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        empty_dir_fd(&fd).unwrap();
        assert_eq!(std::fs::read_dir(&inside).unwrap().count(), 0);
        assert_eq!(std::fs::read_to_string(base.join("beside")).unwrap(), "z");
        remove_dir(&base).unwrap();
    }
}
