//! The board problems of boardjudge, and everything that is specific to one of them.
//!
//! Every problem is a folder with the same files: `mod.rs` (its input and answer types, the
//! strict parser that is also its validator, the text formats, and its [`Problem`] impl),
//! `reference.rs` (the solver written to be obviously correct), `fast.rs` (the solver written
//! to be fast, which must agree with the reference everywhere), `wrong.rs` (known-wrong
//! solvers, each a realistic bug), `families.rs` (its generators: the [`Generate`] impl) and
//! `corpus.toml` (hand-made cases with answers worked out from the spec).
//!
//! The list of problems is [`problem_list!`]'s invocation below: adding a problem is its
//! folder plus one line there. Everything that needs all problems (the judge's registry, the
//! tests, the benches, the fuzz targets) expands [`for_each_problem!`] instead of naming them.

pub use error::{AnswerError, ParseError};
pub use generate::{
    Family, Generate, InvalidFamily, generate, generate_invalid, mixed_case, shrink, stream,
    valid_text,
};
pub use problem::{Problem, Solver};
pub use rng::Rng;

/// Declares every problem's module and re-exports its type, and defines [`for_each_problem!`]
/// over the same list, so the list is written once.
macro_rules! problem_list {
    ($($module:ident => $problem:ident),* $(,)?) => {
        $(
            pub mod $module;
            pub use $module::$problem;
        )*

        /// Calls the macro `$callback` (an identifier in scope where this is expanded) with
        /// every problem as `module_name: path::to::ProblemType`, comma-separated, in the
        /// registry's order. The one way code outside this crate enumerates the problems.
        #[macro_export]
        macro_rules! for_each_problem {
            ($callback:ident) => {
                $callback! { $($module: $crate::$problem),* }
            };
        }
    };
}

problem_list! {
    gomoku_checker => GomokuChecker,
    omok => Omok,
    othello_flips => OthelloFlips,
    attack25 => Attack25,
    renju => Renju,
}

// cargo-mutants finds source files by following `mod` items and does not expand macros, so
// it would not see the modules `problem_list!` declares; these declarations, never compiled,
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

// After the list: these modules use `for_each_problem!`, which the list defines.
pub mod access;
pub mod board;
pub mod boundary;
pub mod corpus;
pub mod error;
pub mod fuzz_bodies;
pub mod generate;
pub mod grid_text;
pub mod invalid;
pub mod obligations;
pub mod picture;
pub mod problem;
pub mod rng;
pub mod runs;
pub mod scan;
pub mod stones;
