//! The child that builds a slot's root: it shares the judge's memory and descriptor table
//! (`CLONE_VM | CLONE_VFORK | CLONE_FILES`), so only raw system calls on the strings and
//! buffers of the plan run here, and nothing allocates.

use std::os::fd::RawFd;

use crate::error::RootStep;

use super::{Shared, Step};

fn errno() -> i32 {
    // SAFETY: reading the calling thread's errno.
    unsafe { *libc::__errno_location() }
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const AT_RECURSIVE: libc::c_uint = 0x8000;

/// Writes all of `bytes` to `fd`. For the child: raw system calls only.
///
/// # Safety
///
/// `fd` must be a descriptor the caller opened for writing and owns (a file of the new root).
unsafe fn write_all(fd: RawFd, bytes: &[u8]) -> bool {
    let mut done = 0;
    while done < bytes.len() {
        // SAFETY: writing from a live slice.
        let n = unsafe { libc::write(fd, bytes[done..].as_ptr().cast(), bytes.len() - done) };
        if n <= 0 {
            return false;
        }
        done += n as usize;
    }
    true
}

/// Builds the slot's root as `shared` plans it, in new mount, network and UTS namespaces whose
/// descriptors it leaves in `shared` (in the judge's descriptor table, which it shares); on
/// failure, the step and errno in `shared.failed`. Returns its exit status.
///
/// # Safety
///
/// Called only as a [`crate::clone::clone`] child with [`crate::clone::Memory::SharedWithFiles`]
/// (its descriptors must land in the judge's table).
pub(super) unsafe fn build(shared: &mut Shared) -> libc::c_int {
    // SAFETY: the judge's `Shared`, alive while the judge is suspended (CLONE_VFORK); only raw
    // system calls on prepared strings and buffers run here.
    unsafe {
        let mut fail = |step: RootStep| -> libc::c_int {
            shared.failed = Some((step, errno()));
            1
        };
        const NONE: *const libc::c_char = std::ptr::null();
        let ro =
            libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
        if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWNET | libc::CLONE_NEWUTS) != 0 {
            return fail(RootStep::Unshare);
        }
        let host_name = b"box";
        libc::sethostname(host_name.as_ptr().cast(), host_name.len());
        // Nothing done here propagates back to the host.
        if libc::mount(
            NONE,
            c"/".as_ptr(),
            NONE,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return fail(RootStep::MakePrivate);
        }
        shared.mount_fd = libc::open(
            c"/proc/self/ns/mnt".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        shared.network_fd = libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        shared.uts_fd = libc::open(
            c"/proc/self/ns/uts".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if shared.mount_fd < 0 || shared.network_fd < 0 || shared.uts_fd < 0 {
            return fail(RootStep::OpenNamespaces);
        }
        for source in shared.sources.iter_mut() {
            source.fd = libc::open(source.path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if source.fd < 0 {
                return fail(RootStep::OpenSource);
            }
            // "/proc/self/fd/" and the number, by hand (no allocation or formatting here).
            let prefix = b"/proc/self/fd/";
            source.name[..prefix.len()].copy_from_slice(prefix);
            let mut digits = [0u8; 10];
            let (mut n, mut len) = (source.fd as u32, 0);
            loop {
                digits[len] = b'0' + (n % 10) as u8;
                len += 1;
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            for k in 0..len {
                source.name[prefix.len() + k] = digits[len - 1 - k];
            }
        }
        // The new root: a small tmpfs over /tmp of this private copy of the host's tree.
        if libc::mount(
            c"root".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID,
            c"size=64k,nr_inodes=4096,mode=0755".as_ptr().cast(),
        ) != 0
            || libc::chdir(c"/tmp".as_ptr()) != 0
        {
            return fail(RootStep::MountRoot);
        }
        for (k, step) in shared.steps.iter().enumerate() {
            let ok = match step {
                Step::Mkdir { path, mode, owner } => {
                    (libc::mkdir(path.as_ptr(), *mode) == 0 || errno() == libc::EEXIST)
                        && owner.is_none_or(|uid| libc::lchown(path.as_ptr(), uid, uid) == 0)
                }
                Step::Symlink { target, link } => {
                    libc::symlink(target.as_ptr(), link.as_ptr()) == 0
                }
                Step::Device { path, minor } => {
                    libc::mknod(
                        path.as_ptr(),
                        libc::S_IFCHR | 0o666,
                        libc::makedev(1, *minor),
                    ) == 0
                        && libc::chmod(path.as_ptr(), 0o666) == 0
                }
                Step::EmptyFile(path) => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                        0o444,
                    );
                    fd >= 0 && libc::close(fd) == 0
                }
                Step::WriteFile {
                    path,
                    data,
                    mode,
                    owner,
                } => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_CREAT
                            | libc::O_EXCL
                            | libc::O_WRONLY
                            | libc::O_NOFOLLOW
                            | libc::O_CLOEXEC,
                        0o600,
                    );
                    fd >= 0 && {
                        let written = write_all(fd, &shared.data[*data]);
                        let owned = owner.is_none_or(|uid| libc::fchown(fd, uid, uid) == 0);
                        let moded = libc::fchmod(fd, *mode) == 0;
                        libc::close(fd) == 0 && written && owned && moded
                    }
                }
                Step::Bind { host, inside } => {
                    let host = shared.sources[*host].name.as_ptr().cast::<libc::c_char>();
                    // Read-only, no set-uid, no devices: the bound tree *and every mount
                    // under it* (a separate /usr/local, a container's bind over a file in
                    // /etc), which a remount of the top alone would leave as on the host.
                    let locked = MountAttr {
                        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
                        attr_clr: 0,
                        propagation: 0,
                        userns_fd: 0,
                    };
                    libc::mount(
                        host,
                        inside.as_ptr(),
                        NONE,
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ) == 0
                        && libc::syscall(
                            libc::SYS_mount_setattr,
                            libc::AT_FDCWD,
                            inside.as_ptr(),
                            AT_RECURSIVE,
                            &locked as *const MountAttr,
                            std::mem::size_of::<MountAttr>(),
                        ) == 0
                }
                Step::BindFile { from, at } => {
                    libc::mount(
                        from.as_ptr(),
                        at.as_ptr(),
                        NONE,
                        libc::MS_BIND,
                        std::ptr::null(),
                    ) == 0
                        && libc::mount(NONE, at.as_ptr(), NONE, ro, std::ptr::null()) == 0
                }
                Step::Tmpfs {
                    at,
                    options,
                    noexec,
                } => {
                    let noexec = if *noexec { libc::MS_NOEXEC } else { 0 };
                    libc::mount(
                        c"box".as_ptr(),
                        at.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | noexec,
                        options.as_ptr().cast(),
                    ) == 0
                }
                Step::ReadOnly(at) => {
                    libc::mount(
                        NONE,
                        at.as_ptr(),
                        NONE,
                        libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
                        std::ptr::null(),
                    ) == 0
                }
                Step::Keep(at, index) => {
                    let fd = libc::open(
                        at.as_ptr(),
                        libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                    );
                    if let Some(kept) = shared.kept.get_mut(*index) {
                        *kept = fd;
                    }
                    fd >= 0
                }
                Step::HideDir(path) => {
                    libc::mount(
                        c"hidden".as_ptr(),
                        path.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        c"size=4k,mode=0555".as_ptr().cast(),
                    ) == 0
                }
                Step::HideFile(path) => {
                    libc::mount(
                        c".empty".as_ptr(),
                        path.as_ptr(),
                        NONE,
                        libc::MS_BIND,
                        std::ptr::null(),
                    ) == 0
                        && libc::mount(NONE, path.as_ptr(), NONE, ro, std::ptr::null()) == 0
                }
            };
            if !ok {
                return fail(RootStep::Plan(k));
            }
        }
        // The box becomes the root; the host's tree, now underneath, is detached.
        if libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) != 0
            || libc::umount2(c".".as_ptr(), libc::MNT_DETACH) != 0
            || libc::chdir(c"/".as_ptr()) != 0
        {
            return fail(RootStep::PivotRoot);
        }
        if libc::mount(
            NONE,
            c"/".as_ptr(),
            NONE,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID,
            std::ptr::null(),
        ) != 0
        {
            return fail(RootStep::ReadOnly);
        }
        0
    }
}
