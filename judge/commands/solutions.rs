//! `judge solutions PROBLEM --out DIR`: every correct and known-wrong solver as a single-file
//! Rust source.

use std::path::PathBuf;

use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};
use judge_package::solution_programs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The folder to write `correct/` and `wrong/` (single-file Rust sources) into.
    #[arg(long)]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<Outcome> {
    crate::paths::output_folder("--out", &args.out)?;
    let (correct, wrong) = solution_programs::write(args.problem, &args.out)?;
    errln!(
        "wrote {correct} correct and {wrong} known-wrong solutions of {} to {}/correct and {}/wrong",
        args.problem.id(),
        args.out.display(),
        args.out.display()
    );
    Ok(Outcome::Success)
}
