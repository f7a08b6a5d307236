//! `judge timelimit PKG`: the time limit a package's own submissions call for, by the
//! format's rule, and how close its submissions run to it.
//!
//! Which submissions bound the limit is the 2025-09 spec's "Timelimit inference"
//! (`package-format`'s [`Rule::time_limit_role`](package_format::Rule::time_limit_role)): a
//! rule that does not permit TLE (the `accepted` folder, and by the 2023-07/2025-09 defaults
//! also `wrong_answer`) bounds it from below, `T × ac_to_time_limit ≤ limit`; a rule that
//! requires exactly TLE (`time_limit_exceeded`) bounds it from above, `limit ×
//! time_limit_to_tle ≤ T`; `use_for_time_limit` overrides both. `T` is the slowest matched
//! test. Legacy packages have no such rule in their spec: there problemtools' rule holds, and
//! only the accepted submissions bound it from below.
//!
//! The measure is the **CPU time** (user + system) of a run, never its wall time: a loaded
//! machine stretches wall time, hardly CPU time, and a setter runs this on a busy laptop. A
//! run stopped at its cap counts as at least the cap (a TLE on wall time, e.g. a submission
//! that sleeps, would otherwise look fast).
//!
//! The limit given: the smallest positive multiple of `time_resolution` that is at least the
//! slowest lower-bound run × `ac_to_time_limit` (the spec's rounding; problemtools and
//! `bt time_limit` round the same way), checked against the fastest upper-bound run.

use std::path::PathBuf;

use package_format::expectation::TimeLimitRole;
use package_format::glob::Glob;
use serde::Serialize;

use super::PackageProblem;
use super::checker::PackageChecker;
use crate::error::JudgeError;
use crate::progress::Hidden;
use crate::runner::report::Row;
use crate::runner::submission::{Builder, build_all, compiled};
use crate::runner::{Loaded, run_all};
use crate::session::Session;
use crate::verdict::Verdict;

/// The CPU cap of the runs that bound the limit from below, unless the package's own limit
/// is higher (then twice that): an accepted submission must finish to be measured, and one
/// slower than 10 s is a finding in itself.
pub const LOWER_CAP_SECONDS: f64 = 10.0;

/// The runs that bound the limit from above are capped at `limit × time_limit_to_tle ×` this:
/// far enough above the bar to tell by how much a too-slow submission clears it, and no
/// further (each such test costs the cap in CPU time).
pub const UPPER_CAP_FACTOR: f64 = 2.0;

/// A submission is sensitive to the limit when its slowest test lies within this fraction of
/// the limit, either side.
pub const SENSITIVITY: f64 = 0.25;

/// One measured submission.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// Relative to the package folder: `submissions/accepted/a.cpp`.
    pub path: String,
    /// How it bounds the limit: `lower`, `upper` (both when its rules say so).
    pub bounds: Vec<&'static str>,
    /// Its verdict under the cap it ran with (first non-AC test), or CE.
    pub verdict: String,
    /// Its slowest test (CPU time), empty for CE.
    pub slowest_test: String,
    /// That test's CPU time in ms; at least the cap when it was stopped there.
    pub max_cpu_ms: u64,
    /// The slowest test was stopped at the cap: its time is at least `max_cpu_ms`.
    pub at_cap: bool,
    /// The CPU cap it ran under, ms.
    pub cap_ms: u64,
    /// Its slowest run over the tests of its lower-bound rules, ms.
    pub lower_ms: Option<u64>,
    /// Its slowest run over the tests of its upper-bound rules, ms.
    pub upper_ms: Option<u64>,
    /// Its slowest test lies within [`SENSITIVITY`] of the limit, either side.
    pub sensitive: bool,
}

/// A bound's deciding run.
#[derive(Clone, Debug, Serialize)]
pub struct Extreme {
    pub path: String,
    pub cpu_ms: u64,
    /// The run was stopped at its cap: it is at least this slow.
    pub at_least: bool,
}

/// A submission not measured, and why (a language the judge cannot build here).
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub path: String,
    pub why: String,
}

