//! `judge run PROBLEM --tests DIR [--time-limit SECS] [--memory-limit MB] [--jobs N]
//! [--report FILE] -- CMD [ARGS...]`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use engine::cancel::Cancel;
use engine::error::JudgeError;
use engine::progress::Progress;
use engine::registry::{ProblemEntry, parse_problem};
use engine::runner::submission::{Staging, from_words};
use engine::runner::{report, run_all, tests::discover};
use engine::verdict::Verdict;
use engine::{Outcome, Result};
use sandbox::Sandbox;

use crate::cli::SandboxArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The test set: NAME.in + NAME.ans files, or the Kattis layout (data/sample, data/secret).
    #[arg(long)]
    pub tests: PathBuf,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Write one row per test: CSV, or JSON if the name ends in .json.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// The submission: a command as typed (e.g. `python3 sol.py`, `./a.out`), or one source
    /// file (.c .cpp .rs .py .rb .js) to build and run.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

pub fn run(args: &Args) -> Result<Outcome> {
    let tests = discover(&args.tests)?;
    let staging = Staging::new()?;
    let command = from_words(&args.command, &staging)?;
    // The test data stays invisible to the submission wherever it lies.
    let sandbox = Sandbox::hiding(
        command,
        args.sandbox.jobs(),
        std::slice::from_ref(&args.tests),
    )
    .map_err(|e| JudgeError::sandbox("setting up", e))?;
    let limits = args.sandbox.limits();
    let cancel = Cancel::on_interrupt();
    let progress = Progress::new("tests", Some(tests.len() as u64));
    let rows = run_all(args.problem, &sandbox, &tests, &limits, &progress, &cancel);
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
    if cancel.is_cancelled() {
        return Err(JudgeError::Interrupted(format!(
            "{} of {} tests finished (written to the report if one was asked for)",
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
