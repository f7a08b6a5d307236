//! `judge merge DIR`: reads the shard folders under DIR ([`crate::shards::folder`]), checks
//! that they are the shards `1..=N` of one campaign, and folds them into what the
//! single-machine command would have said ([`crate::stress::record::fold`],
//! [`crate::many::fold`]). A shard that is missing, died, cannot be read or was interrupted
//! where its part matters makes it an error naming every such shard (exit 2).
//!
//! A shard folder is untrusted input (any machine of the campaign, or anyone who can write to
//! the shared folder, may have put anything there): `merge` reads only regular files and real
//! folders (a link, a named pipe or a device is refused by name, never followed or waited
//! on), at most [`MAX_SUMMARY_BYTES`] per summary and [`MAX_SHARDS`] shards, checks that
//! each shard's result adds up (its submissions, tests, rows and cases) before folding it, and
//! shows every string of it escaped ([`crate::escape`]).

use std::collections::BTreeSet;
use std::path::Path;

use serde::de::DeserializeOwned;

use crate::error::{JudgeError, MergeError};
use crate::escape;
use crate::many;
use crate::shards::folder::{self, Found, SUMMARY, State};
use crate::shards::{FORMAT, Header, Shard, Slot, Trouble};
use crate::stress::record as stress;

/// The merged campaign.
#[derive(Clone, Debug)]
pub enum Merged {
    Stress(Box<stress::Merged>),
    Run(Box<many::Merged>),
}

/// The largest `summary.json` merge reads (a shard of a thousand submissions on a thousand
/// tests writes about 150 MiB).
pub const MAX_SUMMARY_BYTES: u64 = 256 << 20;

/// The most shards a campaign may have (`shard-K-of-N`): far above any scheduler's array, and
/// low enough that naming every missing one stays short work.
pub const MAX_SHARDS: u64 = 100_000;

fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let file = path.join(SUMMARY);
    let bytes = folder::read_regular(&file, MAX_SUMMARY_BYTES)?;
    serde_json::from_slice(&bytes)
        .map_err(|e| format!("{}: does not read ({e})", escape::path(&file)))
}

fn name_of(path: &Path) -> String {
    path.file_name()
        .map(|n| escape::line(&n.to_string_lossy()))
        .unwrap_or_default()
}

/// The readable records of shards `1..=n` (a complete result before an interrupted one), and
/// a sentence for every shard without one.
fn collect<T: DeserializeOwned>(
    found: &[Found],
    n: u64,
    header: impl Fn(&T) -> &Header,
) -> (Vec<Slot<T>>, Vec<Trouble>) {
    let mut slots = Vec::new();
    let mut trouble = Vec::new();
    for k in 1..=n {
        let shard = Shard { k, n };
        let mine: Vec<&Found> = found.iter().filter(|f| f.shard == shard).collect();
        let mut why = Vec::new();
        let mut slot = None;
        for f in mine.iter().filter(|f| f.state != State::Died) {
            match read::<T>(&f.path) {
                Ok(record) if header(&record).shard != shard => why.push(format!(
                    "{} holds the result of shard {}",
                    name_of(&f.path),
                    header(&record).shard
                )),
                Ok(record) if header(&record).format != FORMAT => why.push(format!(
                    "{}: written in format '{}', this judge reads '{FORMAT}'",
                    name_of(&f.path),
                    escape::line(&header(&record).format)
                )),
                Ok(record) => {
                    slot = Some(Slot {
                        shard,
                        path: f.path.clone(),
                        record,
                    });
                    break;
                }
                Err(e) => why.push(e),
            }
        }
        if let Some(slot) = slot {
            slots.push(slot);
            continue;
        }
        let died: Vec<String> = mine
            .iter()
            .filter(|f| f.state == State::Died)
            .map(|f| name_of(&f.path))
            .collect();
        if !died.is_empty() {
            why.push(format!(
                "died while writing its result (left {}; remove it)",
                died.join(", ")
            ));
        }
        trouble.push(if why.is_empty() {
            format!("shard {shard}: missing")
        } else {
            format!("shard {shard}: {}", why.join("; "))
        });
    }
    (slots, trouble)
}

