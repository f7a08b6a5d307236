//! The plain types of the crate's interface: what a run is given (the command, its files, its
//! limits, the kind of box) and what it gives back (how it ended, what it used), and why an
//! isolation feature is missing.

use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Limits of one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The judged time: CPU time (user + system) of the submission.
    pub cpu: Duration,
    /// Wall-clock time before the run is killed (so sleeping cannot hang the judge).
    pub wall: Duration,
    /// Peak resident memory allowed.
    pub memory_bytes: u64,
    /// Standard output kept; more is an output-limit verdict.
    pub output_bytes: usize,
    /// Largest file the submission may write.
    pub file_bytes: u64,
    /// The program is built with AddressSanitizer and UndefinedBehaviorSanitizer (`judge …
    /// --sanitize`): its runs get the sanitizers' runtime options ([`SANITIZER_OPTIONS`]), no
    /// `RLIMIT_DATA` (ASan reserves terabytes of shadow address space; the memory cgroup, or
    /// without one ASan's own RSS limit, still bounds the memory it touches) and room for the
    /// shadow memory, redzones and quarantine ([`Limits::memory_cap`]).
    pub sanitizer: bool,
}

/// The sanitizers' runtime options for sanitized runs: report every error and go on (the
/// program is built with `-fsanitize-recover=address`, so a right answer still shows), no
/// leak check (a leak is no error in a contest, and LeakSanitizer's ptrace fails in the box),
/// a small quarantine, and a recognisable exit code when a sanitizer ends the program.
pub const SANITIZER_OPTIONS: [(&str, &str); 2] = [
    (
        "ASAN_OPTIONS",
        "halt_on_error=0:detect_leaks=0:exitcode=86:quarantine_size_mb=16:allocator_may_return_null=0:print_summary=1",
    ),
    (
        "UBSAN_OPTIONS",
        "halt_on_error=0:print_stacktrace=1:exitcode=86",
    ),
];

impl Limits {
    /// The defaults of `judge run` for a CPU limit and memory limit: wall = 2 x CPU + 1 s.
    pub fn new(cpu: Duration, memory_mb: u64) -> Limits {
        Limits {
            cpu,
            wall: cpu * 2 + Duration::from_secs(1),
            memory_bytes: memory_mb * 1024 * 1024,
            output_bytes: 16 * 1024 * 1024,
            file_bytes: 16 * 1024 * 1024,
            sanitizer: false,
        }
    }

    /// The memory a run may use: the limit, and for a sanitized run twice the limit plus
    /// 64 MiB (ASan's shadow is an eighth of the memory touched, redzones surround every
    /// allocation, freed memory waits in quarantine). A memory hog still reaches it.
    pub fn memory_cap(&self) -> u64 {
        if self.sanitizer {
            self.memory_bytes.saturating_mul(2).saturating_add(64 << 20)
        } else {
            self.memory_bytes
        }
    }
}

/// A file of the submission, copied into the box at `/box/<path>` (never bound from the host:
/// a run sees its own files and nothing that lies beside them on the host).
#[derive(Clone, Debug)]
pub struct BoxFile {
    /// The path under `/box`, relative (`sol`, `sol.py`, `classes/Main.class`).
    pub path: String,
    pub contents: Arc<[u8]>,
    pub executable: bool,
}

/// Where the submission's files are inside the box.
pub const BOX: &str = "/box";

/// The command to run, resolved: a program and its arguments as the run sees them, the
/// files copied into the box for it, and the toolchain folders it needs outside `/usr`.
#[derive(Clone, Debug, Default)]
pub struct Command {
    /// The program: one of `files` (`/box/<path>`), or a system program at its host path
    /// (under `/usr`, or in one of `toolchain_roots`).
    pub program: PathBuf,
    /// The arguments; those naming the submission's files name them under `/box`.
    pub args: Vec<String>,
    /// The submission's files, copied under `/box`.
    pub files: Vec<BoxFile>,
    /// Host folders shown read-only at their own path (a rustup toolchain, `/opt/pypy3`):
    /// only a judge's configuration puts them here, never a submission.
    pub toolchain_roots: Vec<PathBuf>,
    /// Environment besides `PATH`, `LANG`, `HOME` and `TMPDIR` (a build's `GOCACHE`).
    pub env: Vec<(String, String)>,
}

impl Command {
    /// A program of the system with its arguments, and no files of its own (`/bin/cat`).
    pub fn system(program: impl Into<PathBuf>, args: &[&str]) -> Command {
        Command {
            program: program.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            ..Command::default()
        }
    }
}

/// What kind of box a [`crate::Sandbox`] makes, besides the command.
#[derive(Clone, Debug)]
pub struct Options {
    /// Host paths the runs must not see even where they lie inside something visible.
    pub hidden: Vec<PathBuf>,
    /// A build: `/box` is writable (this size), the working directory is `/box/src`, and
    /// `HOME` and `TMPDIR` are `/box/tmp`.
    pub build: Option<BuildBox>,
    /// Processes (threads included) a slot may have at once.
    pub processes: u64,
    /// Start runs from a fork server per slot where the machine allows (and
    /// `BOARDJUDGE_FORK_SERVER` is not `0`); else fresh namespaces per run.
    pub fork_server: bool,
    /// A jury box: its runs get per-run files under [`CASE_DIR`] and, when asked, a writable
    /// [`FEEDBACK_DIR`] ([`crate::Sandbox::run_io`]). Its runs start afresh (no fork server).
    pub jury: Option<JuryBox>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hidden: Vec::new(),
            build: None,
            processes: PROCESSES_PER_SLOT,
            fork_server: true,
            jury: None,
        }
    }
}

