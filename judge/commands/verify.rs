//! `judge verify PKG [--jobs N] [--report FILE.json]`: every jury submission of a problem
//! package judged on its data, with its validators and limits, and its verdict compared with
//! what the package declares for it. One row per submission; exit 0 iff every submission got
//! a verdict its package allows, 1 if any did not, 2 on a jury error.

use std::io::Write;
use std::path::PathBuf;

use judge_core::error::JudgeError;
use judge_core::package::verify::{TimeLimit, Verification, verify};
use judge_core::problem::{Problem, parse_problem};
use judge_core::{Outcome, Result};
use judge_report::escape;

use crate::args::SandboxArgs;
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem package folder (holding problem.yaml).
    #[arg(value_parser = parse_problem)]
    pub package: Problem,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// Write the result as JSON (one object per submission: path, expected, verdict, tests,
    /// max_cpu_ms, matches, message).
    #[arg(long)]
    pub report: Option<PathBuf>,
}

pub fn run(
    args: &Args,
    out: &mut dyn Write,
    interrupt: &judge_core::cancel::Cancel,
) -> Result<Outcome> {
    let Problem::Package(package) = &args.package else {
        return Err(JudgeError::Usage(format!(
            "judge verify takes a problem package folder; {} is a built-in problem (its \
             solvers are checked by the test suite; `judge run {} --tests DIR -- CMD` judges a \
             submission)",
            args.package.name(),
            args.package.name()
        )));
    };
    if let Some(path) = &args.report
        && path.extension().is_none_or(|e| e != "json")
    {
        return Err(JudgeError::Usage(format!(
            "--report {}: judge verify writes JSON (FILE.json)",
            path.display()
        )));
    }
    let hidden = package.hidden();
    let builder = args.sandbox.builder(&hidden, interrupt);
    let prepared = package.prepare(None, &builder, args.sandbox.jobs(), interrupt)?;
    super::warn(package.warnings().iter().chain(&prepared.warnings));
    let given = match (args.sandbox.time_limit, package.given_time_limit()) {
        (Some(t), _) => Some(TimeLimit {
            seconds: t,
            origin: "--time-limit".to_string(),
        }),
        (None, Some((t, from))) => Some(TimeLimit {
            seconds: t,
            origin: from.to_string(),
        }),
        (None, None) => None,
    };
    let bar = Bar::new(
        "submissions",
        Some(package.package.submissions.len() as u64),
    );
    let session = args.sandbox.session(&hidden, &bar, interrupt);
    let verification = verify(
        package,
        &prepared.tests,
        &prepared.checker,
        &builder,
        &session,
        given,
        args.sandbox.memory_limit,
    );
    bar.finish();
    let verification = verification?;
    print_table(&verification, prepared.tests.len(), out)?;
    if let Some(path) = &args.report {
        std::fs::write(path, verification.to_json() + "\n").map_err(|e| JudgeError::Report {
            path: path.clone(),
            source: Box::new(e),
        })?;
    }
    if verification.interrupted {
        return Err(JudgeError::Interrupted(format!(
            "{} of {} submissions judged",
            verification.submissions.len(),
            package.package.submissions.len()
        )));
    }
    if verification.jury_error {
        return Err(judge_core::error::JuryError::Problem {
            problem: verification.problem.clone(),
            why: "the package's own programs failed (JE above): fix the package before its \
                  submissions can be judged"
                .to_string(),
        }
        .into());
    }
    Ok(if verification.all_match() {
        Outcome::Success
    } else {
        Outcome::Finding
    })
}

fn print_table(v: &Verification, tests: usize, out: &mut dyn Write) -> Result<()> {
    outln!(
        out,
        "{}: {} tests, time limit {} s ({})",
        escape::line(&v.problem),
        tests,
        v.time_limit.seconds,
        v.time_limit.origin
    );
    let width = v
        .submissions
        .iter()
        .map(|s| s.path.chars().count())
        .chain(v.skipped.iter().map(|s| s.path.chars().count()))
        .max()
        .unwrap_or(0);
    for s in &v.submissions {
        let counts: Vec<String> = s.tests.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let line = format!(
            "{:<4} {:<width$}  expected {:<11} got {:<3}  {:<18} {:>6} ms{}",
            if s.matches { "ok" } else { "FAIL" },
            s.path,
            s.expected.join("|"),
            s.verdict,
            counts.join(", "),
            s.max_cpu_ms,
            if s.message.is_empty() {
                String::new()
            } else {
                format!("  {}", s.message)
            },
        );
        outln!(out, "{}", escape::line(&line));
    }
    for s in &v.skipped {
        let line = format!("skip {:<width$}  not judged: {}", s.path, s.why);
        outln!(out, "{}", escape::line(&line));
    }
    let failing = v.submissions.iter().filter(|s| !s.matches).count();
    outln!(
        out,
        "{}: {} of {} submissions as expected{}{}",
        escape::line(&v.problem),
        v.submissions.len() - failing,
        v.submissions.len(),
        if failing > 0 {
            format!(", {failing} not")
        } else {
            String::new()
        },
        if v.skipped.is_empty() {
            String::new()
        } else {
            format!(
                ", {} skipped (the judge cannot run them here)",
                v.skipped.len()
            )
        }
    );
    Ok(())
}
