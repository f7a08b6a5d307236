//! Errors (the package cannot be used) and warnings (it can, but something is off).
//!
//! Both carry a [`Location`]: the file relative to the package folder and, where known, the
//! line and column (1-based), so a message reads `problem.yaml:7:3: limits.memory: expected
//! an integer > 0, found "lots"`.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in the package something is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file or folder, relative to the package folder (empty: the package itself).
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
}

impl Location {
    /// A whole file or folder.
    pub fn file(path: impl Into<PathBuf>) -> Location {
        Location {
            path: path.into(),
            line: None,
            column: None,
        }
    }

    /// A position in a file.
    pub fn at(path: impl Into<PathBuf>, line: usize, column: usize) -> Location {
        Location {
            path: path.into(),
            line: Some(line),
            column: Some(column),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.as_os_str().is_empty() {
            f.write_str("(package)")?;
        } else {
            write!(f, "{}", self.path.display())?;
        }
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// Why a package cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// A file or folder could not be read.
    #[error("{location}: cannot read: {source}")]
    Io {
        /// The file or folder.
        location: Location,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// A YAML file is not well-formed YAML.
    #[error("{location}: not valid YAML: {message}")]
    Yaml {
        /// The file, line and column of the syntax error.
        location: Location,
        /// The parser's message.
        message: String,
    },
    /// A value or a file breaks the format: what was expected and what was found.
    #[error("{location}: {message}")]
    Invalid {
        /// Where.
        location: Location,
        /// What was expected, what was found.
        message: String,
    },
    /// Something the format requires is not there.
    #[error("{location}: missing: {what}")]
    Missing {
        /// The file or folder that should exist.
        location: Location,
        /// What it is for.
        what: String,
    },
    /// A symbolic link points outside the package folder. The format forbids it and a
    /// package is untrusted: reading through it could reveal any file of the machine.
    #[error("{location}: symlink to {target} leaves the package folder")]
    SymlinkEscapes {
        /// The link.
        location: Location,
        /// Where it points (as written in the link).
        target: PathBuf,
    },
}

impl PackageError {
    /// Where the error is.
    pub fn location(&self) -> &Location {
        match self {
            PackageError::Io { location, .. }
            | PackageError::Yaml { location, .. }
            | PackageError::Invalid { location, .. }
            | PackageError::Missing { location, .. }
            | PackageError::SymlinkEscapes { location, .. } => location,
        }
    }

    pub(crate) fn invalid(location: Location, message: impl Into<String>) -> PackageError {
        PackageError::Invalid {
            location,
            message: message.into(),
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> PackageError {
        PackageError::Io {
            location: Location::file(path),
            source,
        }
    }
}

/// Something a careful package would not do, but which does not stop reading it: a key the
/// version does not define, a file name the format ignores, a deprecated folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where.
    pub location: Location,
    /// What is off, and what the reader did about it.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// Where warnings are collected while reading.
#[derive(Debug, Default)]
pub(crate) struct Warnings(pub Vec<Warning>);

impl Warnings {
    pub(crate) fn push(&mut self, location: Location, message: impl Into<String>) {
        self.0.push(Warning {
            location,
            message: message.into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_print_as_compilers_do() {
        assert_eq!(
            Location::at("problem.yaml", 7, 3).to_string(),
            "problem.yaml:7:3"
        );
        assert_eq!(Location::file("data/secret").to_string(), "data/secret");
        assert_eq!(Location::file("").to_string(), "(package)");
        let e = PackageError::invalid(Location::at("problem.yaml", 2, 1), "expected x");
        assert_eq!(e.to_string(), "problem.yaml:2:1: expected x");
        assert_eq!(e.location().line, Some(2));
    }
}
