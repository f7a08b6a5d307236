//! Building a contestant's source in a box of its own: a contestant's source is as hostile as
//! the program it becomes (a compiler reads every file the source names, runs as long as the
//! source tells it to, and writes as much as it is told to).
//!
//! The build box is a [`Sandbox`] slot like a run's (a private read-only root with `/usr`,
//! `/etc` and the toolchain's own folder, `/proc` of its own PID namespace, no network, a
//! leased uid in a user namespace of its own, its own cgroups, Landlock, the judge's death
//! signal) with a writable `/box` tmpfs of a fixed size owned by the build's uid, holding only
//! the sources in `/box/src` (the compiler's working directory) and empty `out` and `tmp`
//! folders (`HOME` and `TMPDIR`). Limits: CPU time, a wall clock (waiting for a CPU given
//! back), memory, processes, the size of the box and `RLIMIT_FSIZE`. Nothing is staged on
//! the host's disk: once every process of the build is gone, the judge reads the artefact out
//! of the box through a descriptor of it — without following any link, regular files and
//! folders only, within the box's size — and the box goes with the slot.

use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::beneath::{fstat, kind, open_beneath};
use crate::error::{SandboxError, Stage};
use crate::rootfs::safe_box_path;
use crate::slot::Sandbox;
use crate::types::{BoxFile, BuildBox, Command, Exit, Limits, Options};

/// The limits of one build.
#[derive(Clone, Copy, Debug)]
pub struct BuildLimits {
    /// CPU time of every process of the build.
    pub cpu: Duration,
    /// Wall-clock time (time spent waiting for a CPU is given back).
    pub wall: Duration,
    pub memory_bytes: u64,
    pub processes: u64,
    /// The size of `/box` (sources, artefact, temporary files) and of the build's `/tmp`.
    pub box_bytes: u64,
    /// The largest file the build may write (`RLIMIT_FSIZE`).
    pub file_bytes: u64,
    /// The compiler's standard error (and output) kept; the rest is drained.
    pub message_bytes: usize,
    /// The most the built program (everything taken out of the box) may be: an honest
    /// contest program is a few MiB, and the judge holds a program in memory while it is
    /// judged and in the build cache after.
    pub artefact_bytes: u64,
}

impl BuildLimits {
    /// The defaults, with a CPU-time limit of `cpu`: wall 2 × CPU + 10 s, memory 1 GiB, 128
    /// processes, a 256 MiB box, files up to 128 MiB, 64 KiB of messages, a built program of
    /// at most [`ARTEFACT_BYTES`].
    pub fn new(cpu: Duration) -> BuildLimits {
        BuildLimits {
            cpu,
            wall: cpu * 2 + Duration::from_secs(10),
            memory_bytes: 1 << 30,
            processes: 128,
            box_bytes: 256 << 20,
            file_bytes: 128 << 20,
            message_bytes: 64 << 10,
            artefact_bytes: ARTEFACT_BYTES,
        }
    }
}

/// The default cap on a built program: 64 MiB (an honest contest program, statically linked
/// Rust or Go included, is a few MiB; a 5-line C source with a 100 MiB initialised array is
/// not one).
pub const ARTEFACT_BYTES: u64 = 64 << 20;

impl Default for BuildLimits {
    /// 30 s of CPU time (5 × Kotlin's slowest build measured here; DOMjudge's default).
    fn default() -> BuildLimits {
        BuildLimits::new(Duration::from_secs(30))
    }
}

/// What the build leaves for the run: a file or a folder under `/box` (`out/sol`,
/// `out/classes`), and where it goes in the run's `/box` (`sol`, `classes`).
#[derive(Clone, Debug)]
pub struct Output {
    pub from: String,
    pub to: String,
    pub folder: bool,
}

/// One build.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The compiler and its arguments, with box paths (`/box/src/sol.c`, `/box/out/sol`);
    /// `files` are the sources, under `src/`.
    pub command: Command,
    /// Folders made under `/box` for the build's user besides `src`, `out` and `tmp`.
    pub dirs: Vec<String>,
    pub outputs: Vec<Output>,
    pub limits: BuildLimits,
    /// Host paths that must stay invisible even inside the toolchain's folders.
    pub hidden: Vec<PathBuf>,
}

/// Why a build did not give a program.
#[derive(Clone, Debug)]
pub struct Failure {
    pub exit: Exit,
    /// The compiler's standard error, then its standard output, as written (each capped at
    /// the limit's `message_bytes`).
    pub message: Vec<u8>,
    /// A limit that stopped it, or what was wrong with what it left, in words.
    pub reason: Option<String>,
}

