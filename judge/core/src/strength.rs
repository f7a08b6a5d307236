//! How strong is a test set? Every wrong (and correct) submission runs on every test; the
//! verdict matrix says which test rejects which submission, a greedy set cover finds a small
//! subset of tests that still rejects every wrong one, and for a wrong submission that
//! survives, generated cases of each family show which family would have caught it.

use std::path::{Path, PathBuf};

use sandbox::Sandbox;

use crate::error::JudgeError;
use crate::registry::ProblemEntry;
use crate::runner::report::Row;
use crate::runner::submission::SANITIZED;
use crate::runner::submission::{Builder, build_all, compiled, from_path, is_source};
use crate::runner::tests::Test;
use crate::runner::{AnswerFile, Checked, Checker, Loaded, Stop, run_all, run_tests};
use crate::session::Session;
use crate::verdict::{Verdict, judge};

/// Whether a submission should pass every test or fail at least one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Correct,
    Wrong,
}

impl Expect {
    pub fn label(self) -> &'static str {
        match self {
            Expect::Correct => "correct",
            Expect::Wrong => "wrong",
        }
    }
}

/// One submission of a `--wrong` or `--correct` folder.
#[derive(Clone, Debug)]
pub struct Entrant {
    pub expect: Expect,
    pub name: String,
    pub path: PathBuf,
}

/// The submissions in a folder: executable files and known source files, by name.
pub fn entrants(dir: &Path, expect: Expect) -> Result<Vec<Entrant>, JudgeError> {
    use std::os::unix::fs::PermissionsExt;
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    let mut found = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
        let executable = std::fs::metadata(&path)
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
        if executable || path.is_file() && is_source(&path) {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            found.push(Entrant { expect, name, path });
        }
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    if found.is_empty() {
        return Err(JudgeError::Usage(format!(
            "{}: no submissions (executables or source files)",
            dir.display()
        )));
    }
    Ok(found)
}

/// The verdict of every entrant on every test.
pub struct Matrix {
    pub tests: Vec<Test>,
    pub entrants: Vec<Entrant>,
    /// `verdicts[e][t]`: entrant `e` on test `t` (CE on every test if it did not build).
    pub verdicts: Vec<Vec<Verdict>>,
    /// The entrants whose source did not build, with the build command and the compiler's
    /// first line (or the build limit that stopped it), as written: a compile error says
    /// nothing about the tests.
    pub compile_errors: Vec<(usize, String)>,
    /// Ctrl-C or SIGTERM stopped the measuring: `entrants` and `verdicts` hold the entrants
    /// judged on every test before it, these are the ones that were not (in order).
    pub not_judged: Vec<Entrant>,
    /// `sanitized[e]`: the tests on which a sanitizer reported entrant `e` (a read outside its
    /// arrays, undefined behaviour), each with the report's line: with `--sanitize` every such
    /// test, by default the first one only ([`Sanitizing`]).
    pub sanitized: Vec<Vec<(usize, String)>>,
    /// How the sanitizers took part.
    pub sanitizing: Sanitizing,
    /// The C and C++ entrants with no sanitized run, each with why (in one line).
    pub not_sanitized: Vec<(usize, String)>,
    /// Entrants the judge cannot build here (their language, their shape), each with why:
    /// not judged, so neither rejected nor surviving ([`Unrunnable::Skip`]).
    pub skipped: Vec<(Entrant, String)>,
}

/// How the sanitizers (AddressSanitizer and UndefinedBehaviorSanitizer) take part in a
/// measurement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sanitizing {
    /// Not at all (`--no-sanitize`).
    Off,
    /// `--sanitize`: the sanitized build is the one judged, and a report is an RE that rejects.
    Judged,
    /// The default: the verdicts are the plain build's; each C or C++ source entrant is then
    /// run sanitized on the tests in order until its first report, which marks it: an
    /// out-of-bounds read is shown even when every answer is right. Cheap: a clean sanitized
    /// run costs a few ms, and only the first report is symbolized (~0.5 s).
    FirstReport,
}

/// The sanitized second pass of [`Sanitizing::FirstReport`]: the sanitized builder and the
/// session whose limits are a sanitized run's.
pub struct SanitizedPass<'a> {
    pub builder: &'a Builder,
    pub session: &'a Session<'a>,
}

/// Takes every output: in the sanitized pass only a sanitizer's report stops the run (a wrong
/// answer is the plain pass's business).
struct AnyOutput;

