//! `judge problems`: one line per problem, its id and what it asks.

use std::io::Write;

use judge_core::registry::PROBLEMS;
use judge_core::{Outcome, Result};

pub fn run(out: &mut dyn Write) -> Result<Outcome> {
    for problem in PROBLEMS {
        outln!(out, "{:<16} {}", problem.id(), problem.summary());
    }
    Ok(Outcome::Success)
}
