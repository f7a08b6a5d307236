//! `judge strength PKG`: a package's data against its jury's wrong submissions, measured by
//! the same kill matrix as a built-in problem's test set ([`crate::strength`]). The entrants
//! are the package's submissions that must be rejected (plus any `--wrong` folder's), built
//! and judged as `judge verify` judges them: the package's checker (default, custom or
//! interactive output validator), its limits, its data in its order.

use package_format::Verdict as FormatVerdict;

use super::PackageProblem;
use super::checker::PackageChecker;
use super::verify::{TimeLimit, derive_time_limit};
use crate::error::JudgeError;
use crate::runner::Loaded;
use crate::runner::submission::Builder;
use crate::session::Session;
use crate::strength::{Entrant, Expect, Matrix, Unrunnable, measure_with};

/// A jury submission left out of the matrix, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// As under the package folder: `submissions/mixed/slow.py`.
    pub path: String,
    pub why: String,
}

/// The package's submissions a test set must reject, as wrong entrants named by their path in
/// the package (`submissions/wrong_answer/overflow.c`), in the package's order; and those that
/// are no such measure, with why: the accepted ones (every test must accept them: `judge
/// verify` checks that) say nothing about a test's power to reject and are left out silently;
/// a submission its expectation lets pass every test (`AC` among its final verdicts, e.g.
/// `brute_force` or a mixed one) is listed, since neither its rejection nor its survival says
/// anything about the data.
pub fn wrong_entrants(problem: &PackageProblem) -> (Vec<Entrant>, Vec<LeftOut>) {
    let mut wrong = Vec::new();
    let mut left_out = Vec::new();
    for submission in &problem.package.submissions {
        let path = format!("submissions/{}", submission.name);
        if submission.expectation.is_accepted() {
            continue;
        }
        let finals = submission.expectation.expected_final_verdicts();
        if finals.contains(FormatVerdict::Ac) {
            left_out.push(LeftOut {
                path,
                why: format!(
                    "its expectation ({}) lets it pass every test, so no test needs to reject it",
                    finals.shorts().join("|")
                ),
            });
            continue;
        }
        wrong.push(Entrant {
            expect: Expect::Wrong,
            name: path,
            path: submission.program.path.clone(),
        });
    }
    (wrong, left_out)
}

/// The time limit the entrants are judged under: `--time-limit` (`given`), else the
/// package's (`problem.yaml`, `.timelimit`), else derived from its accepted submissions by
/// the format's rule, as `judge run PKG` and `judge verify PKG` do.
pub fn time_limit(
    problem: &PackageProblem,
    tests: &[Loaded],
    checker: &PackageChecker,
    builder: &Builder,
    session: &Session,
    given: Option<f64>,
    memory_mb: Option<u64>,
) -> Result<TimeLimit, JudgeError> {
    Ok(match (given, problem.given_time_limit()) {
        (Some(seconds), _) => TimeLimit {
            seconds,
            origin: "--time-limit".to_string(),
        },
        (None, Some((seconds, from))) => TimeLimit {
            seconds,
            origin: from.to_string(),
        },
        (None, None) => derive_time_limit(problem, tests, checker, builder, session, memory_mb)?,
    })
}

/// Every entrant on every test of a prepared package: built as `judge verify` builds the
/// jury's submissions (one the judge cannot build here is [`Matrix::skipped`], not a
/// failure), run as the checker says (with the output validator connected, for an
/// interactive package) and checked by it, under the session's limits. A failure of the
/// jury's side (an output validator that crashes or exits neither 42 nor 43) is a jury error:
/// the command stops with exit 2, since no verdict of that test can be trusted.
pub fn measure(
    tests: Vec<Loaded>,
    checker: &PackageChecker,
    entrants: Vec<Entrant>,
    builder: &Builder,
    session: &Session,
) -> Result<Matrix, JudgeError> {
    measure_with(
        tests,
        entrants,
        builder,
        session,
        Unrunnable::Skip,
        // Not yet for a package's jury submissions: the sanitized pass runs a program alone,
        // not beside an interactive validator.
        crate::strength::Sanitizing::Off,
        None,
        |sandbox, tests| {
            let runs = checker.runs(sandbox);
            crate::runner::run_all(&session.judging(runs.as_ref(), checker), tests)
        },
    )
}
