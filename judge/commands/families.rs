//! `judge families PROBLEM`: the generator families and what each targets.

use std::io::Write;

use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    for (name, targets) in args.problem.families() {
        outln!(out, "{name:<24} {targets}");
    }
    Ok(Outcome::Success)
}
