//! The generators of omok.

pub mod families;
