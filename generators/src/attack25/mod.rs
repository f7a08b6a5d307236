//! The generators of attack25.

pub mod families;
