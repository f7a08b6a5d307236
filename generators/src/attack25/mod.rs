//! The generators of attack25.

pub mod boundary;
pub mod families;

#[cfg(test)]
mod tests;