/// What `judge timelimit` found.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub problem: String,
    pub format_version: String,
    pub tests: usize,
    /// Always `cpu`: the measure of every time here.
    pub measure: &'static str,
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    pub time_resolution: f64,
    /// The CPU caps of the lower- and upper-bound runs, seconds.
    pub lower_cap_s: f64,
    pub upper_cap_s: f64,
    /// The slowest run of a lower-bound submission.
    pub slowest_lower: Option<Extreme>,
    /// The fastest upper-bound submission (by its slowest matched test).
    pub fastest_upper: Option<Extreme>,
    /// The limit by the format's rule from `slowest_lower`.
    pub derived_s: Option<f64>,
    /// The limit the package (or `--time-limit`) sets, and where from.
    pub given_s: Option<f64>,
    pub given_by: Option<String>,
    /// The limit checked and shown: the given one, else the derived one.
    pub limit_s: Option<f64>,
    pub submissions: Vec<Measured>,
    pub skipped: Vec<Skipped>,
    /// What is wrong with the limit, each in a sentence (exit 1 when any): a too-slow
    /// submission under limit × time_limit_to_tle, a given limit under the slowest
    /// lower-bound run × ac_to_time_limit, no limit at all.
    pub findings: Vec<String>,
    /// What a setter should know that does not decide the exit code.
    pub notes: Vec<String>,
    #[serde(skip)]
    pub interrupted: bool,
}

impl Analysis {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serializes")
    }
}

/// The tests a bound's rules apply to (`None`: every test).
type Globs<'a> = Vec<Option<&'a Glob>>;

/// The slowest of `rows` over the tests any of `globs` matches, ms (`None`: no test matched),
/// a run stopped at the cap counting as the cap.
fn slowest_matched(rows: &[Row], globs: &Globs, cap_ms: u64) -> Option<u64> {
    rows.iter()
        .filter(|r| globs.iter().any(|g| g.is_none_or(|g| g.matches(&r.test))))
        .map(|r| effective_ms(r, cap_ms))
        .max()
}

/// A run's CPU time, or the cap when the run was stopped there (TLE).
fn effective_ms(row: &Row, cap_ms: u64) -> u64 {
    if row.verdict == Verdict::TLE {
        row.cpu_ms.max(cap_ms)
    } else {
        row.cpu_ms
    }
}

/// The format's limit from the slowest lower-bound run (seconds), by the package's
/// multipliers and resolution, whatever limit the package sets.
pub fn limit_by_rule(limits: &package_format::Limits, slowest_s: f64) -> f64 {
    let derive = package_format::Limits {
        time_limit: None,
        ..limits.clone()
    };
    derive
        .derive_time_limit(slowest_s, None)
        .expect("a derived limit meets the lower bound")
}

