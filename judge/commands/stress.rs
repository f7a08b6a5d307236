//! `judge stress PROBLEM --seed S [--cases N] [--time SECS] [--jobs N] [--save DIR]
//! [--against reference|fast] [--shard K/N] [-- CMD [ARGS...]]`.

use std::path::PathBuf;
use std::time::Duration;

use crate::error::JudgeError;
use crate::progress::Progress;
use crate::registry::{ProblemEntry, SolverKind, parse_problem};
use crate::stress::{Budget, Shard};
use crate::{Outcome, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    #[arg(long)]
    pub seed: u64,
    /// Stop after this many cases (default: 10,000 with a command, 1,000,000 in process,
    /// unless --time is given).
    #[arg(long)]
    pub cases: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long)]
    pub time: Option<f64>,
    /// Parallel jobs (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
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
    /// The submission to test; without it the fast solver is checked against the reference.
    #[arg(last = true)]
    pub command: Vec<String>,
}

pub fn jobs(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

pub fn run(args: &Args) -> Result<Outcome> {
    if args.time.is_some_and(|t| !(t.is_finite() && t >= 0.0)) {
        return Err(JudgeError::Usage(
            "--time takes a number of seconds".to_string(),
        ));
    }
    if !args.command.is_empty() {
        return Err(JudgeError::Usage(
            "stress with a submission command needs the sandboxed runner (not built yet)"
                .to_string(),
        ));
    }
    if args.against == SolverKind::Fast {
        return Err(JudgeError::Usage("--against fast needs a submission command (-- CMD): without one the fast solver is what is checked".to_string()));
    }
    let budget = Budget {
        seed: args.seed,
        cases: args.cases.or(if args.time.is_some() {
            None
        } else {
            Some(1_000_000)
        }),
        time: args.time.map(Duration::from_secs_f64),
        shard: args.shard,
    };
    let progress = Progress::new("cases", budget.cases);
    let summary = args
        .problem
        .stress_in_process(budget, jobs(args.jobs), &progress);
    progress.finish();
    let rate = summary.cases as f64 / summary.elapsed.as_secs_f64().max(1e-9);
    match &summary.finding {
        None => {
            println!(
                "no disagreement: fast = reference on {} cases of {} ({:.0} cases/s, seed {}, shard {}/{})",
                summary.cases,
                args.problem.id(),
                rate,
                args.seed,
                args.shard.k,
                args.shard.n
            );
            Ok(Outcome::Success)
        }
        Some(finding) => {
            let replay = format!(
                "judge stress {} --seed {} --cases {} --shard {}/{}",
                args.problem.id(),
                args.seed,
                summary.cases.div_ceil(1).max(1),
                args.shard.k,
                args.shard.n
            );
            print!("{}", args.problem.render_finding(finding, &replay));
            if let Some(dir) = &args.save {
                args.problem.save_finding(finding, dir)?;
                println!(
                    "saved to {} (add it to the corpus: cat {}/case.toml >> solutions/testdata/{}.toml)",
                    dir.display(),
                    dir.display(),
                    args.problem.id()
                );
            }
            Ok(Outcome::Finding)
        }
    }
}