/// The shards whose campaign (or judge version) differs from the first one's.
fn campaigns<T, C: PartialEq + std::fmt::Debug + Clone>(
    dir: &Path,
    slots: &[Slot<T>],
    campaign: impl Fn(&T) -> (&C, &Header),
) -> Result<Option<C>, MergeError> {
    let Some(first) = slots.first() else {
        return Ok(None);
    };
    let (reference, first_header) = campaign(&first.record);
    let mut lines = Vec::new();
    for slot in &slots[1..] {
        let (other, header) = campaign(&slot.record);
        if other != reference {
            lines.push(format!(
                "shard {} ran {other:?}, shard {} ran {reference:?}",
                slot.shard, first.shard
            ));
        } else if header.judge_version != first_header.judge_version {
            lines.push(format!(
                "shard {} was run by judge {}, shard {} by judge {}",
                slot.shard,
                escape::line(&header.judge_version),
                first.shard,
                escape::line(&first_header.judge_version)
            ));
        }
    }
    if lines.is_empty() {
        Ok(Some(reference.clone()))
    } else {
        Err(MergeError::DifferentCampaigns {
            dir: dir.to_path_buf(),
            lines,
        })
    }
}

fn incomplete(
    dir: &Path,
    n: u64,
    (mut lines, known): (Vec<Trouble>, Option<String>),
) -> JudgeError {
    // In shard order (`shard K/N: …`).
    lines.sort_by_key(|line| {
        line.strip_prefix("shard ")
            .and_then(|rest| rest.split('/').next())
            .and_then(|k| k.parse::<u64>().ok())
            .unwrap_or(u64::MAX)
    });
    MergeError::Incomplete {
        dir: dir.to_path_buf(),
        n,
        lines,
        known,
    }
    .into()
}

/// A shard whose result does not add up (forged or damaged) is named and refused: its part
/// cannot be trusted, whatever the others say.
fn refuse_inconsistent(dir: &Path, lines: Vec<Trouble>) -> Result<(), JudgeError> {
    if lines.is_empty() {
        return Ok(());
    }
    Err(MergeError::Inconsistent {
        dir: dir.to_path_buf(),
        lines,
    }
    .into())
}

/// Folds the shard folders of `dir`.
pub fn merge(dir: &Path) -> Result<Merged, JudgeError> {
    if !dir.is_dir() {
        return Err(JudgeError::Usage(format!(
            "{}: not a folder",
            dir.display()
        )));
    }
    let found = folder::scan(dir)?;
    let sizes: BTreeSet<u64> = found.iter().map(|f| f.shard.n).collect();
    let n = match sizes.iter().collect::<Vec<_>>().as_slice() {
        [] => {
            return Err(MergeError::NoShards {
                dir: dir.to_path_buf(),
            }
            .into());
        }
        [n] if **n > MAX_SHARDS => {
            return Err(MergeError::Inconsistent {
                dir: dir.to_path_buf(),
                lines: vec![format!(
                    "shard folders of a campaign of {n} shards: more than the {MAX_SHARDS} a campaign may have"
                )],
            }
            .into());
        }
        [n] => **n,
        _ => {
            return Err(MergeError::MixedSizes {
                dir: dir.to_path_buf(),
                sizes: sizes
                    .iter()
                    .map(|n| format!("of {n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            }
            .into());
        }
    };
    // Which command wrote them (the header every summary starts with).
    let (headers, _) = collect::<Header>(&found, n, |h| h);
    let commands: BTreeSet<String> = headers.iter().map(|s| s.record.command.clone()).collect();
    match commands
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["stress"] | [] => {
            let (slots, trouble) = collect::<stress::Record>(&found, n, |r| &r.header);
            let Some(campaign) = campaigns(dir, &slots, |r| (&r.campaign, &r.header))? else {
                return Err(incomplete(dir, n, (trouble, None)));
            };
            refuse_inconsistent(dir, stress::inconsistencies(&campaign, &slots))?;
            stress::fold(campaign, n, &slots, trouble)
                .map(|m| Merged::Stress(Box::new(m)))
                .map_err(|e| incomplete(dir, n, e))
        }
        ["run"] => {
            let (slots, trouble) = collect::<many::Record>(&found, n, |r| &r.header);
            let Some(campaign) = campaigns(dir, &slots, |r| (&r.campaign, &r.header))? else {
                return Err(incomplete(dir, n, (trouble, None)));
            };
            refuse_inconsistent(dir, many::inconsistencies(&campaign, &slots))?;
            many::fold(campaign, n, &slots, trouble)
                .map(|m| Merged::Run(Box::new(m)))
                .map_err(|e| incomplete(dir, n, e))
        }
        _ => Err(MergeError::MixedCommands {
            dir: dir.to_path_buf(),
            commands: commands
                .iter()
                .map(|c| escape::line(c))
                .collect::<Vec<_>>()
                .join(", "),
        }
        .into()),
    }
}
