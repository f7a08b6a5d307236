//! `judge solve PROBLEM [--solver reference|fast] [INPUT]`: print the answer.

use std::io::Write;
use std::path::PathBuf;

use judge_core::error::JudgeError;
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result, input};

use crate::args::Solver;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// Which trusted solver answers.
    #[arg(long, value_enum, default_value_t = Solver::Fast)]
    pub solver: Solver,
    /// The input file; standard input if absent.
    pub input: Option<PathBuf>,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    if let Some(path) = &args.input {
        crate::paths::existing(path)?;
    }
    let input = input::read(args.input.as_deref())?;
    let answer = args
        .problem
        .solve(&input.bytes, args.solver.into())
        .map_err(|error| JudgeError::Invalid {
            source_name: input.name.clone(),
            error,
        })?;
    out.write_all(answer.as_bytes())
        .map_err(JudgeError::Output)?;
    Ok(Outcome::Success)
}
