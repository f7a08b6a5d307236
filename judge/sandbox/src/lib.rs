//! The sandbox a submission runs in, and a contestant's source is built in. What it isolates
//! and what it does not is written down in the README ("The sandbox", a threat-model table).
//! In short, as root, each run gets: new PID, IPC and cgroup namespaces, its lane's mount and
//! empty network namespaces and its slot's UTS namespace; a private, read-only root holding
//! only `/usr`, `/etc` (with generated accounts), the toolchains' folders, a `/dev` like any
//! Linux's and the submission's own files **copied** into `/box` ([`rootfs`]), with a fresh
//! `/tmp` of its own; its lane's cgroups ([`cgroup`]: peak memory, CPU time of every process, a
//! process cap, and the time its processes waited for a CPU); a uid no other judge holds
//! ([`uids`]); Landlock (no TCP, no signals or abstract sockets outside); rlimits as a
//! backstop; a parent-death signal; and a wall clock. Runs start from a fork server per slot
//! ([`server`]: the slot's namespaces made once, two lanes, the next case prestarted; a Python
//! script's cases forked from a zygote). A build ([`build`]) gets the same box
//! with a writable `/box` of fixed size holding only its sources. Without root: a PID
//! namespace inside a user namespace with new IPC and network namespaces and every mount
//! read-only except the scratch directory (where the kernel allows user namespaces), Landlock
//! on files, and rlimits in place of cgroups.

pub mod build;
pub mod cgroup;
pub mod landlock;
pub mod remove;
pub mod rootfs;
pub mod server;
pub mod spawn;
pub mod uids;

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use spawn::{Exit, Finished};

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

/// What kind of box a [`Sandbox`] makes, besides the command.
#[derive(Clone, Debug)]
pub struct Options {
    /// Host paths the runs must not see even where they lie inside something visible.
    pub hidden: Vec<PathBuf>,
    /// A build: `/box` is writable (this size), the working directory is `/box/src`, and
    /// `HOME` and `TMPDIR` are `/box/tmp`.
    pub build: Option<rootfs::BuildBox>,
    /// Processes (threads included) a slot may have at once.
    pub processes: u64,
    /// Start runs from a fork server per slot where the machine allows (and
    /// `BOARDJUDGE_FORK_SERVER` is not `0`); else fresh namespaces per run.
    pub fork_server: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hidden: Vec::new(),
            build: None,
            processes: PROCESSES_PER_SLOT,
            fork_server: true,
        }
    }
}

/// Why an isolation feature is not in use on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// It needs root.
    NotRoot,
    /// Not tried yet ([`Isolation::detect`] before a [`Sandbox`] is made).
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

/// How strongly runs are isolated on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Isolation {
    pub pid_namespace: bool,
    /// The PID namespace comes with a user namespace (the judge is not root).
    pub user_namespace: bool,
    pub drop_privileges: bool,
    pub landlock_abi: i64,
    /// As root: a private read-only root, new IPC and mount namespaces per run, a network
    /// namespace per slot. `Err`: why not.
    pub private_root: Result<(), Missing>,
    /// Without root, in the user namespace: new IPC, network and mount namespaces, every
    /// mount read-only except the scratch directory.
    pub read_only_mounts: bool,
    /// The cgroup interface runs are accounted with, or why there is none.
    pub cgroup: Result<cgroup::Version, Missing>,
    /// As root: each run, once unprivileged, moves into a user namespace of its own (and a
    /// session keyring of its own), so no per-uid kernel state (keyrings) outlives it. Needs
    /// unprivileged user namespaces.
    pub own_user_namespace: bool,
    /// Runs start from a fork server per slot (namespaces made once, the next case started
    /// while the judge checks the last), or why not.
    pub fork_server: Result<(), Missing>,
}

impl Isolation {
    /// What this machine allows, before anything is set up (cgroups are tried by
    /// [`Sandbox::new`], which records the outcome in its own copy).
    pub fn detect() -> Isolation {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let read_only_mounts = !root && spawn::user_namespaces_work(true);
        let user_namespace = read_only_mounts || !root && spawn::user_namespaces_work(false);
        Isolation {
            pid_namespace: root || user_namespace,
            user_namespace,
            drop_privileges: root,
            landlock_abi: landlock::abi(),
            private_root: if root { Ok(()) } else { Err(Missing::NotRoot) },
            read_only_mounts,
            cgroup: Err(if root {
                Missing::NotSetUp
            } else {
                Missing::NotRoot
            }),
            own_user_namespace: root && spawn::unprivileged_user_namespaces_work(uids::FIRST_UID),
            fork_server: Err(Missing::NotSetUp),
        }
    }

