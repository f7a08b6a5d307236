//! Accounting in control groups: one group per slot, inside a group of this judge's own
//! (`boardjudge-u<uid>`, named after the first uid it leased, under the judge's own group of
//! each hierarchy), removed when the sandbox is dropped. The groups of a judge that was killed
//! are removed by the next judge (v1 and v2): they are stale once their uid's lease is free. Everything a run starts is in its slot's
//! group, so the group's figures are the run's: peak memory (not the `ru_maxrss` of one
//! process, which after `CLONE_VM` + `execve` carries the judge's own high-water mark), CPU time
//! of every descendant (reaped or not), and a cap on processes that is the run's own rather
//! than the uid's.
//!
//! cgroup v1 (`memory`, `cpuacct` and `pids` mounted at `/sys/fs/cgroup/<controller>`, as on
//! this project's machines) and cgroup v2 (one hierarchy with those controllers) are both
//! handled. The child joins its groups itself, before `exec`, by writing `0` to each group's
//! `tasks` (v1; a single-thread move, which skips the global lock `cgroup.procs` takes) or
//! `cgroup.procs` (v2) file, opened here beforehand.
//!
//! On v1 with a cgroup2 hierarchy beside it (`/sys/fs/cgroup/unified`, the "hybrid" layout),
//! each slot also has a group there, with no controller: only its pressure stall information
//! (`cpu.pressure`) is read, to give a run back the time it waited for a CPU. A run is moved
//! there only once it has lasted a while ([`SlotGroup::adopt`]): joining a cgroup2 group takes
//! a global lock, a cost a short run need not pay.

use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use crate::error::{SandboxError, Stage};

/// Which cgroup interface the groups use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    V1,
    V2,
}

/// The judge's groups: where they are and which interface.
#[derive(Debug)]
pub struct Hierarchy {
    pub version: Version,
    /// v1: the judge's own group in the memory, cpuacct and pids hierarchies; v2: one group.
    judge_dirs: Vec<PathBuf>,
    /// v1 beside a cgroup2 hierarchy with pressure information: the judge's group there.
    pressure_dir: Option<PathBuf>,
    /// The lock of the uid the groups are named after: held until they are removed.
    _lock: Option<File>,
}

const V1_CONTROLLERS: [&str; 3] = ["memory", "cpuacct", "pids"];

/// The judge's current group in hierarchy `controller` ("" for v2), from /proc/self/cgroup.
fn own_group(controller: &str) -> Option<String> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let found = if controller.is_empty() {
            controllers.is_empty()
        } else {
            controllers.split(',').any(|c| c == controller)
        };
        found.then(|| path.to_string())
    })
}

/// Is a judge's group named `name` (`boardjudge-u<uid>`, or `boardjudge-<pid>` of older
/// judges) left by a judge that is gone? For a uid-named group, the lock that leases the uid is
/// returned: held while the group is removed, so no judge takes the uid (and makes a group of
/// that name) meanwhile. A pid-named group is stale when no process has that pid.
fn stale(name: &str) -> Option<Option<File>> {
    let rest = name.strip_prefix("boardjudge-")?;
    if let Some(uid) = rest.strip_prefix('u').and_then(|u| u.parse::<u32>().ok()) {
        return crate::uids::hold_if_free(uid).map(Some);
    }
    let pid = rest.parse::<i32>().ok()?;
    // SAFETY: signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(pid, 0) } == 0
        || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    (!alive).then_some(None)
}

/// Removes a group and every group below it, deepest first. Processes still in them are
/// killed first (a backstop: a judge's runs die with it, their PID namespaces do).
pub fn remove_group_tree(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                remove_group_tree(&entry.path());
            }
        }
    }
    for attempt in 0..50 {
        match std::fs::remove_dir(dir) {
            Ok(()) => return,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return,
            Err(_) if attempt < 49 => {
                for file in ["cgroup.procs", "tasks"] {
                    if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
                        for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                            // SAFETY: a signal to a process listed in a dead judge's group.
                            unsafe { libc::kill(pid, libc::SIGKILL) };
                        }
                    }
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            Err(_) => return,
        }
    }
}

/// Removes the groups of judges that are gone from `parent` (a judge killed by SIGKILL cannot
/// remove its own), with everything below them.
fn remove_stale_groups(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(lock) = name.to_str().and_then(stale) else {
            continue;
        };
        remove_group_tree(&entry.path());
        drop(lock);
    }
}

