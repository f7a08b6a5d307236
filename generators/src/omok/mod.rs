//! The generators of omok.

pub mod boundary;
pub mod families;

#[cfg(test)]
mod tests;
