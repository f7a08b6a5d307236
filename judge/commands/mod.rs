//! One file per subcommand.

pub mod bench;
pub mod families;
pub mod generate;
pub mod merge;
pub mod package;
pub mod problems;
pub mod run;
pub mod solutions;
pub mod solve;
pub mod strength;
pub mod stress;
pub mod testset;
pub mod validate;
