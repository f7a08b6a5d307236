//! What every command that runs submissions shares, made once from its arguments: the
//! limits of a run, how many run at once, what they must not see, where progress goes and
//! what stops the work. Passed whole instead of long parameter lists. (What judging one
//! program takes besides, `Session::judging`, is the runner's.)

use std::path::PathBuf;

use sandbox::{Command, Limits, Sandbox};

use crate::cancel::Cancel;
use crate::error::JudgeError;
use crate::progress::Progress;

pub struct Session<'a> {
    /// The limits of every run of a submission.
    pub limits: Limits,
    /// Runs (and builds) at a time: the sandbox's slots.
    pub jobs: usize,
    /// Folders no run may see, wherever they lie (the test data).
    pub hidden: Vec<PathBuf>,
    /// Where the work's progress goes.
    pub progress: &'a dyn Progress,
    /// Ctrl-C and SIGTERM (the binary's token), or a test's.
    pub cancel: Cancel,
}

impl<'a> Session<'a> {
    /// A sandbox for `command` with a slot per job, hiding [`Session::hidden`].
    pub fn sandbox(&self, command: Command) -> Result<Sandbox, JudgeError> {
        Sandbox::hiding(command, self.jobs, &self.hidden)
            .map_err(|e| JudgeError::sandbox("setting up", e))
    }

    /// This session with its progress shown elsewhere (work inside work that has a counter of
    /// its own).
    pub fn reporting_to<'b>(&self, progress: &'b dyn Progress) -> Session<'b> {
        Session {
            limits: self.limits,
            jobs: self.jobs,
            hidden: self.hidden.clone(),
            progress,
            cancel: self.cancel.clone(),
        }
    }
}
