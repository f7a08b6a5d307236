//! `judge validate PROBLEM [INPUT]`: exit 0 if the input is canonical and meets every
//! constraint, else exit 1 saying what is wrong and where.

use std::path::PathBuf;

use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result, input};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The input file; standard input if absent.
    pub input: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<Outcome> {
    let input = input::read(args.input.as_deref())?;
    match args.problem.validate(&input.bytes) {
        Ok(()) => Ok(Outcome::Success),
        Err(e) => {
            eprintln!("{}:{}:{}: {}", input.name, e.line, e.col, e.message);
            Ok(Outcome::Finding)
        }
    }
}
