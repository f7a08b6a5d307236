//! A stress shard's result (`summary.json` in `DIR/shard-K-of-N/`), and folding the shards of
//! one campaign into what the single-machine run says: the same first disagreement (the
//! lowest case index), the same shrunk case, the same number of cases.
//!
//! Why the fold is exact: the case stream is indexed (case `i` is the same input on every
//! machine), each shard runs its cases in index order and stops at its own first failure, and
//! the single run reports the lowest failing index and shrinks it deterministically. So the
//! single run's finding is the lowest of the shards' findings `f`, provided every other shard
//! ran every one of its cases below `f` — which a complete shard has, and an interrupted one
//! records as `covered_below`.

use serde::{Deserialize, Serialize};

use super::{Finding, Shard, Summary};
use crate::progress::thousands;
use crate::shards::{Header, Slot, Trouble};

/// What defines a campaign: shards with equal campaigns are parts of one run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Campaign {
    pub problem: String,
    pub seed: u64,
    /// The whole campaign's cases (global indices `0..cases`), if given.
    pub cases: Option<u64>,
    /// Each shard's time budget, if given.
    pub time_s: Option<f64>,
    /// The trusted solver: `reference` or `fast`.
    pub against: String,
    /// The submission as typed; empty: the fast solver, in process.
    pub submission: Vec<String>,
    /// The limits a submission runs under (none in process).
    pub time_limit_ms: Option<u64>,
    pub memory_limit_mb: Option<u64>,
    /// A package's campaign: its generator command as typed (`{seed}` in it). Absent for a
    /// built-in problem (whose records stay as they were).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<String>,
    /// A package's campaign: `--reference` as typed, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// Seconds, as measured by the shard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Seconds {
    /// The whole run.
    pub elapsed: f64,
    /// From the start to the finding (the whole run if none).
    pub to_find: f64,
    /// Shrinking the finding.
    pub shrink: f64,
}

/// A stress shard's `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub header: Header,
    pub campaign: Campaign,
    /// The shard's cases that were run: exactly its first `cases_run`.
    pub cases_run: u64,
    /// Every case of this shard below this global index was run.
    pub covered_below: u64,
    /// The shard's first disagreement, shrunk.
    pub finding: Option<Finding>,
    pub seconds: Seconds,
}

impl Record {
    pub fn new(campaign: Campaign, shard: Shard, summary: &Summary) -> Record {
        let elapsed = summary.elapsed.as_secs_f64();
        let to_find = summary.to_find.as_secs_f64();
        Record {
            header: Header::new("stress", shard, !summary.interrupted),
            campaign,
            cases_run: summary.cases,
            covered_below: summary.covered_below(shard),
            finding: summary.finding.clone(),
            seconds: Seconds {
                elapsed,
                to_find,
                shrink: if summary.finding.is_some() {
                    (elapsed - to_find).max(0.0)
                } else {
                    0.0
                },
            },
        }
    }
}

/// The shards folded together: what the single-machine run would have said.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub campaign: Campaign,
    pub shards: u64,
    /// The cases the single run reports: up to and including the finding, else every case
    /// the shards ran.
    pub cases: u64,
    /// The first disagreement (the lowest case index) and the shard that found it.
    pub finding: Option<(Finding, Shard)>,
    /// The finding shard's seconds to the finding and shrinking (none: the longest shard's).
    pub seconds: Seconds,
    /// Each shard: (shard, cases run, complete, its finding's case, seconds).
    pub parts: Vec<Part>,
    /// Facts worth saying that do not change the result (e.g. a shard whose `--time` ran
    /// out before the finding's case).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    pub shard: Shard,
    pub complete: bool,
    pub cases_run: u64,
    pub covered_below: u64,
    pub finding: Option<u64>,
    pub seconds: Seconds,
}

/// What does not add up in the shards' results (a forged or damaged shard): more cases run
/// than the shard has, a finding at a case that is not the shard's or beyond the campaign,
/// cases covered that were not run.
pub fn inconsistencies(campaign: &Campaign, slots: &[Slot<Record>]) -> Vec<Trouble> {
    let mut lines = Vec::new();
    for slot in slots {
        let (shard, record) = (slot.shard, &slot.record);
        if let Some(total) = campaign.cases {
            let mine = shard.stress_local_count(total);
            if record.cases_run > mine {
                lines.push(format!(
                    "shard {shard}: ran {} cases, but has {mine} of the campaign's {total}",
                    record.cases_run
                ));
            }
        }
        if let Some(f) = &record.finding {
            let owner = Shard {
                k: (f.case / crate::shards::CASE_BLOCK) % shard.n + 1,
                n: shard.n,
            };
            if owner != shard || campaign.cases.is_some_and(|total| f.case >= total) {
                lines.push(format!(
                    "shard {shard}: a disagreement at case {}, which is not one of its cases",
                    f.case
                ));
            } else if record.cases_run == 0 {
                lines.push(format!(
                    "shard {shard}: a disagreement at case {} after running no case",
                    f.case
                ));
            }
        }
    }
    lines
}