#[derive(Clone, Debug)]
pub enum Built {
    /// The artefact: files for the run's `/box`.
    Artefact(Vec<BoxFile>),
    Failed(Failure),
}

/// The most entries a folder the build leaves (class files) may have.
const MAX_ENTRIES: usize = 10_000;

/// Builds `spec` in a box of its own and takes the artefact out. `Err` is the judge's (or the
/// machine's) failure, or an interruption (`ErrorKind::Interrupted`), never the source's.
pub fn build(spec: &Spec, interrupted: &AtomicBool) -> io::Result<Built> {
    let mut dirs: Vec<String> = ["src", "out", "tmp"].map(String::from).to_vec();
    dirs.extend(spec.dirs.iter().cloned());
    let options = Options {
        hidden: spec.hidden.clone(),
        build: Some(BuildBox {
            bytes: spec.limits.box_bytes,
            dirs,
        }),
        processes: spec.limits.processes,
        // A build runs once.
        fork_server: false,
        jury: None,
    };
    let sandbox = Sandbox::with(spec.command.clone(), 1, &options)?;
    let limits = Limits {
        cpu: spec.limits.cpu,
        wall: spec.limits.wall,
        memory_bytes: spec.limits.memory_bytes,
        output_bytes: spec.limits.message_bytes,
        file_bytes: spec.limits.file_bytes,
        // The compiler is not a sanitized program (what it builds may be).
        sanitizer: false,
    };
    let finished = sandbox.run(0, b"", &limits, interrupted)?;
    if finished.interrupted {
        return Err(SandboxError::new(Stage::Interrupted, "the build was interrupted").into());
    }
    let box_dir = sandbox.box_dir(0)?;
    let mut message = finished.stderr.clone();
    message.extend_from_slice(&finished.stdout);
    let failed = |reason: Option<String>| {
        Ok(Built::Failed(Failure {
            exit: finished.exit.clone(),
            message: message.clone(),
            reason,
        }))
    };
    let mib = |bytes: u64| bytes >> 20;
    if finished.cpu_exceeded || finished.cpu > limits.cpu {
        return failed(Some(format!(
            "stopped after {:.1} s of CPU time (the build time limit)",
            limits.cpu.as_secs_f64()
        )));
    }
    if finished.wall_exceeded {
        return failed(Some(format!(
            "stopped after {:.1} s of wall time",
            limits.wall.as_secs_f64()
        )));
    }
    if finished.memory_exceeded {
        return failed(Some(format!(
            "stopped at the build's memory limit ({} MiB)",
            mib(limits.memory_bytes)
        )));
    }
    if finished.exit == Exit::Signal(libc::SIGXFSZ) {
        return failed(Some(format!(
            "a file reached the build's file size limit ({} MiB)",
            mib(limits.file_bytes)
        )));
    }
    if free_bytes(&box_dir).is_some_and(|free| free < 1 << 20) {
        return failed(Some(format!(
            "the build folder is full ({} MiB)",
            mib(spec.limits.box_bytes)
        )));
    }
    if finished.exit != Exit::Code(0) {
        return failed(None);
    }
    // Every process of the build is gone (its PID namespace is): what it left stays as it is.
    let mut budget = Budget {
        bytes: spec.limits.artefact_bytes.min(spec.limits.box_bytes),
        cap: spec.limits.artefact_bytes.min(spec.limits.box_bytes),
        entries: MAX_ENTRIES,
    };
    let mut files = Vec::new();
    for output in &spec.outputs {
        match take(&box_dir, output, &mut budget, &mut files) {
            Ok(()) => {}
            Err(Refused(why)) => return failed(Some(why)),
        }
    }
    Ok(Built::Artefact(files))
}

/// Why an output was not taken: the build left something else than regular files and
/// folders, or too much.
struct Refused(String);

struct Budget {
    /// Bytes still allowed, of `cap`.
    bytes: u64,
    cap: u64,
    entries: usize,
}

/// Free bytes of the filesystem of `dir`.
fn free_bytes(dir: &OwnedFd) -> Option<u64> {
    // SAFETY: a zeroed statfs is a valid value to be overwritten.
    let mut stat: libc::statfs = unsafe { std::mem::zeroed() };
    // SAFETY: a descriptor we own and a local structure.
    let r = unsafe { libc::fstatfs(dir.as_raw_fd(), &mut stat) };
    (r == 0).then(|| stat.f_bavail * stat.f_bsize as u64)
}

