//! `judge bench PROBLEM [--cases N] [--seed S]`.

use std::io::Write;

use judge_core::registry::{ProblemEntry, parse_problem};
use judge_core::{Outcome, Result};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`).
    #[arg(value_parser = parse_problem)]
    pub problem: &'static dyn ProblemEntry,
    /// How many generated inputs to measure on (the stress mix of all families).
    #[arg(long, default_value_t = 20_000, value_parser = crate::args::count, allow_negative_numbers = true)]
    pub cases: u64,
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
}

pub fn run(args: &Args, out: &mut dyn Write) -> Result<Outcome> {
    let measurements = args.problem.bench(args.cases.max(1), args.seed);
    let ns = |what: &str| {
        measurements
            .iter()
            .find(|m| m.what == what)
            .map_or(f64::NAN, |m| m.ns_per_case)
    };
    errln!(
        "{}: {} generated inputs (release build recommended)",
        args.problem.id(),
        args.cases
    );
    for m in &measurements {
        errln!("  {:<10} {:>12.1} ns per case", m.what, m.ns_per_case);
    }
    errln!(
        "  fast is {:.0}x the reference",
        ns("reference") / ns("fast")
    );
    // The machine-readable lines of the contract come last, one per solver.
    for m in measurements
        .iter()
        .filter(|m| m.what != "reference" && m.what != "fast")
    {
        outln!(
            out,
            "bench,{},{},{},{:.1}",
            args.problem.id(),
            m.what,
            m.cases,
            m.ns_per_case
        );
    }
    for what in ["reference", "fast"] {
        outln!(
            out,
            "bench,{},{what},{},{:.1}",
            args.problem.id(),
            args.cases.max(1),
            ns(what)
        );
    }
    Ok(Outcome::Success)
}
