//! The board problems of boardjudge, and everything that is specific to one of them.
//!
//! Every problem is a folder with the same files: `mod.rs` (its input and answer types, the
//! strict parser that is also its validator, the text formats, and its [`Problem`] impl),
//! `reference.rs` (the solver written to be obviously correct), `fast.rs` (the solver written
//! to be fast, which must agree with the reference everywhere), `wrong.rs` (known-wrong
//! solvers, each a realistic bug), `families.rs` (its generators: the [`Generate`] impl) and
//! `corpus.toml` (hand-made cases with answers worked out from the spec).
//!
//! The list of problems is [`for_each_problem!`]: adding a problem is its folder plus one line
//! there. Everything that needs all problems (the judge's registry, the tests, the benches,
//! the fuzz targets) expands it instead of naming them.

pub use error::{AnswerError, ParseError};
pub use problem::{Problem, Solver};

/// The list of problems: the one place that names them all. Calls the macro `$callback` (an
/// identifier in scope where this is expanded) with `[EXTRA]` — whatever tokens follow the
/// callback's name — and then every problem as `module: path::to::ProblemType`,
/// comma-separated, in the order `judge problems` lists them. Everything that needs every
/// problem (this crate's modules, the judge's registry, the tests, the benches, the fuzz
/// targets) expands this rather than naming problems.
#[macro_export]
macro_rules! for_each_problem {
    ($callback:ident $(, $($extra:tt)*)?) => {
        $callback! { [$($($extra)*)?]
            gomoku_checker: $crate::gomoku_checker::GomokuChecker,
            omok: $crate::omok::Omok,
            othello_flips: $crate::othello_flips::OthelloFlips,
            attack25: $crate::attack25::Attack25,
            renju: $crate::renju::Renju,
        }
    };
}

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

/// Declares each problem's module (its folder) and re-exports its type.
macro_rules! declare_problems {
    ([] $($module:ident: $krate:tt :: $folder:ident :: $problem:ident,)*) => {
        $(
            pub mod $module;
            pub use $module::$problem;
        )*
    };
}

for_each_problem!(declare_problems);

// cargo-mutants finds source files by following `mod` items and does not expand macros, so
// it would not see the modules `declare_problems!` declares; these declarations, never compiled,
// show it the same files (see the README, "Mutation score").
#[cfg(any())]
mod attack25;
#[cfg(any())]
mod gomoku_checker;
#[cfg(any())]
mod omok;
#[cfg(any())]
mod othello_flips;
#[cfg(any())]
mod renju;

pub mod access;
pub mod board;
pub mod error;
pub mod grid_text;
pub mod picture;
pub mod problem;
pub mod runs;
pub mod scan;