    /// A few words for the user: what isolates the runs here (with `zygote`, a Python
    /// script's cases forked from zygotes), then what is missing (the details, and why:
    /// [`Isolation::describe`]).
    pub fn summary(&self, zygote: bool) -> String {
        let mut have = Vec::new();
        let mut missing = Vec::new();
        if self.private_root.is_ok() {
            have.push("private root");
        } else {
            missing.push("private root");
        }
        have.push(match (self.pid_namespace, self.user_namespace) {
            // Short: the line fits a terminal (`-v` names them).
            (true, false) if self.private_root.is_ok() => "namespaces",
            (true, false) => "PID namespace",
            (true, true) if self.read_only_mounts => {
                "namespaces in a user namespace, read-only mounts"
            }
            (true, true) => "PID namespace in a user namespace",
            _ => "no namespaces",
        });
        match &self.cgroup {
            Ok(cgroup::Version::V1) => have.push("cgroups v1"),
            Ok(cgroup::Version::V2) => have.push("cgroups v2"),
            Err(_) => missing.push("cgroups"),
        }
        if self.fork_server.is_ok() {
            have.push("fork server");
        }
        if zygote {
            have.push("Python zygote");
        }
        if self.drop_privileges {
            have.push("own uid");
        } else {
            missing.push("own uid");
        }
        if self.landlock_abi > 0 {
            have.push("Landlock");
        } else {
            missing.push("Landlock");
        }
        let mut line = have.join(", ");
        if !missing.is_empty() {
            line.push_str(&format!("; no {}", missing.join(", no ")));
            if !self.drop_privileges {
                line.push_str(" (not root)");
            }
        }
        line
    }

    /// One line for the user: what isolates the runs here, and what is missing and why.
    pub fn describe(&self) -> String {
        let namespaces = match (self.pid_namespace, self.user_namespace) {
            (true, false) if self.private_root.is_ok() => {
                "PID namespace: yes, IPC/mount/network namespaces: yes".to_string()
            }
            (true, false) => "PID namespace: yes".to_string(),
            (true, true) if self.read_only_mounts => {
                "PID namespace: yes (in a user namespace), IPC/network namespaces: yes, \
                 mounts: read-only except the scratch directory"
                    .to_string()
            }
            (true, true) => "PID namespace: yes (in a user namespace)".to_string(),
            _ => "PID namespace: no (not root, no user namespaces)".to_string(),
        };
        let root = match &self.private_root {
            Ok(()) => {
                "private root: yes (/usr, /etc, /dev, the submission's files copied)".to_string()
            }
            Err(why) => format!("private root: no ({why})"),
        };
        let cgroup = match &self.cgroup {
            Ok(cgroup::Version::V1) => "cgroups: v1 (memory, cpuacct, pids)".to_string(),
            Ok(cgroup::Version::V2) => "cgroups: v2 (memory, cpu, pids)".to_string(),
            Err(why) => format!(
                "cgroups: no ({why}; peak memory from ru_maxrss, CPU of reaped processes, rlimits)"
            ),
        };
        let server = match &self.fork_server {
            Ok(()) => "fork server: yes (one per slot, the next case started ahead)".to_string(),
            Err(why) => format!("fork server: no ({why})"),
        };
        format!(
            "{namespaces}, {root}, {cgroup}, {server}, unprivileged uid: {}, Landlock: {}",
            match (self.drop_privileges, self.own_user_namespace) {
                (true, true) => "yes (leased, in a user namespace of the run's own)",
                (true, false) =>
                    "yes (leased; no user namespace of its own: its keyrings outlive the run)",
                (false, _) => "no (not root)",
            },
            if self.landlock_abi > 0 {
                format!("ABI {}", self.landlock_abi)
            } else {
                "unavailable".to_string()
            }
        )
    }
}

/// Processes (threads included) one slot's submission may have at once.
pub const PROCESSES_PER_SLOT: u64 = 64;

/// Where the submission looks for programs.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// One parallel slot: its user, its scratch directory, its namespaces, groups and rules.
struct Slot {
    // Dropped in this order: the fork server (its cases killed), then the groups (their
    // processes killed, then removed) before the leases.
    server: Option<server::Server>,
    group: Option<cgroup::SlotGroup>,
    /// With a fork server: the second lane's group and uid (the first lane's are the slot's).
    second_group: Option<cgroup::SlotGroup>,
    /// With zygotes: each lane's zygote's group.
    zygote_groups: Vec<cgroup::SlotGroup>,
    namespaces: Option<rootfs::SlotNamespaces>,
    ruleset: Option<landlock::Ruleset>,
    /// The working directory: `/tmp` (or `/box/src` for a build) inside a private root, else
    /// a scratch directory.
    workdir: PathBuf,
    uid: Option<uids::UidLease>,
    second_uid: Option<uids::UidLease>,
}

/// A sandbox for one `judge run` / `stress` / `strength`, or one build: `slots` runs at a time.
pub struct Sandbox {
    // Dropped in this order: the slots' groups before the judge's group that holds them.
    slots: Vec<Slot>,
    _cgroups: Option<cgroup::Hierarchy>,
    /// The slots' scratch directories, without a private root.
    root: Option<PathBuf>,
    pub isolation: Isolation,
    /// Without root, in the read-only tree: paths covered by an empty mount in every run (the
    /// test data and the judge's executable, which Landlock's `/usr` rule would let it read).
    covered: Vec<(CString, bool)>,
    /// The command as the runs see it.
    command: Command,
    /// Without a private root: where `/box` is on the host (for a build, each slot's own).
    box_on_host: Option<PathBuf>,
    build: Option<rootfs::BuildBox>,
    processes: u64,
    /// `RLIMIT_NPROC` when there is no pids cgroup: per sandbox user as root; without root it
    /// counts all the real user's processes, so it is what the user already runs plus room
    /// for every slot.
    process_limit: u64,
    /// This process, for the child's check that the judge is still alive.
    judge_pidfd: Option<OwnedFd>,
    /// Memory available when the sandbox was made: a slot prestarts its next case only when
    /// every slot's two cases at their limit fit in it.
    memory_available: u64,
}