impl Checker for AnyOutput {
    fn check(&self, _: &Loaded, _: &[u8]) -> Result<Checked, JudgeError> {
        Ok(Checked::Accepted)
    }
}

/// Is this entrant a C or C++ source file, which a sanitized build instruments?
pub fn sanitizable(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SANITIZED.contains(&e))
}

/// Entrant `path`'s sanitized run on `tests` in order, up to its first sanitizer report: that
/// report (test index, line), none, or why there was no such run.
fn first_report(
    path: &Path,
    pass: &SanitizedPass,
    tests: &[Loaded],
) -> Result<Result<Option<(usize, String)>, String>, JudgeError> {
    let command = match compiled(from_path(path, pass.builder))? {
        Ok(command) => command,
        Err(failed) => {
            return Ok(Err(format!(
                "its sanitized build failed: {}",
                failed.summary()
            )));
        }
    };
    let sandbox = pass.session.sandbox(command)?;
    let rows = run_tests(
        &pass.session.judging(&sandbox, &AnyOutput),
        tests,
        Stop::AtFirstFailure,
        &mut |_, _, _| Ok(()),
    )?;
    let Some(last) = rows.last() else {
        return Ok(Ok(None));
    };
    let t = rows.len() - 1;
    if let Some(report) = last.message.strip_prefix("sanitizer: ") {
        return Ok(Ok(Some((t, report.to_string()))));
    }
    if last.verdict != Verdict::AC {
        // A crash or a limit before any report: the tests after it were not run sanitized.
        return Ok(Err(format!(
            "its sanitized run stopped at test {} ({}) before any report",
            tests[t].test.name, last.verdict
        )));
    }
    Ok(Ok(None))
}

/// The folders of the tests' files: what the submissions' runs must not see, wherever it
/// lies.
pub fn test_folders(tests: &[Loaded]) -> Vec<PathBuf> {
    let mut hidden: Vec<PathBuf> = tests
        .iter()
        .filter_map(|t| t.test.answer.parent().map(Path::to_path_buf))
        .collect();
    hidden.dedup();
    hidden
}

/// Runs every entrant on every test, the session's jobs tests at a time. The entrants are
/// built first, as many builds at a time (each distinct source once). Interrupted (Ctrl-C,
/// SIGTERM), it returns what was judged before: the entrants judged on every test, the rest
/// in [`Matrix::not_judged`].
///
/// `sanitized`: the sanitized pass of [`Sanitizing::FirstReport`] (`sanitizing` says which
/// way the sanitizers take part; `builder` is the sanitized one with [`Sanitizing::Judged`]).
pub fn measure(
    problem: &dyn ProblemEntry,
    tests: Vec<Loaded>,
    entrants: Vec<Entrant>,
    builder: &Builder,
    session: &Session,
    sanitizing: Sanitizing,
    sanitized_pass: Option<&SanitizedPass>,
) -> Result<Matrix, JudgeError> {
    measure_with(
        tests,
        entrants,
        builder,
        session,
        Unrunnable::Fail,
        sanitizing,
        sanitized_pass,
        |sandbox, tests| run_all(&session.judging(sandbox, &AnswerFile(problem)), tests),
    )
}

/// What [`measure_with`] does with an entrant the judge cannot build here at all (a language
/// it does not build, a folder without an entry point: the builder's usage error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrunnable {
    /// The command fails with the builder's error (a `--wrong` folder's entrants are files
    /// the judge said it knows how to build).
    Fail,
    /// Leave it out of the matrix, in [`Matrix::skipped`] with why (a package's jury
    /// submissions may be in any language, as `judge verify` skips them).
    Skip,
}

