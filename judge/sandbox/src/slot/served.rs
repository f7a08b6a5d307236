//! A slot's fork server: started with the slot's namespaces, groups and uids, and a run taken
//! from it (the case prestarted for these limits, or one started now).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::AtomicBool;

use crate::cgroup;
use crate::error::{SandboxError, Stage};
use crate::server;
use crate::spawn;
use crate::types::{Command, Finished, Limits, Stdin, Stdout};

use super::{Sandbox, Slot};

impl Sandbox {
    /// Runs a case from the slot's fork server: the one prestarted for these limits, or one
    /// started now; then asks for the next case in the other lane while this one runs. A run
    /// given a stream of the caller's (an interactive pair's) gets a case started for it, and
    /// prestarts none.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_served(
        &self,
        slot: &Slot,
        server: &server::Server,
        stdin: Stdin<'_>,
        stdout: Stdout,
        limits: &Limits,
        interrupted: &AtomicBool,
        pair: Option<&spawn::Paired<'_>>,
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
        let (bytes, given) = match (stdin, stdout) {
            (Stdin::Bytes(bytes), Stdout::Capture) => (bytes, None),
            (stdin, stdout) => {
                let (bytes, stdin) = match stdin {
                    Stdin::Bytes(bytes) => (bytes, None),
                    Stdin::Fd(fd) => (&[][..], Some(fd)),
                };
                let stdout = match stdout {
                    Stdout::Capture => None,
                    Stdout::Fd(fd) => Some(fd),
                };
                (bytes, Some(server::Given { stdin, stdout }))
            }
        };
        let case_streams_are_ours = given.is_none();
        let mut case = server.take(&key, &prepare, given.as_ref())?;
        // The judge's copies of what it gave go now: the other side of a pipe sees its end
        // when this case's does.
        drop(given);
        let lane = case.lane;
        // Its input, before the program starts (not on its clock).
        if let Some(input) = case.ends.input.take()
            && let Err(e) = input.fill(bytes)
        {
            let _ = server.finish(lane);
            return Err(e);
        }
        // The next case is asked for once this one is under way (the judge's part of it then
        // overlaps this run). A waiting case may hold its memory limit: prestart only when two
        // cases of every slot at their limit fit in what the machine had free. A run with
        // streams of its own has none prestarted: the next one's are not known yet.
        let prestart = || {
            if case_streams_are_ours
                && memory_cap.saturating_mul(2 * self.slots.len() as u64) <= self.memory_available
            {
                // A prestart that fails is no error of this run (the next one starts its own).
                let _ = server.prestart(&key, lane, &prepare);
            }
        };
        self.watched_then(
            groups[lane],
            limits,
            interrupted,
            Some(&prestart),
            pair,
            move |watch| {
                // The wall clock starts when the program does: it was stopped at its `exec` (or, in
                // a zygote, waits to be let go).
                let started = std::time::Instant::now();
                if let Err(e) = server.go(&case) {
                    let _ = server.finish(lane);
                    return Err(e);
                }
                let server::Started { pidfd, ends, .. } = case;
                let result = spawn::supervise(&pidfd, 0, ends.stdout, ends.stderr, watch, started);
                // Whatever happened, nothing of the case may survive it.
                let status = server.finish(lane)?;
                let mut finished = result?;
                finished.exit = spawn::decode(status);
                Ok(finished)
            },
        )
    }
}

/// Starts slot `slot`'s fork server: its two lanes are the slot's uid and group and the second
/// ones, the case is `command` with one of `environments` (plain, sanitized).
pub(super) fn start_server(
    slot: &Slot,
    command: &Command,
    environments: &[Vec<CString>; 2],
    own_user_namespace: bool,
    judge_pidfd: Option<&OwnedFd>,
    cpus: Option<server::Cpus>,
) -> io::Result<server::Server> {
    let (Some(ns), Some(first), Some(second), Some(uid), Some(second_uid)) = (
        &slot.namespaces,
        &slot.group,
        &slot.second_group,
        &slot.uid,
        &slot.second_uid,
    ) else {
        return Err(SandboxError::new(
            Stage::Slot,
            "a slot without its namespaces, groups or uids",
        )
        .into());
    };
    let c = |s: &str| CString::new(s).map_err(|_| SandboxError::nul_byte("the command"));
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
        cpus,
    })
}

/// The memory limit of a zygote's group.
pub(super) const ZYGOTE_MEMORY: u64 = 256 << 20;

/// Is `command` an interpreter with a zygote (CPython running one script of the box), and are
/// zygotes not turned off (`BOARDJUDGE_ZYGOTE=0`)?
pub(super) fn has_zygote(command: &Command) -> bool {
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
    let c = |s: &str| CString::new(s).map_err(|_| SandboxError::nul_byte("the command"));
    Ok(Some(vec![
        program.clone(),
        c("-c")?,
        c(&server::python_zygote())?,
        c(&command.args[0])?,
    ]))
}
