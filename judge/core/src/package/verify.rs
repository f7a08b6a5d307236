//! `judge verify PKG`: every jury submission of a package built and judged on its data with
//! its checker, its verdict by the ICPC rule (the first non-AC test in the package's order),
//! and compared with what the package declares for it (`package-format`'s
//! [`Expectation::allows`](package_format::Expectation::allows)).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use package_format::{Outcome, TestResult};
use serde::Serialize;

use super::PackageProblem;
use super::checker::PackageChecker;
use super::score::{TestOutcome, ValidatorScore};
use crate::error::JudgeError;
use crate::progress::Hidden;
use crate::runner::report::Row;
use crate::runner::submission::{Builder, build_all, compiled, from_words};
use crate::runner::{Loaded, run_all};
use crate::session::Session;
use crate::verdict::Verdict;

/// One submission's row of `judge verify` (and of its JSON report, in the shape
/// `shared/cli.md` fixes, with `matches` and `message` besides).
#[derive(Clone, Debug, Serialize)]
pub struct Verified {
    /// Relative to the package folder: `submissions/accepted/a.cpp`.
    pub path: String,
    /// The final verdicts the package allows it.
    pub expected: Vec<String>,
    /// AC WA TLE MLE OLE RE CE, or JE when the jury's side failed.
    pub verdict: String,
    /// Tests per verdict.
    pub tests: BTreeMap<String, usize>,
    /// The slowest test's CPU time.
    pub max_cpu_ms: u64,
    /// Whether the package allows what it got.
    pub matches: bool,
    /// Why not (the expectation's reasons), the jury error, or the first failing test.
    pub message: String,
    /// A scoring problem's score ([`super::score`]), and the highest it gives when bounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
}

/// The time limit verify judged with, and where it came from, in words.
#[derive(Clone, Debug)]
pub struct TimeLimit {
    pub seconds: f64,
    pub origin: String,
}

/// What `judge verify` found.
#[derive(Clone, Debug)]
pub struct Verification {
    pub problem: String,
    pub time_limit: TimeLimit,
    pub submissions: Vec<Verified>,
    /// A submission's judging failed on the jury's side (exit 2).
    pub jury_error: bool,
    pub interrupted: bool,
    /// Submissions the judge cannot run here (a language it does not build, a folder without
    /// an entry point), each with why: not judged, so neither a match nor a mismatch; said on
    /// every output, as `bt run` says "skipping".
    pub skipped: Vec<Skipped>,
}

/// A submission `judge verify` could not judge, and why.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub path: String,
    pub why: String,
}

/// The JSON report's shape.
#[derive(Serialize)]
struct Report<'a> {
    problem: &'a str,
    time_limit_s: f64,
    submissions: &'a [Verified],
    skipped: &'a [Skipped],
}

impl Verification {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&Report {
            problem: &self.problem,
            time_limit_s: self.time_limit.seconds,
            submissions: &self.submissions,
            skipped: &self.skipped,
        })
        .expect("plain data serializes")
    }

    /// Every submission got what its package allows.
    pub fn all_match(&self) -> bool {
        self.submissions.iter().all(|s| s.matches)
    }
}

fn to_format(verdict: Verdict) -> package_format::Verdict {
    use package_format::Verdict as F;
    match verdict {
        Verdict::AC => F::Ac,
        Verdict::WA => F::Wa,
        Verdict::TLE => F::Tle,
        Verdict::MLE => F::Mle,
        Verdict::OLE => F::Ole,
        Verdict::RE => F::Re,
        Verdict::CE => F::Ce,
    }
}

/// A submission's verdict by the ICPC rule: the first non-AC test in the package's order,
/// else AC.
pub fn final_verdict(rows: &[Row]) -> Verdict {
    rows.iter()
        .find(|r| r.verdict != Verdict::AC)
        .map_or(Verdict::AC, |r| r.verdict)
}

/// How one submission's judging went.
enum Got {
    CompileError(String),
    /// Its tests' rows, and what the output validator scored the accepted ones.
    Rows(Vec<Row>, HashMap<String, ValidatorScore>),
    JuryError(String),
}