/// Where stale groups may be in a hierarchy: beside this judge's own, and at the root (a
/// judge started from another group left its groups there). Besides the groups whose uid's
/// lease is free, the groups named after the other uids this judge holds (`held`) are stale
/// too: their owner held that uid as its first one until it died, and this judge holds it
/// now, so no living judge owns them.
fn stale_places(root: &Path, parent: &Path, held: &[u32]) {
    for place in [parent, root] {
        remove_stale_groups(place);
        for uid in held {
            let dir = place.join(format!("boardjudge-u{uid}"));
            if dir.exists() {
                remove_group_tree(&dir);
            }
        }
        if root == parent {
            break;
        }
    }
}

/// The cgroup2 hierarchy mounted beside the v1 controllers (`/sys/fs/cgroup/unified`) when it
/// has pressure stall information: groups there measure how long their tasks waited for a
/// CPU, which v1 has no file for.
fn unified_with_pressure() -> Option<PathBuf> {
    let root = Path::new("/sys/fs/cgroup/unified");
    (root.join("cgroup.procs").exists() && root.join("cpu.pressure").exists())
        .then(|| root.to_path_buf())
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    std::fs::write(path, value).map_err(|e| SandboxError::at_path(Stage::Cgroup, path, e).into())
}

impl Hierarchy {
    /// Makes the judge's own group, named after its first leased uid (`boardjudge-u<uid>`,
    /// so that a later judge can tell it is stale once that uid's lease is gone), or says why
    /// not. The groups of judges that are gone are removed first; `others` are the other uids
    /// this judge leased (groups named after them are a dead judge's).
    pub fn create(
        lease: &crate::uids::UidLease,
        others: &[u32],
    ) -> Result<Hierarchy, crate::types::Missing> {
        use crate::types::Missing::Refused;
        let name = format!("boardjudge-u{}", lease.uid);
        let lock = lease.hold().ok();
        let base = Path::new("/sys/fs/cgroup");
        let v1_ok = V1_CONTROLLERS
            .iter()
            .all(|c| base.join(c).join("tasks").exists());
        // A group of this name left by a judge that held the uid before and was killed.
        let fresh = |dir: &Path| {
            if dir.exists() {
                remove_group_tree(dir);
            }
            std::fs::create_dir(dir)
                .map_err(|e| Refused(format!("cannot create {}: {e}", dir.display())))
        };
        if v1_ok {
            let mut hierarchy = Hierarchy {
                version: Version::V1,
                judge_dirs: Vec::new(),
                pressure_dir: None,
                _lock: lock,
            };
            for controller in V1_CONTROLLERS {
                let own = own_group(controller).unwrap_or_else(|| "/".to_string());
                let parent = base.join(controller).join(own.trim_start_matches('/'));
                stale_places(&base.join(controller), &parent, others);
                let dir = parent.join(&name);
                fresh(&dir)?;
                hierarchy.judge_dirs.push(dir);
            }
            let _ = write(&hierarchy.judge_dirs[0].join("memory.use_hierarchy"), "1");
            if let Some(root) = unified_with_pressure() {
                let own = own_group("").unwrap_or_else(|| "/".to_string());
                let parent = root.join(own.trim_start_matches('/'));
                stale_places(&root, &parent, others);
                let dir = parent.join(&name);
                if fresh(&dir).is_ok() {
                    hierarchy.pressure_dir = Some(dir);
                }
            }
            return Ok(hierarchy);
        }
        // cgroup v2: the unified hierarchy at /sys/fs/cgroup (or /sys/fs/cgroup/unified) with
        // the memory and pids controllers available.
        for root in [base.to_path_buf(), base.join("unified")] {
            let Ok(controllers) = std::fs::read_to_string(root.join("cgroup.controllers")) else {
                continue;
            };
            let have = |c: &str| controllers.split_whitespace().any(|x| x == c);
            if !(have("memory") && have("pids")) {
                continue;
            }
            let own = own_group("").unwrap_or_else(|| "/".to_string());
            let parent = root.join(own.trim_start_matches('/'));
            stale_places(&root, &parent, others);
            let dir = parent.join(&name);
            fresh(&dir)?;
            let hierarchy = Hierarchy {
                version: Version::V2,
                judge_dirs: vec![dir.clone()],
                pressure_dir: None,
                _lock: lock,
            };
            // Slots are children of the judge's group: it delegates memory and pids to them.
            write(&dir.join("cgroup.subtree_control"), "+memory +pids +cpu")
                .or_else(|_| write(&dir.join("cgroup.subtree_control"), "+memory +pids"))
                .map_err(|e| Refused(e.to_string()))?;
            return Ok(hierarchy);
        }
        Err(Refused(
            "no cgroup v1 memory, cpuacct and pids hierarchies, nor cgroup v2 with memory and pids"
                .to_string(),
        ))
    }

