//! Argument types that several commands share: the sandbox's limits and parallelism, time
//! limits and counts, and the command line's names for the core's choices (the core knows no
//! command-line library). (The command line itself, and the dispatch to the commands, is
//! `cli.rs`; commands import this module, never `cli`, so the two do not depend on each other.)

use std::io::Write;
use std::path::PathBuf;

use judge_core::JudgeError;
use judge_core::cancel::Cancel;
use judge_core::progress::Progress;
use judge_core::registry::SolverKind;
use judge_core::runner::submission::{CompileError, compiled, from_words};
use judge_core::session::Session;

/// The CPU-time limit of a built-in problem's runs, in seconds, unless `--time-limit` says.
pub const DEFAULT_TIME_LIMIT: f64 = 2.0;
/// The memory limit of a built-in problem's runs, in MiB, unless `--memory-limit` says.
pub const DEFAULT_MEMORY_MB: u64 = 256;

/// The sandbox's limits and parallelism: one set of flags for `run`, `stress` and `strength`.
#[derive(clap::Args, Debug, Clone)]
pub struct SandboxArgs {
    /// CPU-time limit per test, in seconds (the judged time; the wall clock allows 2 x this + 1 s)
    /// [default: 2; for a package, its own limit].
    // Negative numbers are taken as values, so that the parser says what is wrong with them
    // (clap would take `-5` for an option and suggest `-- -5`). No default here: a package's
    // own limit applies unless this is given.
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Peak memory limit per test, in MiB [default: 256; for a package, its own limit].
    #[arg(long, value_parser = mebibytes, allow_negative_numbers = true)]
    pub memory_limit: Option<u64>,
    /// Tests run in parallel (default: the number of cores); also the builds of `judge
    /// strength` and `judge run --submissions` run in parallel.
    #[arg(long, value_parser = jobs_count, allow_negative_numbers = true)]
    pub jobs: Option<u16>,
    /// CPU-time limit of building a source file, in seconds (each build runs in a box of its
    /// own; the wall clock allows 2 x this + 10 s) [default: 30].
    #[arg(long, value_parser = seconds, allow_negative_numbers = true)]
    pub build_time_limit: Option<f64>,
    /// Build C and C++ sources with AddressSanitizer and UndefinedBehaviorSanitizer and run
    /// them with the sanitizers' options and room for their shadow memory: a sanitizer report
    /// (a read outside an array, undefined behaviour) is RE with the report, even when the
    /// output is right.
    #[arg(long)]
    pub sanitize: bool,
}

impl SandboxArgs {
    pub fn limits(&self) -> sandbox::Limits {
        sandbox::Limits {
            sanitizer: self.sanitize,
            ..judge_core::runner::default_limits(self.time_limit(), self.memory_limit())
        }
    }

    /// `--time-limit`, or the built-in problems' 2 s.
    pub fn time_limit(&self) -> f64 {
        self.time_limit.unwrap_or(DEFAULT_TIME_LIMIT)
    }

    /// `--memory-limit`, or the built-in problems' 256 MiB.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit.unwrap_or(DEFAULT_MEMORY_MB)
    }

    pub fn jobs(&self) -> usize {
        jobs(self.jobs)
    }

    /// The session of a command that runs submissions: these limits and jobs, `hidden` kept
    /// from every run, progress shown on `progress`, stopped by `cancel`.
    pub fn session<'a>(
        &self,
        hidden: &[PathBuf],
        progress: &'a dyn Progress,
        cancel: &Cancel,
    ) -> Session<'a> {
        Session {
            limits: self.limits(),
            jobs: self.jobs(),
            hidden: hidden.to_vec(),
            progress,
            cancel: cancel.clone(),
        }
    }

    /// The submission typed after `--`, built (its build and copied folders leaving out
    /// `hidden`): the program to run, or its compile error (the submission's verdict, a
    /// finding), printed on `out` as `CE   FILE: the build failed …`. The one place a
    /// command's own submission becomes CE (`judge run`, `judge stress`).
    pub fn submission(
        &self,
        words: &[String],
        hidden: &[PathBuf],
        cancel: &Cancel,
        out: &mut dyn Write,
    ) -> judge_core::Result<Result<sandbox::Command, CompileError>> {
        let built = compiled(from_words(words, &self.builder(hidden, cancel)))?;
        if let Err(failed) = &built {
            writeln!(out, "{}", judge_report::compile_error(failed)).map_err(JudgeError::Output)?;
        }
        Ok(built)
    }

    /// What builds the submissions: the build limits, the test data hidden from the builds
    /// too, sanitized builds with `--sanitize`, stopped by `cancel`.
    pub fn builder(
        &self,
        hidden: &[PathBuf],
        cancel: &Cancel,
    ) -> judge_core::runner::submission::Builder {
        let builder = judge_core::runner::submission::Builder::new(
            self.build_time_limit
                .map(std::time::Duration::from_secs_f64),
            hidden,
            cancel,
        );
        if self.sanitize {
            builder.sanitize()
        } else {
            builder
        }
    }
}

/// A trusted in-process solver, as `--solver` and `--against` name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solver {
    Reference,
    Fast,
}

impl From<Solver> for SolverKind {
    fn from(solver: Solver) -> SolverKind {
        match solver {
            Solver::Reference => SolverKind::Reference,
            Solver::Fast => SolverKind::Fast,
        }
    }
}

/// A test set layout, as `judge testset --format` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// `DIR/NAME.in` and `DIR/NAME.ans`.
    Plain,
    /// `DIR/data/sample/` and `DIR/data/secret/` (the ICPC / Kattis problem package layout).
    Kattis,
}

