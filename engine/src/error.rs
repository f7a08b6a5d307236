//! The judge's own failures (exit code 2). Findings are not errors: commands report them
//! through [`crate::Outcome`].

use std::path::PathBuf;

use problems::ParseError;

#[derive(Debug)]
pub enum JudgeError {
    /// A file or folder could not be read or written.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An input given to `solve` (or found in a test set) is not valid.
    Invalid {
        source_name: String,
        error: ParseError,
    },
    /// The arguments make no sense together.
    Usage(String),
    /// A submission's source did not build: a compile error (CE), the contestant's fault.
    Build {
        source_file: PathBuf,
        command: String,
        message: String,
    },
    /// Anything else that stops the judge, with its explanation.
    Other(String),
}

impl JudgeError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> JudgeError {
        JudgeError::Io {
            path: path.into(),
            source,
        }
    }
}

impl std::fmt::Display for JudgeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JudgeError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            JudgeError::Invalid { source_name, error } => {
                write!(
                    f,
                    "{source_name}:{}:{}: invalid input: {}",
                    error.line, error.col, error.message
                )
            }
            JudgeError::Usage(message) => write!(f, "usage: {message}"),
            JudgeError::Build {
                source_file,
                command,
                message,
            } => write!(
                f,
                "build of {} failed ({command}):\n{message}",
                source_file.display()
            ),
            JudgeError::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for JudgeError {}