    /// Where this judge's groups are (v1: one per controller, then the pressure group).
    pub fn dirs(&self) -> Vec<PathBuf> {
        self.judge_dirs
            .iter()
            .chain(&self.pressure_dir)
            .cloned()
            .collect()
    }

    /// Makes slot `k`'s group, limited to `processes` processes at once (with a fork server,
    /// its first lane's).
    pub fn slot(&self, k: usize, processes: u64) -> io::Result<SlotGroup> {
        self.group(&format!("slot-{k}"), processes)
    }

    /// Makes the group of slot `k`'s second lane (a fork server's), like [`Hierarchy::slot`].
    pub fn lane(&self, k: usize, processes: u64) -> io::Result<SlotGroup> {
        self.group(&format!("slot-{k}-lane-b"), processes)
    }

    /// Makes the group of the zygote of slot `k`'s lane `lane` (its cases move into the lane's
    /// group: pages they share with it are the zygote's, as a fresh interpreter's shared
    /// libraries are nobody's).
    pub fn zygote(&self, k: usize, lane: usize) -> io::Result<SlotGroup> {
        // The zygote itself, the process that waits for it, a case's keeper (it stays here),
        // and a case until the zygote moves it into the lane's group; one to spare.
        self.group(&format!("slot-{k}-zygote-{lane}"), 5)
    }

    fn group(&self, name: &str, processes: u64) -> io::Result<SlotGroup> {
        let dirs: Vec<PathBuf> = self.judge_dirs.iter().map(|d| d.join(name)).collect();
        let pressure_dir = self.pressure_dir.as_ref().map(|d| d.join(name));
        for dir in dirs.iter().chain(&pressure_dir) {
            std::fs::create_dir(dir).map_err(|e| SandboxError::at_path(Stage::Cgroup, dir, e))?;
        }
        let group = match self.version {
            Version::V1 => {
                let (memory, cpu, pids) = (&dirs[0], &dirs[1], &dirs[2]);
                write(&pids.join("pids.max"), &processes.to_string())?;
                let _ = write(&memory.join("memory.swappiness"), "0");
                SlotGroup {
                    version: Version::V1,
                    join: vec![
                        open_w(memory.join("tasks"))?,
                        open_w(cpu.join("tasks"))?,
                        open_w(pids.join("tasks"))?,
                    ],
                    peak: open_rw(memory.join("memory.max_usage_in_bytes"))?,
                    usage: open_rw(memory.join("memory.usage_in_bytes"))?,
                    cpu: open_rw(cpu.join("cpuacct.usage"))?,
                    events: open_rw(memory.join("memory.oom_control"))?,
                    oom_kills_before: std::cell::Cell::new(0),
                    limit: memory.join("memory.limit_in_bytes"),
                    swap_limit: Some(memory.join("memory.memsw.limit_in_bytes"))
                        .filter(|p| p.exists()),
                    procs: dirs.iter().map(|d| d.join("cgroup.procs")).collect(),
                    kill: None,
                    force_empty: Some(memory.join("memory.force_empty")),
                    limit_set: std::cell::Cell::new(0),
                    cpu_base: std::cell::Cell::new(0),
                    pressure: None,
                    pressure_dir: None,
                    pressure_procs: None,
                    adopted: std::cell::RefCell::new(Vec::new()),
                    pressure_base: std::cell::Cell::new(None),
                    dirs,
                }
            }
            Version::V2 => SlotGroup::v2(dirs, processes)?,
        };
        let mut group = group;
        if let Some(dir) = pressure_dir {
            // Not joined at the start (a write to a cgroup2 `cgroup.procs` takes a global lock:
            // tens of µs on every run); a run that lasts is moved in ([`SlotGroup::adopt`]).
            if let (Ok(procs), Ok(pressure)) = (
                open_w(dir.join("cgroup.procs")),
                File::open(dir.join("cpu.pressure")),
            ) {
                group.pressure_procs = Some(procs);
                group.pressure = Some(pressure);
            }
            group.pressure_dir = Some(dir);
        }
        Ok(group)
    }
}

