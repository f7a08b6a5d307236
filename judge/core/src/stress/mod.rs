//! `judge stress`: generate cases from every family, compare a candidate with a trusted
//! solver, stop at the first disagreement (the lowest case index, whatever the number of
//! jobs), shrink it, show it.

pub mod candidate;
pub mod driver;
pub mod report;

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

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or("expected K/N, e.g. 3/8")?;
        let k: u64 = k
            .parse()
            .map_err(|_| format!("K in K/N must be a number, found '{k}'"))?;
        let n: u64 = n
            .parse()
            .map_err(|_| format!("N in K/N must be a number, found '{n}'"))?;
        if n == 0 || k == 0 || k > n {
            return Err(format!("shard {k}/{n}: need 1 <= K <= N"));
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