/// Judges one built submission on every test under `limits`.
fn judge_one(
    command: sandbox::Command,
    tests: &[Loaded],
    checker: &PackageChecker,
    session: &Session,
    limits: sandbox::Limits,
) -> Result<Got, JudgeError> {
    let quiet = Session {
        limits,
        ..session.reporting_to(&Hidden)
    };
    let sandbox = quiet.sandbox(command)?;
    let runs = checker.runs(&sandbox);
    // The scores are those of this submission's runs only.
    checker.take_scores();
    match run_all(&quiet.judging(runs.as_ref(), checker), tests) {
        Ok(rows) => Ok(Got::Rows(rows, checker.take_scores())),
        Err(JudgeError::Jury(e)) => Ok(Got::JuryError(e.to_string())),
        Err(other) => Err(other),
    }
}

/// The time limit by the format's rule from the slowest accepted run (`None`: no accepted
/// submission passed): that run × `ac_to_time_limit`, rounded up to `time_resolution`; 1 s
/// when there is none, saying so.
pub fn limit_from_slowest(problem: &PackageProblem, slowest_ms: Option<u64>) -> TimeLimit {
    let limits = &problem.package.metadata.limits;
    match slowest_ms {
        Some(ms) => TimeLimit {
            seconds: limits
                .derive_time_limit(ms as f64 / 1000.0, None)
                .unwrap_or(1.0),
            origin: format!(
                "derived by the format's rule: the slowest accepted run {:.3} s × {} \
                 (ac_to_time_limit), rounded up to a multiple of {} s",
                ms as f64 / 1000.0,
                limits.ac_to_time_limit,
                limits.time_resolution
            ),
        },
        None => TimeLimit {
            seconds: 1.0,
            origin: "the package gives no time limit and no accepted submission passed to \
                     derive one from; `judge timelimit PKG` measures one"
                .to_string(),
        },
    }
}

/// The time limit of a package that gives none: its accepted submissions built and run on
/// `tests` under a generous limit, and [`limit_from_slowest`].
pub fn derive_time_limit(
    problem: &PackageProblem,
    tests: &[Loaded],
    checker: &PackageChecker,
    builder: &Builder,
    session: &Session,
    memory_mb: Option<u64>,
) -> Result<TimeLimit, JudgeError> {
    let accepted: Vec<PathBuf> = problem
        .package
        .submissions
        .iter()
        .filter(|s| s.expectation.is_accepted())
        .map(|s| s.program.path.clone())
        .collect();
    let generous = problem.limits(GENEROUS_SECONDS, memory_mb);
    let mut slowest: Option<u64> = None;
    for built in build_all(&accepted, builder, session.jobs) {
        let Ok(command) = compiled(built)? else {
            continue;
        };
        if let Got::Rows(rows, _) = judge_one(command, tests, checker, session, generous)?
            && rows.len() == tests.len()
            && rows.iter().all(|r| r.verdict == Verdict::AC)
        {
            let max = rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0);
            slowest = Some(slowest.map_or(max, |m| m.max(max)));
        }
    }
    Ok(limit_from_slowest(problem, slowest))
}

/// The CPU limit of the accepted submissions' runs that a time limit is derived from.
const GENEROUS_SECONDS: f64 = 10.0;

/// The interpreter of a single-file submission the build table, which goes by extension,
/// would get wrong: a legacy `.py` with a `python2` shebang and a `.py2` file are Python 2
/// (problemtools runs them with `python2`; as Python 3 they would fail on `print x`), and a
/// `.bash` script runs with `bash` as BAPCtools runs it (without a `#!` line it cannot be
/// started on its own). `None`: the build table's way.
fn by_interpreter(submission: &package_format::Submission) -> Option<&'static str> {
    if submission.program.is_dir {
        return None;
    }
    match submission.effective_language()?.code {
        "python2" => Some("python2"),
        "bash"
            if submission
                .program
                .path
                .extension()
                .is_some_and(|e| e == "bash") =>
        {
            Some("bash")
        }
        _ => None,
    }
}

