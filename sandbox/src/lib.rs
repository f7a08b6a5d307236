//! The sandbox a submission runs in. What it isolates and what it does not is written down
//! in the README ("The sandbox"); in short, as root: a fresh PID namespace per test (nothing
//! survives a test), an unprivileged uid per parallel slot (process limits apply), a scratch
//! directory per slot, Landlock (only system directories, the submission's own files and the
//! scratch directory are reachable; no TCP), resource limits, and a wall clock.

pub mod landlock;
pub mod spawn;

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
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
}

impl Limits {
    /// The defaults of `judge run` for a CPU limit and memory limit: wall = 2 x CPU + 1 s.
    pub fn new(cpu: Duration, memory_mb: u64) -> Limits {
        Limits {
            cpu,
            wall: cpu * 2 + Duration::from_secs(1),
            memory_bytes: memory_mb * 1024 * 1024,
            output_bytes: 16 * 1024 * 1024,
            file_bytes: 16 * 1024 * 1024,
        }
    }
}

/// The command to run, resolved: an absolute program, its arguments, and the files it must be
/// able to read (programs and scripts named on the command line).
#[derive(Clone, Debug)]
pub struct Command {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub readable: Vec<PathBuf>,
}

/// How strongly runs are isolated on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isolation {
    pub pid_namespace: bool,
    /// The PID namespace comes with a user namespace (the judge is not root).
    pub user_namespace: bool,
    pub drop_privileges: bool,
    pub landlock_abi: i64,
}

impl Isolation {
    pub fn detect() -> Isolation {
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let user_namespace = !root && spawn::user_pid_namespace_works();
        Isolation {
            pid_namespace: root || user_namespace,
            user_namespace,
            drop_privileges: root,
            landlock_abi: landlock::abi(),
        }
    }

    pub fn describe(&self) -> String {
        format!(
            "PID namespace: {}, unprivileged uid: {}, Landlock: {}",
            match (self.pid_namespace, self.user_namespace) {
                (true, false) => "yes",
                (true, true) => "yes (in a user namespace)",
                _ => "no (not root, no user namespaces)",
            },
            if self.drop_privileges {
                "yes"
            } else {
                "no (not root)"
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

/// The first uid of the sandbox users: slot `k` runs as `SANDBOX_UID + k`.
pub const SANDBOX_UID: u32 = 61000;

/// Where the submission looks for programs.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// One parallel slot: its user, its scratch directory, its Landlock rules.
struct Slot {
    uid: Option<u32>,
    workdir: PathBuf,
    ruleset: Option<landlock::Ruleset>,
}

/// A sandbox for one `judge run` / `stress` / `strength`: `slots` runs at a time.
pub struct Sandbox {
    root: PathBuf,
    slots: Vec<Slot>,
    pub isolation: Isolation,
    command: Command,
    /// `RLIMIT_NPROC`: per sandbox user as root; without root it counts all the real user's
    /// processes, so it is what the user already runs plus room for every slot.
    process_limit: u64,
}

impl Sandbox {
    pub fn new(command: Command, slots: usize) -> io::Result<Sandbox> {
        let isolation = Isolation::detect();
        let root = scratch_root()?;
        let mut made = Vec::new();
        for k in 0..slots.max(1) {
            let uid = isolation.drop_privileges.then_some(SANDBOX_UID + k as u32);
            let workdir = root.join(format!("slot-{k}"));
            reset_dir(&workdir, uid)?;
            let mut rules: Vec<(&Path, landlock::Access)> = [
                "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
                "/proc", "/sys",
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
            rules.push((Path::new(&command.program), landlock::Access::ReadExecute));
            for path in &command.readable {
                rules.push((path.as_path(), landlock::Access::ReadExecute));
            }
            rules.push((workdir.as_path(), landlock::Access::Full));
            let ruleset = landlock::Ruleset::new(&rules)?;
            made.push(Slot {
                uid,
                workdir,
                ruleset,
            });
        }
        let process_limit = if isolation.drop_privileges {
            PROCESSES_PER_SLOT
        } else {
            own_process_count() + PROCESSES_PER_SLOT * made.len() as u64
        };
        Ok(Sandbox {
            root,
            slots: made,
            isolation,
            command,
            process_limit,
        })
    }

    pub fn slots(&self) -> usize {
        self.slots.len()
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
        reset_dir(&slot.workdir, slot.uid)?;
        let c =
            |s: &[u8]| CString::new(s).map_err(|_| io::Error::other("a NUL byte in the command"));
        let program = c(self.command.program.as_os_str().as_bytes())?;
        let mut argv = vec![program.clone()];
        for a in &self.command.args {
            argv.push(c(a.as_bytes())?);
        }
        let envp = vec![
            c(format!("PATH={SANDBOX_PATH}").as_bytes())?,
            c(b"LANG=C.UTF-8")?,
            c(format!("HOME={}", slot.workdir.display()).as_bytes())?,
            c(format!("TMPDIR={}", slot.workdir.display()).as_bytes())?,
        ];
        let cpu_seconds = limits.cpu.as_secs() + 1;
        let data = limits
            .memory_bytes
            .saturating_mul(2)
            .saturating_add(64 << 20);
        let plan = spawn::Plan {
            program,
            argv,
            envp,
            workdir: c(slot.workdir.as_os_str().as_bytes())?,
            uid: slot.uid,
            rlimits: vec![
                // A backstop: the verdict is judged on the measured CPU time.
                (libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
                // Writable memory, with room above the judged limit so that a program that
                // grows past it is measured (MLE) rather than stopped first.
                (libc::RLIMIT_DATA, data, data),
                (libc::RLIMIT_FSIZE, limits.file_bytes, limits.file_bytes),
                (libc::RLIMIT_NPROC, self.process_limit, self.process_limit),
                (libc::RLIMIT_CORE, 0, 0),
            ],
            landlock: slot.ruleset.as_ref().map(|r| r.raw_fd()),
            pid_namespace: self.isolation.pid_namespace,
            user_namespace: self.isolation.user_namespace,
        };
        let watch = spawn::Watch {
            stdin,
            wall: limits.wall,
            output_cap: limits.output_bytes,
            stderr_cap: 64 * 1024,
            interrupted,
        };
        spawn::run(&plan, &watch)
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
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
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_dir() => std::fs::remove_dir_all(&path)?,
                _ => std::fs::remove_file(&path)?,
            }
        }
    } else {
        std::fs::create_dir(dir)?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    if let Some(uid) = uid {
        std::os::unix::fs::chown(dir, Some(uid), Some(uid))?;
    }
    Ok(())
}
