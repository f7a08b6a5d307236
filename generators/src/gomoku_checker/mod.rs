//! The generators of gomoku_checker.

pub mod families;
