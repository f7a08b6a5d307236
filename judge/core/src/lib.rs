//! The judge's core: hidden test sets, sandboxed runs and their verdicts, differential stress
//! testing with shrinking, test-set strength, typed errors. It reaches the problems only
//! through [`registry`], so it knows nothing of any one board; what it finds is shown by
//! `judge-report` and packaged by `judge-package`.

// Only the sandbox crate (and the SIMD kernels of the problems) may use `unsafe`.
#![forbid(unsafe_code)]

/// `eprintln!` with the line's control characters shown escaped ([`escape::terminal`]): what
/// the judge says on standard error may quote a name or a path from a package or a submission,
/// and none may reach the terminal as an escape sequence (the commands' `errln!` is the same).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::escape::terminal(&format!($($arg)*)))
    };
}

pub mod bench;
pub mod cancel;
pub mod checker;
pub mod error;
pub mod escape;
pub mod exit;
pub mod input;
pub mod many;
pub mod merge;
pub mod package;
pub mod package_stress;
pub mod problem;
pub mod progress;
pub mod registry;
pub mod runner;
pub mod session;
pub mod shards;
pub mod strength;
pub mod stress;
pub mod testgen;
pub mod text;
pub mod verdict;

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
