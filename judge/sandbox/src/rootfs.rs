//! The filesystem and network a run sees (as root): for each slot, once, a mount namespace
//! whose root is a small read-only tmpfs holding only what runtimes need, and an empty network
//! namespace (loopback down). Each run then enters both and makes its own copy of the mount
//! namespace with a fresh `/tmp` (its scratch and working directory) and a `/proc` of its own
//! PID namespace; both disappear with the run's last process, so nothing is ever cleaned up
//! file by file.
//!
//! The root holds, read-only and without set-uid: `/usr` and `/etc` (bound from the host),
//! `/bin`, `/sbin`, `/lib*` as on the host (symbolic links into `/usr` on a merged-`/usr`
//! system, binds otherwise), `/dev` with only `null`, `zero`, `random`, `urandom`, and the
//! submission's own files under `/box`. Everything else on the host (home directories, `/opt`,
//! `/tmp`, `/var`, `/root`, `/run`, `/sys`, the test data, the judge's files) is not there. A
//! path to hide that does lie under `/usr`, `/etc` or a submission directory (tests kept in
//! `/usr/local`, say) has an empty read-only tmpfs (or an empty file) mounted over it.
//!
//! Building happens in a short-lived child sharing the judge's memory and descriptor table
//! (`CLONE_VM | CLONE_VFORK | CLONE_FILES`): it unshares the namespaces, opens them (the
//! descriptors land in the judge's table, keeping the namespaces alive), builds the root with
//! raw system calls on strings prepared here, `pivot_root`s into it, and exits.

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// One bind mount into the box: host path, path inside the box.
#[derive(Clone, Debug)]
pub struct Bind {
    pub host: PathBuf,
    pub inside: PathBuf,
}

/// What goes into the box besides the system directories.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// The submission's files and directories, read-only.
    pub binds: Vec<Bind>,
    /// Host paths that must not be visible (test data, answers).
    pub hidden: Vec<PathBuf>,
}

/// A slot's namespaces, alive as long as these descriptors.
#[derive(Debug)]
pub struct SlotNamespaces {
    pub mount: OwnedFd,
    pub network: OwnedFd,
}

/// One step of building the root, in the child (paths relative to the new root).
enum Step {
    Mkdir(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    Device {
        path: CString,
        minor: u32,
    },
    EmptyFile(CString),
    /// Bind source `host` at `inside` (read-only, no set-uid, no devices).
    Bind {
        host: usize,
        inside: CString,
    },
    /// An empty read-only tmpfs over a directory.
    HideDir(CString),
    /// The empty file `/.empty` over a file.
    HideFile(CString),
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| io::Error::other("a NUL byte in a path"))
}

fn relative(path: &Path) -> io::Result<CString> {
    let bytes = path.as_os_str().as_bytes();
    let trimmed = bytes.strip_prefix(b"/").unwrap_or(bytes);
    cstring(if trimmed.is_empty() { b"." } else { trimmed })
}

/// Every directory from the first component down to `path` itself, for `mkdir -p`.
fn mkdir_all(path: &Path, steps: &mut Vec<Step>, made: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut partial = PathBuf::from("/");
    for component in path.components().skip(1) {
        partial.push(component);
        if !made.contains(&partial) {
            made.push(partial.clone());
            steps.push(Step::Mkdir(relative(&partial)?));
        }
    }
    Ok(())
}

/// A host path to bind, opened by the child before its new root covers `/tmp` (where a
/// submission's files often are); the bind then names it `/proc/self/fd/N`.
fn source(path: &Path, sources: &mut Vec<Source>) -> io::Result<usize> {
    sources.push(Source {
        path: cstring(path.as_os_str().as_bytes())?,
        fd: -1,
        name: [0; 32],
    });
    Ok(sources.len() - 1)
}

/// A bind source: its host path, and once the child opened it, its descriptor and
/// `/proc/self/fd/N` name (NUL-terminated).
struct Source {
    path: CString,
    fd: RawFd,
    name: [u8; 32],
}

