//! The filesystem and network a run sees (as root): for each slot, once, a mount namespace
//! whose root is a small read-only tmpfs holding only what runtimes need, an empty network
//! namespace (loopback down) and a UTS namespace (host name `box`). Each run then enters them
//! and makes its own copy of the mount namespace with a fresh `/tmp` (its scratch and working
//! directory) and a `/proc` of its own PID namespace; both disappear with the run's last
//! process, so nothing is ever cleaned up file by file.
//!
//! The root holds, read-only and without set-uid: `/usr` and `/etc` (bound from the host, with
//! `/etc/passwd` and `/etc/group` replaced by generated ones naming only `root`, `nobody` and
//! the slot's user), `/bin`, `/sbin`, `/lib*` as on the host (symbolic links into `/usr` on a
//! merged-`/usr` system, binds otherwise), the toolchain roots a compiler or interpreter outside
//! `/usr` needs (a rustup toolchain, `/opt/<x>`), each at its own path, and a `/dev` that looks
//! like everywhere else: `null`, `zero`, `full`, `random`, `urandom`, the links `fd`, `stdin`,
//! `stdout`, `stderr` into `/proc/self/fd`, and `shm` → `/tmp`. The submission's files are
//! **copied** into `/box` (a tmpfs made read-only once written): no folder of the host is ever
//! bound there, so a run sees its own files and nothing beside them, and `/proc/self/mountinfo`
//! shows box paths only. Everything else on the host (home directories, `/opt`, `/tmp`, `/var`,
//! `/root`, `/run`, `/sys`, the test data, the judge's files) is not there. A path to hide that
//! does lie under a bound tree (tests kept in `/usr/local`, say) has an empty read-only tmpfs
//! (or an empty file) mounted over it.
//!
//! A build box ([`BuildBox`]) differs in one thing: `/box` is a writable tmpfs of a fixed size
//! owned by the build's user, holding only the sources in `/box/src` and empty `out` and `tmp`
//! folders; the judge keeps a descriptor of it to take the artefact out afterwards.
//!
//! A jury box ([`JuryBox`]) has, besides a read-only `/box` like a submission's, two tmpfs
//! mounts of its own whose descriptors the judge keeps: `/box/case`, root's, where the judge
//! writes each run's files (read-only to the run), and `/box/feedback`, the slot's user's, of
//! a fixed size and number of entries, which a run may write when the judge lets it (the judge
//! reads it through its descriptor afterwards). Neither allows executing what is in it. The
//! judge empties both around every run.
//!
//! Building happens in a short-lived child sharing the judge's memory and descriptor table
//! (`CLONE_VM | CLONE_VFORK | CLONE_FILES`): it unshares the namespaces, opens them (the
//! descriptors land in the judge's table, keeping the namespaces alive), builds the root with
//! raw system calls on strings and buffers prepared here, `pivot_root`s into it, and exits.

mod child;

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::clone::{self, Memory};
use crate::error::{RootStep, SandboxError, Stage};
use crate::types::BoxFile;
pub use crate::types::{BuildBox, JuryBox};

use child::build;

/// What goes into the box besides the system directories.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// The submission's files, copied under `/box` (paths relative to it).
    pub files: Vec<BoxFile>,
    /// Host directories bound read-only at their own path (toolchains outside `/usr`).
    pub toolchain_roots: Vec<PathBuf>,
    /// Host paths that must not be visible (test data, answers).
    pub hidden: Vec<PathBuf>,
    /// The slot's user, named in the generated `/etc/passwd` and `/etc/group`; with
    /// `build`, the owner of `/box`.
    pub user: Option<u32>,
    /// The slot's other users (a fork server's second lane), also named `box` in the
    /// accounts.
    pub other_users: Vec<u32>,
    /// A writable `/box` for a build instead of a read-only one.
    pub build: Option<BuildBox>,
    /// A jury box's `/box/case` and `/box/feedback` besides the read-only `/box`.
    pub jury: Option<JuryBox>,
}

/// A slot's namespaces, alive as long as these descriptors.
#[derive(Debug)]
pub struct SlotNamespaces {
    pub mount: OwnedFd,
    pub network: OwnedFd,
    pub uts: OwnedFd,
    /// `/box` of the slot (an `O_PATH` directory descriptor).
    pub box_dir: OwnedFd,
    /// A jury box's `/box/case` and `/box/feedback` (`O_PATH` descriptors of their mounts).
    pub case_dir: Option<OwnedFd>,
    pub feedback_dir: Option<OwnedFd>,
}

/// The directories whose descriptors the child keeps ([`Step::Keep`]), by index.
const KEPT_BOX: usize = 0;
const KEPT_CASE: usize = 1;
const KEPT_FEEDBACK: usize = 2;

