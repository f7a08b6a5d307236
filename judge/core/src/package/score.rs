//! The score of a scoring package's submission, from its tests' verdicts and the scores its
//! output validator gave accepted tests (`score.txt`, `score_multiplier.txt`). The verdict
//! stays the pass-fail one (the ICPC rule); the score is shown beside it and checked against
//! the package's expectations (`partially_accepted`, `submissions.yaml`'s `score`).
//!
//! Two rules, by what the package's test data configuration says:
//! - **Legacy grading** (a legacy package, or any group configured with the legacy keys
//!   `accept_score`, `reject_score`, `range`, `grader_flags`, as problemtools' 2023-07-draft
//!   example `oddecho` is): problemtools' default grader. A test scores its `score.txt` when
//!   accepted, else `accept_score` (1); rejected, `reject_score` (0). A group's result comes from
//!   its tests and subgroups in order, cut after the first rejected one under `on_reject: break`
//!   (the default); its score is their `sum` (default), `avg`, `min` or `max`
//!   (`grader_flags`), and it is accepted when all are, or any with `accept_if_any_accepted`.
//!   The maximum is the upper bound of `secret`'s `range`.
//! - **2025-09** ("Scoring problems"): `secret` (maximum `max_score`, 100 by default; `sum`
//!   aggregation by default) and its groups (`max_score`, `unbounded` by default;
//!   `score_aggregation` `pass-fail` by default). A `pass-fail` group scores its maximum when
//!   every test in it is accepted, else 0; in a `sum` group a test's maximum is the group's
//!   divided by its number of tests, in a `min` group the group's; an accepted test scores its
//!   `score.txt`, else its `score_multiplier.txt` times its maximum, else its maximum; a
//!   rejected one 0.
//!
//! Either way the submission's score is `secret`'s (samples give no score).

use std::collections::{HashMap, HashSet};

use package_format::testdata::Config;

use super::PackageProblem;

/// What an output validator said of an accepted test's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValidatorScore {
    /// `score.txt`: the test's score.
    Score(f64),
    /// `score_multiplier.txt`: a fraction of the test's maximum.
    Multiplier(f64),
}

/// One test's result, for scoring.
#[derive(Clone, Copy, Debug)]
pub struct TestOutcome<'a> {
    /// Its name under `data/`: `secret/group1/03`.
    pub name: &'a str,
    pub accepted: bool,
    pub validator: Option<ValidatorScore>,
}

/// A submission's score.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub total: f64,
    /// The highest score the problem gives, when bounded.
    pub max: Option<f64>,
    /// Each group's score below and including `secret`, by name.
    pub groups: Vec<(String, f64)>,
}

/// A configuration value as a number.
fn number(config: Option<&Config>, key: &str) -> Option<f64> {
    config?.get(key)?.as_str()?.trim().parse().ok()
}

fn text<'c>(config: Option<&'c Config>, key: &str) -> Option<&'c str> {
    config?.get(key)?.as_str()
}

const LEGACY_KEYS: [&str; 4] = ["accept_score", "reject_score", "range", "grader_flags"];

/// The children of group `group` among `tests` (in order, each once): a test directly in it
/// (`Err(test)`), or a subgroup (`Ok(name)`) with its tests.
fn children<'t>(group: &str, tests: &[TestOutcome<'t>]) -> Vec<Result<String, TestOutcome<'t>>> {
    let prefix = format!("{group}/");
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for test in tests {
        let Some(rest) = test.name.strip_prefix(&prefix) else {
            continue;
        };
        match rest.split_once('/') {
            None => out.push(Err(*test)),
            Some((first, _)) => {
                let child = format!("{prefix}{first}");
                if seen.insert(child.clone()) {
                    out.push(Ok(child));
                }
            }
        }
    }
    out
}

