//! Many submissions in one command (`judge run PROBLEM --tests DIR --submissions DIR2`): every
//! file or folder of DIR2 is one submission; each is built once (identical sources once per
//! invocation, through the one build path, [`crate::runner::submission`]) and judged on every
//! test like `judge run` judges one. Shardable: submission `i` (in name order) belongs to
//! shard `i mod N + 1`, and `judge merge` folds the shards' [`Record`]s back into the single
//! run's table.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::JudgeError;
use crate::escape;
use crate::progress::Hidden;
use crate::runner::report::Row;
use crate::runner::submission::{Builder, build_all, compiled, is_source};
use crate::runner::{Checker, Loaded, compile_error_rows, run_all};
use crate::session::Session;
use crate::shards::{Header, Shard, Slot, Trouble};
use crate::verdict::Verdict;

/// One submission of the folder: its name (the file's or the folder's) and the program to
/// build or run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub program: PathBuf,
}

fn is_program(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let executable =
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    executable || path.is_file() && is_source(path)
}

fn visible_entries(dir: &Path) -> Result<Vec<(String, PathBuf)>, JudgeError> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))? {
        let entry = entry.map_err(|e| JudgeError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') {
            out.push((name, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// The submissions of `dir`, by name: every file (an executable, or a source file the judge
/// builds) and every folder (holding exactly one such program) is one. Anything else is a
/// usage error naming every such entry, before anything runs; hidden names are skipped.
pub fn discover(dir: &Path) -> Result<Vec<Entrant>, JudgeError> {
    if !dir.is_dir() {
        return Err(JudgeError::Usage(format!(
            "{}: not a folder of submissions",
            dir.display()
        )));
    }
    let mut found = Vec::new();
    let mut bad = Vec::new();
    for (name, path) in visible_entries(dir)? {
        if path.is_dir() {
            let programs: Vec<PathBuf> = visible_entries(&path)?
                .into_iter()
                .map(|(_, p)| p)
                .filter(|p| is_program(p))
                .collect();
            match programs.as_slice() {
                [program] => found.push(Entrant {
                    name,
                    program: program.clone(),
                }),
                [] => bad.push(format!(
                    "{}: a folder without a program (an executable or a source file)",
                    escape::path(&path)
                )),
                many => bad.push(format!(
                    "{}: a folder with {} programs ({}): a submission folder holds one",
                    escape::path(&path),
                    many.len(),
                    many.iter()
                        .filter_map(|p| p.file_name())
                        .map(|n| escape::line(&n.to_string_lossy()))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        } else if is_program(&path) {
            found.push(Entrant {
                name,
                program: path,
            });
        } else {
            bad.push(format!(
                "{}: neither an executable nor a source file the judge builds (.c .cpp .cc .java .kt .go .rs .py .rb .js .sh)",
                escape::path(&path)
            ));
        }
    }
    if !bad.is_empty() {
        return Err(JudgeError::Usage(format!(
            "not submissions:\n  {}",
            bad.join("\n  ")
        )));
    }
    if found.is_empty() {
        return Err(JudgeError::Usage(format!(
            "{}: no submissions (one file or folder each)",
            dir.display()
        )));
    }
    Ok(found)
}

/// What one submission got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judged {
    pub name: String,
    /// The build command and the compiler's message, if the source did not build (every
    /// row is then CE).
    pub compile_error: Option<String>,
    /// One row per test, in test order.
    pub rows: Vec<Row>,
}

impl Judged {
    /// How many tests got each verdict, in [`Verdict::ALL`]'s order.
    pub fn counts(&self) -> [usize; 7] {
        let mut counts = [0; 7];
        for row in &self.rows {
            if let Some(i) = Verdict::ALL.iter().position(|v| *v == row.verdict) {
                counts[i] += 1;
            }
        }
        counts
    }

    /// The first test (in test order) that is not AC, with its verdict.
    pub fn first_failing(&self) -> Option<&Row> {
        self.rows.iter().find(|r| r.verdict != Verdict::AC)
    }

    pub fn passed(&self, tests: usize) -> bool {
        self.rows.len() == tests && self.first_failing().is_none()
    }
}

/// What [`judge`] did.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    /// The submissions judged to the end, in order.
    pub judged: Vec<Judged>,
    /// Did Ctrl-C or SIGTERM stop the work before the last submission?
    pub interrupted: bool,
    /// The sandbox's isolation, as the first sandbox found it (none if nothing ran).
    pub isolation: Option<String>,
    /// The same in one short line (`sandbox: …` without `-v`).
    pub isolation_summary: Option<String>,
}

pub use crate::runner::submission::WINDOW_PER_JOB;

/// Judges `entrants` one after another with `checker`, each on every test with the session's
/// jobs tests at a time (its hidden folders hidden from them); a package's submissions run as
/// `package` says (an interactive problem's with its validator, a multi-pass one's pass by
/// pass), others in their sandbox alone. `judged` is told of each
/// submission as soon as it is judged to the end, in `entrants`' order (the command prints its
/// row then); an error it returns stops the batch.
pub fn judge(
    checker: &dyn Checker,
    package: Option<&crate::package::checker::PackageChecker>,
    tests: &[Loaded],
    entrants: &[Entrant],
    builder: &Builder,
    session: &Session,
    judged: &mut dyn FnMut(&Judged) -> Result<(), JudgeError>,
) -> Result<Batch, JudgeError> {
    let (progress, cancel) = (session.progress, &session.cancel);
    let mut batch = Batch::default();
    // Each submission's tests have no counter of their own: the session's counts submissions.
    let quiet = session.reporting_to(&Hidden);
    // A window of submissions at a time: built first, `jobs` builds at a time (each distinct
    // build once, and from the build cache when it was built before), then judged and let go,
    // so that only a window's programs are in memory, however many submissions there are.
    let window = session.jobs.max(1) * WINDOW_PER_JOB;
    for (w, chunk) in entrants.chunks(window).enumerate() {
        progress.message("building");
        let programs: Vec<PathBuf> = chunk.iter().map(|e| e.program.clone()).collect();
        let built = build_all(&programs, builder, session.jobs);
        for (j, (entrant, built)) in chunk.iter().zip(built).enumerate() {
            if cancel.is_cancelled() {
                batch.interrupted = true;
                return Ok(batch);
            }
            progress.message(&entrant.name);
            let built = match built {
                Err(JudgeError::Interrupted(_)) => {
                    batch.interrupted = true;
                    return Ok(batch);
                }
                other => compiled(other)?,
            };
            let (compile_error, rows) = match built {
                Err(failed) => {
                    let detail = failed.detail();
                    (Some(detail.clone()), compile_error_rows(tests, &detail))
                }
                Ok(command) => {
                    let sandbox = session.sandbox(command)?;
                    batch
                        .isolation
                        .get_or_insert_with(|| sandbox.isolation.describe());
                    batch
                        .isolation_summary
                        .get_or_insert_with(|| sandbox.summary());
                    let runs: Box<dyn crate::runner::Runs + '_> = match package {
                        Some(package) => package.runs(&sandbox),
                        None => Box::new(crate::package::checker::Borrowed(&sandbox)),
                    };
                    let rows = run_all(&quiet.judging(runs.as_ref(), checker), tests)?;
                    if cancel.is_cancelled() {
                        // Not judged to the end: not reported as if it were.
                        batch.interrupted = true;
                        return Ok(batch);
                    }
                    (None, rows)
                }
            };
            let this = Judged {
                name: entrant.name.clone(),
                compile_error,
                rows,
            };
            judged(&this)?;
            batch.judged.push(this);
            progress.set((w * window + j) as u64 + 1);
        }
    }
    Ok(batch)
}

/// FNV-1a (64 bits) over the tests' names, inputs and answers: shards judged on different
/// test sets do not merge.
pub fn tests_digest(tests: &[Loaded]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes.iter().chain(b"\0") {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for test in tests {
        eat(test.test.name.as_bytes());
        eat(&test.input);
        eat(test.answer.as_bytes());
    }
    format!("fnv1a64:{h:016x}")
}

/// What defines a many-submissions campaign: shards with equal campaigns are parts of one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Campaign {
    pub problem: String,
    pub tests: usize,
    pub tests_digest: String,
    pub time_limit_ms: u64,
    pub memory_limit_mb: u64,
    /// Every submission of the folder, in name order (submission `i` is shard `i mod N + 1`'s).
    pub submissions: Vec<String>,
}

/// A `judge run --submissions` shard's `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    #[serde(flatten)]
    pub header: Header,
    pub campaign: Campaign,
    /// The test folder as given (for the reports).
    pub tests_dir: String,
    /// The sandbox's isolation on the shard's machine.
    pub isolation: String,
    /// This shard's submissions judged to the end, in name order.
    pub judged: Vec<Judged>,
}

/// This shard's submissions of `all`.
pub fn share(all: &[Entrant], shard: Shard) -> Vec<Entrant> {
    all.iter()
        .enumerate()
        .filter(|(i, _)| shard.owns(*i as u64))
        .map(|(_, e)| e.clone())
        .collect()
}

/// The shards folded together: the single run's submissions, in name order.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    pub campaign: Campaign,
    pub shards: u64,
    pub tests_dir: String,
    /// The isolation lines of the shards' machines, each once.
    pub isolation: Vec<String>,
    pub judged: Vec<Judged>,
}

/// What does not add up in the shards' results of `campaign` (a forged or damaged shard): a
/// submission listed twice, a submission judged on another number of tests than the
/// campaign's or on other tests than the others, rows whose verdicts contradict its compile
/// error. Each line names the shard and escapes what it quotes.
pub fn inconsistencies(campaign: &Campaign, slots: &[Slot<Record>]) -> Vec<Trouble> {
    let mut lines = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for name in &campaign.submissions {
        if !seen.insert(name.as_str()) {
            lines.push(format!(
                "the campaign lists submission '{}' twice",
                escape::line(name)
            ));
        }
    }
    let mut reference: Option<(Vec<&str>, Shard)> = None;
    for slot in slots {
        let mut judged_here = std::collections::BTreeSet::new();
        for judged in &slot.record.judged {
            let name = escape::line(&judged.name);
            let shard = slot.shard;
            if !judged_here.insert(judged.name.as_str()) {
                lines.push(format!("shard {shard}: judged '{name}' twice"));
            }
            if judged.rows.len() != campaign.tests {
                lines.push(format!(
                    "shard {shard}: '{name}' has {} rows, the campaign {} tests",
                    judged.rows.len(),
                    campaign.tests
                ));
                continue;
            }
            let tests: Vec<&str> = judged.rows.iter().map(|r| r.test.as_str()).collect();
            match &reference {
                None => reference = Some((tests, shard)),
                Some((first, by)) if *first != tests => lines.push(format!(
                    "shard {shard}: '{name}' was judged on other tests than shard {by}'s submissions"
                )),
                Some(_) => {}
            }
            let all_ce = judged.rows.iter().all(|r| r.verdict == Verdict::CE);
            let any_ce = judged.rows.iter().any(|r| r.verdict == Verdict::CE);
            if judged.compile_error.is_some() && !all_ce || judged.compile_error.is_none() && any_ce
            {
                lines.push(format!(
                    "shard {shard}: '{name}': its CE rows and its compile error disagree"
                ));
            }
        }
    }
    lines
}

/// Folds the shards `1..=n` of one campaign; every shard must be complete.
pub fn fold(
    campaign: Campaign,
    n: u64,
    slots: &[Slot<Record>],
    mut trouble: Vec<Trouble>,
) -> Result<Merged, (Vec<Trouble>, Option<String>)> {
    let mut by_name: BTreeMap<&str, &Judged> = BTreeMap::new();
    for slot in slots {
        let record = &slot.record;
        let expected: Vec<&str> = campaign
            .submissions
            .iter()
            .enumerate()
            .filter(|(i, _)| slot.shard.owns(*i as u64))
            .map(|(_, name)| name.as_str())
            .collect();
        let got: Vec<&str> = record.judged.iter().map(|j| j.name.as_str()).collect();
        if !record.header.complete {
            trouble.push(format!(
                "shard {}: interrupted after {} of its {} submissions",
                slot.shard,
                got.len(),
                expected.len()
            ));
        } else if got != expected {
            let shown = |names: &[&str]| {
                names
                    .iter()
                    .map(|n| escape::line(n))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            trouble.push(format!(
                "shard {}: judged [{}], but its share of the campaign is [{}]",
                slot.shard,
                shown(&got),
                shown(&expected)
            ));
        }
        for judged in &record.judged {
            by_name.insert(&judged.name, judged);
        }
    }
    if !trouble.is_empty() {
        let done = by_name.len();
        return Err((
            trouble,
            Some(format!(
                "so far {done} of {} submissions judged",
                campaign.submissions.len()
            )),
        ));
    }
    let judged = campaign
        .submissions
        .iter()
        .filter_map(|name| by_name.get(name.as_str()).map(|j| (*j).clone()))
        .collect();
    let mut isolation: Vec<String> = slots.iter().map(|s| s.record.isolation.clone()).collect();
    isolation.sort();
    isolation.dedup();
    Ok(Merged {
        tests_dir: slots
            .first()
            .map(|s| s.record.tests_dir.clone())
            .unwrap_or_default(),
        campaign,
        shards: n,
        isolation,
        judged,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("boardjudge-many-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn every_file_or_folder_is_one_submission() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("discover");
        std::fs::write(dir.join("b.py"), "print(1)\n").unwrap();
        std::fs::write(dir.join("a.c"), "int main(){}\n").unwrap();
        std::fs::create_dir(dir.join("team7")).unwrap();
        std::fs::write(dir.join("team7/sol.cpp"), "int main(){}\n").unwrap();
        std::fs::write(dir.join("team7/notes.txt"), "x").unwrap();
        std::fs::write(dir.join("exe"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(dir.join("exe"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.join(".hidden"), "x").unwrap();
        let found = discover(&dir).unwrap();
        let names: Vec<&str> = found.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a.c", "b.py", "exe", "team7"]);
        assert_eq!(found[3].program, dir.join("team7/sol.cpp"));
        // Shard 2 of 3 takes submissions 1 (b.py); shard 1 takes 0 and 3.
        let names = |s: Vec<Entrant>| s.into_iter().map(|e| e.name).collect::<Vec<_>>();
        assert_eq!(names(share(&found, Shard { k: 2, n: 3 })), ["b.py"]);
        assert_eq!(names(share(&found, Shard { k: 1, n: 3 })), ["a.c", "team7"]);
        // Anything else is named, all at once.
        std::fs::write(dir.join("README.txt"), "x").unwrap();
        std::fs::create_dir(dir.join("empty")).unwrap();
        let message = discover(&dir).unwrap_err().to_string();
        assert!(
            message.contains("README.txt") && message.contains("empty"),
            "{message}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
