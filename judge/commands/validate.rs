//! `judge validate PROBLEM [INPUT]`: exit 0 if the input is canonical and meets every
//! constraint, else exit 1 saying what is wrong and where. INPUT may be a folder: every `.in`
//! in it is validated, each invalid one named with its line and column, and one summary line
//! follows.

use std::io::Write;
use std::path::{Path, PathBuf};

use judge_core::progress::{count, thousands};
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::runner::tests::inputs_in;
use judge_core::{Outcome, Result, input};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The input file, or a folder: every .in in it and below it (in a problem package, below
    /// data/sample and data/secret); standard input if absent.
    pub input: Option<PathBuf>,
}

/// How many invalid files the summary line names (each has its own line above it).
const NAMED: usize = 10;

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    if let Some(path) = &args.input {
        crate::paths::existing(path)?;
    }
    match &args.input {
        Some(dir) if dir.is_dir() => validate_folder(args.problem, dir, out),
        other => Ok(if validate_one(args.problem, other.as_deref())? {
            Outcome::Success
        } else {
            Outcome::Finding
        }),
    }
}

/// Validates one input, printing `NAME:LINE:COL: what was expected` if it is invalid.
fn validate_one(problem: &dyn ProblemEntry, path: Option<&Path>) -> Result<bool> {
    let input = input::read(path)?;
    match problem.validate(&input.bytes) {
        Ok(()) => Ok(true),
        Err(e) => {
            eprintln!("{}:{}:{}: {}", input.name, e.line, e.col, e.message);
            Ok(false)
        }
    }
}

fn validate_folder(problem: &dyn ProblemEntry, dir: &Path, out: &mut dyn Write) -> Result<Outcome> {
    let inputs = inputs_in(dir)?;
    let mut invalid = Vec::new();
    for path in &inputs {
        if !validate_one(problem, Some(path))? {
            invalid.push(path.strip_prefix(dir).unwrap_or(path).display().to_string());
        }
    }
    if invalid.is_empty() {
        outln!(
            out,
            "{}: {} in {} {} valid",
            problem.id(),
            if inputs.len() == 1 {
                "the 1 input".to_string()
            } else {
                format!("all {}", count(inputs.len(), "input"))
            },
            dir.display(),
            if inputs.len() == 1 { "is" } else { "are" }
        );
        return Ok(Outcome::Success);
    }
    let more = invalid.len().saturating_sub(NAMED);
    outln!(
        out,
        "{}: {} of {} in {} {} invalid: {}{}",
        problem.id(),
        thousands(invalid.len() as u64),
        count(inputs.len(), "input"),
        dir.display(),
        if invalid.len() == 1 { "is" } else { "are" },
        invalid[..invalid.len().min(NAMED)].join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    Ok(Outcome::Finding)
}
