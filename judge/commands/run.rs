//! `judge run PROBLEM --tests DIR [--time-limit SECS] [--memory-limit MB] [--jobs N]
//! [--report FILE] [--verify-answers] -- CMD [ARGS...]`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::escape;
use judge_core::progress::Progress;
use judge_core::registry::{ProblemEntry, SolverKind, parse_problem};
use judge_core::runner::report::Row;
use judge_core::runner::submission::{Staging, from_words};
use judge_core::runner::tests::{Test, discover};
use judge_core::runner::{near_limit, run_all};
use judge_core::verdict::Verdict;
use judge_core::{Outcome, Result};
use judge_report::{self as report, Format, RunReport};
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
    /// Write a report; the format follows the name: .csv or .json (one row per test), .xml
    /// (JUnit, for CI), .html (one self-contained page with the failing boards drawn); any
    /// other name: CSV.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// First recompute every answer file with the reference solver; a difference stops the
    /// judge (exit 2) before the submission runs.
    #[arg(long)]
    pub verify_answers: bool,
    /// The submission: a command as typed (e.g. `python3 sol.py`, `./a.out`), or one source
    /// file (.c .cpp .rs .py .rb .js) to build and run.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// Every answer file must read as an answer (a malformed one is the jury's mistake, not the
/// contestant's WA); with `verify`, it must also be the reference solver's answer to its input.
pub fn check_answers(problem: &dyn ProblemEntry, tests: &[Test], verify: bool) -> Result<()> {
    for test in tests {
        let bytes = std::fs::read(&test.answer).map_err(|e| JudgeError::io(&test.answer, e))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            JudgeError::Jury(format!(
                "{}: the answer file is not UTF-8 text",
                test.answer.display()
            ))
        })?;
        problem.answer_file_reads(&text).map_err(|why| {
            JudgeError::Jury(format!(
                "{}: the answer file does not read as an answer: {why}",
                test.answer.display()
            ))
        })?;
        if verify {
            let input = std::fs::read(&test.input).map_err(|e| JudgeError::io(&test.input, e))?;
            let reference = problem
                .solve(&input, SolverKind::Reference)
                .map_err(|error| JudgeError::Invalid {
                    source_name: test.input.display().to_string(),
                    error,
                })?;
            problem.check(&reference, text.as_bytes()).map_err(|why| {
                JudgeError::Jury(format!(
                    "{}: not the reference solver's answer to {} ({})",
                    test.answer.display(),
                    test.input.display(),
                    why.replacen("expected", "the reference says", 1).replacen(
                        ", got",
                        ", the file says",
                        1
                    )
                ))
            })?;
        }
    }
    Ok(())
}

/// One line for a non-AC test, as printed while the run goes on (control characters a
/// submission wrote are shown, not sent to the terminal).
fn failure_line(row: &Row) -> String {
    escape::terminal(&format!(
        "{:<4} {}  {} ms  {} KiB  {}",
        row.verdict.to_string(),
        row.test,
        row.cpu_ms,
        row.peak_kb,
        row.message
    ))
}

/// How many failures are printed; the rest are counted (all are in a report).
const PRINTED_FAILURES: usize = 20;

/// Prints non-AC rows as they finish, in test order (so the output does not depend on which
/// parallel slot finished first): a row is printed once every earlier test is done. A TLE
/// that will be re-run alone is held back and printed with its final verdict.
struct Streamer<'a> {
    progress: &'a Progress,
    next: usize,
    done: BTreeMap<usize, Option<String>>,
    printed: usize,
    failing: usize,
}

impl Streamer<'_> {
    fn finished(&mut self, i: usize, line: Option<String>) {
        self.done.insert(i, line);
        while let Some(line) = self.done.remove(&self.next) {
            self.next += 1;
            if let Some(line) = line {
                self.print(&line);
            }
        }
    }

    fn print(&mut self, line: &str) {
        self.failing += 1;
        if self.printed < PRINTED_FAILURES {
            self.printed += 1;
            self.progress.println(line);
        }
    }
}