fn plan(layout: &Layout, opened: &mut Vec<Source>) -> io::Result<Vec<Step>> {
    let mut steps = Vec::new();
    let mut made: Vec<PathBuf> = Vec::new();
    // Where host paths appear inside the box: (host prefix, box prefix).
    let mut visible: Vec<(PathBuf, PathBuf)> = Vec::new();
    for dir in ["/usr", "/etc", "/dev", "/proc", "/tmp", "/box"] {
        mkdir_all(Path::new(dir), &mut steps, &mut made)?;
    }
    steps.push(Step::EmptyFile(c".empty".to_owned()));
    for (name, minor) in [("null", 3), ("zero", 5), ("random", 8), ("urandom", 9)] {
        steps.push(Step::Device {
            path: cstring(format!("dev/{name}").as_bytes())?,
            minor,
        });
    }
    for dir in ["/usr", "/etc"] {
        steps.push(Step::Bind {
            host: source(Path::new(dir), opened)?,
            inside: relative(Path::new(dir))?,
        });
        visible.push((PathBuf::from(dir), PathBuf::from(dir)));
    }
    for dir in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
        let path = Path::new(dir);
        match std::fs::read_link(path) {
            Ok(target) => steps.push(Step::Symlink {
                target: cstring(target.as_os_str().as_bytes())?,
                link: relative(path)?,
            }),
            Err(_) if path.is_dir() => {
                mkdir_all(path, &mut steps, &mut made)?;
                steps.push(Step::Bind {
                    host: source(path, opened)?,
                    inside: relative(path)?,
                });
                visible.push((path.to_path_buf(), path.to_path_buf()));
            }
            Err(_) => {}
        }
    }
    for bind in &layout.binds {
        let host = std::fs::canonicalize(&bind.host)?;
        if host.is_dir() {
            mkdir_all(&bind.inside, &mut steps, &mut made)?;
        } else {
            if let Some(parent) = bind.inside.parent() {
                mkdir_all(parent, &mut steps, &mut made)?;
            }
            steps.push(Step::EmptyFile(relative(&bind.inside)?));
        }
        steps.push(Step::Bind {
            host: source(&host, opened)?,
            inside: relative(&bind.inside)?,
        });
        visible.push((host, bind.inside.clone()));
    }
    for hidden in &layout.hidden {
        let Ok(host) = std::fs::canonicalize(hidden) else {
            continue;
        };
        for (prefix, inside) in &visible {
            let Ok(rest) = host.strip_prefix(prefix) else {
                continue;
            };
            let at = relative(&inside.join(rest))?;
            steps.push(if host.is_dir() {
                Step::HideDir(at)
            } else {
                Step::HideFile(at)
            });
        }
    }
    Ok(steps)
}

struct Shared {
    steps: Vec<Step>,
    sources: Vec<Source>,
    mount_fd: RawFd,
    network_fd: RawFd,
    /// (step index, errno) of a failure.
    failed: Option<(usize, i32)>,
}

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

