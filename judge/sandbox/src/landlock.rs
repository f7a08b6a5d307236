//! Landlock through its three system calls. The ruleset is built here, in the judge; the one
//! call that applies it (`landlock_restrict_self`) runs in the forked child just before `exec`
//! (`spawn/child.rs`), where only raw system calls are safe (the judge is multi-threaded),
//! which is why this is written against the kernel interface rather than a wrapper crate.

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;

const CREATE_RULESET_VERSION: u32 = 1;
const RULE_PATH_BENEATH: libc::c_int = 1;

// Filesystem rights (ABI 1-3, 5).
const EXECUTE: u64 = 1 << 0;
const WRITE_FILE: u64 = 1 << 1;
const READ_FILE: u64 = 1 << 2;
const READ_DIR: u64 = 1 << 3;
const ALL_FS_V1: u64 = (1 << 13) - 1;
const REFER: u64 = 1 << 13; // ABI 2
const TRUNCATE: u64 = 1 << 14; // ABI 3
const IOCTL_DEV: u64 = 1 << 15; // ABI 5
// Network rights (ABI 4): TCP bind and connect.
const NET_ALL: u64 = 0b11;
// Scopes (ABI 6): abstract unix sockets and signals outside the sandbox.
const SCOPE_ALL: u64 = 0b11;

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI of the running kernel (0: none).
pub fn abi() -> i64 {
    // SAFETY: the version query takes no pointer.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            CREATE_RULESET_VERSION,
        )
    };
    if v < 0 { 0 } else { v }
}

/// How a path may be used inside the sandbox.
#[derive(Clone, Copy, Debug)]
pub enum Access {
    /// Read files and directories, execute programs.
    ReadExecute,
    /// Everything (the scratch directory; device files like /dev/null).
    Full,
}

/// A Landlock ruleset, ready to be applied in a child.
pub struct Ruleset {
    fd: OwnedFd,
    pub abi: i64,
}

impl Ruleset {
    /// Creates a ruleset that denies every handled right except those of `rules`: files only
    /// beneath the given paths (missing paths are skipped), no TCP bind or connect, no signals
    /// or abstract sockets outside the sandbox. `None` if the kernel has no Landlock.
    ///
    /// With `handle_files` false, only the network and scope rights are handled (the run has a
    /// private root: the filesystem is already limited by what is mounted there).
    pub fn new(rules: &[(&Path, Access)], handle_files: bool) -> std::io::Result<Option<Ruleset>> {
        let abi = abi();
        if abi < 1 {
            return Ok(None);
        }
        let mut fs = ALL_FS_V1;
        if abi >= 2 {
            fs |= REFER;
        }
        if abi >= 3 {
            fs |= TRUNCATE;
        }
        if abi >= 5 {
            fs |= IOCTL_DEV;
        }
        if !handle_files && abi < 4 {
            return Ok(None);
        }
        let attr = RulesetAttr {
            handled_access_fs: if handle_files { fs } else { 0 },
            handled_access_net: if abi >= 4 { NET_ALL } else { 0 },
            scoped: if abi >= 6 { SCOPE_ALL } else { 0 },
        };
        // Older kernels reject fields they do not know: pass only the prefix they understand.
        let size = match abi {
            1..=3 => 8,
            4 | 5 => 16,
            _ => std::mem::size_of::<RulesetAttr>(),
        };
        // SAFETY: `attr` outlives the call and `size` does not exceed it.
        let fd = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                &attr as *const RulesetAttr,
                size,
                0u32,
            )
        };
        if fd < 0 {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: the kernel just returned this descriptor to us and nothing else owns it.
        let fd = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
        let ruleset = Ruleset { fd, abi };
        if handle_files {
            for (path, access) in rules {
                ruleset.allow(path, *access, fs)?;
            }
        }
        Ok(Some(ruleset))
    }

    fn allow(&self, path: &Path, access: Access, handled: u64) -> std::io::Result<()> {
        let Ok(c_path) = CString::new(path.as_os_str().as_encoded_bytes()) else {
            return Ok(());
        };
        // SAFETY: a valid C string; O_PATH opens without reading.
        let fd = unsafe { libc::open(c_path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
        if fd < 0 {
            return Ok(()); // a path that does not exist needs no rule
        }
        // SAFETY: just opened.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
        let mut allowed = match access {
            Access::ReadExecute => EXECUTE | READ_FILE | READ_DIR,
            Access::Full => handled,
        };
        if !is_dir {
            // Rights about directory entries mean nothing on a file and are refused there.
            allowed &= EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
        }
        let attr = PathBeneathAttr {
            allowed_access: allowed & handled,
            parent_fd: fd.as_raw_fd(),
        };
        // SAFETY: `attr` and both descriptors are valid for the call.
        let r = unsafe {
            libc::syscall(
                libc::SYS_landlock_add_rule,
                self.fd.as_raw_fd(),
                RULE_PATH_BENEATH,
                &attr as *const PathBeneathAttr,
                0u32,
            )
        };
        if r < 0 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(())
        }
    }

    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}