/// `word` with a leading `/box` replaced by `outside` (the box's folder on the host, without a
/// private root).
fn rebase(word: &str, outside: Option<&Path>) -> String {
    match (outside, word.strip_prefix(BOX)) {
        (Some(dir), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{}{rest}", dir.display())
        }
        _ => word.to_string(),
    }
}

/// Writes `files` under `dir` (an ordinary folder: without a private root), owned by `owner`
/// when given, read-only unless `writable`.
fn write_box_files(
    dir: &Path,
    files: &[BoxFile],
    dirs: &[String],
    owner: Option<u32>,
    writable: bool,
) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let make_dir = |path: &Path| -> io::Result<()> {
        std::fs::create_dir_all(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
        if let Some(uid) = owner {
            std::os::unix::fs::chown(path, Some(uid), Some(uid))?;
        }
        Ok(())
    };
    for sub in dirs {
        if !rootfs::safe_box_path(sub) {
            return Err(io::Error::other(format!("{sub}: not a box path")));
        }
        make_dir(&dir.join(sub))?;
    }
    for file in files {
        if !rootfs::safe_box_path(&file.path) {
            return Err(io::Error::other(format!("{}: not a box path", file.path)));
        }
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            make_dir(parent)?;
        }
        std::fs::write(&path, &file.contents)?;
        let mode = match (file.executable, writable) {
            (true, false) => 0o555,
            (false, false) => 0o444,
            (true, true) => 0o755,
            (false, true) => 0o644,
        };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
        if let Some(uid) = owner {
            std::os::unix::fs::chown(&path, Some(uid), Some(uid))?;
        }
    }
    Ok(())
}

impl Sandbox {
    pub fn new(command: Command, slots: usize) -> io::Result<Sandbox> {
        Sandbox::hiding(command, slots, &[])
    }

    /// A sandbox whose runs cannot see `hidden` (the test data) even where it lies inside
    /// something they can see.
    pub fn hiding(command: Command, slots: usize, hidden: &[PathBuf]) -> io::Result<Sandbox> {
        Sandbox::with(
            command,
            slots,
            &Options {
                hidden: hidden.to_vec(),
                ..Options::default()
            },
        )
    }

