//! `judge stress`: generate cases from every family, compare a candidate with a trusted
//! solver, stop at the first disagreement (the lowest case index, whatever the number of
//! jobs), shrink it, show it.

pub mod candidate;
pub mod driver;
pub mod record;
pub mod shrink_generic;

use serde::{Deserialize, Serialize};

use std::time::Duration;

/// Which cases a run covers and when it stops.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub seed: u64,
    /// The campaign's cases: global case indices `0..cases`, of which this shard runs its own
    /// (all of them for the whole campaign, shard 1/1).
    pub cases: Option<u64>,
    /// Stop after this much time (this shard's time).
    pub time: Option<Duration>,
    /// This shard takes case indices `k - 1, k - 1 + n, …` (1-based `k` of `n`).
    pub shard: Shard,
}

pub use crate::shards::{Shard, ShardError};

/// A disagreement found by a stress run, in text form (a shard's `summary.json` keeps it as
/// it is, so `judge merge` shows exactly what the shard found).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// The global case index.
    pub case: u64,
    pub family: String,
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
    /// Did Ctrl-C or SIGTERM stop the shrinking (the shrunk case is then not final)?
    #[serde(default)]
    pub shrink_interrupted: bool,
}

/// What a stress run did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The cases of this shard that were run: exactly its first `cases` (shard-local
    /// indices `0..cases`, global `shard.stress_case(0..cases)`), even when interrupted.
    pub cases: u64,
    pub elapsed: Duration,
    /// Time from the start to the finding, before shrinking (the whole run if none).
    pub to_find: Duration,
    pub finding: Option<Finding>,
    /// Ctrl-C or SIGTERM stopped the run before its budget ran out, or its shrinking.
    pub interrupted: bool,
}

impl Summary {
    /// Every case of this shard below this global index was run (the first it did not run).
    pub fn covered_below(&self, shard: Shard) -> u64 {
        shard.stress_case(self.cases)
    }
}