extern "C" fn build(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the judge's `Shared`, alive while the judge is suspended (CLONE_VFORK);
    // only raw system calls on prepared strings run here.
    unsafe {
        let shared = &mut *(arg as *mut Shared);
        let mut fail = |step: usize| -> libc::c_int {
            shared.failed = Some((step, errno()));
            1
        };
        const NONE: *const libc::c_char = std::ptr::null();
        let ro =
            libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
        if libc::unshare(libc::CLONE_NEWNS | libc::CLONE_NEWNET) != 0 {
            return fail(usize::MAX - 1);
        }
        // Nothing done here propagates back to the host.
        if libc::mount(
            NONE,
            c"/".as_ptr(),
            NONE,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ) != 0
        {
            return fail(usize::MAX - 2);
        }
        shared.mount_fd = libc::open(
            c"/proc/self/ns/mnt".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        shared.network_fd = libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        );
        if shared.mount_fd < 0 || shared.network_fd < 0 {
            return fail(usize::MAX - 3);
        }
        for source in shared.sources.iter_mut() {
            source.fd = libc::open(source.path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if source.fd < 0 {
                return fail(usize::MAX - 7);
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
            c"boardjudge".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID,
            c"size=64k,nr_inodes=4096,mode=0755".as_ptr().cast(),
        ) != 0
            || libc::chdir(c"/tmp".as_ptr()) != 0
        {
            return fail(usize::MAX - 4);
        }
        for (k, step) in shared.steps.iter().enumerate() {
            let ok = match step {
                Step::Mkdir(path) => {
                    libc::mkdir(path.as_ptr(), 0o755) == 0 || errno() == libc::EEXIST
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
                return fail(k);
            }
        }
        // The box becomes the root; the host's tree, now underneath, is detached.
        if libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) != 0
            || libc::umount2(c".".as_ptr(), libc::MNT_DETACH) != 0
            || libc::chdir(c"/".as_ptr()) != 0
        {
            return fail(usize::MAX - 5);
        }
        if libc::mount(
            NONE,
            c"/".as_ptr(),
            NONE,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID,
            std::ptr::null(),
        ) != 0
        {
            return fail(usize::MAX - 6);
        }
        0
    }
}

impl SlotNamespaces {
    /// Builds a slot's mount and network namespaces (root only).
    pub fn build(layout: &Layout) -> io::Result<SlotNamespaces> {
        let mut sources = Vec::new();
        let steps = plan(layout, &mut sources)?;
        let mut shared = Shared {
            steps,
            sources,
            mount_fd: -1,
            network_fd: -1,
            failed: None,
        };
        let mut stack = vec![0u8; 64 * 1024];
        let top = (stack.as_mut_ptr() as usize + stack.len()) & !15;
        // SAFETY: a private stack, a callback making raw system calls only, and `shared`
        // outliving the child (CLONE_VFORK suspends us until it exits).
        let pid = unsafe {
            libc::clone(
                build,
                top as *mut libc::c_void,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_FILES | libc::SIGCHLD,
                (&mut shared as *mut Shared).cast(),
            )
        };
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut status = 0;
        // SAFETY: reaping our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        for source in &shared.sources {
            if source.fd >= 0 {
                // SAFETY: the child opened it in our shared table; nobody else uses it.
                unsafe { libc::close(source.fd) };
            }
        }
        // SAFETY: descriptors the child opened in our (shared) table, now ours alone.
        let take = |fd: RawFd| (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
        let (mount, network) = (take(shared.mount_fd), take(shared.network_fd));
        if let Some((step, errno)) = shared.failed {
            let what = match step {
                s if s < shared.steps.len() => describe(&shared.steps[s]),
                s if s == usize::MAX - 1 => "unshare(mount, network)".to_string(),
                s if s == usize::MAX - 2 => "making / private".to_string(),
                s if s == usize::MAX - 3 => "opening the namespaces".to_string(),
                s if s == usize::MAX - 4 => "mounting the root tmpfs".to_string(),
                s if s == usize::MAX - 5 => "pivot_root".to_string(),
                s if s == usize::MAX - 7 => "opening a path to bind".to_string(),
                _ => "making the root read-only".to_string(),
            };
            return Err(io::Error::other(format!(
                "building the sandbox's root ({what}): {}",
                io::Error::from_raw_os_error(errno)
            )));
        }
        match (mount, network) {
            (Some(mount), Some(network))
                if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 =>
            {
                Ok(SlotNamespaces { mount, network })
            }
            _ => Err(io::Error::other("building the sandbox's root failed")),
        }
    }
}

fn describe(step: &Step) -> String {
    let show = |c: &CString| format!("/{}", c.to_string_lossy());
    match step {
        Step::Mkdir(p) => format!("mkdir {}", show(p)),
        Step::Symlink { link, .. } => format!("symlink {}", show(link)),
        Step::Device { path, .. } => format!("mknod {}", show(path)),
        Step::EmptyFile(p) => format!("create {}", show(p)),
        Step::Bind { inside, .. } => format!("bind at {}", show(inside)),
        Step::HideDir(p) | Step::HideFile(p) => format!("hide {}", show(p)),
    }
}
