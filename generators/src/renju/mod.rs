//! The generators of renju.

pub mod boundary;
pub mod families;

#[cfg(test)]
mod tests;
