//! Read ICPC/Kattis problem package folders into typed data, with precise errors, and judge
//! outputs with the format's default output validator.
//!
//! The formats are those of the `Kattis/problem-package-format` specification: `legacy` (and
//! its ICPC subset `legacy-icpc`), the `2023-07` draft, and `2025-09`. Where the specification
//! is vague, this crate does as problemtools (legacy, 2023-07) or BAPCtools (2025-09) do; each
//! module's documentation says where.
//!
//! This crate only reads: it spawns nothing, builds nothing, and never reads outside the
//! package folder (a symlink that leaves it is an error).
//!
//! ```no_run
//! use package_format::Package;
//! let package = Package::read("problems/hello")?;
//! for test in package.tests() {
//!     println!("{} {}", test.name, test.input.display());
//! }
//! for submission in &package.submissions {
//!     println!("{} expects {}", submission.name, submission.expectation.expected_final_verdicts());
//! }
//! # Ok::<(), package_format::PackageError>(())
//! ```

// Only the sandbox crate and the solvers' SIMD kernels may use `unsafe`.
#![forbid(unsafe_code)]
// Every public item says what it is: the crate is read by the judge's other layers.
#![warn(missing_docs)]

pub mod default_output_validator;
pub mod error;
pub mod expectation;
mod fields;
pub mod fsutil;
pub mod generators;
pub mod glob;
pub mod language;
pub mod metadata;
pub mod package;
pub mod program;
pub mod submissions;
pub mod testdata;
pub mod verdict;
pub mod version;
mod yaml;

pub use error::{Location, PackageError, Warning};
pub use expectation::{Expectation, Outcome, Reason, Rule, TestResult, Why};
pub use fsutil::ReadOptions;
pub use metadata::{Limits, Metadata, ProblemType};
pub use package::Package;
pub use program::{Program, ProgramKind};
pub use submissions::Submission;
pub use testdata::{Category, TestCase, TestGroup, ValidatorArgs};
pub use verdict::{Verdict, VerdictSet};
pub use version::FormatVersion;
