//! `judge problems`: one line per problem, its id and what it asks.

use judge_core::registry::PROBLEMS;
use judge_core::{Outcome, Result};

pub fn run() -> Result<Outcome> {
    for problem in PROBLEMS {
        println!("{:<16} {}", problem.id(), problem.summary());
    }
    Ok(Outcome::Success)
}