/// One step of building the root, in the child (paths relative to the new root).
enum Step {
    Mkdir {
        path: CString,
        mode: u32,
        owner: Option<u32>,
    },
    Symlink {
        target: CString,
        link: CString,
    },
    Device {
        path: CString,
        minor: u32,
    },
    EmptyFile(CString),
    /// Write `data[index]` into a new file.
    WriteFile {
        path: CString,
        data: usize,
        mode: u32,
        owner: Option<u32>,
    },
    /// Bind source `host` at `inside` (read-only, no set-uid, no devices).
    Bind {
        host: usize,
        inside: CString,
    },
    /// Bind a file of the new root over another, read-only.
    BindFile {
        from: CString,
        at: CString,
    },
    /// A tmpfs with these options (with `noexec`, nothing there can be executed).
    Tmpfs {
        at: CString,
        options: CString,
        noexec: bool,
    },
    /// Remount a tmpfs read-only (files may still be executed).
    ReadOnly(CString),
    /// Keep an `O_PATH` descriptor of this directory as the kept directory `index` (the
    /// slot's `/box`, a jury box's case and feedback folders).
    Keep(CString, usize),
    /// An empty read-only tmpfs over a directory.
    HideDir(CString),
    /// The empty file `/.empty` over a file.
    HideFile(CString),
}

fn cstring(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes).map_err(|_| SandboxError::nul_byte("a path").into())
}

fn relative(path: &Path) -> io::Result<CString> {
    let bytes = path.as_os_str().as_bytes();
    let trimmed = bytes.strip_prefix(b"/").unwrap_or(bytes);
    cstring(if trimmed.is_empty() { b"." } else { trimmed })
}

/// Every directory from the first component down to `path` itself, for `mkdir -p`.
fn mkdir_all(path: &Path, steps: &mut Vec<Step>, made: &mut Vec<PathBuf>) -> io::Result<()> {
    mkdir_all_owned(path, 0o755, None, steps, made)
}

