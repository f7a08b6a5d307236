//! One file per subcommand.

pub mod problems;
pub mod solve;
pub mod validate;
