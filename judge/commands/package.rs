//! `judge package PROBLEM --out DIR [--format icpc|legacy] [--seed S]`: a complete contest
//! problem package (see `judge_package`).

use std::path::PathBuf;

use judge_core::cancel::Cancel;
use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};
use judge_package as package;

use crate::args::PackageFormat;
use crate::bar::Bars;

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
    #[arg(long, value_enum, default_value_t = PackageFormat::Icpc)]
    pub format: PackageFormat,
    /// The seed of the generated tests (the same as `judge testset --seed`).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// problem.yaml's `credits` (2025-09; `author` in the legacy format): who made the problem.
    #[arg(long, default_value = "boardjudge")]
    pub credits: String,
    /// problem.yaml's `source`: the contest or collection it comes from.
    #[arg(long, default_value = "boardjudge")]
    pub source: String,
    /// problem.yaml's `license`.
    #[arg(long, default_value = "cc by-sa", value_parser = clap::builder::PossibleValuesParser::new(package::LICENSES))]
    pub license: String,
    /// problem.yaml's `rights_owner`.
    #[arg(long, default_value = "boardjudge")]
    pub rights_owner: String,
}

pub fn run(args: &Args, interrupt: &Cancel) -> Result<Outcome> {
    crate::paths::output_folder("--out", &args.out)?;
    let credits = package::Credits {
        credits: args.credits.clone(),
        source: args.source.clone(),
        license: args.license.clone(),
        rights_owner: args.rights_owner.clone(),
    };
    let written = package::write(
        args.problem,
        &args.out,
        args.format.into(),
        args.seed,
        &credits,
        &Bars,
        interrupt,
    )?;
    let measured = written.slowest_ms.map_or("not measured".to_string(), |ms| {
        format!("slowest accepted test {ms} ms")
    });
    let limit = match written.time_limit {
        Some(seconds) => format!("time limit {seconds:.1} s ({measured})"),
        None => format!(
            "no time limit: the legacy format leaves it to the judging system, which takes the \
             slowest accepted run × time_multiplier ({measured})"
        ),
    };
    errln!(
        "wrote {}: {} tests, {} invalid inputs, {} wrong-answer submissions; {limit}",
        written.dir.display(),
        written.tests,
        written.invalid,
        written.wrong,
    );
    if written.languages_yaml == Some(false) {
        errln!(
            "note: {} is left as it was; BAPCtools needs pypy3 for Python 3 unless that file maps \
             python3 to CPython (see the README)",
            args.out.join("languages.yaml").display()
        );
    }
    Ok(Outcome::Success)
}
