//! `judge testset PROBLEM --seed S --out DIR [--format plain|kattis]`.

use std::path::PathBuf;

use judge_core::progress::count;
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};

use crate::args::Layout;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// The seed: the same arguments always write byte-identical files.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: u64,
    /// The folder to write the test set into: new or empty (see --force); created if missing.
    #[arg(long)]
    pub out: PathBuf,
    /// plain: DIR/NAME.in + .ans; kattis: DIR/data/sample and DIR/data/secret.
    #[arg(long, value_enum, default_value_t = Layout::Plain)]
    pub format: Layout,
    /// Write into a folder that is not empty: the test set in it (`.in`/`.ans` files,
    /// manifest.csv, coverage.csv) is replaced; anything else is left alone.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &Args) -> Result<Outcome> {
    crate::paths::output_folder("--out", &args.out)?;
    judge_core::testgen::prepare_testset_folder(&args.out, args.force)?;
    let tests = args
        .problem
        .testset(args.seed, &args.out, args.format.into())?;
    errln!(
        "wrote {} and manifest.csv to {}",
        count(tests, "test"),
        args.out.display()
    );
    Ok(Outcome::Success)
}
