//! The generator a package names for random inputs: what `judge stress PKG` runs when no
//! `--generator` is given. The convention is `package_format::generators`' (a `random` entry
//! of `generators/generators.yaml`'s `generators:` map, else a program `generators/random*`),
//! run as `random SEED`; `judge package` writes packages that follow it.

pub use package_format::generators::RandomGenerator;

use super::PackageProblem;
use crate::error::{JudgeError, JuryError};

/// The package's random generator, `None` when it names none. A `generators.yaml` that does
/// not read, or names a file the package does not have, is a jury error naming the file,
/// line and column.
pub fn default_generator(problem: &PackageProblem) -> Result<Option<RandomGenerator>, JudgeError> {
    package_format::generators::random_generator(&problem.package).map_err(|e| {
        JuryError::Problem {
            problem: problem.name().to_string(),
            why: format!("{}/{e}", problem.dir.display()),
        }
        .into()
    })
}
