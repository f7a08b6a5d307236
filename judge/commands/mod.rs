//! One file per subcommand.

pub mod bench;
pub mod families;
pub mod generate;
pub mod problems;
pub mod run;
pub mod solve;
pub mod strength;
pub mod stress;
pub mod testset;
pub mod validate;

/// `--jobs N`: at least 1 (0 would run nothing), at most 256.
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if (1..=256).contains(&n) => Ok(n),
        _ => Err(format!("'{text}': --jobs takes a number from 1 to 256")),
    }
}

/// A count that must be at least 1 (`--cases`, `--count`): 0 would do nothing.
pub fn parse_count(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{text}': expected a whole number, at least 1")),
    }
}