pub fn run(args: &Args) -> Result<Outcome> {
    let tests = discover(&args.tests)?;
    check_answers(args.problem, &tests, args.verify_answers)?;
    let staging = Staging::new()?;
    let command = match from_words(&args.command, &staging) {
        Err(JudgeError::Build {
            source_file,
            command,
            message,
        }) => return compile_error(args, &tests, &source_file, &command, &message),
        other => other?,
    };
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
    let slots = sandbox.slots();
    let mut streamer = Streamer {
        progress: &progress,
        next: 0,
        done: BTreeMap::new(),
        printed: 0,
        failing: 0,
    };
    let mut held = Vec::new();
    let rows = run_all(
        args.problem,
        &sandbox,
        &tests,
        &limits,
        &progress,
        &cancel,
        &mut |i, row| {
            let line = if row.verdict == Verdict::AC {
                None
            } else if slots > 1 && near_limit(row, &limits) {
                held.push(row.test.clone());
                None
            } else {
                Some(failure_line(row))
            };
            streamer.finished(i, line);
        },
    );
    progress.finish();
    let rows = rows?;
    // The TLEs re-run alone, with their final verdicts.
    for row in rows.iter().filter(|r| held.contains(&r.test)) {
        if row.verdict != Verdict::AC {
            streamer.print(&failure_line(row));
        }
    }
    if streamer.failing > streamer.printed {
        println!(
            "… and {} more non-AC tests{}",
            streamer.failing - streamer.printed,
            if args.report.is_some() {
                " (see the report)"
            } else {
                " (--report FILE lists them all)"
            }
        );
    }
    if let Some(path) = &args.report {
        let failures = match Format::of(path) {
            Format::Html | Format::JUnit => report::failures(args.problem, &tests, &rows),
            Format::Csv | Format::Json => Vec::new(),
        };
        let report = RunReport {
            problem: args.problem.id(),
            command: args.command.join(" "),
            tests_dir: args.tests.display().to_string(),
            total: tests.len(),
            time_limit_ms: limits.cpu.as_millis() as u64,
            memory_limit_kb: limits.memory_bytes / 1024,
            isolation: sandbox.isolation.describe(),
            rows: &rows,
            not_run: tests
                .iter()
                .filter(|t| !rows.iter().any(|r| r.test == t.name))
                .map(|t| t.name.clone())
                .collect(),
            failures,
        };
        report::write_run(path, &report)?;
    }
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    for row in &rows {
        *counts.entry(row.verdict).or_default() += 1;
    }
    let failing = rows.iter().filter(|r| r.verdict != Verdict::AC).count();
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

/// A submission that does not build: CE on every test (its verdict, not a failure of the
/// judge), the compiler's message printed, the report written with the CE rows.
fn compile_error(
    args: &Args,
    tests: &[Test],
    source_file: &std::path::Path,
    command: &str,
    message: &str,
) -> Result<Outcome> {
    println!(
        "CE   {}: the build failed ({command}):\n{message}",
        source_file.display()
    );
    let rows: Vec<Row> = tests
        .iter()
        .map(|test| Row {
            test: test.name.clone(),
            verdict: Verdict::CE,
            cpu_ms: 0,
            wall_ms: 0,
            peak_kb: 0,
            exit: String::new(),
            message: "compile error".to_string(),
            stdout: String::new(),
            stderr: message.to_string(),
        })
        .collect();
    if let Some(path) = &args.report {
        let limits = args.sandbox.limits();
        let report = RunReport {
            problem: args.problem.id(),
            command: args.command.join(" "),
            tests_dir: args.tests.display().to_string(),
            total: tests.len(),
            time_limit_ms: limits.cpu.as_millis() as u64,
            memory_limit_kb: limits.memory_bytes / 1024,
            isolation: sandbox::Isolation::detect().describe(),
            rows: &rows,
            not_run: Vec::new(),
            failures: Vec::new(),
        };
        report::write_run(path, &report)?;
    }
    println!(
        "{}: 0 of {} tests run: CE {}",
        args.problem.id(),
        tests.len(),
        tests.len()
    );
    Ok(Outcome::Finding)
}
