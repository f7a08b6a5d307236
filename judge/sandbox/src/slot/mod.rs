//! The slots of a [`Sandbox`]: each with its user, its scratch directory or private root, its
//! namespaces, groups and rules, and (for runs as root) its fork server; made once by
//! [`Sandbox::with`], used by one run at a time.

mod host;
mod jury;
mod run;
mod served;

use std::ffi::CString;
use std::io;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::cgroup;
use crate::error::{SandboxError, Stage};
use crate::isolation::Isolation;
use crate::landlock;
use crate::remove;
use crate::rootfs;
use crate::server;
use crate::types::{BOX, Command, JuryBox, Missing, Options};
use crate::uids;

use host::{reset_dir, scratch_root, write_box_files};
use run::environment;
use served::{ZYGOTE_MEMORY, has_zygote, start_server};

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
    /// The CPUs claimed for the slots' cases (released after their servers are gone).
    cpus: Option<crate::cpus::Placement>,
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
    /// A jury box: per-run files and a feedback folder.
    jury: Option<JuryBox>,
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
        if options.build.is_some() && options.jury.is_some() {
            return Err(SandboxError::new(Stage::Slot, "a build box cannot be a jury box").into());
        }
        isolation.fork_server = if options.build.is_some() {
            Err(Missing::Refused("a build runs once".to_string()))
        } else if options.jury.is_some() {
            Err(Missing::Refused(
                "a jury box starts each run afresh".to_string(),
            ))
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
            jury: options.jury.clone(),
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
        // (A build's box, and a jury box's, is each slot's own: written for each run.)
        let box_on_host = match (&root, &options.build, &options.jury) {
            (Some(root), None, None) => {
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
        // Each slot's cases on a CPU of their own (fork servers only: they let a case go on its
        // CPU). Not a Python zygote's: forked on the zygote's CPU, with its memory warm there,
        // its cases ran slower moved to another (docs/sandbox.md).
        let mut placement = (isolation.fork_server.is_ok() && !has_zygote(&command))
            .then(|| crate::cpus::place(slots))
            .flatten();
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
                    placement.as_ref().map(|p| server::Cpus {
                        server: p.judge,
                        case: crate::cpus::only(p.cases[k]),
                        all: p.all,
                    }),
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
            // Without servers nothing moves a case onto its CPU: the leases go back.
            placement = None;
        }
        let process_limit = if isolation.drop_privileges {
            options.processes
        } else {
            own_process_count() + options.processes * made.len() as u64
        };
        Ok(Sandbox {
            covered,
            slots: made,
            cpus: placement,
            _cgroups: cgroups,
            root,
            isolation,
            command,
            box_on_host,
            build: options.build.clone(),
            jury: options.jury.clone(),
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
        match (&self.build, &self.jury) {
            // A build's box is its slot's scratch directory (`/box/src` is `<slot>/src`).
            (Some(_), _) => Some(slot.workdir.clone()),
            // A jury box's is a folder in it, written for each run.
            (None, Some(_)) => Some(slot.workdir.join("box")),
            (None, None) => self.box_on_host.clone(),
        }
    }

    /// A descriptor of slot `slot`'s `/box` (after a build: the files it wrote).
    pub fn box_dir(&self, slot: usize) -> io::Result<OwnedFd> {
        let slot = &self.slots[slot];
        match (&slot.namespaces, self.outside(slot)) {
            (Some(ns), _) => ns.box_dir.try_clone(),
            (None, Some(dir)) => {
                let path = CString::new(dir.as_os_str().as_bytes())
                    .map_err(|_| SandboxError::nul_byte("a path"))?;
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
            (None, None) => Err(SandboxError::new(Stage::Slot, "no box").into()),
        }
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
            .summary(matches!(self.zygote(), Some(Ok(()))), self.placed())
    }

    /// Did each slot's cases run on a CPU of their own ([`crate::cpus`])?
    fn placed(&self) -> bool {
        self.cpus.is_some() && !self.placement_refused()
    }

    /// Did a slot's server fail to move a case onto its CPU (and stop placing)?
    fn placement_refused(&self) -> bool {
        self.slots
            .iter()
            .any(|s| s.server.as_ref().is_some_and(|server| server.unplaced()))
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
        match &self.cpus {
            Some(_) if self.placement_refused() => line.push_str(
                ", a CPU per job: no (a case could not be moved onto its CPU: no CAP_SYS_NICE)",
            ),
            Some(placement) => {
                let cpus: Vec<String> = placement.cases.iter().map(|c| c.to_string()).collect();
                line.push_str(&format!(", a CPU per job: yes (CPU {})", cpus.join(", ")));
            }
            None => line.push_str(
                ", a CPU per job: no (fewer CPUs than jobs, leased by other judges, a zygote, \
                 no fork server, or BOARDJUDGE_OWN_CPU=0)",
            ),
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
