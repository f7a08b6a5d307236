//! The generators of renju.

pub mod families;