/// Judges every jury submission of `problem` on `tests` with `checker`; `time_limit`: the
/// one given (`--time-limit`, `problem.yaml`, `.timelimit`), else derived from the accepted
/// submissions by the format's rule (they run first, under a generous limit).
pub fn verify(
    problem: &PackageProblem,
    tests: &[Loaded],
    checker: &PackageChecker,
    builder: &Builder,
    session: &Session,
    time_limit: Option<TimeLimit>,
    memory_mb: Option<u64>,
) -> Result<Verification, JudgeError> {
    let submissions = &problem.package.submissions;
    let paths: Vec<PathBuf> = submissions.iter().map(|s| s.program.path.clone()).collect();
    session.progress.message("building");
    let built = build_all(&paths, builder, session.jobs);
    let mut got: Vec<Option<Got>> = (0..submissions.len()).map(|_| None).collect();
    let mut commands: Vec<Option<sandbox::Command>> = Vec::new();
    let mut skipped = Vec::new();
    for (i, built) in built.into_iter().enumerate() {
        let built = match by_interpreter(&submissions[i]) {
            Some(interpreter) => {
                let words = [interpreter.to_string(), paths[i].display().to_string()];
                from_words(&words, builder).map_err(|e| match e {
                    JudgeError::Usage(why) => JudgeError::Usage(format!(
                        "{} runs with `{interpreter}` here: {why}",
                        submissions[i].effective_language().map_or("", |l| l.name)
                    )),
                    other => other,
                })
            }
            None => built,
        };
        // A submission the judge cannot run (its language, its shape) is the judge's limit,
        // not the submission's verdict, and not a reason to judge none of the others.
        let built = match built {
            Err(JudgeError::Usage(why)) => {
                skipped.push(Skipped {
                    path: format!("submissions/{}", submissions[i].name),
                    why,
                });
                commands.push(None);
                continue;
            }
            other => other,
        };
        match compiled(built)? {
            Ok(command) => commands.push(Some(command)),
            Err(failed) => {
                got[i] = Some(Got::CompileError(failed.summary()));
                commands.push(None);
            }
        }
    }
    let mut done = 0u64;
    let time_limit = match time_limit {
        Some(given) => given,
        None => {
            // The format's rule: the slowest accepted run × ac_to_time_limit, rounded up to
            // the time resolution. The accepted submissions run first, under a generous limit.
            let generous = problem.limits(GENEROUS_SECONDS, memory_mb);
            let mut slowest: Option<u64> = None;
            for (i, s) in submissions.iter().enumerate() {
                if !s.expectation.is_accepted() {
                    continue;
                }
                let Some(command) = commands[i].take() else {
                    continue;
                };
                if session.cancel.is_cancelled() {
                    break;
                }
                session.progress.message(&s.name);
                let result = judge_one(command, tests, checker, session, generous)?;
                if let Got::Rows(rows, _) = &result
                    && rows.iter().all(|r| r.verdict == Verdict::AC)
                {
                    let max = rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0);
                    slowest = Some(slowest.map_or(max, |m| m.max(max)));
                }
                got[i] = Some(result);
                done += 1;
                session.progress.set(done);
            }
            limit_from_slowest(problem, slowest)
        }
    };
    let limits = problem.limits(time_limit.seconds, memory_mb);
    let mut interrupted = false;
    for (i, s) in submissions.iter().enumerate() {
        if got[i].is_some() {
            continue;
        }
        if session.cancel.is_cancelled() {
            interrupted = true;
            break;
        }
        let Some(command) = commands[i].take() else {
            continue;
        };
        session.progress.message(&s.name);
        got[i] = Some(judge_one(command, tests, checker, session, limits)?);
        done += 1;
        session.progress.set(done);
    }
    let mut jury_error = false;
    let mut verified = Vec::new();
    for (s, got) in submissions.iter().zip(got) {
        let Some(got) = got else { continue };
        let expected: Vec<String> = s
            .expectation
            .expected_final_verdicts()
            .shorts()
            .into_iter()
            .map(String::from)
            .collect();
        let path = format!("submissions/{}", s.name);
        let row = match got {
            Got::JuryError(why) => {
                jury_error = true;
                Verified {
                    path,
                    expected,
                    verdict: "JE".to_string(),
                    tests: BTreeMap::new(),
                    max_cpu_ms: 0,
                    matches: false,
                    message: why,
                    score: None,
                    max_score: None,
                }
            }
            Got::CompileError(summary) => {
                let outcome = Outcome {
                    build_failure: Some(package_format::Verdict::Ce),
                    ..Outcome::default()
                };
                let allowed = s.expectation.allows(&outcome);
                Verified {
                    path,
                    expected,
                    verdict: "CE".to_string(),
                    tests: BTreeMap::from([("CE".to_string(), tests.len())]),
                    max_cpu_ms: 0,
                    matches: allowed.is_ok(),
                    message: match allowed {
                        Ok(()) => summary,
                        Err(why) => format!("{why}; {summary}"),
                    },
                    score: None,
                    max_score: None,
                }
            }
            Got::Rows(rows, validator_scores) => {
                let results: Vec<TestResult> = rows
                    .iter()
                    .map(|r| TestResult {
                        name: &r.test,
                        verdict: to_format(r.verdict),
                        judge_message: if r.verdict == Verdict::WA {
                            &r.message
                        } else {
                            ""
                        },
                    })
                    .collect();
                let outcomes: Vec<TestOutcome> = rows
                    .iter()
                    .map(|r| TestOutcome {
                        name: &r.test,
                        accepted: r.verdict == Verdict::AC,
                        validator: validator_scores.get(&r.test).copied(),
                    })
                    .collect();
                let scored = super::score::score(problem, &outcomes);
                let group_scores: Vec<(&str, f64)> = scored
                    .as_ref()
                    .map(|s| s.groups.iter().map(|(n, s)| (n.as_str(), *s)).collect())
                    .unwrap_or_default();
                let outcome = Outcome {
                    tests: &results,
                    build_failure: None,
                    score: scored.as_ref().map(|s| s.total),
                    group_scores: &group_scores,
                    max_score: scored.as_ref().and_then(|s| s.max),
                };
                let verdict = final_verdict(&rows);
                let mut counts = BTreeMap::new();
                for r in &rows {
                    *counts.entry(r.verdict.to_string()).or_insert(0) += 1;
                }
                let first = rows
                    .iter()
                    .find(|r| r.verdict != Verdict::AC)
                    .map(|r| {
                        format!(
                            "first {} on {}{}",
                            r.verdict,
                            r.test,
                            if r.message.is_empty() {
                                String::new()
                            } else {
                                format!(": {}", crate::text::shorten(&r.message, 120))
                            }
                        )
                    })
                    .unwrap_or_default();
                let score = scored
                    .as_ref()
                    .map(|s| match s.max {
                        Some(max) => format!("score {}/{max}", s.total),
                        None => format!("score {}", s.total),
                    })
                    .unwrap_or_default();
                let allowed = if rows.len() < tests.len() {
                    Err("not every test ran".to_string())
                } else {
                    s.expectation.allows(&outcome).map_err(|w| w.to_string())
                };
                let message = [
                    allowed.as_ref().err().cloned().unwrap_or_default(),
                    score,
                    first,
                ]
                .into_iter()
                .filter(|m| !m.is_empty())
                .collect::<Vec<_>>()
                .join("; ");
                Verified {
                    path,
                    expected,
                    verdict: verdict.to_string(),
                    tests: counts,
                    max_cpu_ms: rows.iter().map(|r| r.cpu_ms).max().unwrap_or(0),
                    matches: allowed.is_ok(),
                    message,
                    score: scored.as_ref().map(|s| s.total),
                    max_score: scored.as_ref().and_then(|s| s.max),
                }
            }
        };
        verified.push(row);
    }
    Ok(Verification {
        problem: problem.name().to_string(),
        time_limit,
        submissions: verified,
        jury_error,
        interrupted: interrupted || session.cancel.is_cancelled(),
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(test: &str, verdict: Verdict) -> Row {
        Row {
            test: test.to_string(),
            verdict,
            cpu_ms: 0,
            wall_ms: 0,
            peak_kb: 0,
            exit: String::new(),
            message: String::new(),
            stdout: String::new(),
            stderr: String::new(),
        }
    }

    #[test]
    fn the_verdict_is_the_first_failure_in_test_order() {
        use Verdict::*;
        let rows = [
            row("sample/1", AC),
            row("secret/a/1", TLE),
            row("secret/a/2", WA),
            row("secret/b/1", RE),
        ];
        assert_eq!(final_verdict(&rows), TLE);
        assert_eq!(final_verdict(&rows[2..]), WA);
        assert_eq!(final_verdict(&rows[..1]), AC);
        assert_eq!(final_verdict(&[]), AC);
    }
}
