//! Files opened beneath a folder a run could write, following no link of any kind and crossing
//! no mount (a build's artefact, a jury box's feedback without root), and what they are.
//! Below the two modules that use it (`build.rs`, the jury box's folders in `slot/`).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use crate::error::SandboxError;

/// `struct open_how` of `openat2(2)`.
#[repr(C)]
struct OpenHow {
    flags: u64,
    mode: u64,
    resolve: u64,
}

const RESOLVE_NO_XDEV: u64 = 0x01;
const RESOLVE_NO_MAGICLINKS: u64 = 0x02;
const RESOLVE_NO_SYMLINKS: u64 = 0x04;
const RESOLVE_BENEATH: u64 = 0x08;

/// Opens `path` below `dir` following no link of any kind and crossing no mount: a build that
/// replaced `out` with a link to `/etc` gets nothing of the host.
pub(crate) fn open_beneath(dir: RawFd, path: &str, flags: libc::c_int) -> io::Result<OwnedFd> {
    let path = CString::new(path).map_err(|_| SandboxError::nul_byte("a path"))?;
    let how = OpenHow {
        flags: (flags | libc::O_NOFOLLOW | libc::O_CLOEXEC) as u64,
        mode: 0,
        resolve: RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    // SAFETY: a valid C string and structure for the call.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            dir,
            path.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the kernel just returned this descriptor.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// What a file of this mode is, in words (for one that is not a regular file).
pub(crate) fn kind(mode: libc::mode_t) -> &'static str {
    match mode & libc::S_IFMT {
        libc::S_IFLNK => "a symbolic link",
        libc::S_IFIFO => "a named pipe",
        libc::S_IFSOCK => "a socket",
        libc::S_IFCHR | libc::S_IFBLK => "a device",
        libc::S_IFDIR => "a folder",
        _ => "a special file",
    }
}

/// `fstat` of a descriptor.
pub(crate) fn fstat(fd: &OwnedFd) -> io::Result<libc::stat> {
    // SAFETY: a zeroed stat is a valid value to be overwritten.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: a descriptor we own and a local structure.
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(stat)
}
