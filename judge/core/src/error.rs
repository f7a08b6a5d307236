//! The judge's own failures (exit code 2), typed so that callers can tell them apart: above
//! all a failure of the jury's side (a bad answer file, solvers that disagree) from anything a
//! contestant did. Findings are not errors: commands report them through [`crate::Outcome`].

use std::path::PathBuf;

use solutions::ParseError;

#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An input given to `solve` (or found in a test set) is not valid.
    #[error("{source_name}:{}:{}: invalid input: {}", error.line, error.col, error.message)]
    Invalid {
        source_name: String,
        error: ParseError,
    },
    /// The arguments make no sense together.
    #[error("usage: {0}")]
    Usage(String),
    /// The jury's side is wrong: a malformed or missing answer file, a test set that does not
    /// read, reference and fast solvers that disagree. Never the contestant's fault.
    #[error("jury error: {0}")]
    Jury(String),
    /// A report or manifest could not be written.
    #[error("{}: {source}", path.display())]
    Report {
        path: PathBuf,
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Building a submission from source failed: a compile error, the submission's fault
    /// (`judge run` and `judge strength` make it a CE verdict).
    #[error("build of {} failed ({command}):\n{message}", source_file.display())]
    Build {
        source_file: PathBuf,
        command: String,
        message: String,
    },
    /// The sandbox could not be set up or could not run a program.
    #[error("sandbox: {context}: {source}")]
    Sandbox {
        context: String,
        source: std::io::Error,
    },
    /// Ctrl-C or SIGTERM: the work was stopped; `0` says how far it got.
    #[error("interrupted: {0}")]
    Interrupted(String),
}

impl JudgeError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> JudgeError {
        JudgeError::Io {
            path: path.into(),
            source,
        }
    }

    pub fn report(
        path: impl Into<PathBuf>,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> JudgeError {
        JudgeError::Report {
            path: path.into(),
            source: Box::new(source),
        }
    }

    pub fn sandbox(context: impl Into<String>, source: std::io::Error) -> JudgeError {
        JudgeError::Sandbox {
            context: context.into(),
            source,
        }
    }
}
