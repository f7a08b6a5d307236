//! The five board problems of boardjudge.
//!
//! Every problem is a folder with the same three files: `mod.rs` (its input and answer types,
//! the strict parser that is also its validator, the text formats, and its [`Problem`] impl),
//! `reference.rs` (the solver written to be obviously correct) and `fast.rs` (the solver
//! written to be fast, which must agree with the reference everywhere).

pub mod attack25;
pub mod board;
pub mod corpus;
pub mod error;
pub mod gomoku_checker;
pub mod grid_text;
pub mod omok;
pub mod othello_flips;
pub mod picture;
pub mod problem;
pub mod renju;
pub mod runs;
pub mod scan;

pub use attack25::Attack25;
pub use error::{AnswerError, ParseError};
pub use gomoku_checker::GomokuChecker;
pub use omok::Omok;
pub use othello_flips::OthelloFlips;
pub use problem::{Problem, Solver};
pub use renju::Renju;