impl Drop for Hierarchy {
    fn drop(&mut self) {
        for dir in self.judge_dirs.iter().chain(&self.pressure_dir) {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Memory left charged in a group by the run before that is reclaimed (or waited out) before
/// the next run.
const RECLAIM_ABOVE: u64 = 4 << 20;

/// One slot's group.
#[derive(Debug)]
pub struct SlotGroup {
    version: Version,
    dirs: Vec<PathBuf>,
    /// Written `0` by the child to join.
    join: Vec<File>,
    peak: File,
    /// `memory.usage_in_bytes` (v1) or `memory.current` (v2).
    usage: File,
    cpu: File,
    /// `memory.oom_control` (v1) or `memory.events` (v2): its `oom_kill` counter.
    events: File,
    /// The counter before the current run.
    oom_kills_before: std::cell::Cell<u64>,
    limit: PathBuf,
    swap_limit: Option<PathBuf>,
    procs: Vec<PathBuf>,
    kill: Option<PathBuf>,
    force_empty: Option<PathBuf>,
    limit_set: std::cell::Cell<u64>,
    /// v2: the group's CPU usage when the current run was readied (`cpu.stat` cannot be reset;
    /// v1's `cpuacct.usage` is, to 0).
    cpu_base: std::cell::Cell<u64>,
    /// `cpu.pressure` of the run's cgroup2 group (on v1, the group beside it in the unified
    /// hierarchy), if the machine has pressure information.
    pressure: Option<File>,
    pressure_dir: Option<PathBuf>,
    /// v1: `cgroup.procs` of the pressure group, where a run that lasts is moved.
    pressure_procs: Option<File>,
    /// The processes of the current run moved there.
    adopted: std::cell::RefCell<Vec<i32>>,
    /// The pressure total when the current run was first looked at.
    pressure_base: std::cell::Cell<Option<std::time::Duration>>,
}

// The Cell is only touched by the one thread that runs the slot.
// SAFETY: a slot is used by one thread at a time (the runner gives each slot to one worker).
unsafe impl Sync for SlotGroup {}

fn open_rw(path: PathBuf) -> io::Result<File> {
    File::options()
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| SandboxError::at_path(Stage::Cgroup, &path, e).into())
}

fn open_w(path: PathBuf) -> io::Result<File> {
    File::options()
        .write(true)
        .open(&path)
        .map_err(|e| SandboxError::at_path(Stage::Cgroup, &path, e).into())
}

/// `usage_usec` of a v2 `cpu.stat`.
fn usage_usec(stat: &[u8]) -> Option<u64> {
    std::str::from_utf8(stat)
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("usage_usec "))
        .and_then(|v| v.trim().parse().ok())
}

fn read_number(file: &File) -> io::Result<u64> {
    let mut buffer = [0u8; 64];
    let n = file.read_at(&mut buffer, 0)?;
    std::str::from_utf8(&buffer[..n])
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .ok_or_else(|| {
            SandboxError::new(Stage::Cgroup, "unexpected contents in a cgroup file").into()
        })
}

impl SlotGroup {
    /// The cgroup2 group in `dirs[0]` (made), limited to `processes` processes at once.
    fn v2(dirs: Vec<PathBuf>, processes: u64) -> io::Result<SlotGroup> {
        let dir = &dirs[0];
        write(&dir.join("pids.max"), &processes.to_string())?;
        let _ = write(&dir.join("memory.swap.max"), "0");
        Ok(SlotGroup {
            version: Version::V2,
            join: vec![open_w(dir.join("cgroup.procs"))?],
            peak: open_rw(dir.join("memory.peak"))?,
            usage: open_rw(dir.join("memory.current"))?,
            cpu: open_rw(dir.join("cpu.stat"))?,
            events: open_rw(dir.join("memory.events"))?,
            oom_kills_before: std::cell::Cell::new(0),
            limit: dir.join("memory.max"),
            swap_limit: None,
            procs: vec![dir.join("cgroup.procs")],
            kill: Some(dir.join("cgroup.kill")),
            force_empty: None,
            limit_set: std::cell::Cell::new(0),
            cpu_base: std::cell::Cell::new(0),
            pressure: File::open(dir.join("cpu.pressure")).ok(),
            pressure_dir: None,
            pressure_procs: None,
            adopted: std::cell::RefCell::new(Vec::new()),
            pressure_base: std::cell::Cell::new(None),
            dirs,
        })
    }

