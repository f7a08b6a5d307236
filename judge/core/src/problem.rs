//! What a PROBLEM argument names: one of the built-in problems, or a problem package folder
//! (ICPC/Kattis format) whose data, limits, validators and jury submissions are its own.

use std::path::Path;
use std::sync::Arc;

use crate::package::PackageProblem;
pub use crate::registry::names_a_package;
use crate::registry::{ProblemEntry, UnknownProblem, find};

/// A problem a command works on.
#[derive(Clone)]
pub enum Problem {
    /// One of the problems compiled into the judge.
    BuiltIn(&'static dyn ProblemEntry),
    /// A problem package folder, read.
    Package(Arc<PackageProblem>),
}

impl std::fmt::Debug for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::BuiltIn(entry) => f.write_str(entry.id()),
            Problem::Package(package) => write!(f, "package {}", package.dir.display()),
        }
    }
}

impl Problem {
    /// The name reports give it: a built-in problem's id, a package's name.
    pub fn name(&self) -> &str {
        match self {
            Problem::BuiltIn(entry) => entry.id(),
            Problem::Package(package) => package.name(),
        }
    }
}

/// Why a PROBLEM argument names no problem.
#[derive(Debug, thiserror::Error)]
pub enum ProblemArgError {
    #[error(transparent)]
    Unknown(#[from] UnknownProblem),
    /// The folder is not a readable package: the file, line and column, and why.
    #[error("{0}")]
    Package(String),
}

/// Parses a PROBLEM argument for clap: a package folder ([`names_a_package`]) is read with
/// `package-format` (an error names the file, line and column: clap exits 2); anything else is
/// a built-in problem's id.
pub fn parse_problem(arg: &str) -> Result<Problem, ProblemArgError> {
    if let Some(entry) = find(arg) {
        return Ok(Problem::BuiltIn(entry));
    }
    if names_a_package(arg) {
        return PackageProblem::read(Path::new(arg))
            .map(|p| Problem::Package(Arc::new(p)))
            .map_err(ProblemArgError::Package);
    }
    crate::registry::parse_problem(arg)
        .map(Problem::BuiltIn)
        .map_err(ProblemArgError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_a_built_in_problem_and_a_path_a_package() {
        assert!(matches!(parse_problem("omok"), Ok(Problem::BuiltIn(_))));
        assert!(!names_a_package("omok"));
        assert!(names_a_package("some/where"));
        let missing = parse_problem("no/such/folder").unwrap_err().to_string();
        assert!(missing.contains("problem.yaml"), "{missing}");
        let unknown = parse_problem("nosuchproblem").unwrap_err().to_string();
        assert!(unknown.contains("known problems"), "{unknown}");
        // The commands of the built-in five refuse a package, saying what takes one.
        let refused = crate::registry::parse_problem("x/y")
            .unwrap_err()
            .to_string();
        assert!(refused.contains("judge verify PKG"), "{refused}");
    }
}