fn seconds(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// Measures the submissions that bound the package's time limit on `tests` and checks the
/// limit against them: `given` is `--time-limit` or the package's own (`None`: derived).
pub fn analyse(
    problem: &PackageProblem,
    tests: &[Loaded],
    checker: &PackageChecker,
    builder: &Builder,
    session: &Session,
    given: Option<(f64, String)>,
    memory_mb: Option<u64>,
) -> Result<Analysis, JudgeError> {
    let limits = &problem.package.metadata.limits;
    let legacy = problem.package.version().is_legacy();
    let submissions = &problem.package.submissions;
    // Each submission's rules that bound the limit, by side.
    let mut chosen: Vec<(usize, Globs, Globs)> = Vec::new();
    for (i, s) in submissions.iter().enumerate() {
        let mut lower = Vec::new();
        let mut upper = Vec::new();
        for (glob, role) in s.expectation.time_limit_roles() {
            match role {
                // Legacy: problemtools' rule, only the accepted submissions.
                TimeLimitRole::Lower if legacy && !s.expectation.is_accepted() => {}
                TimeLimitRole::Lower => lower.push(glob),
                TimeLimitRole::Upper => upper.push(glob),
            }
        }
        if !lower.is_empty() || !upper.is_empty() {
            chosen.push((i, lower, upper));
        }
    }
    let paths: Vec<PathBuf> = chosen
        .iter()
        .map(|(i, _, _)| submissions[*i].program.path.clone())
        .collect();
    session.progress.message("building");
    let mut skipped = Vec::new();
    let mut notes = Vec::new();
    let mut findings = Vec::new();
    // Built commands, or the row a submission gets without running (CE).
    let mut commands: Vec<Option<sandbox::Command>> = Vec::new();
    let mut measured: Vec<Option<Measured>> = vec![None; chosen.len()];
    for (k, built) in build_all(&paths, builder, session.jobs)
        .into_iter()
        .enumerate()
    {
        let (i, lower, upper) = &chosen[k];
        let path = format!("submissions/{}", submissions[*i].name);
        let built = match built {
            Err(JudgeError::Usage(why)) => {
                skipped.push(Skipped { path, why });
                commands.push(None);
                continue;
            }
            other => other,
        };
        match compiled(built)? {
            Ok(command) => commands.push(Some(command)),
            Err(failed) => {
                notes.push(format!(
                    "{path}: compile error, not measured {}",
                    failed.summary()
                ));
                measured[k] = Some(Measured {
                    path,
                    bounds: bounds(lower, upper),
                    verdict: "CE".to_string(),
                    slowest_test: String::new(),
                    max_cpu_ms: 0,
                    at_cap: false,
                    cap_ms: 0,
                    lower_ms: None,
                    upper_ms: None,
                    sensitive: false,
                });
                commands.push(None);
            }
        }
    }
    let given_s = given.as_ref().map(|(t, _)| *t);
    let lower_cap = given_s.map_or(LOWER_CAP_SECONDS, |t| LOWER_CAP_SECONDS.max(2.0 * t));
    // One submission's run on every test under `cap`, measured.
    let time = |command, name: &str, lower, upper, cap| {
        session.progress.message(name);
        let rows = judge_one(command, tests, checker, session, problem, cap, memory_mb)?;
        Ok::<_, JudgeError>(measure(name, lower, upper, &rows, tests.len(), cap))
    };
    let mut interrupted = false;
    let mut done = 0;
    // The lower bounds first: the upper bounds' cap depends on the limit they give.
    for (k, (i, lower, upper)) in chosen.iter().enumerate() {
        if lower.is_empty() || measured[k].is_some() {
            continue;
        }
        let Some(command) = commands[k].take() else {
            continue;
        };
        if session.cancel.is_cancelled() {
            interrupted = true;
            break;
        }
        let s = &submissions[*i];
        measured[k] = Some(time(command, &s.name, lower, upper, lower_cap)?);
        if s.expectation.is_accepted()
            && let Some(m) = &measured[k]
            && m.verdict != "AC"
        {
            // Its verdict is `judge verify`'s business; its time still counts, as the
            // spec's rule counts every run of a lower-bound submission.
            notes.push(format!(
                "{}: an accepted submission got {} under the generous cap of {lower_cap} s \
                 (its time counts all the same; `judge verify` says more)",
                m.path, m.verdict
            ));
        }
        done += 1;
        session.progress.set(done);
    }
    let slowest_lower = measured
        .iter()
        .flatten()
        .filter_map(|m| {
            m.lower_ms.map(|ms| Extreme {
                path: m.path.clone(),
                cpu_ms: ms,
                at_least: m.at_cap && ms >= m.cap_ms,
            })
        })
        .max_by_key(|e| e.cpu_ms);
    let derived_s = slowest_lower
        .as_ref()
        .map(|e| limit_by_rule(limits, seconds(e.cpu_ms)));
    let limit_s = given_s.or(derived_s);
    let upper_cap = limit_s.map_or(lower_cap, |l| {
        l * limits.time_limit_to_tle * UPPER_CAP_FACTOR
    });
    for (k, (i, lower, upper)) in chosen.iter().enumerate() {
        if interrupted || measured[k].is_some() {
            continue;
        }
        let Some(command) = commands[k].take() else {
            continue;
        };
        if session.cancel.is_cancelled() {
            interrupted = true;
            break;
        }
        let s = &submissions[*i];
        measured[k] = Some(time(command, &s.name, lower, upper, upper_cap)?);
        done += 1;
        session.progress.set(done);
    }
    let fastest_upper = measured
        .iter()
        .flatten()
        .filter_map(|m| {
            m.upper_ms.map(|ms| Extreme {
                path: m.path.clone(),
                cpu_ms: ms,
                at_least: m.at_cap && ms >= m.cap_ms,
            })
        })
        .min_by_key(|e| e.cpu_ms);
    let mut submissions_measured: Vec<Measured> = measured.into_iter().flatten().collect();
    match limit_s {
        None => findings.push(
            "no limit: the package sets none and no submission bounds it from below \
             (an accepted one) to derive it from"
                .to_string(),
        ),
        Some(limit) => {
            let in_force = package_format::Limits {
                time_limit: Some(limit),
                ..limits.clone()
            };
            let slowest = slowest_lower.as_ref().map_or(0.0, |e| seconds(e.cpu_ms));
            let fastest = fastest_upper.as_ref().map(|e| seconds(e.cpu_ms));
            if let Err(why) = in_force.derive_time_limit(slowest, fastest) {
                findings.push(why);
            }
            let (low, high) = (
                ((1.0 - SENSITIVITY) * limit * 1000.0).ceil() as u64,
                ((1.0 + SENSITIVITY) * limit * 1000.0).floor() as u64,
            );
            for m in &mut submissions_measured {
                m.sensitive = m.verdict != "CE" && (low..=high).contains(&m.max_cpu_ms);
            }
        }
    }
    if chosen.iter().all(|(_, _, upper)| upper.is_empty()) {
        notes.push(
            "no submission must time out (time_limit_exceeded): nothing bounds the limit from \
             above"
                .to_string(),
        );
    }
    Ok(Analysis {
        problem: problem.name().to_string(),
        format_version: problem.package.version().name().to_string(),
        tests: tests.len(),
        measure: "cpu",
        ac_to_time_limit: limits.ac_to_time_limit,
        time_limit_to_tle: limits.time_limit_to_tle,
        time_resolution: limits.time_resolution,
        lower_cap_s: lower_cap,
        upper_cap_s: upper_cap,
        slowest_lower,
        fastest_upper,
        derived_s,
        given_s,
        given_by: given.map(|(_, by)| by),
        limit_s,
        submissions: submissions_measured,
        skipped,
        findings,
        notes,
        interrupted: interrupted || session.cancel.is_cancelled(),
    })
}

fn bounds(lower: &Globs, upper: &Globs) -> Vec<&'static str> {
    let mut b = Vec::new();
    if !lower.is_empty() {
        b.push("lower");
    }
    if !upper.is_empty() {
        b.push("upper");
    }
    b
}

