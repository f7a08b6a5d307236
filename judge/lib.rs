//! boardjudge: the `judge` command line and its engine. The engine reaches the problems only
//! through [`registry`], so it knows nothing of any one board.

pub mod bench;
pub mod checker;
pub mod cli;
pub mod commands;
pub mod error;
pub mod exit;
pub mod input;
pub mod picture;
pub mod progress;
pub mod report;
pub mod registry;
pub mod runner;
pub mod sandbox;
pub mod solution_programs;
pub mod stress;
pub mod testgen;

pub use error::JudgeError;

pub type Result<T> = std::result::Result<T, JudgeError>;

/// How a command ended when the judge itself did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1: the command found what it looks for (invalid input, a wrong answer …).
    Finding,
}

impl Outcome {
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Success => exit::SUCCESS,
            Outcome::Finding => exit::FINDING,
        }
    }
}
