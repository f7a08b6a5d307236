//! How strongly runs are isolated on this machine: what it allows, tried once
//! ([`Isolation::detect`]), and the lines that tell the user.

use crate::cgroup;
use crate::landlock;
use crate::spawn;
use crate::types::Missing;
use crate::uids;

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
    /// [`crate::Sandbox::new`], which records the outcome in its own copy).
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
    /// script's cases forked from zygotes; with `own_cpus`, each job's cases on a CPU of their
    /// own), then what is missing (the details, and why: [`Isolation::describe`]).
    pub fn summary(&self, zygote: bool, own_cpus: bool) -> String {
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
        if own_cpus {
            have.push("a CPU per job");
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
            "{namespaces}, {root}, {cgroup}, {server}, unprivileged uid: {}, Landlock: {}, \
             system-call filter: {}",
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
            },
            crate::seccomp::describe()
        )
    }
}
