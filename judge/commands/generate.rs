//! `judge gen PROBLEM --seed S --count N --out DIR [--invalid] [--family NAME]`.

use std::path::PathBuf;

use judge_core::progress::{plural, thousands};
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The seed: the same arguments always write byte-identical files.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: u64,
    /// How many inputs to write (cycling through the families).
    #[arg(long, value_parser = crate::args::count, allow_negative_numbers = true)]
    pub count: u64,
    /// The folder to write NAME.in (and NAME.ans) into; created if missing.
    #[arg(long)]
    pub out: PathBuf,
    /// Write inputs the validator must reject (no .ans).
    #[arg(long)]
    pub invalid: bool,
    /// Only this family (see `judge families PROBLEM`).
    #[arg(long)]
    pub family: Option<String>,
}

pub fn run(args: &Args) -> Result<Outcome> {
    crate::paths::output_folder("--out", &args.out)?;
    let written = args.problem.generate(
        args.seed,
        args.count,
        &args.out,
        args.invalid,
        args.family.as_deref(),
    )?;
    errln!(
        "wrote {} {} to {}",
        thousands(written),
        plural(
            written,
            if args.invalid {
                "invalid input"
            } else {
                "valid input"
            }
        ),
        args.out.display()
    );
    Ok(Outcome::Success)
}