/// [`measure`] with the entrants judged by `judge_all` (a built entrant's sandbox and the
/// tests: its rows, in test order, fewer when interrupted): the built-in problems' answer
/// files, or a package's checker and its way of running a submission. One matrix, one
/// classification, one report for both.
// Each argument is one of the measurement's independent choices; a struct of them would be
// built once, at each of the two callers.
#[allow(clippy::too_many_arguments)]
pub fn measure_with(
    tests: Vec<Loaded>,
    entrants: Vec<Entrant>,
    builder: &Builder,
    session: &Session,
    unrunnable: Unrunnable,
    sanitizing: Sanitizing,
    sanitized_pass: Option<&SanitizedPass>,
    judge_all: impl Fn(&Sandbox, &[Loaded]) -> Result<Vec<Row>, JudgeError>,
) -> Result<Matrix, JudgeError> {
    let (progress, cancel) = (session.progress, &session.cancel);
    let mut verdicts = Vec::new();
    let mut compile_errors = Vec::new();
    let mut judged = Vec::new();
    let mut skipped = Vec::new();
    let mut not_judged = Vec::new();
    let mut sanitized = Vec::new();
    let mut not_sanitized = Vec::new();
    let mut interrupted = false;
    // A window of entrants at a time, built and then judged, as `judge run --submissions`
    // does: only a window's programs are held in memory, however many
    // entrants there are (each program may be up to the artefact cap).
    let window = session.jobs.max(1) * crate::runner::submission::WINDOW_PER_JOB;
    let mut entrants = entrants.into_iter().peekable();
    while entrants.peek().is_some() {
        let chunk: Vec<Entrant> = entrants.by_ref().take(window).collect();
        if interrupted || cancel.is_cancelled() {
            interrupted = true;
            not_judged.extend(chunk);
            continue;
        }
        progress.message("building");
        let paths: Vec<PathBuf> = chunk.iter().map(|e| e.path.clone()).collect();
        let built = build_all(&paths, builder, session.jobs);
        for (entrant, command) in chunk.into_iter().zip(built) {
            if interrupted || cancel.is_cancelled() {
                interrupted = true;
                not_judged.push(entrant);
                continue;
            }
            progress.message(&entrant.name);
            let command = match command {
                Err(JudgeError::Interrupted(_)) => {
                    // Ctrl-C during the builds: this one and those after it are not judged.
                    interrupted = true;
                    not_judged.push(entrant);
                    continue;
                }
                Err(JudgeError::Usage(why)) if unrunnable == Unrunnable::Skip => {
                    skipped.push((entrant, why));
                    continue;
                }
                other => match compiled(other)? {
                    Ok(command) => command,
                    Err(failed) => {
                        compile_errors.push((judged.len(), failed.summary()));
                        verdicts.push(vec![Verdict::CE; tests.len()]);
                        sanitized.push(Vec::new());
                        judged.push(entrant);
                        progress.set((judged.len() * tests.len()) as u64);
                        continue;
                    }
                },
            };
            let sandbox = session.sandbox(command)?;
            let rows = judge_all(&sandbox, &tests)?;
            if rows.len() != tests.len() {
                // Interrupted while this one ran: it is not judged.
                interrupted = true;
                not_judged.push(entrant);
                continue;
            }
            let mut reports: Vec<(usize, String)> = rows
                .iter()
                .enumerate()
                .filter_map(|(t, r)| {
                    r.message
                        .strip_prefix("sanitizer: ")
                        .map(|m| (t, m.to_string()))
                })
                .collect();
            if let (Sanitizing::FirstReport, Some(pass)) = (sanitizing, sanitized_pass)
                && sanitizable(&entrant.path)
            {
                progress.message(&format!("{} (sanitized)", entrant.name));
                let outcome = first_report(&entrant.path, pass, &tests)?;
                if cancel.is_cancelled() {
                    interrupted = true;
                    not_judged.push(entrant);
                    continue;
                }
                match outcome {
                    Ok(report) => reports.extend(report),
                    Err(why) => not_sanitized.push((judged.len(), why)),
                }
            }
            sanitized.push(reports);
            verdicts.push(rows.into_iter().map(|r| r.verdict).collect());
            judged.push(entrant);
            progress.set((judged.len() * tests.len()) as u64);
        }
    }
    Ok(Matrix {
        tests: tests.into_iter().map(|t| t.test).collect(),
        entrants: judged,
        verdicts,
        compile_errors,
        not_judged,
        sanitized,
        sanitizing,
        not_sanitized,
        skipped,
    })
}

/// Where a submission stands against a test set: the one classification the command, its
/// reports and its exit code all use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Standing {
    /// It did not build (CE on every test): that says nothing about the tests.
    DidNotBuild,
    /// A wrong submission no test rejects: the test set is weak.
    Survives,
    /// A wrong submission exactly one test rejects (that test).
    Fragile(usize),
    /// A wrong submission these tests (two or more) reject.
    Rejected(Vec<usize>),
    /// A correct submission every test accepts.
    Accepted,
    /// A correct submission these tests reject: a test or its answer is wrong.
    CorrectRejected(Vec<usize>),
}

