//! `judge stress`: generate cases from every family, compare a candidate with a trusted
//! solver, stop at the first disagreement (the lowest case index, whatever the number of
//! jobs), shrink it, show it.

pub mod candidate;
pub mod driver;

use std::time::Duration;

/// Which cases a run covers and when it stops.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub seed: u64,
    /// Stop after this many cases (of this shard).
    pub cases: Option<u64>,
    /// Stop after this much time.
    pub time: Option<Duration>,
    /// This shard takes case indices `k - 1, k - 1 + n, …` (1-based `k` of `n`).
    pub shard: Shard,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// The global case index of this shard's `i`-th case.
    pub fn case(&self, i: u64) -> u64 {
        i * self.n + (self.k - 1)
    }
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N`.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("expected K/N, e.g. 3/8")]
    NoSlash,
    #[error("K in K/N must be a number, found '{0}'")]
    BadK(String),
    #[error("N in K/N must be a number, found '{0}'")]
    BadN(String),
    #[error("shard {k}/{n}: need 1 <= K <= N")]
    OutOfRange { k: u64, n: u64 },
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let (k, n) = s.split_once('/').ok_or(ShardError::NoSlash)?;
        let k: u64 = k.parse().map_err(|_| ShardError::BadK(k.to_string()))?;
        let n: u64 = n.parse().map_err(|_| ShardError::BadN(n.to_string()))?;
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::OutOfRange { k, n });
        }
        Ok(Shard { k, n })
    }
}

/// A disagreement found by a stress run, in text form.
#[derive(Clone, Debug)]
pub struct Finding {
    pub case: u64,
    pub family: &'static str,
    pub params: String,
    pub input: String,
    pub expected: String,
    pub got: String,
    /// The shrunk input and its answers.
    pub shrunk_input: String,
    pub shrunk_expected: String,
    pub shrunk_got: String,
    pub shrink_steps: usize,
    /// Did shrinking end because no step keeps the disagreement (1-minimal for the shrink
    /// steps), rather than on its time budget?
    pub shrink_complete: bool,
}

/// What a stress run did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub cases: u64,
    pub elapsed: Duration,
    /// Time from the start to the finding, before shrinking (the whole run if none).
    pub to_find: Duration,
    pub finding: Option<Finding>,
}