/// One submission's row from its runs under `cap_s`.
fn measure(
    name: &str,
    lower: &Globs,
    upper: &Globs,
    rows: &[Row],
    tests: usize,
    cap_s: f64,
) -> Measured {
    let cap_ms = (cap_s * 1000.0).round() as u64;
    let slowest = rows.iter().max_by_key(|r| effective_ms(r, cap_ms));
    let mut verdict = crate::package::verify::final_verdict(rows).to_string();
    if rows.len() < tests {
        // Interrupted: not a verdict.
        verdict = "-".to_string();
    }
    Measured {
        path: format!("submissions/{name}"),
        bounds: bounds(lower, upper),
        verdict,
        slowest_test: slowest.map(|r| r.test.clone()).unwrap_or_default(),
        max_cpu_ms: slowest.map_or(0, |r| effective_ms(r, cap_ms)),
        at_cap: slowest.is_some_and(|r| r.verdict == Verdict::TLE),
        cap_ms,
        lower_ms: if lower.is_empty() {
            None
        } else {
            slowest_matched(rows, lower, cap_ms)
        },
        upper_ms: if upper.is_empty() {
            None
        } else {
            slowest_matched(rows, upper, cap_ms)
        },
        sensitive: false,
    }
}

/// Judges one built submission on every test under a CPU cap of `cap_s` (the package's
/// memory and output limits); a jury error is the command's error (exit 2).
fn judge_one(
    command: sandbox::Command,
    tests: &[Loaded],
    checker: &PackageChecker,
    session: &Session,
    problem: &PackageProblem,
    cap_s: f64,
    memory_mb: Option<u64>,
) -> Result<Vec<Row>, JudgeError> {
    let quiet = Session {
        limits: problem.limits(cap_s, memory_mb),
        ..session.reporting_to(&Hidden)
    };
    let sandbox = quiet.sandbox(command)?;
    let runs = checker.runs(&sandbox);
    run_all(&quiet.judging(runs.as_ref(), checker), tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(test: &str, verdict: Verdict, cpu_ms: u64) -> Row {
        Row {
            test: test.to_string(),
            verdict,
            cpu_ms,
            wall_ms: cpu_ms,
            peak_kb: 0,
            exit: String::new(),
            message: String::new(),
            stdout: String::new(),
            stderr: String::new(),
        }
    }

    /// The limits of a package whose problem.yaml is `yaml`.
    fn limits(yaml: &str) -> package_format::Limits {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "boardjudge-timelimit-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("problem.yaml"), yaml).unwrap();
        let limits = package_format::Package::read(&dir).unwrap().metadata.limits;
        std::fs::remove_dir_all(&dir).unwrap();
        limits
    }

    #[test]
    fn the_limit_is_the_slowest_run_times_the_multiplier_rounded_up_to_the_resolution() {
        let modern = limits("problem_format_version: 2025-09\nname: x\n");
        // 2.0 × 0.3 s = 0.6 s: one step of 1 s.
        assert_eq!(limit_by_rule(&modern, 0.3), 1.0);
        // 2.0 × 0.7 s = 1.4 s: two steps.
        assert_eq!(limit_by_rule(&modern, 0.7), 2.0);
        // Exactly on a step stays there.
        assert_eq!(limit_by_rule(&modern, 1.0), 2.0);
        // A run too fast to measure still gets one step, as problemtools gives.
        assert_eq!(limit_by_rule(&modern, 0.0), 1.0);
        let fine = limits(
            "problem_format_version: 2025-09\nname: x\nlimits:\n  time_resolution: 0.1\n  \
             time_limit: 5\n  time_multipliers: {ac_to_time_limit: 3}\n",
        );
        // The package's own limit does not change what the rule gives: 3 × 0.234 = 0.702.
        assert_eq!(limit_by_rule(&fine, 0.234), 0.8);
        // Legacy: time_multiplier 5 by default, whole seconds.
        let legacy = limits("name: x\n");
        assert_eq!(limit_by_rule(&legacy, 0.3), 2.0);
        let legacy = limits("name: x\nlimits: {time_multiplier: 3}\n");
        assert_eq!(limit_by_rule(&legacy, 0.3), 1.0);
    }

    #[test]
    fn a_run_stopped_at_the_cap_counts_as_at_least_the_cap() {
        // A TLE by wall time (a sleeping submission) used little CPU: still too slow.
        let rows = [
            row("secret/a", Verdict::AC, 10),
            row("secret/b", Verdict::TLE, 40),
        ];
        let all: Globs = vec![None];
        let m = measure("time_limit_exceeded/s.py", &Vec::new(), &all, &rows, 2, 3.0);
        assert_eq!(m.upper_ms, Some(3000));
        assert_eq!(m.max_cpu_ms, 3000);
        assert!(m.at_cap);
        assert_eq!(m.slowest_test, "secret/b");
        assert_eq!(m.verdict, "TLE");
    }

    #[test]
    fn a_bound_counts_only_the_tests_its_rule_applies_to() {
        let rows = [
            row("sample/1", Verdict::AC, 900),
            row("secret/big/1", Verdict::AC, 50),
            row("secret/small/1", Verdict::AC, 20),
        ];
        let big = Glob::new("secret/big").unwrap();
        let lower: Globs = vec![Some(&big)];
        let m = measure("accepted/a.py", &lower, &Vec::new(), &rows, 3, 10.0);
        assert_eq!(m.lower_ms, Some(50));
        // The slowest test overall is still what the table shows.
        assert_eq!((m.max_cpu_ms, m.slowest_test.as_str()), (900, "sample/1"));
        assert_eq!(m.upper_ms, None);
    }
}