    /// The descriptors the child writes `0` to, to join the group before `exec`.
    pub fn join_fds(&self) -> Vec<RawFd> {
        self.join.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Readies the group for a run: memory limit, figures back to zero. With `reclaim`, page
    /// cache an earlier run left charged here is reclaimed first (not when the group holds a
    /// zygote, whose pages are the interpreter every case of the lane runs).
    pub fn prepare(&self, memory_bytes: u64, reclaim: bool) -> io::Result<()> {
        if self.limit_set.get() != memory_bytes {
            match self.version {
                Version::V1 => {
                    // memsw must stay >= the memory limit: lift it, set both, then cap swap.
                    if let Some(swap) = &self.swap_limit {
                        let _ = write(swap, "-1");
                    }
                    write(&self.limit, &memory_bytes.to_string())?;
                    if let Some(swap) = &self.swap_limit {
                        let _ = write(swap, &memory_bytes.to_string());
                    }
                }
                Version::V2 => write(&self.limit, &memory_bytes.to_string())?,
            }
            self.limit_set.set(memory_bytes);
        }
        // What an earlier run left charged here would count in this run's peak: its page
        // cache, and kernel memory the kernel frees a moment after the run's last process (its
        // namespaces' objects, after an RCU grace period: under 1 MiB; a SysV segment, until
        // its IPC namespace goes). Past RECLAIM_ABOVE, reclaim (a drain on every CPU: not for
        // the usual transient kernel memory, which would cost a drain and a wait every run)
        // and wait, up to 1 s (a busy machine's kernel workers take their time), for what
        // reclaim cannot take; then restart the peak from the
        // usage. A run's peak may so include up to RECLAIM_ABOVE of what came before it.
        if let Some(force_empty) = &self.force_empty
            && reclaim
            && read_number(&self.usage).unwrap_or(u64::MAX) > RECLAIM_ABOVE
        {
            let _ = write(force_empty, "0");
            for _ in 0..1000 {
                if read_number(&self.usage).unwrap_or(0) <= RECLAIM_ABOVE {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        self.peak
            .write_at(b"0", 0)
            .map(drop)
            .or_else(|e| match self.version {
                // memory.peak is resettable from Linux 6.12 on; older kernels keep the maximum.
                Version::V2 => Ok(()),
                Version::V1 => Err(e),
            })?;
        match self.version {
            Version::V1 => {
                self.cpu.write_at(b"0", 0)?;
            }
            Version::V2 => self.cpu_base.set(self.cpu_total()?),
        }
        self.oom_kills_before.set(self.oom_kills()?);
        self.adopted.borrow_mut().clear();
        self.pressure_base.set(None);
        Ok(())
    }

    /// How many processes the kernel has killed in this group for want of memory, ever.
    fn oom_kills(&self) -> io::Result<u64> {
        let mut buffer = [0u8; 512];
        let n = self.events.read_at(&mut buffer, 0)?;
        let text = std::str::from_utf8(&buffer[..n]).unwrap_or("");
        Ok(text
            .lines()
            .find_map(|l| l.strip_prefix("oom_kill "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0))
    }

    /// Did the kernel kill a process of this run at the group's memory limit?
    pub fn memory_limit_hit(&self) -> io::Result<bool> {
        Ok(self.oom_kills()? > self.oom_kills_before.get())
    }

    /// CPU time used by everything in the group since it was readied for the current run, in
    /// nanoseconds.
    pub fn cpu_ns(&self) -> io::Result<u64> {
        Ok(self.cpu_total()?.saturating_sub(self.cpu_base.get()))
    }

    /// CPU time used by everything in the group since v1's counter was last reset (v2: ever).
    fn cpu_total(&self) -> io::Result<u64> {
        match self.version {
            Version::V1 => read_number(&self.cpu),
            Version::V2 => {
                let mut buffer = [0u8; 512];
                let n = self.cpu.read_at(&mut buffer, 0)?;
                usage_usec(&buffer[..n]).map(|us| us * 1000).ok_or_else(|| {
                    SandboxError::new(Stage::Cgroup, "no usage_usec in cpu.stat").into()
                })
            }
        }
    }

    /// The `full` total of `cpu.pressure`: how long, in all, every runnable task of the
    /// group was kept waiting for a CPU at once (time in which none of them ran although one
    /// could; tasks that have exited included). Cumulative since the group was made.
    fn cpu_full_total(&self) -> Option<std::time::Duration> {
        let file = self.pressure.as_ref()?;
        let mut buffer = [0u8; 256];
        let n = file.read_at(&mut buffer, 0).ok()?;
        let text = std::str::from_utf8(&buffer[..n]).ok()?;
        let micros = text
            .lines()
            .find(|l| l.starts_with("full "))?
            .split_whitespace()
            .find_map(|f| f.strip_prefix("total="))?
            .parse::<u64>()
            .ok()?;
        Some(std::time::Duration::from_micros(micros))
    }

    /// Does the group measure pressure?
    pub fn has_pressure(&self) -> bool {
        self.pressure.is_some()
    }

    /// Starts measuring the current run's pressure (called once it has lasted a while, and
    /// again as it goes on): on v1, its processes are moved into the pressure group (those
    /// it starts later are born there); the total so far is the base. A run shorter than the
    /// first call costs nothing, and its processes' waits before it are not counted.
    pub fn adopt(&self) {
        if self.pressure.is_none() {
            return;
        }
        if self.pressure_base.get().is_none() {
            self.pressure_base.set(self.cpu_full_total());
        }
        let Some(procs) = &self.pressure_procs else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(&self.procs[0]) else {
            return;
        };
        let mut adopted = self.adopted.borrow_mut();
        for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
            if !adopted.contains(&pid) {
                adopted.push(pid);
                // A process that exited meanwhile cannot be moved: nothing to measure.
                let _ = procs.write_at(pid.to_string().as_bytes(), 0);
            }
        }
    }

    /// How long the current run's tasks were all kept waiting for a CPU since
    /// [`SlotGroup::adopt`] was first called (`None`: no pressure information).
    pub fn cpu_full_wait(&self) -> Option<std::time::Duration> {
        let base = self.pressure_base.get()?;
        Some(self.cpu_full_total()?.saturating_sub(base))
    }

    /// Peak memory use of the group since `prepare`, in bytes.
    pub fn peak_bytes(&self) -> io::Result<u64> {
        read_number(&self.peak)
    }

    /// Kills everything in the group (a backstop: the PID namespace normally has already).
    pub fn kill_all(&self) {
        if let Some(kill) = &self.kill {
            let _ = write(kill, "1");
            return;
        }
        for procs in &self.procs {
            if let Ok(text) = std::fs::read_to_string(procs) {
                for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                    // SAFETY: a signal to a process of our own sandbox group.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
        }
    }

    /// Every process (thread) in the group now.
    pub fn tasks(&self) -> Vec<libc::pid_t> {
        let list = match self.version {
            Version::V1 => self.dirs[0].join("tasks"),
            Version::V2 => self.dirs[0].join("cgroup.threads"),
        };
        std::fs::read_to_string(list)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    fn is_empty(&self) -> bool {
        self.procs.iter().all(|p| {
            std::fs::read_to_string(p)
                .map(|t| t.trim().is_empty())
                .unwrap_or(true)
        })
    }
}

impl Drop for SlotGroup {
    fn drop(&mut self) {
        for _ in 0..100 {
            if self.is_empty() {
                break;
            }
            self.kill_all();
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        for dir in self.dirs.iter().chain(&self.pressure_dir) {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A v2 group over plain files standing in for the kernel's (this machine mounts v1).
    fn fake_v2_group(dir: &Path) -> SlotGroup {
        for (name, text) in [
            ("cgroup.procs", ""),
            ("memory.peak", "0\n"),
            ("memory.current", "0\n"),
            ("cpu.stat", "usage_usec 5000\nuser_usec 4000\n"),
            ("memory.events", "oom 0\noom_kill 0\n"),
        ] {
            std::fs::write(dir.join(name), text).unwrap();
        }
        SlotGroup::v2(vec![dir.to_path_buf()], 4).unwrap()
    }

    #[test]
    fn a_v2_run_is_charged_only_the_cpu_time_since_it_was_readied() {
        let dir = std::env::temp_dir().join(format!("cgroup-v2-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let group = fake_v2_group(&dir);
        // cpu.stat cannot be reset: the runs before left 5 ms in it.
        group.prepare(64 << 20, true).unwrap();
        std::fs::write(dir.join("cpu.stat"), "usage_usec 7250\nuser_usec 6000\n").unwrap();
        assert_eq!(group.cpu_ns().unwrap(), 2_250_000);
        // The next run starts from what this one left.
        group.prepare(64 << 20, true).unwrap();
        assert_eq!(group.cpu_ns().unwrap(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn usage_usec_is_read_from_cpu_stat() {
        assert_eq!(usage_usec(b"usage_usec 12\nuser_usec 3\n"), Some(12));
        assert_eq!(usage_usec(b"user_usec 3\n"), None);
    }
}