/// The package's score of a submission whose tests came out as `tests` (in the package's
/// order); `None` for a pass-fail problem or tests without `secret`.
pub fn score(problem: &PackageProblem, tests: &[TestOutcome]) -> Option<Scored> {
    let package = &problem.package;
    if !package.metadata.problem_type.scoring
        || !tests.iter().any(|t| t.name.starts_with("secret/"))
    {
        return None;
    }
    let groups: HashMap<&str, &Config> = package
        .test_data
        .groups
        .iter()
        .map(|g| (g.name.as_str(), &g.config))
        .collect();
    let cases: HashMap<&str, &Config> = package
        .tests()
        .iter()
        .map(|c| (c.name.as_str(), &c.config))
        .collect();
    let legacy = package.version().is_legacy()
        || groups
            .values()
            .any(|c| LEGACY_KEYS.iter().any(|k| c.get(k).is_some()));
    let mut scored = Vec::new();
    let grader = Grader {
        groups: &groups,
        cases: &cases,
    };
    if legacy {
        let (_, total) = grader.legacy("secret", tests, &mut scored);
        let max = text(groups.get("secret").copied(), "range")
            .and_then(|r| r.split_whitespace().nth(1)?.parse().ok());
        Some(Scored {
            total,
            max,
            groups: scored,
        })
    } else {
        let secret = groups.get("secret").copied();
        let max = match text(secret, "max_score") {
            Some("unbounded") => None,
            _ => Some(number(secret, "max_score").unwrap_or(100.0)),
        };
        let aggregation = text(secret, "score_aggregation").unwrap_or("sum");
        let (_, total) = grader.modern("secret", max, aggregation, tests, &mut scored);
        Some(Scored {
            total,
            max,
            groups: scored,
        })
    }
}

struct Grader<'a> {
    groups: &'a HashMap<&'a str, &'a Config>,
    cases: &'a HashMap<&'a str, &'a Config>,
}

