//! What a stress run checks: the fast solver in process, or a submission in the sandbox. Both
//! answer the same question for the one driver, so there is one loop and one shrinker.

use std::marker::PhantomData;

use sandbox::{Limits, Sandbox};
use solutions::Problem;

use crate::cancel::Cancel;
use crate::error::JudgeError;
use crate::verdict::{Verdict, judge};

/// A program under test.
pub trait Candidate<P: Problem>: Sync {
    /// `None` when the candidate answers `input` as `expected`; else what it printed (or why
    /// it failed). `slot` (below the run's number of jobs) is the worker asking.
    fn failure(
        &self,
        slot: usize,
        input: &P::Input,
        expected: &P::Answer,
    ) -> Result<Option<String>, JudgeError>;

    /// Consecutive cases per parallel task: many when a case costs microseconds (in process),
    /// one when it costs a process.
    fn cases_per_task(&self) -> u64;

    /// Does the run check every symmetric image of each generated case
    /// ([`generators::image_case`])? Where a case costs microseconds, generating it would
    /// cost more than checking it; where it costs a process, a new position is worth more.
    fn images(&self) -> bool {
        false
    }
}

/// An in-process solver, e.g. the fast one against the reference.
pub struct InProcess<P: Problem> {
    pub solve: fn(&P::Input) -> P::Answer,
}

impl<P: Problem> Candidate<P> for InProcess<P> {
    fn failure(
        &self,
        _slot: usize,
        input: &P::Input,
        expected: &P::Answer,
    ) -> Result<Option<String>, JudgeError> {
        let got = (self.solve)(input);
        Ok((got != *expected).then(|| P::write_answer(&got)))
    }

    fn cases_per_task(&self) -> u64 {
        // Tens of microseconds of work or more per task, far above rayon's per-task cost.
        256
    }

    fn images(&self) -> bool {
        true
    }
}

/// A submission, run in `sandbox` (one slot per job) under `limits`, its output read by the
/// problem's checker.
pub struct Submission<'a, P> {
    pub sandbox: &'a Sandbox,
    pub limits: &'a Limits,
    pub cancel: &'a Cancel,
    pub problem: PhantomData<fn() -> P>,
}

impl<P: Problem> Candidate<P> for Submission<'_, P> {
    fn failure(
        &self,
        slot: usize,
        input: &P::Input,
        expected: &P::Answer,
    ) -> Result<Option<String>, JudgeError> {
        let input = P::write_input(input);
        let run = self
            .sandbox
            .run(slot, input.as_bytes(), self.limits, self.cancel.flag())
            .map_err(|e| JudgeError::sandbox("running a stress case", e))?;
        if run.interrupted {
            return Ok(None);
        }
        let expected = P::write_answer(expected);
        let (verdict, message) = judge(&run, self.limits, |out| {
            crate::checker::check::<P>(&expected, out)
        });
        // What the submission printed, as written (the finding's renderer escapes it).
        let shown = String::from_utf8_lossy(&run.stdout).into_owned();
        Ok(match verdict {
            Verdict::AC => None,
            Verdict::WA => Some(shown),
            other => Some(format!("{other}: {message}\n{shown}")),
        })
    }

    fn cases_per_task(&self) -> u64 {
        1
    }
}
