//! The generators of gomoku_checker.

pub mod boundary;
pub mod families;

#[cfg(test)]
mod tests;