/// A box for the jury's programs (input, answer and output validators, generators): as a
/// submission's, plus a folder of per-run files and a feedback folder.
///
/// As root, `/box` holds the program's files, read-only, as for a submission; [`CASE_DIR`] is a
/// tmpfs of its own that only the judge writes (the run reads it: root's files, mode `0444`),
/// and [`FEEDBACK_DIR`] a tmpfs of its own, owned by the run's user when it may write there, of
/// `feedback_bytes` and at most `feedback_files` entries. The judge empties both before and
/// after every run, through descriptors it keeps of them. Without root, `/box` is the slot's
/// scratch folder, written afresh for every run.
#[derive(Clone, Debug)]
pub struct JuryBox {
    /// What a run may write into [`FEEDBACK_DIR`] in all (the size of its tmpfs), and what
    /// comes back of it at most.
    pub feedback_bytes: u64,
    /// How many entries a run may make there; the files that come back are at most as many.
    pub feedback_files: usize,
}

impl Default for JuryBox {
    /// 16 MiB and 64 entries: a judge message, a score, a next pass's input, a few more.
    fn default() -> JuryBox {
        JuryBox {
            feedback_bytes: 16 << 20,
            feedback_files: 64,
        }
    }
}

/// Where a jury box's per-run files are ([`RunIo::files`] name paths below it).
pub const CASE_DIR: &str = "/box/case";

/// A jury box's feedback folder ([`RunIo::feedback`]).
pub const FEEDBACK_DIR: &str = "/box/feedback";

/// What a run reads on its standard input.
#[derive(Debug)]
pub enum Stdin<'a> {
    /// These bytes, as a regular file: a sealed `memfd` written by the judge, whose size is
    /// theirs, read-only to the run at offset 0 (`mmap`, `lseek` and `fstat` work on it).
    Bytes(&'a [u8]),
    /// This descriptor as it is (a pipe of an interactive pair, a file the caller opened).
    Fd(OwnedFd),
}

/// Where a run's standard output goes.
#[derive(Debug)]
pub enum Stdout {
    /// Into [`Finished::stdout`], up to [`Limits::output_bytes`] (more ends the run).
    Capture,
    /// Into this descriptor (a pipe, a file): not captured, and not bounded by the judge (a
    /// file's size is, by [`Limits::file_bytes`]).
    Fd(OwnedFd),
}

/// One run with its streams and files ([`crate::Sandbox::run_io`]).
#[derive(Debug)]
pub struct RunIo<'a> {
    pub stdin: Stdin<'a>,
    pub stdout: Stdout,
    /// Files written before the run at these box paths (each under [`CASE_DIR`]: the caller
    /// names them, `/box/case/input.in`), read-only to the run, gone after it. A jury box's only.
    pub files: &'a [(&'a str, &'a [u8])],
    /// An empty [`FEEDBACK_DIR`] the run may write, whose regular files come back in
    /// [`Ran::feedback`]. A jury box's only.
    pub feedback: bool,
    pub limits: &'a Limits,
    /// Once set, the run is killed and comes back with `interrupted` set.
    pub stop: &'a AtomicBool,
}

/// A run of [`crate::Sandbox::run_io`]: how it ended, and what it left in its feedback folder.
#[derive(Clone, Debug)]
pub struct Ran {
    pub finished: Finished,
    /// The regular files the run left directly in [`FEEDBACK_DIR`], by name, in name order.
    pub feedback: Vec<FeedbackFile>,
    /// What it left there that did not come back, and why, in words (`x: a named pipe`): links,
    /// folders, pipes, names that are not UTF-8, entries beyond the count.
    pub feedback_skipped: Vec<String>,
}

/// A file a run left in its feedback folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedbackFile {
    pub name: String,
    pub contents: Vec<u8>,
    /// It was longer than what was left of [`JuryBox::feedback_bytes`]: `contents` is its start.
    pub truncated: bool,
}

/// A writable `/box` for a build.
#[derive(Clone, Debug)]
pub struct BuildBox {
    /// The tmpfs's size: everything the build writes there (and in its `/tmp`) counts.
    pub bytes: u64,
    /// Folders made under `/box`, owned by the build's user (`src`, `out`, `tmp`, …).
    pub dirs: Vec<String>,
}

/// Why an isolation feature is not in use on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// It needs root.
    NotRoot,
    /// Not tried yet ([`crate::Isolation::detect`] before a [`crate::Sandbox`] is made).
    NotSetUp,
    /// The kernel or the machine refused it: what was tried, and what it said.
    Refused(String),
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Missing::NotRoot => f.write_str("not root"),
            Missing::NotSetUp => f.write_str("not set up yet"),
            Missing::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for Missing {}

/// Processes (threads included) one slot's submission may have at once.
pub const PROCESSES_PER_SLOT: u64 = 64;

/// Where the submission looks for programs.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// What happened to the submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    Signal(i32),
}

#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_kb: u64,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Killed because standard output exceeded the cap.
    pub output_exceeded: bool,
    /// Killed because the wall-clock limit passed.
    pub wall_exceeded: bool,
    /// Killed because the run's CPU time (all its processes) passed the limit.
    pub cpu_exceeded: bool,
    /// A process of the run was killed at the memory limit (its cgroup's).
    pub memory_exceeded: bool,
    /// Killed because the judge was interrupted.
    pub interrupted: bool,
}