impl From<Layout> for judge_core::testgen::Layout {
    fn from(layout: Layout) -> judge_core::testgen::Layout {
        match layout {
            Layout::Plain => judge_core::testgen::Layout::Plain,
            Layout::Kattis => judge_core::testgen::Layout::Kattis,
        }
    }
}

/// A package format, as `judge package --format` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PackageFormat {
    /// ICPC problem package format 2025-09 (BAPCtools, DOMjudge).
    Icpc,
    /// The legacy Kattis format (problemtools' `verifyproblem`, Kattis).
    Legacy,
}

impl From<PackageFormat> for judge_package::Format {
    fn from(format: PackageFormat) -> judge_package::Format {
        match format {
            PackageFormat::Icpc => judge_package::Format::Icpc,
            PackageFormat::Legacy => judge_package::Format::Legacy,
        }
    }
}

/// `-v/--verbose` (a global flag), set once by the command line.
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn set_verbose(on: bool) {
    VERBOSE.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Was `-v/--verbose` given: say more (the sandbox's full description)?
pub fn verbose() -> bool {
    VERBOSE.load(std::sync::atomic::Ordering::Relaxed)
}

/// `--jobs`, or the number of cores.
pub fn jobs(requested: Option<u16>) -> usize {
    requested.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

/// An argument value that makes no sense (clap prints it with the option's name, exit 2).
#[derive(Debug, thiserror::Error)]
pub enum BadValue {
    #[error("'{0}' is not a number of seconds")]
    NotSeconds(String),
    #[error("takes seconds, more than 0 and at most 3600")]
    SecondsOutOfRange,
    #[error("'{0}': expected a whole number, at least 1")]
    NotACount(String),
    #[error("'{0}': expected a whole number of MiB, from 1 to 1048576")]
    NotMebibytes(String),
    #[error("'{0}': expected a whole number of parallel runs, from 1 to 256")]
    NotJobs(String),
}

/// A memory limit in MiB: 1 to 1 TiB.
fn mebibytes(text: &str) -> Result<u64, BadValue> {
    match text.parse::<u64>() {
        Ok(n) if (1..=1 << 20).contains(&n) => Ok(n),
        _ => Err(BadValue::NotMebibytes(text.to_string())),
    }
}

/// `--jobs`: 1 to 256.
fn jobs_count(text: &str) -> Result<u16, BadValue> {
    match text.parse::<u16>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(BadValue::NotJobs(text.to_string())),
    }
}

/// A time limit: seconds, more than 0 and at most an hour.
fn seconds(text: &str) -> Result<f64, BadValue> {
    let value: f64 = text
        .parse()
        .map_err(|_| BadValue::NotSeconds(text.to_string()))?;
    if value.is_finite() && value > 0.0 && value <= 3600.0 {
        Ok(value)
    } else {
        Err(BadValue::SecondsOutOfRange)
    }
}

/// A count that must be at least 1 (`--cases`, `--count`): 0 would do nothing.
pub fn count(text: &str) -> Result<u64, BadValue> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(BadValue::NotACount(text.to_string())),
    }
}

/// The short form of a sandbox description recorded on another machine (`judge merge` has
/// only the shards' `sandbox.describe()` text, not the sandbox): each `what: yes (…)` becomes
/// `what`, `what: no (…)` goes to the missing list, `what: v1 (…)` becomes `what v1`. The
/// parentheses (the reasons) are what `-v` adds.
pub fn short_isolation(full: &str) -> String {
    // The parts are separated by ", " outside parentheses (a reason may hold commas).
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, ch) in full.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 && full[i..].starts_with(", ") => {
                parts.push(&full[start..i]);
                start = i + 2;
            }
            _ => {}
        }
    }
    parts.push(&full[start..]);
    let (mut have, mut missing) = (Vec::new(), Vec::new());
    for part in parts {
        let Some((what, value)) = part.split_once(": ") else {
            have.push(part.trim().to_string());
            continue;
        };
        let value = value.split(" (").next().unwrap_or(value).trim();
        match value {
            "yes" => have.push(what.to_string()),
            "no" | "unavailable" => missing.push(what.to_string()),
            other => have.push(format!("{what} {other}")),
        }
    }
    let missing = missing
        .iter()
        .map(|what| format!("no {what}"))
        .collect::<Vec<_>>()
        .join(", ");
    match (have.is_empty(), missing.is_empty()) {
        (_, true) => have.join(", "),
        (true, false) => missing,
        (false, false) => format!("{}; {missing}", have.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::short_isolation;

    #[test]
    fn a_recorded_sandbox_description_reads_as_one_short_line() {
        let full = "PID namespace: yes, IPC/mount/network namespaces: yes, private root: yes \
                    (/usr, /etc, /dev, the submission's files copied), cgroups: v1 (memory, \
                    cpuacct, pids), fork server: yes (one per slot, the next case started \
                    ahead), unprivileged uid: yes (leased, in a user namespace of the run's \
                    own), Landlock: ABI 7";
        assert_eq!(
            short_isolation(full),
            "PID namespace, IPC/mount/network namespaces, private root, cgroups v1, fork \
             server, unprivileged uid, Landlock ABI 7"
        );
        let poor = "PID namespace: no (not root, no user namespaces), private root: no \
                    (needs root), cgroups: no (not mounted; peak memory from ru_maxrss, CPU \
                    of reaped processes, rlimits), fork server: no (off), unprivileged uid: \
                    no (not root), Landlock: unavailable";
        assert_eq!(
            short_isolation(poor),
            "no PID namespace, no private root, no cgroups, no fork server, no \
             unprivileged uid, no Landlock"
        );
    }
}