    /// A sandbox of the kind `options` says (a build's, or runs').
    pub fn with(command: Command, slots: usize, options: &Options) -> io::Result<Sandbox> {
        let mut isolation = Isolation::detect();
        // The judge's own executable is hidden too, wherever it is installed: inside
        // `/usr/local/bin` it would otherwise answer every test (`judge solve`). (When the
        // submission is the judge itself, it runs from its copy in the box.)
        let mut hidden = options.hidden.clone();
        if let Ok(judge) = std::env::current_exe().and_then(std::fs::canonicalize) {
            hidden.push(judge);
        }
        let covered = hidden
            .iter()
            .filter_map(|p| std::fs::canonicalize(p).ok())
            .filter_map(|p| {
                let is_dir = p.is_dir();
                CString::new(p.as_os_str().as_bytes().to_vec())
                    .ok()
                    .map(|c| (c, is_dir))
            })
            .collect();
        let slots = slots.max(1);
        // Runs (not builds) as root with a private root start from a fork server per slot,
        // which has two lanes, each with its own uid and groups.
        isolation.fork_server = if options.build.is_some() {
            Err(Missing::Refused("a build runs once".to_string()))
        } else if !options.fork_server
            || std::env::var_os("BOARDJUDGE_FORK_SERVER").is_some_and(|v| v == "0")
        {
            Err(Missing::Refused(
                "turned off (BOARDJUDGE_FORK_SERVER=0)".to_string(),
            ))
        } else if !isolation.drop_privileges {
            Err(Missing::NotRoot)
        } else {
            Ok(())
        };
        let lanes = if isolation.fork_server.is_ok() { 2 } else { 1 };
        let leases = if isolation.drop_privileges {
            uids::lease(slots * lanes)?.into_iter().map(Some).collect()
        } else {
            (0..slots * lanes).map(|_| None).collect::<Vec<_>>()
        };
        let uid_numbers: Vec<Option<u32>> =
            leases.iter().map(|l| l.as_ref().map(|l| l.uid)).collect();
        let uid_of = |k: usize| uid_numbers.get(k).copied().flatten();
        let layout = |user: Option<u32>, other: Option<u32>| rootfs::Layout {
            files: command.files.clone(),
            toolchain_roots: command.toolchain_roots.clone(),
            hidden: hidden.clone(),
            user,
            other_users: other.into_iter().collect(),
            build: options.build.clone(),
        };
        let lane_uids = |k: usize| {
            (
                uid_of(k * lanes),
                (lanes == 2).then(|| uid_of(k * 2 + 1)).flatten(),
            )
        };
        // The first slot's root, which also tells whether the machine allows one (a container
        // without the right to mount does not): if not, runs fall back to Landlock on files.
        let mut first_namespaces = None;
        if isolation.private_root.is_ok() {
            let (user, other) = lane_uids(0);
            match rootfs::SlotNamespaces::build(&layout(user, other)) {
                Ok(ns) => first_namespaces = Some(ns),
                Err(e) => isolation.private_root = Err(Missing::Refused(e.to_string())),
            }
        }
        let private_root = isolation.private_root.is_ok();
        // Scratch directories on disk only without a private root (which has its own /tmp).
        let root = if private_root {
            None
        } else {
            Some(scratch_root()?)
        };
        let box_on_host = match (&root, &options.build) {
            (Some(root), None) => {
                let dir = root.join("box");
                write_box_files(&dir, &command.files, &[], None, false)?;
                Some(dir)
            }
            _ => None,
        };
        let cgroups = match leases.first() {
            Some(Some(lease)) => match cgroup::Hierarchy::create(
                lease,
                &leases[1..]
                    .iter()
                    .flatten()
                    .map(|l| l.uid)
                    .collect::<Vec<_>>(),
            ) {
                Ok(h) => {
                    isolation.cgroup = Ok(h.version);
                    Some(h)
                }
                Err(why) => {
                    isolation.cgroup = Err(why);
                    None
                }
            },
            _ => None,
        };
        if !private_root || cgroups.is_none() {
            isolation.fork_server = Err(Missing::Refused(
                "it needs a private root and cgroups".to_string(),
            ));
        }
        // SAFETY: pidfd_open on this very process.
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, libc::getpid(), 0) };
        // SAFETY: the kernel just returned this descriptor.
        let judge_pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd as i32) });
        let environments = [
            environment("/tmp", None, &command.env, &|w| w.to_string())?,
            environment("/tmp", Some(None), &command.env, &|w| w.to_string())?,
        ];
        let mut made = Vec::new();
        let mut leases = leases.into_iter();
        for k in 0..slots {
            let uid = leases.next().flatten();
            let second_uid = if lanes == 2 {
                leases.next().flatten()
            } else {
                None
            };
            let uid_number = uid.as_ref().map(|l: &uids::UidLease| l.uid);
            let (workdir, namespaces) = if private_root {
                let namespaces = match first_namespaces.take() {
                    Some(ns) => ns,
                    None => {
                        let (user, other) = lane_uids(k);
                        rootfs::SlotNamespaces::build(&layout(user, other))?
                    }
                };
                let workdir = if options.build.is_some() {
                    Path::new(BOX).join("src")
                } else {
                    PathBuf::from("/tmp")
                };
                (workdir, Some(namespaces))
            } else {
                let workdir = root
                    .as_ref()
                    .expect("a scratch root without a private root")
                    .join(format!("slot-{k}"));
                reset_dir(&workdir, uid_number)?;
                (workdir, None)
            };
            let group = match &cgroups {
                Some(h) => Some(h.slot(k, options.processes)?),
                None => None,
            };
            let second_group = match (&cgroups, isolation.fork_server.is_ok()) {
                (Some(h), true) => Some(h.lane(k, options.processes)?),
                _ => None,
            };
            let mut zygote_groups = Vec::new();
            if let (Some(h), true) = (&cgroups, second_group.is_some() && has_zygote(&command)) {
                for lane in 0..2 {
                    let group = h.zygote(k, lane)?;
                    // What an interpreter holds after its start, with room to spare.
                    group.prepare(ZYGOTE_MEMORY, false)?;
                    zygote_groups.push(group);
                }
            }
            let mut rules: Vec<(&Path, landlock::Access)> = [
                "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc",
                "/sys",
            ]
            .iter()
            .map(|p| (Path::new(*p), landlock::Access::ReadExecute))
            .collect();
            for device in [
                "/dev/null",
                "/dev/zero",
                "/dev/urandom",
                "/dev/random",
                "/dev/full",
            ] {
                rules.push((Path::new(device), landlock::Access::Full));
            }
            for toolchain in &command.toolchain_roots {
                rules.push((toolchain.as_path(), landlock::Access::ReadExecute));
            }
            if let Some(dir) = &box_on_host {
                rules.push((dir.as_path(), landlock::Access::ReadExecute));
            }
            rules.push((workdir.as_path(), landlock::Access::Full));
            // With a private root the files are limited by what is mounted; Landlock then
            // only handles the network and scopes.
            let ruleset = landlock::Ruleset::new(&rules, !private_root)?;
            let mut slot = Slot {
                server: None,
                uid,
                second_uid,
                workdir,
                ruleset,
                namespaces,
                group,
                second_group,
                zygote_groups,
            };
            if isolation.fork_server.is_ok() {
                match start_server(
                    &slot,
                    &command,
                    &environments,
                    isolation.own_user_namespace,
                    judge_pidfd.as_ref(),
                ) {
                    Ok(server) => slot.server = Some(server),
                    Err(e) => isolation.fork_server = Err(Missing::Refused(e.to_string())),
                }
            }
            made.push(slot);
        }
        if isolation.fork_server.is_err() {
            // One slot's server could not start: every slot runs the same way.
            for slot in &mut made {
                slot.server = None;
            }
        }
        let process_limit = if isolation.drop_privileges {
            options.processes
        } else {
            own_process_count() + options.processes * made.len() as u64
        };
        Ok(Sandbox {
            covered,
            slots: made,
            _cgroups: cgroups,
            root,
            isolation,
            command,
            box_on_host,
            build: options.build.clone(),
            processes: options.processes,
            process_limit,
            judge_pidfd,
            memory_available: memory_available(),
        })
    }

    pub fn slots(&self) -> usize {
        self.slots.len()
    }

    /// The cgroups of this sandbox's judge, if it has any (for tests and diagnostics).
    pub fn cgroup_dirs(&self) -> Vec<PathBuf> {
        self._cgroups.as_ref().map_or_else(Vec::new, |h| h.dirs())
    }

    /// Where `/box` of slot `slot` is on the host, without a private root.
    fn outside(&self, slot: &Slot) -> Option<PathBuf> {
        if slot.namespaces.is_some() {
            return None;
        }
        match &self.build {
            // A build's box is its slot's scratch directory (`/box/src` is `<slot>/src`).
            Some(_) => Some(slot.workdir.clone()),
            None => self.box_on_host.clone(),
        }
    }

    /// A descriptor of slot `slot`'s `/box` (after a build: the files it wrote).
    pub fn box_dir(&self, slot: usize) -> io::Result<OwnedFd> {
        let slot = &self.slots[slot];
        match (&slot.namespaces, self.outside(slot)) {
            (Some(ns), _) => ns.box_dir.try_clone(),
            (None, Some(dir)) => {
                let path = CString::new(dir.as_os_str().as_bytes())
                    .map_err(|_| io::Error::other("a NUL byte in a path"))?;
                // SAFETY: a valid C string; a directory opened without following links.
                let fd = unsafe {
                    libc::open(
                        path.as_ptr(),
                        libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                    )
                };
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                // SAFETY: just opened.
                Ok(unsafe { OwnedFd::from_raw_fd(fd) })
            }
            (None, None) => Err(io::Error::other("no box")),
        }
    }

    /// Runs the command once in slot `slot` with `stdin` as its input.
    pub fn run(
        &self,
        slot: usize,
        stdin: &[u8],
        limits: &Limits,
        interrupted: &AtomicBool,
    ) -> io::Result<Finished> {
        let slot = &self.slots[slot];
        if let Some(server) = &slot.server {
            return self.run_served(slot, server, stdin, limits, interrupted);
        }
        let uid = slot.uid.as_ref().map(|l| l.uid);
        let outside = self.outside(slot);
        if slot.namespaces.is_none() {
            reset_dir(&slot.workdir, uid)?;
            if let (Some(build), Some(dir)) = (&self.build, &outside) {
                // A build's sources, fresh in its scratch directory.
                write_box_files(dir, &self.command.files, &build.dirs, uid, true)?;
            }
        }
        let c =
            |s: &[u8]| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
        let at = |word: &str| rebase(word, outside.as_deref());
        let program = c(at(&self.command.program.to_string_lossy()).as_bytes())?;
        let mut argv = vec![program.clone()];
        for a in &self.command.args {
            argv.push(c(at(a).as_bytes())?);
        }
        let (home, workdir) = match &self.build {
            Some(_) => (at("/box/tmp"), at("/box/src")),
            None => (
                slot.workdir.display().to_string(),
                slot.workdir.display().to_string(),
            ),
        };
        let sanitizer = limits.sanitizer.then(|| {
            // No memory cgroup: ASan's own limits bound the memory instead of RLIMIT_DATA,
            // which its shadow reservation cannot live with.
            slot.group.is_none().then(|| limits.memory_cap() >> 20)
        });
        let envp = environment(&home, sanitizer, &self.command.env, &at)?;
        let cpu_seconds = limits.cpu.as_secs() + 1;
        // The group's memory cap is the limit itself: the kernel reclaims caches (the
        // group's share of the page and dentry caches counts in its usage) before it kills a
        // process that needs more, and such a kill is the MLE.
        let memory_cap = limits.memory_cap();
        let mut rlimits = vec![
            // A backstop: the verdict is judged on the measured CPU time.
            (libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
            (libc::RLIMIT_FSIZE, limits.file_bytes, limits.file_bytes),
            (libc::RLIMIT_CORE, 0, 0),
        ];
        if let Some(group) = &slot.group {
            group.prepare(memory_cap, true)?;
        } else {
            // Without a memory cgroup: writable memory, with the same room; without a pids
            // cgroup: processes per user.
            // Not for a sanitized run: ASan's shadow reservation needs terabytes of address
            // space (its hard_rss_limit_mb and malloc_limit_mb stand in, above).
            if !limits.sanitizer {
                let data = limits
                    .memory_bytes
                    .saturating_mul(2)
                    .saturating_add(64 << 20);
                rlimits.push((libc::RLIMIT_DATA, data, data));
            }
            rlimits.push((libc::RLIMIT_NPROC, self.process_limit, self.process_limit));
        }
        // A run's /tmp holds at most its memory; a build writes into its box, of fixed size.
        let tmp_bytes = self.build.as_ref().map_or(memory_cap, |b| b.bytes);
        let private_root = match &slot.namespaces {
            Some(ns) => Some(spawn::PrivateRoot {
                mount_namespace: ns.mount.as_raw_fd(),
                network_namespace: ns.network.as_raw_fd(),
                uts_namespace: ns.uts.as_raw_fd(),
                tmp_options: c(format!(
                    "size={tmp_bytes},mode=0700,uid={0},gid={0}",
                    uid.unwrap_or(0)
                )
                .as_bytes())?,
            }),
            None => None,
        };
        let plan = spawn::Plan {
            program,
            argv,
            envp,
            workdir: c(workdir.as_bytes())?,
            writable: c(slot.workdir.as_os_str().as_bytes())?,
            uid,
            identity_map: match uid {
                Some(uid) if self.isolation.own_user_namespace => {
                    Some(c(format!("{uid} {uid} 1").as_bytes())?)
                }
                _ => None,
            },
            rlimits,
            landlock: slot.ruleset.as_ref().map(|r| r.raw_fd()),
            pid_namespace: self.isolation.pid_namespace,
            user_namespace: self.isolation.user_namespace,
            ipc_namespace: slot.namespaces.is_some() || self.isolation.read_only_mounts,
            private_root,
            read_only_tree: self.isolation.read_only_mounts,
            covered: &self.covered,
            cgroup_join: slot.group.as_ref().map_or_else(Vec::new, |g| g.join_fds()),
            cgroup_namespace: self.isolation.pid_namespace,
            mount_proc: false,
            judge_pidfd: self.judge_pidfd.as_ref().map_or(-1, |fd| fd.as_raw_fd()),
        };
        self.watched(slot.group.as_ref(), stdin, limits, interrupted, |watch| {
            spawn::run(&plan, watch)
        })
    }

    /// Runs a case from the slot's fork server: the one prestarted for these limits, or one
    /// started now; then asks for the next case in the other lane while this one runs.
    fn run_served(
        &self,
        slot: &Slot,
        server: &server::Server,
        stdin: &[u8],
        limits: &Limits,
        interrupted: &AtomicBool,
    ) -> io::Result<Finished> {
        let groups = [slot.group.as_ref(), slot.second_group.as_ref()];
        let memory_cap = limits.memory_cap();
        let cpu_seconds = limits.cpu.as_secs() + 1;
        let key = server::CaseKey {
            rlimits: vec![
                (libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
                (libc::RLIMIT_FSIZE, limits.file_bytes, limits.file_bytes),
                (libc::RLIMIT_CORE, 0, 0),
            ],
            tmp_bytes: memory_cap,
            sanitizer: limits.sanitizer,
        };
        let prepare = |lane: usize| groups[lane].map_or(Ok(()), |g| g.prepare(memory_cap, true));
        let case = server.take(&key, &prepare)?;
        let lane = case.lane;
        // The next case is asked for once this one has its input (the judge's part of it then
        // overlaps this run). A waiting case may hold its memory limit: prestart only when two
        // cases of every slot at their limit fit in what the machine had free.
        let prestart = || {
            if memory_cap.saturating_mul(2 * self.slots.len() as u64) <= self.memory_available {
                // A prestart that fails is no error of this run (the next one starts its own).
                let _ = server.prestart(&key, lane, &prepare);
            }
        };
        self.watched_then(
            groups[lane],
            stdin,
            limits,
            interrupted,
            Some(&prestart),
            move |watch| {
                // The wall clock starts when the program does: it was stopped at its `exec` (or, in
                // a zygote, waits for its input).
                let started = std::time::Instant::now();
                if let Err(e) = server.go(&case) {
                    let _ = server.finish(lane);
                    return Err(e);
                }
                let server::Started {
                    pidfd,
                    stdin,
                    stdout,
                    stderr,
                    ..
                } = case;
                let result = spawn::supervise(&pidfd, 0, stdin, stdout, stderr, watch, started);
                // Whatever happened, nothing of the case may survive it.
                let status = server.finish(lane)?;
                let mut finished = result?;
                finished.exit = spawn::decode(status);
                Ok(finished)
            },
        )
    }

    /// Watches a run (`go`) under `limits`, with its group's gauges when it has one, and takes
    /// its CPU time and memory from the group once it is over.
    fn watched(
        &self,
        group: Option<&cgroup::SlotGroup>,
        stdin: &[u8],
        limits: &Limits,
        interrupted: &AtomicBool,
        go: impl FnOnce(&spawn::Watch<'_>) -> io::Result<Finished>,
    ) -> io::Result<Finished> {
        self.watched_then(group, stdin, limits, interrupted, None, go)
    }

    /// [`Sandbox::watched`], calling `after_input` once the run has its input.
    fn watched_then(
        &self,
        group: Option<&cgroup::SlotGroup>,
        stdin: &[u8],
        limits: &Limits,
        interrupted: &AtomicBool,
        after_input: Option<&(dyn Fn() + Sync)>,
        go: impl FnOnce(&spawn::Watch<'_>) -> io::Result<Finished>,
    ) -> io::Result<Finished> {
        let cpu_usage = |group: &cgroup::SlotGroup| group.cpu_ns().ok().map(Duration::from_nanos);
        let gauge = group.map(|g| move || cpu_usage(g));
        let tasks = group.map(|g| move || g.tasks());
        let waited = group
            .filter(|g| g.has_pressure())
            .map(|g| move || g.cpu_full_wait());
        let adopt = group
            .filter(|g| g.has_pressure())
            .map(|g| move || g.adopt());
        let watch = spawn::Watch {
            stdin,
            wall: limits.wall,
            output_cap: limits.output_bytes,
            stderr_cap: if self.build.is_some() {
                limits.output_bytes
            } else {
                64 * 1024
            },
            interrupted,
            cpu_limit: limits.cpu,
            cpu_usage: gauge
                .as_ref()
                .map(|g| g as &(dyn Fn() -> Option<Duration> + Sync)),
            waited: waited
                .as_ref()
                .map(|w| w as &(dyn Fn() -> Option<Duration> + Sync)),
            adopt: adopt.as_ref().map(|a| a as &(dyn Fn() + Sync)),
            tasks: tasks
                .as_ref()
                .map(|t| t as &(dyn Fn() -> Vec<libc::pid_t> + Sync)),
            // A compiler's flood of messages is drained: only a build limit stops it.
            stop_at_output_cap: self.build.is_none(),
            after_input,
        };
        let mut finished = go(&watch)?;
        if let Some(group) = group {
            // Everything of the run is gone (its PID namespace is): the group's figures are
            // final, and cover every process it started.
            if !self.isolation.pid_namespace {
                group.kill_all();
            }
            finished.cpu = Duration::from_nanos(group.cpu_ns()?);
            finished.peak_kb = group.peak_bytes()? / 1024;
            finished.memory_exceeded = group.memory_limit_hit()?;
        }
        Ok(finished)
    }

    /// Did the cases of a Python script start from zygotes: `None` if the command has none,
    /// else yes, or why not (the first reason a slot gave).
    pub fn zygote(&self) -> Option<Result<(), String>> {
        let states: Vec<_> = self
            .slots
            .iter()
            .filter_map(|s| s.server.as_ref()?.zygote_state())
            .collect();
        let first = states.first()?.clone();
        Some(states.into_iter().find(Result::is_err).unwrap_or(first))
    }

    /// [`Isolation::summary`], saying whether a Python script's cases started from zygotes.
    pub fn summary(&self) -> String {
        self.isolation
            .summary(matches!(self.zygote(), Some(Ok(()))))
    }

    /// [`Isolation::describe`], and whether a Python script's cases started from zygotes (or
    /// why not).
    pub fn describe(&self) -> String {
        let mut line = self.isolation.describe();
        match self.zygote() {
            Some(Ok(())) => line.push_str(", Python zygote: yes (its cases forked from it)"),
            Some(Err(why)) => line.push_str(&format!(", Python zygote: no ({why})")),
            None => {}
        }
        line
    }

    /// Processes (threads included) each slot may have at once.
    pub fn processes(&self) -> u64 {
        self.processes
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Some(root) = &self.root {
            let _ = remove::remove_dir(root);
        }
    }
}

/// How many processes this process's real user runs now (from /proc).
fn own_process_count() -> u64 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter_map(|e| std::fs::read_to_string(e.path().join("status")).ok())
        .filter(|status| {
            status
                .lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|u| u.parse::<u32>().ok())
                == Some(uid)
        })
        .count() as u64
}

/// A fresh directory for this sandbox's slots.
fn scratch_root() -> io::Result<PathBuf> {
    let base = std::env::temp_dir();
    for attempt in 0..1000u32 {
        let dir = base.join(format!(
            "boardjudge-sandbox-{}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                use std::os::unix::fs::PermissionsExt;
                // Traversable by the sandbox users, listable by nobody else.
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))?;
                return Ok(dir);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("no free scratch directory name"))
}

/// Empties (or creates) a slot's scratch directory, owned by the slot's user, private to it.
/// The directory itself is kept: the slot's Landlock rule refers to this very inode.
fn reset_dir(dir: &Path, uid: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if dir.exists() {
        // Without recursion: the submission may have left a tree of any depth.
        remove::empty_dir(dir)?;
    } else {
        std::fs::create_dir(dir)?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    if let Some(uid) = uid {
        std::os::unix::fs::chown(dir, Some(uid), Some(uid))?;
    }
    Ok(())
}

/// The submission's environment: `PATH`, `LANG`, `HOME` and `TMPDIR` (`home`), the sanitizers'
/// options when `sanitizer` is set (with ASan's own memory bound, MiB, when there is no memory
/// group to bound it), then the command's own (`at` places box paths).
fn environment(
    home: &str,
    sanitizer: Option<Option<u64>>,
    env: &[(String, String)],
    at: &dyn Fn(&str) -> String,
) -> io::Result<Vec<CString>> {
    let c = |s: String| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
    let mut envp = vec![
        c(format!("PATH={SANDBOX_PATH}"))?,
        c("LANG=C.UTF-8".to_string())?,
        c(format!("HOME={home}"))?,
        c(format!("TMPDIR={home}"))?,
    ];
    if let Some(memory_mb) = sanitizer {
        for (name, value) in SANITIZER_OPTIONS {
            let mut value = value.to_string();
            if let (Some(mb), "ASAN_OPTIONS") = (memory_mb, name) {
                value.push_str(&format!(":hard_rss_limit_mb={mb}:malloc_limit_mb={mb}"));
            }
            envp.push(c(format!("{name}={value}"))?);
        }
    }
    for (key, value) in env {
        envp.push(c(format!("{key}={}", at(value)))?);
    }
    Ok(envp)
}

/// `MemAvailable` of `/proc/meminfo`, in bytes (0 if unknown).
fn memory_available() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// Starts slot `slot`'s fork server: its two lanes are the slot's uid and group and the second
/// ones, the case is `command` with one of `environments` (plain, sanitized).
fn start_server(
    slot: &Slot,
    command: &Command,
    environments: &[Vec<CString>; 2],
    own_user_namespace: bool,
    judge_pidfd: Option<&OwnedFd>,
) -> io::Result<server::Server> {
    let (Some(ns), Some(first), Some(second), Some(uid), Some(second_uid)) = (
        &slot.namespaces,
        &slot.group,
        &slot.second_group,
        &slot.uid,
        &slot.second_uid,
    ) else {
        return Err(io::Error::other(
            "a slot without its namespaces, groups or uids",
        ));
    };
    let c = |s: &str| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
    let program = c(&command.program.to_string_lossy())?;
    let mut argv = vec![program.clone()];
    for word in &command.args {
        argv.push(c(word)?);
    }
    let zygote = match slot.zygote_groups.as_slice() {
        [_, _] => zygote_words(command, &program)?,
        _ => None,
    };
    let judge = judge_pidfd.map_or(-1, |f| f.as_raw_fd());
    let ruleset = slot.ruleset.as_ref().map(|r| r.raw_fd());
    // A case mounts a /proc of its own; a zygote does not (each of its cases does).
    let plan = |uid: u32,
                group: &cgroup::SlotGroup,
                mount_proc: bool|
     -> io::Result<server::LanePlan<'static>> {
        Ok(server::LanePlan {
            uid,
            plan: spawn::Plan {
                program: program.clone(),
                argv: Vec::new(),
                envp: Vec::new(),
                workdir: c"/tmp".to_owned(),
                writable: c"/tmp".to_owned(),
                uid: Some(uid),
                identity_map: if own_user_namespace {
                    Some(c(&format!("{uid} {uid} 1"))?)
                } else {
                    None
                },
                rlimits: Vec::new(),
                landlock: ruleset,
                pid_namespace: true,
                user_namespace: false,
                ipc_namespace: true,
                private_root: None,
                read_only_tree: false,
                covered: &[],
                cgroup_join: group.join_fds(),
                cgroup_namespace: true,
                mount_proc,
                judge_pidfd: judge,
            },
        })
    };
    let mut keep = first.join_fds();
    keep.extend(second.join_fds());
    let mut zygote_plans = Vec::new();
    for (group, uid) in slot.zygote_groups.iter().zip([uid.uid, second_uid.uid]) {
        keep.extend(group.join_fds());
        zygote_plans.push(plan(uid, group, false)?);
    }
    keep.extend(ruleset);
    if judge >= 0 {
        keep.push(judge);
    }
    server::Server::start(server::Setup {
        network: ns.network.as_raw_fd(),
        uts: ns.uts.as_raw_fd(),
        mount: ns.mount.as_raw_fd(),
        lanes: [
            plan(uid.uid, first, true)?,
            plan(second_uid.uid, second, true)?,
        ],
        argv: &argv,
        zygote: match (zygote.as_deref(), <[_; 2]>::try_from(zygote_plans)) {
            (Some(words), Ok(plans)) => Some(server::ZygoteSetup {
                argv: words,
                lanes: plans,
                case_join: [first.join_fds(), second.join_fds()],
            }),
            _ => None,
        },
        environments: [&environments[0], &environments[1]],
        keep,
    })
}

/// The memory limit of a zygote's group.
const ZYGOTE_MEMORY: u64 = 256 << 20;

/// Is `command` an interpreter with a zygote (CPython running one script of the box), and are
/// zygotes not turned off (`BOARDJUDGE_ZYGOTE=0`)?
fn has_zygote(command: &Command) -> bool {
    let name = command
        .program
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let cpython = name == "python3"
        || name
            .strip_prefix("python3.")
            .is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
    let one_script = matches!(command.args.as_slice(), [script]
        if script.starts_with("/box/") && script.ends_with(".py"));
    let off = std::env::var_os("BOARDJUDGE_ZYGOTE").is_some_and(|v| v == "0");
    cpython && one_script && !off
}

/// The argument words of the zygote of `command`'s interpreter (`python3 -c ZYGOTE SCRIPT`),
/// if it has one.
fn zygote_words(command: &Command, program: &CString) -> io::Result<Option<Vec<CString>>> {
    if !has_zygote(command) {
        return Ok(None);
    }
    let c = |s: &str| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
    Ok(Some(vec![
        program.clone(),
        c("-c")?,
        c(server::PYTHON_ZYGOTE)?,
        c(&command.args[0])?,
    ]))
}