impl Standing {
    /// Where a submission expected to be `expect` stands with `verdicts`, one per test.
    pub fn of(expect: Expect, verdicts: &[Verdict]) -> Standing {
        if !verdicts.is_empty() && verdicts.iter().all(|v| *v == Verdict::CE) {
            return Standing::DidNotBuild;
        }
        let rejecting = rejecting(verdicts);
        match (expect, rejecting.as_slice()) {
            (Expect::Wrong, []) => Standing::Survives,
            (Expect::Wrong, [t]) => Standing::Fragile(*t),
            (Expect::Wrong, _) => Standing::Rejected(rejecting),
            (Expect::Correct, []) => Standing::Accepted,
            (Expect::Correct, _) => Standing::CorrectRejected(rejecting),
        }
    }

    /// The tests that reject it.
    pub fn rejected_by(&self) -> &[usize] {
        match self {
            Standing::Fragile(t) => std::slice::from_ref(t),
            Standing::Rejected(ts) | Standing::CorrectRejected(ts) => ts,
            _ => &[],
        }
    }

    /// Does it make the test set fail its check (a survivor, a rejected correct submission,
    /// or one that did not build, which leaves the check unfinished)?
    pub fn is_finding(&self) -> bool {
        matches!(
            self,
            Standing::DidNotBuild | Standing::Survives | Standing::CorrectRejected(_)
        )
    }
}

/// Does a test with this verdict reject the submission? Any verdict but AC; a compile error
/// is no rejection (no test ran).
pub fn rejects(verdict: Verdict) -> bool {
    !matches!(verdict, Verdict::AC | Verdict::CE)
}

/// The tests that reject a submission with `verdicts`.
pub fn rejecting(verdicts: &[Verdict]) -> Vec<usize> {
    (0..verdicts.len())
        .filter(|&t| rejects(verdicts[t]))
        .collect()
}

impl Matrix {
    /// The tests that reject entrant `e` (any verdict but AC; a compile error is none).
    pub fn rejecting(&self, e: usize) -> Vec<usize> {
        rejecting(&self.verdicts[e])
    }

    /// Where entrant `e` stands.
    pub fn standing(&self, e: usize) -> Standing {
        if self.did_not_build(e) {
            return Standing::DidNotBuild;
        }
        Standing::of(self.entrants[e].expect, &self.verdicts[e])
    }

    /// What a sanitizer said about entrant `e`: the first report, and with `--sanitize` on
    /// how many tests.
    pub fn sanitizer_mark(&self, e: usize) -> Option<String> {
        let reports = &self.sanitized[e];
        let (t, first) = reports.first()?;
        let name = &self.tests[*t].name;
        Some(match self.sanitizing {
            Sanitizing::FirstReport => format!(
                "reads outside its arrays (its sanitized build, first report on {name}: {first})"
            ),
            _ => format!(
                "reads outside its arrays (sanitizer on {} of {} tests, first {name}: {first})",
                reports.len(),
                self.tests.len(),
            ),
        })
    }

    /// Did entrant `e` fail to build?
    pub fn did_not_build(&self, e: usize) -> bool {
        self.compile_errors.iter().any(|(k, _)| *k == e)
    }

    /// The indices of the entrants that are expected to be `expect`.
    pub fn of(&self, expect: Expect) -> Vec<usize> {
        (0..self.entrants.len())
            .filter(|&e| self.entrants[e].expect == expect)
            .collect()
    }

    /// The tests that reject no wrong entrant: nothing measured needs them.
    pub fn rejecting_none(&self) -> Vec<usize> {
        let wrong = self.of(Expect::Wrong);
        (0..self.tests.len())
            .filter(|&t| !wrong.iter().any(|&e| rejects(self.verdicts[e][t])))
            .collect()
    }

    /// A small subset of tests that rejects every wrong entrant some test rejects.
    pub fn cover(&self) -> Vec<usize> {
        let wrong = self.of(Expect::Wrong);
        let rejects: Vec<Vec<bool>> = (0..self.tests.len())
            .map(|t| {
                wrong
                    .iter()
                    .map(|&e| rejects(self.verdicts[e][t]))
                    .collect()
            })
            .collect();
        greedy_cover(&rejects)
    }
}

