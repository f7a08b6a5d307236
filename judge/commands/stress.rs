//! `judge stress PROBLEM --seed S [--cases N] [--time SECS] [--jobs N] [--save DIR]
//! [--against reference|fast] [--shard K/N] [-- CMD [ARGS...]]`.

use std::path::PathBuf;
use std::time::Duration;

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::progress::Progress;
use judge_core::registry::{ProblemEntry, SolverKind, parse_problem};
use judge_core::runner::submission::from_words;
use judge_core::stress::{Budget, Shard, Summary};
use judge_core::{Outcome, Result};
use judge_report::finding;
use sandbox::Sandbox;

use crate::args::SandboxArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The seed: the same seed tries the same cases, in the same order.
    #[arg(long)]
    pub seed: u64,
    /// Stop after this many cases (default: 10,000 with a command, 1,000,000 in process,
    /// unless --time is given).
    #[arg(long, value_parser = crate::args::count)]
    pub cases: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Write the finding (inputs, answers, an SVG picture, a corpus entry) into this folder.
    #[arg(long)]
    pub save: Option<PathBuf>,
    /// The trusted solver.
    #[arg(long, value_enum, default_value_t = SolverKind::Reference)]
    pub against: SolverKind,
    /// Run only shard K of N (1-based) of the case space: N machines with the same seed and
    /// K = 1..N cover disjoint cases.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
    /// The submission to test (a command as typed, or one source file); without it the fast
    /// solver is checked against the reference, in process.
    #[arg(last = true)]
    pub command: Vec<String>,
}

fn budget(args: &Args, default_cases: u64) -> Budget {
    Budget {
        seed: args.seed,
        cases: args.cases.or(if args.time.is_some() {
            None
        } else {
            Some(default_cases)
        }),
        time: args.time.map(Duration::from_secs_f64),
        shard: args.shard,
    }
}

pub fn run(args: &Args) -> Result<Outcome> {
    if args
        .time
        .is_some_and(|t| !(t.is_finite() && t > 0.0 && t <= 1e9))
    {
        return Err(JudgeError::Usage(
            "--time takes a number of seconds, more than 0".to_string(),
        ));
    }
    if !args.command.is_empty() {
        return run_external(args);
    }
    if args.against == SolverKind::Fast {
        return Err(JudgeError::Usage(
            "--against fast needs a submission command (-- CMD): without one the fast solver is what is checked".to_string(),
        ));
    }
    let budget = budget(args, 1_000_000);
    let cancel = Cancel::on_interrupt();
    let progress = Progress::new("cases", budget.cases);
    let summary = args.problem.stress(
        budget,
        args.sandbox.jobs(),
        SolverKind::Reference,
        None,
        &progress,
        &cancel,
    );
    progress.finish();
    report(args, &summary?, "fast = reference")
}

fn run_external(args: &Args) -> Result<Outcome> {
    let cancel = Cancel::on_interrupt();
    let command = from_words(&args.command, &args.sandbox.builder(&[], &cancel))?;
    let jobs = args.sandbox.jobs();
    let sandbox = Sandbox::new(command, jobs).map_err(|e| JudgeError::sandbox("setting up", e))?;
    let budget = budget(args, 10_000);
    let limits = args.sandbox.limits();
    let progress = Progress::new("cases", budget.cases);
    let summary = args.problem.stress(
        budget,
        jobs,
        args.against,
        Some((&sandbox, &limits)),
        &progress,
        &cancel,
    );
    progress.finish();
    let summary = summary?;
    if cancel.is_cancelled() && summary.finding.is_none() {
        return Err(JudgeError::Interrupted(format!(
            "stopped after {} cases without a disagreement",
            summary.cases
        )));
    }
    let trusted = if args.against == SolverKind::Fast {
        "fast solver"
    } else {
        "reference"
    };
    report(
        args,
        &summary,
        &format!("the submission agrees with the {trusted}"),
    )
}

/// Prints the summary or the finding (saving it with --save), and gives the outcome.
fn report(args: &Args, summary: &Summary, agreement: &str) -> Result<Outcome> {
    let rate = summary.cases as f64 / summary.elapsed.as_secs_f64().max(1e-9);
    let Some(finding) = &summary.finding else {
        println!(
            "no disagreement: {agreement} on {} cases of {} ({:.0} cases/s, seed {}, shard {}/{})",
            summary.cases,
            args.problem.id(),
            rate,
            args.seed,
            args.shard.k,
            args.shard.n
        );
        return Ok(Outcome::Success);
    };
    let command = if args.command.is_empty() {
        String::new()
    } else {
        format!(" -- {}", args.command.join(" "))
    };
    let replay = format!(
        "judge stress {} --seed {} --cases {} --shard {}/{}{command}",
        args.problem.id(),
        args.seed,
        summary.cases,
        args.shard.k,
        args.shard.n
    );
    print!("{}", finding::render(args.problem, finding, &replay));
    println!(
        "found after {} cases in {:.2} s (shrunk in {:.2} s more)",
        summary.cases,
        summary.to_find.as_secs_f64(),
        (summary.elapsed - summary.to_find).as_secs_f64()
    );
    if let Some(dir) = &args.save {
        finding::save(args.problem, finding, dir)?;
        println!(
            "saved to {}; to keep it as a regression test: cat {}/case.toml >> {}",
            dir.display(),
            dir.display(),
            generators::corpus::corpus_path(args.problem.id())
        );
    }
    Ok(Outcome::Finding)
}
