//! `judge run PROBLEM --tests DIR [--time-limit SECS] [--memory-limit MB] [--jobs N]
//! [--report FILE] -- CMD [ARGS...]`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use engine::error::JudgeError;
use engine::progress::Progress;
use engine::registry::{ProblemEntry, parse_problem};
use engine::runner::submission::{Staging, from_source, is_source, resolve};
use engine::runner::verdict::Verdict;
use engine::runner::{INTERRUPTED, default_limits, report, run_all, tests::discover};
use engine::{Outcome, Result};
use sandbox::{Isolation, Sandbox};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The test set: NAME.in + NAME.ans files, or the Kattis layout (data/sample, data/secret).
    #[arg(long)]
    pub tests: PathBuf,
    /// CPU-time limit per test, in seconds (the judged time; wall time allowed: 2 x this + 1 s).
    #[arg(long, default_value_t = 2.0)]
    pub time_limit: f64,
    /// Peak resident memory limit per test, in MiB.
    #[arg(long, default_value_t = 256)]
    pub memory_limit: u64,
    /// Tests run in parallel (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Write one row per test: CSV, or JSON if the name ends in .json.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// The submission: a command as typed (e.g. `python3 sol.py`, `./a.out`), or one source
    /// file (.c .cpp .rs .py .rb .js) to build and run.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// Resolves the submission words into a sandbox command (building a lone source file).
pub fn submission(words: &[String], staging: &Staging) -> Result<sandbox::Command> {
    let cwd = std::env::current_dir().map_err(|e| JudgeError::io(".", e))?;
    let drop = Isolation::detect().drop_privileges;
    match words {
        [single] if is_source(Path::new(single)) && cwd.join(single).is_file() => {
            from_source(Path::new(single), &cwd, staging, drop)
        }
        _ => resolve(words, &cwd, staging, drop),
    }
}

pub fn check_limits(time_limit: f64, memory_limit: u64) -> Result<()> {
    if !(time_limit.is_finite() && time_limit > 0.0 && time_limit <= 3600.0) {
        return Err(JudgeError::Usage(
            "--time-limit takes seconds, more than 0 and at most 3600".to_string(),
        ));
    }
    if memory_limit == 0 || memory_limit > 1 << 20 {
        return Err(JudgeError::Usage(
            "--memory-limit takes MiB, 1 to 1048576".to_string(),
        ));
    }
    Ok(())
}

pub fn run(args: &Args) -> Result<Outcome> {
    check_limits(args.time_limit, args.memory_limit)?;
    let tests = discover(&args.tests)?;
    let staging = Staging::new()?;
    let command = match submission(&args.command, &staging) {
        Err(JudgeError::Build {
            source_file,
            command,
            message,
        }) => {
            // A compile error is the submission's verdict (CE) on every test, not a failure
            // of the judge.
            println!(
                "CE   {}: the build failed ({command}):\n{message}",
                source_file.display()
            );
            let rows: Vec<report::Row> = tests
                .iter()
                .map(|test| report::Row {
                    test: test.name.clone(),
                    verdict: Verdict::CE,
                    cpu_ms: 0,
                    wall_ms: 0,
                    peak_kb: 0,
                    exit: String::new(),
                    message: "compile error".to_string(),
                })
                .collect();
            if let Some(path) = &args.report {
                report::write(path, &rows)?;
            }
            println!(
                "{}: 0 of {} tests run: CE {}",
                args.problem.id(),
                tests.len(),
                tests.len()
            );
            return Ok(Outcome::Finding);
        }
        other => other?,
    };
    let jobs = crate::commands::stress::jobs(args.jobs);
    let sandbox = Sandbox::new(command, jobs)
        .map_err(|e| JudgeError::Other(format!("setting up the sandbox: {e}")))?;
    let limits = default_limits(args.time_limit, args.memory_limit);
    let progress = Progress::new("tests", Some(tests.len() as u64));
    let rows = run_all(args.problem, &sandbox, &tests, &limits, &progress);
    progress.finish();
    let rows = rows?;
    if let Some(path) = &args.report {
        report::write(path, &rows)?;
    }
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    for row in &rows {
        *counts.entry(row.verdict).or_default() += 1;
    }
    for row in rows.iter().filter(|r| r.verdict != Verdict::AC).take(20) {
        println!(
            "{:<4} {}  {} ms  {} KiB  {}",
            row.verdict, row.test, row.cpu_ms, row.peak_kb, row.message
        );
    }
    let failing = rows.iter().filter(|r| r.verdict != Verdict::AC).count();
    if failing > 20 {
        println!("… and {} more non-AC tests (see --report)", failing - 20);
    }
    let summary: Vec<String> = counts.iter().map(|(v, n)| format!("{v} {n}")).collect();
    let max_cpu = rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0);
    let max_mem = rows.iter().map(|r| r.peak_kb).max().unwrap_or(0);
    println!(
        "{}: {} of {} tests run: {} (max {} ms CPU, {} KiB)",
        args.problem.id(),
        rows.len(),
        tests.len(),
        summary.join(", "),
        max_cpu,
        max_mem
    );
    eprintln!("sandbox: {}", sandbox.isolation.describe());
    if INTERRUPTED.load(Ordering::SeqCst) {
        return Err(JudgeError::Other(format!(
            "interrupted: {} of {} tests finished (written to the report if one was asked for)",
            rows.len(),
            tests.len()
        )));
    }
    Ok(if failing == 0 && rows.len() == tests.len() {
        Outcome::Success
    } else {
        Outcome::Finding
    })
}
