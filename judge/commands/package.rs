//! `judge package PROBLEM --out DIR [--format icpc|legacy] [--seed S]`: a complete contest
//! problem package (see `judge_package`).

use std::path::PathBuf;

use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};
use judge_package as package;

/// `judge package PROBLEM --out DIR [--format icpc|legacy] [--seed S]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The folder to write the package into, as DIR/NAME (NAME: the id without '-').
    #[arg(long)]
    pub out: PathBuf,
    /// icpc: ICPC problem package format 2025-09 (BAPCtools, DOMjudge); legacy: the
    /// format problemtools and Kattis read.
    #[arg(long, value_enum, default_value_t = package::Format::Icpc)]
    pub format: package::Format,
    /// The seed of the generated tests (the same as `judge testset --seed`).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
}

pub fn run(args: &Args) -> Result<Outcome> {
    let written = package::write(args.problem, &args.out, args.format, args.seed)?;
    let measured = written.slowest_ms.map_or("not measured".to_string(), |ms| {
        format!("slowest accepted test {ms} ms")
    });
    eprintln!(
        "wrote {}: {} tests, {} invalid inputs, {} wrong-answer submissions; time limit {:.1} s ({measured})",
        written.dir.display(),
        written.tests,
        written.invalid,
        written.wrong,
        written.time_limit
    );
    Ok(Outcome::Success)
}
