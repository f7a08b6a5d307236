//! One run in a slot: its command, environment and limits prepared, started (fresh, or from
//! the slot's fork server), watched, and measured.

use std::ffi::CString;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::cgroup;
use crate::error::{SandboxError, Stage};
use crate::input::InputFile;
use crate::spawn;
use crate::types::{Finished, Limits, Ran, RunIo, SANDBOX_PATH, SANITIZER_OPTIONS, Stdin, Stdout};

use super::host::{rebase, reset_dir, write_box_files};
use super::{Sandbox, Slot};

impl Sandbox {
    /// Runs the command once in slot `slot` with `stdin` as its input (a file: see
    /// [`Stdin::Bytes`]), its output captured.
    pub fn run(
        &self,
        slot: usize,
        stdin: &[u8],
        limits: &Limits,
        interrupted: &AtomicBool,
    ) -> io::Result<Finished> {
        let io = RunIo {
            stdin: Stdin::Bytes(stdin),
            stdout: Stdout::Capture,
            files: &[],
            feedback: false,
            limits,
            stop: interrupted,
        };
        Ok(self.run_io(slot, io)?.finished)
    }

    /// Runs the command once in slot `slot` with the streams, per-run files and feedback folder
    /// of `io` (files and feedback: a jury box's only, see [`crate::JuryBox`]). Nothing of the
    /// run is left in the box for the next: its files and feedback folder are emptied before
    /// and after it.
    pub fn run_io(&self, slot: usize, io: RunIo<'_>) -> io::Result<Ran> {
        self.run_paired(slot, io, &[], None)
    }

    /// [`Sandbox::run_io`] with the feedback folder holding `seed`'s files when the run starts
    /// (each its user's, as if it had written it): a multi-pass output validator's folder of
    /// the pass before, which the format keeps between the passes of a test case. The caller
    /// carries them from one pass to the next ([`Ran::feedback`]: the box's caps still hold);
    /// the box is emptied after the run as always, so nothing reaches another test case.
    pub fn run_io_with_feedback(
        &self,
        slot: usize,
        io: RunIo<'_>,
        seed: &[crate::types::FeedbackFile],
    ) -> io::Result<Ran> {
        self.run_paired(slot, io, seed, None)
    }

    /// [`Sandbox::run_io`], as one side of an interactive pair when `pair` is given, its
    /// feedback folder holding `seed` at the start.
    pub(crate) fn run_paired(
        &self,
        slot: usize,
        io: RunIo<'_>,
        seed: &[crate::types::FeedbackFile],
        pair: Option<&spawn::Paired<'_>>,
    ) -> io::Result<Ran> {
        let RunIo {
            stdin,
            stdout,
            files,
            feedback,
            limits,
            stop,
        } = io;
        let slot = &self.slots[slot];
        if self.jury.is_none() && (feedback || !files.is_empty() || !seed.is_empty()) {
            return Err(SandboxError::new(
                Stage::Slot,
                "per-run files and a feedback folder need a jury box",
            )
            .into());
        }
        if self.jury.is_some() {
            self.prepare_jury_box(slot, files, feedback, seed)?;
        }
        let finished = match &slot.server {
            Some(server) => self.run_served(slot, server, stdin, stdout, limits, stop, pair),
            None => self.run_fresh(slot, stdin, stdout, limits, stop, pair),
        };
        let ran = finished.and_then(|finished| {
            let (feedback, feedback_skipped) = if feedback {
                self.collect_feedback(slot)?
            } else {
                (Vec::new(), Vec::new())
            };
            Ok(Ran {
                finished,
                feedback,
                feedback_skipped,
            })
        });
        if self.jury.is_some() {
            // Its files and what it left go now (their memory with them), whatever happened.
            let cleared = self.clear_jury_box(slot);
            return ran.and_then(|ran| cleared.map(|()| ran));
        }
        ran
    }

    /// A run in fresh namespaces (no fork server).
    fn run_fresh(
        &self,
        slot: &Slot,
        stdin: Stdin<'_>,
        stdout: Stdout,
        limits: &Limits,
        interrupted: &AtomicBool,
        pair: Option<&spawn::Paired<'_>>,
    ) -> io::Result<Finished> {
        let uid = slot.uid.as_ref().map(|l| l.uid);
        let outside = self.outside(slot);
        // (A jury box's scratch folder was written for this run already.)
        if slot.namespaces.is_none() && self.jury.is_none() {
            reset_dir(&slot.workdir, uid)?;
            if let (Some(build), Some(dir)) = (&self.build, &outside) {
                // A build's sources, fresh in its scratch directory.
                write_box_files(dir, &self.command.files, &build.dirs, uid, true)?;
            }
        }
        let c = |s: &[u8]| CString::new(s).map_err(|_| SandboxError::nul_byte("the command"));
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
        // Its input, written (and sealed) before it starts: not on its clock.
        let stdin = match stdin {
            Stdin::Bytes(bytes) => InputFile::with(bytes)?.reader()?,
            Stdin::Fd(fd) => fd,
        };
        let stdout = match stdout {
            Stdout::Capture => None,
            Stdout::Fd(fd) => Some(fd),
        };
        self.watched_then(
            slot.group.as_ref(),
            limits,
            interrupted,
            None,
            pair,
            |watch| spawn::run(&plan, stdin, stdout, watch),
        )
    }

    /// Watches a run (`go`) under `limits`, with its group's gauges when it has one, calling
    /// `after_input` once it is under way, as a side of `pair` if given; and takes its CPU
    /// time and memory from the group once it is over.
    pub(super) fn watched_then(
        &self,
        group: Option<&cgroup::SlotGroup>,
        limits: &Limits,
        interrupted: &AtomicBool,
        after_input: Option<&(dyn Fn() + Sync)>,
        pair: Option<&spawn::Paired<'_>>,
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
            pair,
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
}

/// The submission's environment: `PATH`, `LANG`, `HOME` and `TMPDIR` (`home`), the sanitizers'
/// options when `sanitizer` is set (with ASan's own memory bound, MiB, when there is no memory
/// group to bound it), then the command's own (`at` places box paths).
pub(super) fn environment(
    home: &str,
    sanitizer: Option<Option<u64>>,
    env: &[(String, String)],
    at: &dyn Fn(&str) -> String,
) -> io::Result<Vec<CString>> {
    let c = |s: String| CString::new(s).map_err(|_| SandboxError::nul_byte("the command"));
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
