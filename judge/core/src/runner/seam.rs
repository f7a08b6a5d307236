//! The runner's two seams: [`Runs`], what runs a program on one test (the sandbox, or a fake
//! in tests), and [`Checker`], what says whether its output is right (a built-in problem's
//! answer reader, or later a problem package's own validator). The runner's policy (the
//! order of the tests, the TLE re-run, stopping at the first failure) is written once against
//! them and knows neither the sandbox nor any board.

use std::sync::atomic::AtomicBool;

use sandbox::{Finished, Limits, Sandbox};

use super::Loaded;
use crate::error::JudgeError;
use crate::registry::ProblemEntry;

/// A program under test, run on one test at a time in each of its slots.
pub trait Runs: Sync {
    /// How many runs may go on at once (slot numbers are below it).
    fn slots(&self) -> usize;
    /// Runs the program once on `test` in `slot` under `limits` and gives the finished run;
    /// once `stop` is set the run is killed and comes back with `interrupted` set. An `Err`
    /// is the judge's failure, never the program's.
    fn run_test(
        &self,
        slot: usize,
        test: &Loaded,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<Finished>;
}

impl Runs for Sandbox {
    fn slots(&self) -> usize {
        Sandbox::slots(self)
    }

    fn run_test(
        &self,
        slot: usize,
        test: &Loaded,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> std::io::Result<Finished> {
        self.run(slot, &test.input, limits, stop)
    }
}

/// What a checker says of one output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checked {
    Accepted,
    /// Wrong, and why, in a line for the reports (it may quote the output: every writer
    /// escapes it).
    Rejected(String),
}

/// Says whether what a run wrote on standard output is a right answer to its test. It gets
/// the whole test (its files' paths as well as its bytes), so a checker that is a program of
/// its own can be given the input and answer files it needs.
pub trait Checker: Sync {
    /// `Err` is a failure of the checker itself (a jury error), never a verdict.
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError>;
}

/// A built-in problem's checker: the output read as an answer of the problem and compared
/// with the answer file ([`ProblemEntry::check`]).
pub struct AnswerFile<'a>(pub &'a dyn ProblemEntry);

impl Checker for AnswerFile<'_> {
    fn check(&self, test: &Loaded, output: &[u8]) -> Result<Checked, JudgeError> {
        Ok(match self.0.check(&test.answer, output) {
            Ok(()) => Checked::Accepted,
            Err(why) => Checked::Rejected(why.to_string()),
        })
    }
}
