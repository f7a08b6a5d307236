//! The generators of othello_flips.

pub mod boundary;
pub mod families;

#[cfg(test)]
mod tests;