/// Folds the shards `1..=n` of one campaign (`slots`: the readable results, at most one per
/// shard; `trouble`: the shards that are missing, died or unreadable). `Err` lists every shard
/// without which the result is not the single run's (and what the others found so far).
pub fn fold(
    campaign: Campaign,
    n: u64,
    slots: &[Slot<Record>],
    mut trouble: Vec<Trouble>,
) -> Result<Merged, (Vec<Trouble>, Option<String>)> {
    let lowest = slots
        .iter()
        .filter_map(|s| s.record.finding.as_ref().map(|f| (f, s)))
        .min_by_key(|(f, _)| f.case);
    for slot in slots {
        let record = &slot.record;
        if record.header.complete {
            continue;
        }
        let needed = match lowest {
            // The finder itself: its shrunk case is only final if shrinking finished.
            Some((f, finder)) if finder.shard == slot.shard => {
                f.shrink_interrupted.then(|| format!("interrupted while shrinking case {}", f.case))
            }
            // Another shard: it matters only if it had not run every case below the finding.
            Some((f, _)) => (record.covered_below < f.case).then(|| {
                format!(
                    "interrupted after {} cases (its cases below {} run, the disagreement is at {})",
                    thousands(record.cases_run),
                    thousands(record.covered_below),
                    thousands(f.case)
                )
            }),
            None => Some(format!(
                "interrupted after {} cases{}",
                thousands(record.cases_run),
                campaign
                    .cases
                    .map(|c| format!(" of its {}", thousands(slot.shard.stress_local_count(c))))
                    .unwrap_or_default()
            )),
        };
        if let Some(why) = needed {
            trouble.push(format!("shard {}: {why}", slot.shard));
        }
    }
    if !trouble.is_empty() {
        let known = lowest.map(|(f, s)| {
            format!(
                "so far shard {} found a disagreement at case {} (a shard not counted may hold a lower one)",
                s.shard, f.case
            )
        });
        return Err((trouble, known));
    }
    let parts: Vec<Part> = slots
        .iter()
        .map(|s| Part {
            shard: s.shard,
            complete: s.record.header.complete,
            cases_run: s.record.cases_run,
            covered_below: s.record.covered_below,
            finding: s.record.finding.as_ref().map(|f| f.case),
            seconds: s.record.seconds,
        })
        .collect();
    let mut notes = Vec::new();
    let (cases, finding, seconds) = match lowest {
        Some((f, finder)) => {
            for slot in slots {
                if slot.record.covered_below < f.case {
                    notes.push(format!(
                        "shard {}'s --time ran out before case {} (its cases below {} were run): a longer single run might find a lower case",
                        slot.shard, f.case, slot.record.covered_below
                    ));
                }
            }
            (
                f.case + 1,
                Some((f.clone(), finder.shard)),
                finder.record.seconds,
            )
        }
        None => {
            let longest = slots
                .iter()
                .map(|s| s.record.seconds)
                .max_by(|a, b| a.elapsed.total_cmp(&b.elapsed))
                .unwrap_or_default();
            (
                slots.iter().map(|s| s.record.cases_run).sum(),
                None,
                longest,
            )
        }
    };
    Ok(Merged {
        campaign,
        shards: n,
        cases,
        finding,
        seconds,
        parts,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn campaign() -> Campaign {
        Campaign {
            problem: "omok".to_string(),
            seed: 1,
            cases: Some(128),
            time_s: None,
            against: "reference".to_string(),
            submission: vec!["./a.out".to_string()],
            time_limit_ms: Some(2000),
            memory_limit_mb: Some(256),
            generator: None,
            reference: None,
        }
    }

    fn finding(case: u64) -> Finding {
        Finding {
            case,
            family: "f".to_string(),
            params: String::new(),
            input: format!("input {case}"),
            expected: String::new(),
            got: String::new(),
            shrunk_input: format!("shrunk {case}"),
            shrunk_expected: String::new(),
            shrunk_got: String::new(),
            shrink_steps: 1,
            shrink_complete: true,
            shrink_interrupted: false,
        }
    }

    /// Shard k of 4 of a 128-case campaign (each shard 4 blocks of 8 cases): `ran` of its
    /// cases, a finding at its last one if `found`.
    fn slot(k: u64, ran: u64, found: bool, complete: bool) -> Slot<Record> {
        let shard = Shard { k, n: 4 };
        let last = shard.stress_case(ran.saturating_sub(1));
        Slot {
            shard,
            path: PathBuf::new(),
            record: Record {
                header: Header::new("stress", shard, complete),
                campaign: campaign(),
                cases_run: ran,
                covered_below: shard.stress_case(ran),
                finding: found.then(|| finding(last)),
                seconds: Seconds::default(),
            },
        }
    }

    #[test]
    fn the_lowest_finding_wins_and_counts_the_cases_up_to_it() {
        // Shard 3 finds its case 5, 2 * 8 + 5 = 21; shard 2 its case 2, 1 * 8 + 2 = 10.
        let slots = [
            slot(1, 32, false, true),
            slot(2, 3, true, true),
            slot(3, 6, true, true),
            slot(4, 32, false, true),
        ];
        let merged = fold(campaign(), 4, &slots, vec![]).unwrap();
        let (f, shard) = merged.finding.unwrap();
        assert_eq!((f.case, shard.k, merged.cases), (10, 2, 11));
        assert!(merged.notes.is_empty());
    }

    #[test]
    fn no_finding_sums_the_cases() {
        let slots: Vec<_> = (1..=4).map(|k| slot(k, 32, false, true)).collect();
        let merged = fold(campaign(), 4, &slots, vec![]).unwrap();
        assert_eq!((merged.cases, merged.finding.is_none()), (128, true));
    }

    #[test]
    fn an_interrupted_shard_counts_only_if_it_ran_every_case_below_the_finding() {
        // Shard 2 finds case 10; shard 1 was interrupted after its first block (cases 0..8):
        // it ran every one of its cases below 10.
        let slots = [
            slot(1, 8, false, false),
            slot(2, 3, true, true),
            slot(3, 32, false, true),
            slot(4, 32, false, true),
        ];
        let merged = fold(campaign(), 4, &slots, vec![]).unwrap();
        assert_eq!(merged.finding.unwrap().0.case, 10);
        // Interrupted after 3 cases (0, 1, 2): its cases 3 to 7 < 10 were not run, and the
        // single run might stop there.
        let slots = [
            slot(1, 3, false, false),
            slot(2, 3, true, true),
            slot(3, 32, false, true),
            slot(4, 32, false, true),
        ];
        let (trouble, known) = fold(campaign(), 4, &slots, vec![]).unwrap_err();
        assert_eq!(trouble.len(), 1);
        assert!(trouble[0].starts_with("shard 1/4: interrupted after 3 cases"));
        assert!(known.unwrap().contains("case 10"));
        // Without a finding every interrupted shard is needed.
        let slots: Vec<_> = (1..=4).map(|k| slot(k, 32, false, k != 3)).collect();
        let (trouble, _) = fold(campaign(), 4, &slots, vec![]).unwrap_err();
        assert_eq!(trouble, ["shard 3/4: interrupted after 32 cases of its 32"]);
    }

    #[test]
    fn a_finding_whose_shrinking_was_interrupted_is_not_final() {
        let mut finder = slot(2, 3, true, false);
        if let Some(f) = finder.record.finding.as_mut() {
            f.shrink_interrupted = true;
            f.shrink_complete = false;
        }
        let slots = [
            slot(1, 32, false, true),
            finder,
            slot(3, 32, false, true),
            slot(4, 32, false, true),
        ];
        let (trouble, _) = fold(campaign(), 4, &slots, vec![]).unwrap_err();
        assert_eq!(trouble, ["shard 2/4: interrupted while shrinking case 10"]);
    }

    #[test]
    fn missing_shards_are_trouble_whatever_the_others_found() {
        let slots = [slot(1, 1, true, true)];
        let (trouble, _) = fold(
            campaign(),
            2,
            &slots,
            vec!["shard 2/2: missing".to_string()],
        )
        .unwrap_err();
        assert_eq!(trouble, ["shard 2/2: missing"]);
    }
}
