//! The generators of othello_flips.

pub mod families;
