//! The board problems of boardjudge, and everything that is specific to one of them.
//!
//! Every problem is a folder with the same files: `mod.rs` (its input and answer types, the
//! strict parser that is also its validator, the text formats, and its [`Problem`] impl),
//! `reference.rs` (the solver written to be obviously correct), `fast.rs` (the solver written
//! to be fast, which must agree with the reference everywhere), `wrong.rs` (known-wrong
//! solvers, each a realistic bug, its bug as data). Its data — `corpus.toml` (hand-made cases
//! with answers worked out from the spec), `statement.en.tex`, the mutation lists and the kept
//! test set — is in `tests/data/<id>/`. Its generators are the `generators` crate's folder of
//! the same name. This crate uses the standard library only, so `judge package` can inline its
//! modules into one file.
//!
//! The list of problems is a few `pub mod` lines below; `build.rs` makes [`for_each_problem!`]
//! from them, which everything that needs all problems (the generators, the judge's registry,
//! the tests, the benches, the fuzz targets) expands instead of naming them. Adding a problem
//! is its folders plus one line there.

pub use error::{AnswerError, ParseError};
pub use problem::{Problem, Solver};

/// One `#[test]` per problem, so that a failure names the problem:
/// `for_each_problem!(tests_per_problem, NAME => FUNCTION)` expands to
/// `mod NAME { #[test] fn gomoku_checker() { super::FUNCTION::<GomokuChecker>() } … }`.
#[macro_export]
macro_rules! tests_per_problem {
    ([$name:ident => $function:ident] $($module:ident: $problem:ty,)*) => {
        mod $name {
            $(
                #[test]
                fn $module() {
                    super::$function::<$problem>();
                }
            )*
        }
    };
}

// The list of problems: the one place that names them all, one line each, in the order
// `judge problems` shows them. `build.rs` makes `for_each_problem!` and the re-export of each
// problem's type (its module's name in CamelCase) from these lines.
pub mod gomoku_checker;
pub mod omok;
pub mod othello_flips;
pub mod attack25;
pub mod renju;
// End of the list of problems.

include!(concat!(env!("OUT_DIR"), "/problem_list.rs"));

pub mod access;
pub mod board;
pub mod error;
pub mod grid_text;
pub mod picture;
pub mod problem;
pub mod problem_files;
pub mod runs;
pub mod scan;