fn mkdir_all_owned(
    path: &Path,
    mode: u32,
    owner: Option<u32>,
    steps: &mut Vec<Step>,
    made: &mut Vec<PathBuf>,
) -> io::Result<()> {
    let mut partial = PathBuf::from("/");
    for component in path.components().skip(1) {
        partial.push(component);
        if !made.contains(&partial) {
            made.push(partial.clone());
            steps.push(Step::Mkdir {
                path: relative(&partial)?,
                mode,
                owner,
            });
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

/// Is `name` a safe relative path for a box file: components of printable characters other
/// than `/`, none of them `.` or `..`?
pub fn safe_box_path(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 4096
        && name.split('/').all(|c| {
            !c.is_empty()
                && c != "."
                && c != ".."
                && c.len() <= 255
                && c.bytes().all(|b| b.is_ascii_graphic() || b >= 0x80)
        })
}

/// Is `path` (relative to `/box`) a jury box's case or feedback folder, or in one? (A program's
/// file there would be hidden by the folder's own mount.)
pub fn jury_folder(path: &str) -> bool {
    let top = path.split('/').next().unwrap_or("");
    top == "case" || top == "feedback"
}

/// The generated `/etc/passwd` and `/etc/group`: root, nobody and the slot's user, whose home
/// is `/tmp` (host user names and homes are not shown).
fn accounts(user: Option<u32>, others: &[u32]) -> (Vec<u8>, Vec<u8>) {
    let mut passwd = String::from(
        "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
    );
    let mut group = String::from("root:x:0:\nnogroup:x:65534:\n");
    for uid in user.iter().chain(others) {
        passwd.push_str(&format!("box:x:{uid}:{uid}:box:/tmp:/bin/sh\n"));
        group.push_str(&format!("box:x:{uid}:\n"));
    }
    (passwd.into_bytes(), group.into_bytes())
}

fn plan(
    layout: &Layout,
    opened: &mut Vec<Source>,
    data: &mut Vec<Arc<[u8]>>,
) -> io::Result<Vec<Step>> {
    let mut steps = Vec::new();
    let mut made: Vec<PathBuf> = Vec::new();
    // Where host paths appear inside the box: (host prefix, box prefix).
    let mut visible: Vec<(PathBuf, PathBuf)> = Vec::new();
    for dir in ["/usr", "/etc", "/dev", "/proc", "/tmp", "/box"] {
        mkdir_all(Path::new(dir), &mut steps, &mut made)?;
    }
    steps.push(Step::EmptyFile(c".empty".to_owned()));
    for (name, minor) in [
        ("null", 3),
        ("zero", 5),
        ("full", 7),
        ("random", 8),
        ("urandom", 9),
    ] {
        steps.push(Step::Device {
            path: cstring(format!("dev/{name}").as_bytes())?,
            minor,
        });
    }
    for (link, target) in [
        ("dev/fd", "/proc/self/fd"),
        ("dev/stdin", "/proc/self/fd/0"),
        ("dev/stdout", "/proc/self/fd/1"),
        ("dev/stderr", "/proc/self/fd/2"),
        // glibc's sem_open and shm_open (Python's multiprocessing locks and pools) use
        // /dev/shm: the run's own /tmp, fresh per run.
        ("dev/shm", "/tmp"),
    ] {
        steps.push(Step::Symlink {
            target: cstring(target.as_bytes())?,
            link: cstring(link.as_bytes())?,
        });
    }
    for dir in ["/usr", "/etc"] {
        steps.push(Step::Bind {
            host: source(Path::new(dir), opened)?,
            inside: relative(Path::new(dir))?,
        });
        visible.push((PathBuf::from(dir), PathBuf::from(dir)));
    }
    let (passwd, group) = accounts(layout.user, &layout.other_users);
    for (name, contents) in [("passwd", passwd), ("group", group)] {
        if !Path::new("/etc").join(name).is_file() {
            continue;
        }
        data.push(Arc::from(contents));
        let copy = cstring(format!(".{name}").as_bytes())?;
        steps.push(Step::WriteFile {
            path: copy.clone(),
            data: data.len() - 1,
            mode: 0o444,
            owner: None,
        });
        steps.push(Step::BindFile {
            from: copy,
            at: cstring(format!("etc/{name}").as_bytes())?,
        });
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
    for root in &layout.toolchain_roots {
        let host = std::fs::canonicalize(root)?;
        if visible.iter().any(|(v, _)| host.starts_with(v)) {
            continue;
        }
        if !host.is_dir() || host.starts_with("/box") || host.starts_with("/tmp") {
            return Err(SandboxError::new(
                Stage::ToolchainRoot,
                format!(
                    "{}: not a toolchain folder that can be shown in the box",
                    host.display()
                ),
            )
            .into());
        }
        mkdir_all(&host, &mut steps, &mut made)?;
        steps.push(Step::Bind {
            host: source(&host, opened)?,
            inside: relative(&host)?,
        });
        visible.push((host.clone(), host));
    }
    // The box: the submission's files, copied.
    let file_bytes: u64 = layout
        .files
        .iter()
        .map(|f| (f.contents.len() as u64).div_ceil(4096) * 4096 + 4096)
        .sum();
    let inodes = layout.files.len() * 2 + 64;
    let box_options = match (&layout.build, layout.user) {
        (Some(build), Some(uid)) => format!(
            "size={},nr_inodes={},mode=0755,uid={uid},gid={uid}",
            build.bytes,
            inodes + 100_000
        ),
        (Some(build), None) => format!("size={},mode=0755", build.bytes),
        (None, _) => format!(
            "size={},nr_inodes={inodes},mode=0755",
            file_bytes + (64 << 10)
        ),
    };
    steps.push(Step::Tmpfs {
        at: c"box".to_owned(),
        options: cstring(box_options.as_bytes())?,
        noexec: false,
    });
    let owner = layout.build.as_ref().and(layout.user);
    let mut in_box: Vec<PathBuf> = vec![PathBuf::from("/box")];
    if let Some(build) = &layout.build {
        for dir in &build.dirs {
            if !safe_box_path(dir) {
                return Err(SandboxError::not_a_box_path(dir).into());
            }
            mkdir_all_owned(
                &Path::new("/box").join(dir),
                0o755,
                owner,
                &mut steps,
                &mut in_box,
            )?;
        }
    }
    for file in &layout.files {
        if !safe_box_path(&file.path) || layout.jury.is_some() && jury_folder(&file.path) {
            return Err(SandboxError::not_a_box_path(&file.path).into());
        }
        let at = Path::new("/box").join(&file.path);
        if let Some(parent) = at.parent() {
            mkdir_all_owned(parent, 0o755, owner, &mut steps, &mut in_box)?;
        }
        data.push(file.contents.clone());
        let mode = match (file.executable, owner) {
            (true, None) => 0o555,
            (false, None) => 0o444,
            (true, Some(_)) => 0o755,
            (false, Some(_)) => 0o644,
        };
        steps.push(Step::WriteFile {
            path: relative(&at)?,
            data: data.len() - 1,
            mode,
            owner,
        });
    }
    if layout.jury.is_some() {
        // The mount points of the case and feedback folders.
        for dir in ["/box/case", "/box/feedback"] {
            mkdir_all_owned(Path::new(dir), 0o755, None, &mut steps, &mut in_box)?;
        }
    }
    if layout.build.is_none() {
        steps.push(Step::ReadOnly(c"box".to_owned()));
    }
    steps.push(Step::Keep(c"box".to_owned(), KEPT_BOX));
    if let Some(jury) = &layout.jury {
        // Root's: only the judge writes there (it may hold a test's input of any size).
        steps.push(Step::Tmpfs {
            at: c"box/case".to_owned(),
            options: c"nr_inodes=4096,mode=0755".to_owned(),
            noexec: true,
        });
        steps.push(Step::Keep(c"box/case".to_owned(), KEPT_CASE));
        // The run's user's (the judge hands it to root when a run may not write there): all a
        // run can write there, in bytes and entries (its root counts as one).
        let owner = layout
            .user
            .map_or_else(String::new, |uid| format!(",uid={uid},gid={uid}"));
        let options = format!(
            "size={},nr_inodes={},mode=0700{owner}",
            jury.feedback_bytes.max(4096),
            jury.feedback_files + 1
        );
        steps.push(Step::Tmpfs {
            at: c"box/feedback".to_owned(),
            options: cstring(options.as_bytes())?,
            noexec: true,
        });
        steps.push(Step::Keep(c"box/feedback".to_owned(), KEPT_FEEDBACK));
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

/// What the child that builds the root reads (the plan) and writes (the namespaces' and the
/// box's descriptors, or what failed).
struct Shared {
    steps: Vec<Step>,
    sources: Vec<Source>,
    data: Vec<Arc<[u8]>>,
    mount_fd: RawFd,
    network_fd: RawFd,
    uts_fd: RawFd,
    /// The kept directories ([`KEPT_BOX`], [`KEPT_CASE`], [`KEPT_FEEDBACK`]; -1: none).
    kept: [RawFd; 3],
    /// The step that failed, and its errno.
    failed: Option<(RootStep, i32)>,
}

impl SlotNamespaces {
    /// Builds a slot's mount, network and UTS namespaces (root only).
    pub fn build(layout: &Layout) -> io::Result<SlotNamespaces> {
        let mut sources = Vec::new();
        let mut data = Vec::new();
        let steps = plan(layout, &mut sources, &mut data)?;
        let mut shared = Shared {
            steps,
            sources,
            data,
            mount_fd: -1,
            network_fd: -1,
            uts_fd: -1,
            kept: [-1; 3],
            failed: None,
        };
        let mut stack = vec![0u8; 64 * 1024];
        // SAFETY: a child making raw system calls only, and `shared` outliving it (CLONE_VFORK
        // suspends us until it exits).
        let pid =
            unsafe { clone::clone(Memory::SharedWithFiles, 0, &mut stack, build, &mut shared)? };
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
        let (mount, network, uts, box_dir) = (
            take(shared.mount_fd),
            take(shared.network_fd),
            take(shared.uts_fd),
            take(shared.kept[KEPT_BOX]),
        );
        let (case_dir, feedback_dir) = (
            take(shared.kept[KEPT_CASE]),
            take(shared.kept[KEPT_FEEDBACK]),
        );
        if let Some((step, errno)) = shared.failed {
            let what = match step {
                RootStep::Plan(k) => describe(&shared.steps[k]),
                step => step.name().to_string(),
            };
            return Err(SandboxError::errno_at(
                Stage::Root(step),
                format!("building the sandbox's root ({what})"),
                errno,
            )
            .into());
        }
        let jury_dirs = case_dir.is_some() && feedback_dir.is_some();
        match (mount, network, uts, box_dir) {
            (Some(mount), Some(network), Some(uts), Some(box_dir))
                if libc::WIFEXITED(status)
                    && libc::WEXITSTATUS(status) == 0
                    && jury_dirs == layout.jury.is_some() =>
            {
                Ok(SlotNamespaces {
                    mount,
                    network,
                    uts,
                    box_dir,
                    case_dir,
                    feedback_dir,
                })
            }
            _ => Err(SandboxError::new(
                Stage::Root(RootStep::Unknown),
                "building the sandbox's root failed",
            )
            .into()),
        }
    }
}

fn describe(step: &Step) -> String {
    let show = |c: &CString| format!("/{}", c.to_string_lossy());
    match step {
        Step::Mkdir { path, .. } => format!("mkdir {}", show(path)),
        Step::Symlink { link, .. } => format!("symlink {}", show(link)),
        Step::Device { path, .. } => format!("mknod {}", show(path)),
        Step::EmptyFile(p) => format!("create {}", show(p)),
        Step::WriteFile { path, .. } => format!("write {}", show(path)),
        Step::Bind { inside, .. } => format!("bind at {}", show(inside)),
        Step::BindFile { at, .. } => format!("bind over {}", show(at)),
        Step::Tmpfs { at, .. } => format!("tmpfs at {}", show(at)),
        Step::ReadOnly(at) => format!("read-only {}", show(at)),
        Step::Keep(at, _) => format!("open {}", show(at)),
        Step::HideDir(p) | Step::HideFile(p) => format!("hide {}", show(p)),
    }
}