/// Takes `output` (a file or a folder under the box) into `files`.
fn take(
    box_dir: &OwnedFd,
    output: &Output,
    budget: &mut Budget,
    files: &mut Vec<BoxFile>,
) -> Result<(), Refused> {
    if !safe_box_path(&output.from) || !safe_box_path(&output.to) {
        return Err(Refused(format!("{}: not a box path", output.from)));
    }
    let missing = |e: io::Error| {
        Refused(match e.raw_os_error() {
            Some(libc::ENOENT) => format!("the build left no /box/{}", output.from),
            Some(libc::ELOOP) | Some(libc::EXDEV) => format!(
                "the build left a link on the way to /box/{}: not followed",
                output.from
            ),
            _ => format!("/box/{}: {e}", output.from),
        })
    };
    if output.folder {
        let dir = open_beneath(
            box_dir.as_raw_fd(),
            &output.from,
            libc::O_RDONLY | libc::O_DIRECTORY,
        )
        .map_err(missing)?;
        take_folder(&dir, &output.from, &output.to, 0, budget, files)
    } else {
        let fd = open_beneath(
            box_dir.as_raw_fd(),
            &output.from,
            libc::O_RDONLY | libc::O_NONBLOCK,
        )
        .map_err(missing)?;
        files.push(take_file(fd, &output.from, &output.to, budget)?);
        Ok(())
    }
}

fn take_file(fd: OwnedFd, from: &str, to: &str, budget: &mut Budget) -> Result<BoxFile, Refused> {
    let stat = fstat(&fd).map_err(|e| Refused(format!("/box/{from}: {e}")))?;
    if stat.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(Refused(format!(
            "the build left {} at /box/{from}, not a file",
            kind(stat.st_mode)
        )));
    }
    let size = stat.st_size.max(0) as u64;
    if size > budget.bytes {
        return Err(Refused(format!(
            "the program built is more than {} MiB (/box/{from} alone is {:.1} MiB): refused, a \
             contest program is a few MiB",
            budget.cap >> 20,
            size as f64 / f64::from(1 << 20)
        )));
    }
    if budget.entries == 0 {
        return Err(Refused("the build left too many files".to_string()));
    }
    budget.bytes -= size;
    budget.entries -= 1;
    let mut contents = Vec::with_capacity(size as usize);
    std::fs::File::from(fd)
        .take(size)
        .read_to_end(&mut contents)
        .map_err(|e| Refused(format!("/box/{from}: {e}")))?;
    Ok(BoxFile {
        path: to.to_string(),
        contents: Arc::from(contents),
        executable: stat.st_mode & 0o111 != 0,
    })
}

/// Takes every entry of the folder `dir` (`/box/from`: regular files and folders only) as
/// `to/…`.
fn take_folder(
    dir: &OwnedFd,
    from: &str,
    to: &str,
    depth: usize,
    budget: &mut Budget,
    files: &mut Vec<BoxFile>,
) -> Result<(), Refused> {
    if depth > 64 {
        return Err(Refused("the build's output folder is too deep".to_string()));
    }
    let listing = std::fs::read_dir(format!("/proc/self/fd/{}", dir.as_raw_fd()))
        .map_err(|e| Refused(format!("/box/{from}: {e}")))?;
    let mut names: Vec<String> = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|e| Refused(format!("/box/{from}: {e}")))?;
        let name = entry.file_name();
        let Some(name) = name.to_str().filter(|n| safe_box_path(n)) else {
            return Err(Refused(format!(
                "the build left a file with an unusual name in /box/{from}"
            )));
        };
        names.push(name.to_string());
        if names.len() > budget.entries {
            return Err(Refused("the build left too many files".to_string()));
        }
    }
    names.sort();
    for name in names {
        let (source, target) = (format!("{from}/{name}"), format!("{to}/{name}"));
        let fd = open_beneath(dir.as_raw_fd(), &name, libc::O_RDONLY | libc::O_NONBLOCK).map_err(
            |e| {
                Refused(match e.raw_os_error() {
                    Some(libc::ELOOP) => {
                        format!("the build left a symbolic link at /box/{source}: not followed")
                    }
                    _ => format!("/box/{source}: {e}"),
                })
            },
        )?;
        let stat = fstat(&fd).map_err(|e| Refused(format!("/box/{source}: {e}")))?;
        if stat.st_mode & libc::S_IFMT == libc::S_IFDIR {
            if budget.entries == 0 {
                return Err(Refused("the build left too many files".to_string()));
            }
            budget.entries -= 1;
            take_folder(&fd, &source, &target, depth + 1, budget, files)?;
        } else {
            files.push(take_file(fd, &source, &target, budget)?);
        }
    }
    Ok(())
}
