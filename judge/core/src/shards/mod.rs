//! One campaign over many machines: shard K of N, given as `--shard K/N` or read from the
//! scheduler (`--shard auto`: a Slurm job array or a Kubernetes Indexed Job), and the shard
//! folders a shard writes with `--save DIR` and `judge merge DIR` reads ([`folder`]).
//!
//! A campaign's work items are numbered 0, 1, 2, … (stress cases, submissions in name order);
//! shard K of N takes the submissions `K-1, K-1+N, K-1+2N, …` and the stress cases in blocks
//! of 8 dealt the same way (blocks `K-1, K-1+N, …`), so the N shards of one campaign together
//! take every item exactly once.

pub mod folder;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use crate::error::AutoShardError;

/// Stress cases go to shards in blocks of this many consecutive indices (see
/// [`Shard::stress_case`]); other work items (submissions) one at a time.
pub const CASE_BLOCK: u64 = 8;

/// The `format` of every shard's `summary.json`.
pub const FORMAT: &str = "boardjudge-shard/1";

/// The fields every shard's `summary.json` starts with; the rest depends on `command`
/// (`stress`: `stress::record::Record`, `run`: `many::Record`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    /// `stress` or `run`.
    pub command: String,
    pub judge_version: String,
    pub shard: Shard,
    /// False when the shard was interrupted: it then says how far it got.
    pub complete: bool,
}

impl Header {
    pub fn new(command: &str, shard: Shard, complete: bool) -> Header {
        Header {
            format: FORMAT.to_string(),
            command: command.to_string(),
            judge_version: env!("CARGO_PKG_VERSION").to_string(),
            shard,
            complete,
        }
    }
}

/// One shard's result as `judge merge` found it.
#[derive(Clone, Debug)]
pub struct Slot<T> {
    pub shard: Shard,
    pub path: PathBuf,
    pub record: T,
}

/// A shard that cannot be counted (missing, died, unreadable) or is not finished
/// (interrupted), in a sentence: `shard 3/4: missing`.
pub type Trouble = String;

/// Shard `k` of `n` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// The global index of this shard's `i`-th item.
    pub fn case(&self, i: u64) -> u64 {
        i.saturating_mul(self.n).saturating_add(self.k - 1)
    }

    /// Does this shard take global item `index`?
    pub fn owns(&self, index: u64) -> bool {
        index % self.n == self.k - 1
    }

    /// How many of the global items `0..total` this shard takes.
    pub fn local_count(&self, total: u64) -> u64 {
        let first = self.k - 1;
        if total <= first {
            0
        } else {
            (total - first).div_ceil(self.n)
        }
    }

    /// The global index of this shard's `i`-th stress case. Stress cases go to the shards in
    /// blocks of [`CASE_BLOCK`] consecutive indices, dealt round robin, so that a shard checks
    /// whole groups of a position's images (`generators::image_case`: consecutive cases share
    /// their generated position) and generates each position once.
    pub fn stress_case(&self, i: u64) -> u64 {
        let (block, offset) = (i / CASE_BLOCK, i % CASE_BLOCK);
        block
            .saturating_mul(self.n)
            .saturating_add(self.k - 1)
            .saturating_mul(CASE_BLOCK)
            .saturating_add(offset)
    }

    /// How many of the stress cases `0..total` this shard takes (see [`Shard::stress_case`]).
    pub fn stress_local_count(&self, total: u64) -> u64 {
        let (blocks, rest) = (total / CASE_BLOCK, total % CASE_BLOCK);
        let whole = self.local_count(blocks) * CASE_BLOCK;
        if blocks % self.n == self.k - 1 {
            whole + rest
        } else {
            whole
        }
    }

    pub fn is_whole(&self) -> bool {
        self.n == 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A `--shard` value that is not `K/N` with `1 <= K <= N` (or `auto`).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("expected K/N (e.g. 3/8) or auto")]
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

/// The `--shard` argument: `K/N`, or `auto` (resolved from the environment when the command
/// runs, see [`from_env`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Fixed(Shard),
    Auto,
}

impl std::str::FromStr for ShardArg {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<ShardArg, ShardError> {
        if s == "auto" {
            Ok(ShardArg::Auto)
        } else {
            s.parse().map(ShardArg::Fixed)
        }
    }
}

