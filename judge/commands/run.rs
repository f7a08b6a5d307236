//! `judge run PROBLEM --tests DIR [--time-limit SECS] [--memory-limit MB] [--jobs N]
//! [--report FILE] [--verify-answers] [--stop-at-first-failure] -- CMD [ARGS...]`, or many
//! submissions at once:
//! `judge run PROBLEM --tests DIR --submissions DIR2 [--shard K/N|auto [--save DIR3]]`.
//! PROBLEM may be a problem package folder: its data (unless --tests names other), limits
//! (unless given) and checker are used ([`Target`]).

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::problem::{Problem, parse_problem};
use judge_core::progress::{count, thousands};
use judge_core::registry::ProblemEntry;
use judge_core::runner::report::Row;
use judge_core::runner::tests::discover;
use judge_core::runner::{
    AnswerFile, Checker, Loaded, Stage, Stop, compile_error_rows, load, run_tests,
};
use judge_core::shards::{Shard, ShardArg, folder};
use judge_core::verdict::Verdict;
use judge_core::{Outcome, Result};
use judge_report::escape;
use judge_report::{self as report, Format, RunReport};

use crate::args::SandboxArgs;
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`), or a problem package folder.
    #[arg(value_parser = parse_problem)]
    pub problem: Problem,
    /// The test set: NAME.in + NAME.ans files, or the Kattis layout (data/sample, data/secret).
    /// Required for a built-in problem; a package's own data is used unless it is given.
    #[arg(long)]
    pub tests: Option<PathBuf>,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Write a report; the format follows the name: .csv or .json (one row per test), .xml
    /// (JUnit, for CI), .html (one self-contained page with the failing boards drawn); any
    /// other extension is refused before anything runs.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// First recompute every answer file with the reference solver; a difference stops the
    /// judge (exit 2) before the submission runs.
    #[arg(long)]
    pub verify_answers: bool,
    /// Judge every submission of this folder instead of CMD (each file or folder in it is one
    /// submission), with one summary table.
    #[arg(long, conflicts_with = "command")]
    pub submissions: Option<PathBuf>,
    /// With --submissions: only shard K of N of the submissions (in name order, submission i
    /// is shard i mod N + 1's). `auto`: from a Slurm job array or a Kubernetes Indexed Job.
    #[arg(long, requires = "submissions")]
    pub shard: Option<ShardArg>,
    /// With --shard: write the shard's result into DIR/shard-K-of-N/ (see `judge merge`).
    #[arg(long, requires = "shard")]
    pub save: Option<PathBuf>,
    /// Stop at the first test that is not AC, as Kattis and DOMjudge judge: the tests after it
    /// are reported as not run. The same tests are reported whatever --jobs (they still run in
    /// a secret order).
    #[arg(long, conflicts_with = "submissions")]
    pub stop_at_first_failure: bool,
    /// The submission: a command as typed (e.g. `python3 sol.py`, `./a.out`), one source
    /// file to build and run (.c .cpp .cc .py .java .kt .go .rs .rb .js .sh), or a folder
    /// holding a submission of several files (entry point main.<ext>); the README's table
    /// says how each is built and run.
    #[arg(last = true, required_unless_present = "submissions")]
    pub command: Vec<String>,
}

/// One line for a non-AC test, as printed while the run goes on (control characters and
/// line breaks a submission wrote are shown, not sent to the terminal).
fn failure_line(row: &Row) -> String {
    escape::line(&format!(
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

/// How many lines of a compiler's message `--submissions` prints on standard error for each
/// CE (the whole message is in the reports): enough for the first errors, not a screenful
/// per submission.
const CE_LINES: usize = 12;

/// The first `lines` lines of `text`, and how many more there were.
fn capped_lines(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    if all.len() <= lines {
        return text.trim_end().to_string();
    }
    format!(
        "{}\n… {} more (in the report's compile error)",
        all[..lines].join("\n"),
        count(all.len() - lines, "line")
    )
}

/// Prints non-AC rows as they finish, in test order (so the output does not depend on which
/// parallel slot finished first): a row is printed once every earlier test is done. A TLE
/// that will be re-run alone is held back and printed with its final verdict.
struct Streamer<'a> {
    bar: &'a Bar,
    out: &'a mut dyn Write,
    next: usize,
    done: BTreeMap<usize, Option<(String, String)>>,
    printed: usize,
    failing: usize,
    /// The tests whose failure was printed or counted.
    shown: HashSet<String>,
}

impl Streamer<'_> {
    fn finished(&mut self, i: usize, line: Option<(String, String)>) -> Result<()> {
        self.done.insert(i, line);
        while let Some(line) = self.done.remove(&self.next) {
            self.next += 1;
            if let Some((test, line)) = line {
                self.print(test, &line)?;
            }
        }
        Ok(())
    }

    fn print(&mut self, test: String, line: &str) -> Result<()> {
        self.failing += 1;
        self.shown.insert(test);
        if self.printed < PRINTED_FAILURES {
            self.printed += 1;
            // Above the bar, if there is one.
            let out = &mut self.out;
            self.bar
                .suspend(|| writeln!(out, "{line}"))
                .map_err(JudgeError::Output)?;
        }
        Ok(())
    }

    /// Prints the failures among the rows that stand that were not printed yet, in test
    /// order: with an interrupted run, those that finished after a test that never did (and
    /// TLEs held back for a re-run that never came); with --stop-at-first-failure, the one
    /// failure (rows are not streamed then: a later test may run in parallel and be dropped).
    fn flush(&mut self, rows: &[Row]) -> Result<()> {
        for row in rows {
            if row.verdict != Verdict::AC && !self.shown.contains(&row.test) {
                self.print(row.test.clone(), &failure_line(row))?;
            }
        }
        Ok(())
    }
}

pub fn run(args: &Args, out: &mut dyn Write, interrupt: &Cancel) -> Result<Outcome> {
    // Every path is checked before anything is built or run.
    if let Some(tests) = &args.tests {
        crate::paths::existing(tests)?;
    }
    if let Some(path) = &args.report {
        crate::paths::report(path)?;
    }
    if let Some(folder) = &args.submissions {
        crate::paths::existing(folder)?;
    }
    if let Some(save) = &args.save {
        crate::paths::output_folder("--save", save)?;
    }
    if let Some(folder) = &args.submissions {
        return many(args, folder, out, interrupt);
    }
    if args.shard.is_some() {
        // (clap's `requires` does not fire when CMD, which --submissions excludes, is given.)
        return Err(JudgeError::Usage(
            "--shard splits the submissions of --submissions DIR; one submission is not sharded"
                .to_string(),
        ));
    }
    let target = Target::new(args, interrupt)?;
    let tests = &target.tests;
    // The test data stays invisible to the submission (its build, its runs) wherever it lies.
    let hidden = target.hidden.as_slice();
    let command = match args
        .sandbox
        .submission(&args.command, hidden, interrupt, out)?
    {
        Ok(command) => command,
        Err(failed) => {
            let rows = compile_error_rows(tests, &failed.output());
            let isolation = sandbox::Isolation::detect().describe();
            write_report(args, &target, &rows, &isolation)?;
            outln!(
                out,
                "{}: 0 of {} run: CE {}",
                escape::line(&target.name),
                count(tests.len(), "test"),
                thousands(tests.len() as u64)
            );
            return Ok(Outcome::Finding);
        }
    };
    let bar = Bar::new("tests", Some(tests.len() as u64));
    let session = target.session(args, &bar, interrupt);
    let sandbox = session.sandbox(command)?;
    let runs = target.runs(&sandbox);
    let cancel = &session.cancel;
    let mut streamer = Streamer {
        bar: &bar,
        out: &mut *out,
        next: 0,
        done: BTreeMap::new(),
        printed: 0,
        failing: 0,
        shown: HashSet::new(),
    };
    let stop = if args.stop_at_first_failure {
        Stop::AtFirstFailure
    } else {
        Stop::Never
    };
    let rows = run_tests(
        &session.judging(runs.as_ref(), target.checker.as_ref()),
        tests,
        stop,
        &mut |i, row, stage| {
            if stop == Stop::AtFirstFailure {
                return Ok(());
            }
            let line = (row.verdict != Verdict::AC).then(|| (row.test.clone(), failure_line(row)));
            match stage {
                // A TLE that load could have caused is held back until its run alone stands.
                Stage::First { rerun: true } => streamer.finished(i, None),
                Stage::First { rerun: false } => streamer.finished(i, line),
                Stage::Rerun => match line {
                    Some((test, line)) => streamer.print(test, &line),
                    None => Ok(()),
                },
            }
        },
    );
    bar.finish();
    let rows = rows?;
    streamer.flush(&rows)?;
    let (failing, printed) = (streamer.failing, streamer.printed);
    if failing > printed {
        outln!(
            out,
            "… and {} more non-AC{}",
            count(failing - printed, "test"),
            if args.report.is_some() {
                " (see the report)"
            } else {
                " (--report FILE lists them all)"
            }
        );
    }
    let isolation = sandbox.describe();
    write_report(args, &target, &rows, &isolation)?;
    let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
    for row in &rows {
        *counts.entry(row.verdict).or_default() += 1;
    }
    let failing = rows.iter().filter(|r| r.verdict != Verdict::AC).count();
    let summary: Vec<String> = counts
        .iter()
        .map(|(v, n)| format!("{v} {}", thousands(*n as u64)))
        .collect();
    let max_cpu = rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0);
    let max_mem = rows.iter().map(|r| r.peak_kb).max().unwrap_or(0);
    let not_run = tests.len() - rows.len();
    let why_not_run = if cancel.is_cancelled() {
        format!("; interrupted: {} not run", thousands(not_run as u64))
    } else if not_run > 0 {
        format!(
            "; stopped at the first failure: {} not run",
            thousands(not_run as u64)
        )
    } else {
        String::new()
    };
    if rows.is_empty() {
        outln!(
            out,
            "{}: 0 of {} run{why_not_run}",
            escape::line(&target.name),
            count(tests.len(), "test")
        );
    } else {
        outln!(
            out,
            "{}: {} of {} run: {} (max {} ms CPU, {} KiB){why_not_run}",
            escape::line(&target.name),
            thousands(rows.len() as u64),
            count(tests.len(), "test"),
            summary.join(", "),
            max_cpu,
            max_mem
        );
    }
    if crate::args::verbose() {
        errln!("sandbox: {isolation}");
    } else {
        errln!("sandbox: {} (-v for details)", sandbox.summary());
    }
    if cancel.is_cancelled() {
        return Err(JudgeError::Interrupted(format!(
            "{} of {} finished (written to the report if one was asked for)",
            thousands(rows.len() as u64),
            count(tests.len(), "test")
        )));
    }
    Ok(if failing == 0 && rows.len() == tests.len() {
        Outcome::Success
    } else {
        Outcome::Finding
    })
}

/// Writes the report `--report` asks for (nothing without it), from the rows that stand.
fn write_report(args: &Args, target: &Target, rows: &[Row], isolation: &str) -> Result<()> {
    let Some(path) = &args.report else {
        return Ok(());
    };
    let (tests, limits) = (&target.tests, target.limits);
    // The boards of the failing tests are drawn for a built-in problem; a package's tests are
    // listed without a picture.
    let failures = match (Format::of(path), target.entry) {
        (Format::Html | Format::JUnit, Some(entry)) => report::failures(entry, tests, rows),
        _ => Vec::new(),
    };
    let report = RunReport {
        problem: &target.name,
        command: args.command.join(" "),
        tests_dir: target.tests_dir.clone(),
        total: tests.len(),
        time_limit_ms: limits.cpu.as_millis() as u64,
        memory_limit_kb: limits.memory_bytes / 1024,
        isolation: isolation.to_string(),
        rows,
        not_run: tests
            .iter()
            .filter(|t| !rows.iter().any(|r| r.test == t.test.name))
            .map(|t| t.test.name.clone())
            .collect(),
        failures,
    };
    report::write_run(path, &report)
}

/// `--submissions DIR2`: every submission of the folder (this shard's, with --shard) judged
/// by [`judge_core::many`], one table, the reports, and with --save the shard's result.
fn many(args: &Args, dir: &Path, out: &mut dyn Write, interrupt: &Cancel) -> Result<Outcome> {
    use judge_core::many::{self, Campaign, Record};
    use judge_report::many::{ManyReport, Table, write};
    let shard = match &args.shard {
        None => Shard::WHOLE,
        Some(arg) => {
            let (shard, origin) = arg.resolve()?;
            if let Some(origin) = origin {
                errln!("shard {shard} (from {origin})");
            }
            shard
        }
    };
    if let Some(save) = &args.save {
        folder::check_free(save, shard)?;
    }
    let all = many::discover(dir)?;
    let target = Target::new(args, interrupt)?;
    let tests = &target.tests;
    let mine = many::share(&all, shard);
    let hidden = target.hidden.as_slice();
    let builder = args.sandbox.builder(hidden, interrupt);
    let bar = Bar::new("submissions", Some(mine.len() as u64));
    let session = target.session(args, &bar, interrupt);
    // The table's columns are known before any submission is judged: each row is printed as
    // soon as its submission is judged (submissions are judged in order, so the rows are in
    // the table's order whatever the timing), the header with the first.
    let layout = Table::for_names(mine.iter().map(|e| e.name.as_str()));
    let mut header_printed = false;
    let batch = {
        let out = &mut *out;
        let bar = &bar;
        let header_printed = &mut header_printed;
        let mut print_row = |judged: &many::Judged| -> Result<()> {
            let mut lines = String::new();
            if !std::mem::replace(header_printed, true) {
                lines.push_str(&layout.header());
            }
            lines.push_str(&layout.row(judged));
            bar.suspend(|| out.write_all(lines.as_bytes()))
                .map_err(JudgeError::Output)?;
            if let Some(detail) = &judged.compile_error {
                // The compiler's message, as a single run prints it, on standard error (the
                // table on standard output stays a table); capped, as in a single run.
                bar.suspend(|| {
                    errln!(
                        "CE   {}: the build failed {}",
                        escape::line(&judged.name),
                        capped_lines(detail, CE_LINES)
                    )
                });
            }
            Ok(())
        };
        many::judge(
            target.checker.as_ref(),
            target.package_checker.as_deref(),
            tests,
            &mine,
            &builder,
            &session,
            &mut print_row,
        )
    };
    bar.finish();
    let batch = batch?;
    let not_run: Vec<String> = mine[batch.judged.len()..]
        .iter()
        .map(|e| e.name.clone())
        .collect();
    let isolation = vec![
        batch
            .isolation
            .clone()
            .unwrap_or_else(|| "(nothing ran)".to_string()),
    ];
    let tests_dir = target.tests_dir.clone();
    let report = ManyReport {
        problem: &target.name,
        tests_dir: &tests_dir,
        tests: tests.len(),
        time_limit_ms: session.limits.cpu.as_millis() as u64,
        memory_limit_mb: target.limits.memory_bytes >> 20,
        isolation: &isolation,
        judged: &batch.judged,
        not_run: &not_run,
    };
    if !header_printed {
        out!(out, "{}", layout.header());
    }
    out!(out, "{}", layout.end(&report));
    match &batch.isolation_summary {
        Some(summary) if !crate::args::verbose() => {
            errln!("sandbox: {summary} (-v for details)");
        }
        _ => errln!("sandbox: {}", isolation[0]),
    }
    if let Some(path) = &args.report {
        write(path, &report)?;
    }
    if let Some(save) = &args.save {
        let record = Record {
            header: judge_core::shards::Header::new("run", shard, !batch.interrupted),
            campaign: Campaign {
                problem: target.name.clone(),
                tests: tests.len(),
                tests_digest: many::tests_digest(tests),
                time_limit_ms: report.time_limit_ms,
                memory_limit_mb: target.limits.memory_bytes >> 20,
                submissions: all.iter().map(|e| e.name.clone()).collect(),
            },
            tests_dir: tests_dir.clone(),
            isolation: isolation[0].clone(),
            judged: batch.judged.clone(),
        };
        let published =
            folder::Pending::create(save, shard)?.publish_record(&record, !batch.interrupted)?;
        errln!("shard {shard} saved to {}", published.display());
    }
    if batch.interrupted {
        return Err(JudgeError::Interrupted(format!(
            "{} of {} judged",
            thousands(batch.judged.len() as u64),
            count(mine.len(), "submission")
        )));
    }
    Ok(if report.passed() {
        Outcome::Success
    } else {
        Outcome::Finding
    })
}

/// What a run judges against: the problem's name, its tests read (and checked), its checker,
/// what the submissions must not see, and the limits of their runs. A built-in problem's
/// come from `--tests` and the limits' flags; a package's from the package (its data unless
/// `--tests` names other, its limits unless the flags override them, its input validators run
/// on every input first, its output validator).
pub struct Target {
    pub name: String,
    /// The built-in problem (its boards are drawn in the reports).
    pub entry: Option<&'static dyn ProblemEntry>,
    pub tests: Vec<Loaded>,
    pub checker: std::sync::Arc<dyn Checker>,
    /// A package's checker, which also says how its submissions run (an interactive
    /// problem's with its validator).
    pub package_checker: Option<std::sync::Arc<judge_core::package::checker::PackageChecker>>,
    pub hidden: Vec<PathBuf>,
    pub tests_dir: String,
    pub limits: sandbox::Limits,
}

impl Target {
    pub fn new(args: &Args, interrupt: &Cancel) -> Result<Target> {
        match &args.problem {
            Problem::BuiltIn(entry) => {
                let Some(dir) = &args.tests else {
                    return Err(JudgeError::Usage(format!(
                        "--tests DIR is required for the built-in problem {} (a problem \
                         package folder brings its own data)",
                        entry.id()
                    )));
                };
                Ok(Target {
                    name: entry.id().to_string(),
                    entry: Some(*entry),
                    tests: load(*entry, discover(dir)?, args.verify_answers)?,
                    checker: std::sync::Arc::new(AnswerFile(*entry)),
                    package_checker: None,
                    hidden: vec![dir.clone()],
                    tests_dir: dir.display().to_string(),
                    limits: args.sandbox.limits(),
                })
            }
            Problem::Package(package) => {
                if args.verify_answers {
                    return Err(JudgeError::Usage(
                        "--verify-answers recomputes a built-in problem's answers; a package's \
                         answers are its jury's (`judge verify PKG` checks its submissions)"
                            .to_string(),
                    ));
                }
                let mut hidden = package.hidden();
                hidden.extend(args.tests.iter().cloned());
                let builder = args.sandbox.builder(&hidden, interrupt);
                let prepared = package.prepare(
                    args.tests.as_deref(),
                    &builder,
                    args.sandbox.jobs(),
                    interrupt,
                )?;
                super::warn(package.warnings().iter().chain(&prepared.warnings));
                let (seconds, origin) = match (args.sandbox.time_limit, package.given_time_limit())
                {
                    (Some(t), _) => (t, "--time-limit".to_string()),
                    (None, Some((t, from))) => (t, from.to_string()),
                    (None, None) => {
                        let session =
                            args.sandbox
                                .session(&hidden, &judge_core::progress::Hidden, interrupt);
                        let derived = judge_core::package::verify::derive_time_limit(
                            package,
                            &prepared.tests,
                            &prepared.checker,
                            &builder,
                            &session,
                            args.sandbox.memory_limit,
                        )?;
                        (derived.seconds, derived.origin)
                    }
                };
                errln!("time limit: {seconds} s ({origin})");
                let mut limits = package.limits(seconds, args.sandbox.memory_limit);
                limits.sanitizer = args.sandbox.sanitize;
                let checker = std::sync::Arc::new(prepared.checker);
                Ok(Target {
                    name: package.name().to_string(),
                    entry: None,
                    tests: prepared.tests,
                    checker: checker.clone(),
                    package_checker: Some(checker),
                    hidden,
                    tests_dir: args
                        .tests
                        .as_ref()
                        .unwrap_or(&package.dir)
                        .display()
                        .to_string(),
                    limits,
                })
            }
        }
    }

    /// What runs a submission built into `sandbox` on a test: the sandbox, or an interactive
    /// package's pair of the submission and its validator.
    fn runs<'a>(&'a self, sandbox: &'a sandbox::Sandbox) -> Box<dyn judge_core::runner::Runs + 'a> {
        match &self.package_checker {
            Some(checker) => checker.runs(sandbox),
            None => Box::new(judge_core::package::checker::Borrowed(sandbox)),
        }
    }

    /// The session of this target's runs: its limits, the command's jobs, its hidden folders.
    fn session<'a>(
        &self,
        args: &Args,
        progress: &'a dyn judge_core::progress::Progress,
        interrupt: &Cancel,
    ) -> judge_core::session::Session<'a> {
        judge_core::session::Session {
            limits: self.limits,
            ..args.sandbox.session(&self.hidden, progress, interrupt)
        }
    }
}