impl Grader<'_> {
    /// problemtools' default grader on group `group`: (accepted, score); every group's score
    /// is pushed to `scored`.
    fn legacy(
        &self,
        group: &str,
        tests: &[TestOutcome],
        scored: &mut Vec<(String, f64)>,
    ) -> (bool, f64) {
        let config = self.groups.get(group).copied();
        let flags: Vec<&str> = text(config, "grader_flags")
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let mut results: Vec<(bool, f64)> = Vec::new();
        for child in children(group, tests) {
            let result = match child {
                Err(test) => {
                    let case = self.cases.get(test.name).copied();
                    let score = if test.accepted {
                        match test.validator {
                            Some(ValidatorScore::Score(s)) => s,
                            // Legacy has no multipliers: the test's own score, scaled.
                            Some(ValidatorScore::Multiplier(m)) => {
                                m * number(case, "accept_score").unwrap_or(1.0)
                            }
                            None => number(case, "accept_score").unwrap_or(1.0),
                        }
                    } else {
                        number(case, "reject_score").unwrap_or(0.0)
                    };
                    (test.accepted, score)
                }
                Ok(sub) => self.legacy(&sub, tests, scored),
            };
            results.push(result);
        }
        if text(config, "on_reject") != Some("continue")
            && let Some(first) = results.iter().position(|(ok, _)| !ok)
        {
            results.truncate(first + 1);
        }
        let accepted = if flags.contains(&"accept_if_any_accepted") {
            results.iter().any(|(ok, _)| *ok)
        } else {
            results.iter().all(|(ok, _)| *ok)
        };
        let scores = results.iter().map(|(_, s)| *s);
        let score = if results.is_empty() {
            0.0
        } else if flags.contains(&"min") {
            scores.reduce(f64::min).unwrap_or(0.0)
        } else if flags.contains(&"max") {
            scores.reduce(f64::max).unwrap_or(0.0)
        } else if flags.contains(&"avg") {
            scores.sum::<f64>() / results.len() as f64
        } else {
            scores.sum()
        };
        scored.push((group.to_string(), score));
        (accepted, score)
    }

    /// 2025-09's rule on group `group` of maximum `max` (`None`: unbounded) and
    /// `aggregation`: (every test accepted, score).
    fn modern(
        &self,
        group: &str,
        max: Option<f64>,
        aggregation: &str,
        tests: &[TestOutcome],
        scored: &mut Vec<(String, f64)>,
    ) -> (bool, f64) {
        let children = children(group, tests);
        let count = children.len().max(1) as f64;
        let mut all_accepted = true;
        let mut scores = Vec::new();
        for child in children {
            let (accepted, score) = match child {
                Err(test) => {
                    let test_max = match aggregation {
                        "min" => max,
                        _ => max.map(|m| m / count),
                    };
                    let score = match (test.accepted, test.validator) {
                        (false, _) => 0.0,
                        (true, Some(ValidatorScore::Score(s))) => s,
                        (true, Some(ValidatorScore::Multiplier(m))) => m * test_max.unwrap_or(0.0),
                        (true, None) => test_max.unwrap_or(0.0),
                    };
                    (test.accepted, score)
                }
                Ok(sub) => {
                    let config = self.groups.get(sub.as_str()).copied();
                    let sub_max = match text(config, "max_score") {
                        Some("unbounded") | None => None,
                        Some(_) => number(config, "max_score"),
                    };
                    let sub_aggregation = text(config, "score_aggregation").unwrap_or("pass-fail");
                    self.modern(&sub, sub_max, sub_aggregation, tests, scored)
                }
            };
            all_accepted &= accepted;
            scores.push(score);
        }
        let score = match aggregation {
            "pass-fail" if all_accepted => max.unwrap_or(0.0),
            "pass-fail" => 0.0,
            "min" => scores.iter().copied().reduce(f64::min).unwrap_or(0.0),
            _ => scores.iter().sum(),
        };
        scored.push((group.to_string(), score));
        (all_accepted, score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    fn package(path: &Path) -> PackageProblem {
        PackageProblem::read(path).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Every test of `problem` accepted, but those named in `rejected`; `scored`: what the
    /// validator gave some accepted ones.
    fn outcomes<'a>(
        problem: &'a PackageProblem,
        rejected: &[&str],
        scored: &[(&str, ValidatorScore)],
    ) -> Vec<TestOutcome<'a>> {
        problem
            .package
            .tests()
            .iter()
            .map(|c| TestOutcome {
                name: &c.name,
                accepted: !rejected.contains(&c.name.as_str()),
                validator: scored.iter().find(|(n, _)| *n == c.name).map(|(_, s)| *s),
            })
            .collect()
    }

    fn total(
        problem: &PackageProblem,
        rejected: &[&str],
        scored: &[(&str, ValidatorScore)],
    ) -> f64 {
        score(problem, &outcomes(problem, rejected, scored))
            .expect("a scoring problem")
            .total
    }

    #[test]
    fn legacy_grading_is_problemtools_default_grader() {
        let echo = package(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../package-format/tests/packages/echo"),
        );
        let names: Vec<String> = echo
            .package
            .tests()
            .iter()
            .map(|c| c.name.clone())
            .collect();
        let first_of = |group: &str| {
            names
                .iter()
                .find(|n| n.starts_with(&format!("secret/{group}/")))
                .unwrap()
                .clone()
        };
        let (g1, g2) = (first_of("group1"), first_of("group2"));
        let all = score(&echo, &outcomes(&echo, &[], &[])).unwrap();
        assert_eq!((all.total, all.max), (100.0, Some(100.0)));
        // Subtasks of `min` grading: one failure zeroes the group, not the other.
        assert_eq!(total(&echo, &[&g2], &[]), 30.0);
        assert_eq!(total(&echo, &[&g1], &[]), 70.0);
        // A sample's failure costs nothing (samples give no score).
        assert_eq!(total(&echo, &["sample/1"], &[]), 100.0);
        // score.txt replaces accept_score: the group's min then is at most it.
        assert_eq!(
            total(&echo, &[], &[(g1.as_str(), ValidatorScore::Score(12.5))]),
            82.5
        );
    }

    /// A 2025-09 scoring package in a fresh folder: `secret/a` (max 40, pass-fail, one test)
    /// and `secret/b` (max 60, sum, two tests).
    fn modern_package() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "boardjudge-score-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let write = |path: &str, text: &str| {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "problem.yaml",
            "problem_format_version: 2025-09\ntype: scoring\nname: S\nuuid: 5e1a6c1e-2b8f-4e4e-9f3d-0a1b2c3d4e5f\n",
        );
        for test in ["sample/1", "secret/a/1", "secret/b/1", "secret/b/2"] {
            write(&format!("data/{test}.in"), "1\n");
            write(&format!("data/{test}.ans"), "1\n");
        }
        write("data/secret/a/test_group.yaml", "max_score: 40\n");
        write(
            "data/secret/b/test_group.yaml",
            "max_score: 60\nscore_aggregation: sum\n",
        );
        write("output_validator/validate.py", "import sys\nsys.exit(42)\n");
        dir
    }

    #[test]
    fn scores_2025_09_by_max_score_and_aggregation() {
        let dir = modern_package();
        let problem = package(&dir);
        let all = score(&problem, &outcomes(&problem, &[], &[])).unwrap();
        assert_eq!((all.total, all.max), (100.0, Some(100.0)));
        assert!(
            all.groups.contains(&("secret/b".to_string(), 60.0)),
            "{all:?}"
        );
        // pass-fail: all or nothing; sum: each test its share (60 / 2).
        assert_eq!(total(&problem, &["secret/a/1"], &[]), 60.0);
        assert_eq!(total(&problem, &["secret/b/2"], &[]), 70.0);
        // score.txt is the test's score; score_multiplier.txt a fraction of its maximum.
        assert_eq!(
            total(
                &problem,
                &[],
                &[("secret/b/1", ValidatorScore::Score(10.0))]
            ),
            80.0
        );
        assert_eq!(
            total(
                &problem,
                &[],
                &[("secret/b/1", ValidatorScore::Multiplier(0.5))]
            ),
            85.0
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