/// Greedy set cover over `rejects[test][submission]`: repeatedly the test that rejects the
/// most submissions not yet rejected (ties: the earlier test). Not always the smallest cover,
/// but close, and fast.
pub fn greedy_cover(rejects: &[Vec<bool>]) -> Vec<usize> {
    let subs = rejects.first().map_or(0, |r| r.len());
    let mut covered = vec![false; subs];
    let coverable: Vec<bool> = (0..subs).map(|s| rejects.iter().any(|t| t[s])).collect();
    let mut chosen = Vec::new();
    while (0..subs).any(|s| coverable[s] && !covered[s]) {
        let best = (0..rejects.len()).max_by_key(|&t| {
            (
                rejects[t]
                    .iter()
                    .zip(&covered)
                    .filter(|&(&r, &c)| r && !c)
                    .count(),
                std::cmp::Reverse(t),
            )
        });
        let Some(best) = best else { break };
        for (covered, &rejected) in covered.iter_mut().zip(&rejects[best]) {
            *covered |= rejected;
        }
        chosen.push(best);
    }
    chosen
}

/// How many generated cases of a family a submission fails.
#[derive(Clone, Debug)]
pub struct FamilyHint {
    pub family: String,
    pub failed: usize,
    pub tried: usize,
}

/// For a surviving submission: on how many of 30 generated cases of each family it fails.
pub fn family_hints(
    problem: &dyn ProblemEntry,
    entrant: &Entrant,
    builder: &Builder,
    session: &Session,
) -> Result<Vec<FamilyHint>, JudgeError> {
    let (limits, cancel) = (&session.limits, &session.cancel);
    const PER_FAMILY: u64 = 30;
    let sandbox = Sandbox::new(from_path(&entrant.path, builder)?, 1)
        .map_err(|e| JudgeError::sandbox("setting up", e))?;
    let mut hints = Vec::new();
    for (family, _) in problem.families() {
        let mut failed = 0;
        for index in 0..PER_FAMILY {
            let Some((input, answer)) = problem.family_case(family, index, 1) else {
                continue;
            };
            let run = sandbox
                .run(0, input.as_bytes(), limits, cancel.flag())
                .map_err(|e| JudgeError::sandbox("running a family case", e))?;
            let (verdict, _) = judge(&run, limits, |out| problem.check(&answer, out));
            if verdict != Verdict::AC {
                failed += 1;
            }
        }
        hints.push(FamilyHint {
            family: family.to_string(),
            failed,
            tried: PER_FAMILY as usize,
        });
    }
    Ok(hints)
}

#[cfg(test)]
mod tests {
    use super::{Expect, Standing, greedy_cover};
    use crate::verdict::Verdict::{AC, CE, TLE, WA};

    #[test]
    fn a_submission_stands_by_the_tests_that_reject_it() {
        assert_eq!(Standing::of(Expect::Wrong, &[AC, AC]), Standing::Survives);
        assert_eq!(Standing::of(Expect::Wrong, &[AC, WA]), Standing::Fragile(1));
        assert_eq!(
            Standing::of(Expect::Wrong, &[TLE, AC, WA]),
            Standing::Rejected(vec![0, 2])
        );
        assert_eq!(Standing::of(Expect::Correct, &[AC, AC]), Standing::Accepted);
        assert_eq!(
            Standing::of(Expect::Correct, &[AC, TLE]),
            Standing::CorrectRejected(vec![1])
        );
        // A compile error rejects nothing: one test or many, wrong or correct.
        for expect in [Expect::Wrong, Expect::Correct] {
            assert_eq!(Standing::of(expect, &[CE]), Standing::DidNotBuild);
            assert_eq!(Standing::of(expect, &[CE, CE, CE]), Standing::DidNotBuild);
        }
        assert!(Standing::DidNotBuild.is_finding() && Standing::Survives.is_finding());
        assert!(!Standing::Fragile(0).is_finding() && !Standing::Accepted.is_finding());
        assert_eq!(Standing::Fragile(3).rejected_by(), [3]);
    }

    #[test]
    fn greedy_cover_picks_the_test_that_rejects_most_first() {
        // tests x wrong submissions
        let rejects = vec![
            vec![true, false, false],
            vec![true, true, false],
            vec![false, false, true],
            vec![false, true, true],
        ];
        assert_eq!(greedy_cover(&rejects), vec![1, 2]);
    }

    #[test]
    fn greedy_cover_ignores_what_no_test_rejects() {
        let rejects = vec![vec![false, true], vec![false, true]];
        assert_eq!(greedy_cover(&rejects), vec![0]);
    }
}