impl ShardArg {
    /// The shard, and for `auto` where it came from (to print on standard error), read from
    /// the process's environment.
    pub fn resolve(&self) -> Result<(Shard, Option<String>), AutoShardError> {
        match self {
            ShardArg::Fixed(shard) => Ok((*shard, None)),
            ShardArg::Auto => {
                let (shard, origin) = from_env(|name| std::env::var(name).ok())?;
                Ok((shard, Some(origin)))
            }
        }
    }
}

/// `--shard auto`: the shard from the scheduler's variables, read through `var` (the
/// process environment in [`ShardArg::resolve`]; a map in tests), and a sentence saying where
/// it came from.
///
/// - Slurm job array: K = (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / STEP + 1 and
///   N = SLURM_ARRAY_TASK_COUNT (STEP is SLURM_ARRAY_TASK_STEP, 1 if unset; COUNT is derived
///   from SLURM_ARRAY_TASK_MAX where an old Slurm does not set it). The array must be an evenly
///   stepped range (`--array=1-16`, `0-15`, `1-31:2`); a list such as `--array=1,2,5,9` is
///   refused (its ids are not K = 1..N).
/// - Kubernetes Indexed Job: K = JOB_COMPLETION_INDEX + 1, N = BOARDJUDGE_SHARDS (Kubernetes
///   gives no count: the manifest repeats its `completions`).
/// - Both set: they must name the same shard. Neither: an error.
pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Result<(Shard, String), AutoShardError> {
    let get = |name: &'static str| var(name).filter(|v| !v.trim().is_empty());
    let number = |name: &'static str| -> Result<Option<u64>, AutoShardError> {
        get(name)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| AutoShardError::NotANumber {
                        name,
                        value: v.clone(),
                    })
            })
            .transpose()
    };
    let slurm = match number("SLURM_ARRAY_TASK_ID")? {
        None => None,
        Some(id) => {
            let min = number("SLURM_ARRAY_TASK_MIN")?
                .ok_or(AutoShardError::SlurmMissing("SLURM_ARRAY_TASK_MIN"))?;
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let max = number("SLURM_ARRAY_TASK_MAX")?;
            let count = match (number("SLURM_ARRAY_TASK_COUNT")?, max) {
                (Some(count), _) => count,
                (None, Some(max)) if max >= min => (max - min) / step + 1,
                (None, _) => return Err(AutoShardError::SlurmMissing("SLURM_ARRAY_TASK_COUNT")),
            };
            let last = min.saturating_add(count.saturating_sub(1).saturating_mul(step));
            if count == 0 || max.is_some_and(|max| max != last) {
                return Err(AutoShardError::UnevenArray {
                    min,
                    max: max.unwrap_or(last),
                    step,
                    count,
                });
            }
            if id < min || id > last || (id - min) % step != 0 {
                return Err(AutoShardError::NotInArray {
                    id,
                    min,
                    max: last,
                    step,
                });
            }
            let shard = Shard {
                k: (id - min) / step + 1,
                n: count,
            };
            let array = if step == 1 {
                format!("{min}-{last}")
            } else {
                format!("{min}-{last}:{step}")
            };
            Some((
                shard,
                format!("SLURM_ARRAY_TASK_ID={id} of the job array {array}"),
            ))
        }
    };
    let kubernetes = match number("JOB_COMPLETION_INDEX")? {
        None => None,
        Some(index) => {
            let count = number("BOARDJUDGE_SHARDS")?.ok_or(AutoShardError::NoShardCount)?;
            if index >= count {
                return Err(AutoShardError::IndexOutOfRange { index, count });
            }
            Some((
                Shard {
                    k: index + 1,
                    n: count,
                },
                format!("JOB_COMPLETION_INDEX={index} of BOARDJUDGE_SHARDS={count}"),
            ))
        }
    };
    match (slurm, kubernetes) {
        (Some((slurm, _)), Some((kubernetes, _))) if slurm != kubernetes => {
            Err(AutoShardError::Disagree {
                slurm: slurm.to_string(),
                kubernetes: kubernetes.to_string(),
            })
        }
        (Some(found), _) | (None, Some(found)) => Ok(found),
        (None, None) => Err(AutoShardError::NoScheduler),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stress_cases_come_in_blocks_and_the_shards_take_each_once() {
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { k, n: 3 }).collect();
        for total in [0, 1, 7, 8, 9, 23, 24, 25, 100, 1001] {
            let mut seen = vec![0u32; total as usize];
            for shard in &shards {
                let count = shard.stress_local_count(total);
                for i in 0..count {
                    let case = shard.stress_case(i);
                    assert!(case < total, "{shard} case {i} -> {case} of {total}");
                    seen[case as usize] += 1;
                }
                // The next one is past the campaign.
                assert!(shard.stress_case(count) >= total);
            }
            assert!(seen.iter().all(|&n| n == 1), "{total}: {seen:?}");
        }
        // Whole blocks of 8: a position's images stay on one shard.
        assert_eq!(Shard { k: 2, n: 3 }.stress_case(0), 8);
        assert_eq!(Shard { k: 2, n: 3 }.stress_case(9), 33);
    }
    use std::collections::HashMap;

    fn auto(vars: &[(&str, &str)]) -> Result<Shard, AutoShardError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        from_env(|name| map.get(name).cloned()).map(|(shard, _)| shard)
    }

    fn slurm(
        id: &str,
        min: &str,
        max: &str,
        step: &str,
        count: &str,
    ) -> Vec<(&'static str, String)> {
        vec![
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", min.to_string()),
            ("SLURM_ARRAY_TASK_MAX", max.to_string()),
            ("SLURM_ARRAY_TASK_STEP", step.to_string()),
            ("SLURM_ARRAY_TASK_COUNT", count.to_string()),
        ]
    }

    fn with(vars: &[(&'static str, String)]) -> Result<Shard, AutoShardError> {
        let refs: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
        auto(&refs)
    }

    /// The variables recorded from real arrays on Slurm 22.05 (see tests/slurm/README.md).
    #[test]
    fn slurm_arrays_as_slurm_sets_them() {
        let s = |k, n| Ok(Shard { k, n });
        // --array=1-4, 0-3, 5-8: K = 1..4 of 4.
        assert_eq!(with(&slurm("1", "1", "4", "1", "4")), s(1, 4));
        assert_eq!(with(&slurm("4", "1", "4", "1", "4")), s(4, 4));
        assert_eq!(with(&slurm("0", "0", "3", "1", "4")), s(1, 4));
        assert_eq!(with(&slurm("7", "5", "8", "1", "4")), s(3, 4));
        // --array=1-7:2 (ids 1 3 5 7) and 0-6:3 (0 3 6).
        assert_eq!(with(&slurm("5", "1", "7", "2", "4")), s(3, 4));
        assert_eq!(with(&slurm("6", "0", "6", "3", "3")), s(3, 3));
        // --array=3: a one-task array is shard 1/1.
        assert_eq!(with(&slurm("3", "3", "3", "1", "1")), s(1, 1));
        // No COUNT (old Slurm): derived from MAX. No MAX, no STEP: MIN and COUNT suffice.
        let mut old = slurm("6", "5", "8", "1", "4");
        old.pop();
        assert_eq!(with(&old), s(2, 4));
        assert_eq!(
            auto(&[
                ("SLURM_ARRAY_TASK_ID", "2"),
                ("SLURM_ARRAY_TASK_MIN", "1"),
                ("SLURM_ARRAY_TASK_COUNT", "16")
            ]),
            s(2, 16)
        );
    }

    #[test]
    fn slurm_lists_and_inconsistent_variables_are_refused() {
        // --array=1,2,5,9: STEP 1, MAX 9, COUNT 4 (not a range).
        assert!(matches!(
            with(&slurm("9", "1", "9", "1", "4")),
            Err(AutoShardError::UnevenArray { .. })
        ));
        // --array=1-3,10-11.
        assert!(matches!(
            with(&slurm("2", "1", "11", "1", "5")),
            Err(AutoShardError::UnevenArray { .. })
        ));
        // An id between the steps, or outside the array.
        assert!(matches!(
            with(&slurm("4", "1", "7", "2", "4")),
            Err(AutoShardError::NotInArray { .. })
        ));
        assert!(matches!(
            with(&slurm("0", "1", "4", "1", "4")),
            Err(AutoShardError::NotInArray { .. })
        ));
        assert_eq!(
            auto(&[("SLURM_ARRAY_TASK_ID", "2")]),
            Err(AutoShardError::SlurmMissing("SLURM_ARRAY_TASK_MIN"))
        );
        assert_eq!(
            auto(&[("SLURM_ARRAY_TASK_ID", "2"), ("SLURM_ARRAY_TASK_MIN", "1")]),
            Err(AutoShardError::SlurmMissing("SLURM_ARRAY_TASK_COUNT"))
        );
        assert!(matches!(
            auto(&[("SLURM_ARRAY_TASK_ID", "two")]),
            Err(AutoShardError::NotANumber { .. })
        ));
    }

    #[test]
    fn kubernetes_needs_the_count_beside_the_index() {
        assert_eq!(
            auto(&[("JOB_COMPLETION_INDEX", "0"), ("BOARDJUDGE_SHARDS", "4")]),
            Ok(Shard { k: 1, n: 4 })
        );
        assert_eq!(
            auto(&[("JOB_COMPLETION_INDEX", "3"), ("BOARDJUDGE_SHARDS", "4")]),
            Ok(Shard { k: 4, n: 4 })
        );
        assert_eq!(
            auto(&[("JOB_COMPLETION_INDEX", "3")]),
            Err(AutoShardError::NoShardCount)
        );
        assert_eq!(
            auto(&[("JOB_COMPLETION_INDEX", "4"), ("BOARDJUDGE_SHARDS", "4")]),
            Err(AutoShardError::IndexOutOfRange { index: 4, count: 4 })
        );
        assert!(matches!(
            auto(&[("JOB_COMPLETION_INDEX", "1"), ("BOARDJUDGE_SHARDS", "four")]),
            Err(AutoShardError::NotANumber { .. })
        ));
    }

    #[test]
    fn nothing_set_or_two_schedulers_that_disagree_is_an_error() {
        assert_eq!(auto(&[]), Err(AutoShardError::NoScheduler));
        // Empty values count as unset (a manifest that sets a variable to "").
        assert_eq!(
            auto(&[("SLURM_ARRAY_TASK_ID", ""), ("JOB_COMPLETION_INDEX", " ")]),
            Err(AutoShardError::NoScheduler)
        );
        let mut both = slurm("2", "1", "4", "1", "4");
        both.push(("JOB_COMPLETION_INDEX", "1".to_string()));
        both.push(("BOARDJUDGE_SHARDS", "4".to_string()));
        assert_eq!(with(&both), Ok(Shard { k: 2, n: 4 }));
        both.push(("JOB_COMPLETION_INDEX", "2".to_string()));
        // (the later entry wins in the map)
        assert!(matches!(with(&both), Err(AutoShardError::Disagree { .. })));
    }

    #[test]
    fn the_shards_of_a_campaign_take_every_item_exactly_once() {
        for n in 1..=9u64 {
            for total in 0..=60u64 {
                let mut seen = vec![0u32; total as usize];
                let mut sum = 0;
                for k in 1..=n {
                    let shard = Shard { k, n };
                    let count = shard.local_count(total);
                    sum += count;
                    for i in 0..count {
                        let g = shard.case(i);
                        assert!(g < total && shard.owns(g), "{shard} item {i} = {g}");
                        seen[g as usize] += 1;
                    }
                    // The next one would be past the campaign.
                    assert!(shard.case(count) >= total);
                }
                assert_eq!(sum, total);
                assert!(
                    seen.iter().all(|&s| s == 1),
                    "n {n} total {total}: {seen:?}"
                );
            }
        }
    }

    #[test]
    fn shard_arguments_parse() {
        assert_eq!("auto".parse(), Ok(ShardArg::Auto));
        assert_eq!("2/4".parse(), Ok(ShardArg::Fixed(Shard { k: 2, n: 4 })));
        assert!("0/4".parse::<ShardArg>().is_err());
        assert!("5/4".parse::<ShardArg>().is_err());
        assert!("x".parse::<ShardArg>().is_err());
    }
}
