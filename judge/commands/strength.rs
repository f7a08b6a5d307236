//! `judge strength PROBLEM --tests DIR --wrong DIR [--correct DIR] [--report FILE]`: how
//! strong is a test set? (See [`judge_core::strength`].) Prints which tests reject which
//! submission, wrong submissions only one test rejects (fragile), the greedy set cover, and
//! for a survivor the families that would have caught it.
//!
//! `judge strength PKG [--wrong DIR] [--report FILE]`: the same for a problem package's data
//! against its jury's wrong submissions (see [`judge_core::package::strength`]); one printer
//! and one report for both.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use judge_core::cancel::Cancel;
use judge_core::error::JudgeError;
use judge_core::package::PackageProblem;
use judge_core::problem::{Problem, parse_problem};
use judge_core::progress::{count, thousands};
use judge_core::registry::ProblemEntry;
use judge_core::runner::load;
use judge_core::runner::submission::Builder;
use judge_core::runner::tests::discover;
use judge_core::session::Session;
use judge_core::strength::{
    Entrant, Expect, Matrix, SanitizedPass, Sanitizing, Standing, entrants, family_hints, measure,
    test_folders,
};
use judge_core::{Outcome, Result};
use judge_report::{self as report, FamilyHint, StrengthReport, Submission, escape};

use crate::args::SandboxArgs;
use crate::bar::Bar;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The problem id (see `judge problems`), or a problem package folder (holding
    /// problem.yaml): its data against its jury's wrong submissions.
    #[arg(value_parser = parse_problem)]
    pub problem: Problem,
    /// The test set (plain or Kattis layout); required for a built-in problem, a package
    /// brings its own data (sample then secret).
    #[arg(long)]
    pub tests: Option<PathBuf>,
    /// A folder of wrong submissions: executable files, or source files the judge can build
    /// (.c .cpp .cc .py .java .kt .go .rs .rb .js .sh). Required for a built-in problem; for
    /// a package, more wrong submissions besides its own.
    #[arg(long)]
    pub wrong: Option<PathBuf>,
    /// A folder of correct submissions, which every test must accept.
    #[arg(long)]
    pub correct: Option<PathBuf>,
    /// Write a report; the format follows the name: .csv (the tests x submissions verdict
    /// matrix), .json, .xml (JUnit: one test case per submission), .html (one page: the kill
    /// matrix coloured, the cover, fragile tests, survivors); any other extension is refused
    /// before anything runs. Nothing is written without it.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Do not run the C and C++ submissions sanitized as well. By default each one is run a
    /// second time, built with AddressSanitizer and UndefinedBehaviorSanitizer, on the tests
    /// in order up to its first sanitizer report, which marks it ("reads outside its arrays"):
    /// the verdicts stay the plain build's. (`--sanitize` judges the sanitized build instead.)
    #[arg(long, conflicts_with = "sanitize")]
    pub no_sanitize: bool,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

pub fn run(args: &Args, out: &mut dyn Write, interrupt: &Cancel) -> Result<Outcome> {
    // Every path is checked before anything is built or run.
    for folder in [
        args.tests.as_ref(),
        args.wrong.as_ref(),
        args.correct.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        crate::paths::existing(folder)?;
    }
    if let Some(path) = &args.report {
        crate::paths::report(path)?;
    }
    match &args.problem {
        Problem::BuiltIn(entry) => built_in(*entry, args, out, interrupt),
        Problem::Package(package) => of_package(package, args, out, interrupt),
    }
}

/// The submissions of `--correct` (first) and `--wrong`, if given.
fn given_entrants(args: &Args) -> Result<Vec<Entrant>> {
    let mut all = match &args.correct {
        Some(dir) => entrants(dir, Expect::Correct)?,
        None => Vec::new(),
    };
    if let Some(dir) = &args.wrong {
        all.extend(entrants(dir, Expect::Wrong)?);
    }
    Ok(all)
}

fn built_in(
    problem: &'static dyn ProblemEntry,
    args: &Args,
    out: &mut dyn Write,
    interrupt: &Cancel,
) -> Result<Outcome> {
    let (Some(tests_dir), Some(_)) = (&args.tests, &args.wrong) else {
        return Err(JudgeError::Usage(format!(
            "--tests DIR and --wrong DIR are required for the built-in problem {} (a problem \
             package folder brings its own data and wrong submissions)",
            problem.id()
        )));
    };
    let tests = load(problem, discover(tests_dir)?, false)?;
    let all = given_entrants(args)?;
    let builder = args
        .sandbox
        .builder(std::slice::from_ref(tests_dir), interrupt);
    let bar = Bar::new("runs", Some((all.len() * tests.len()) as u64));
    // The test data stays invisible to the submissions wherever it lies.
    let session = args.sandbox.session(&test_folders(&tests), &bar, interrupt);
    let sanitizing = if args.sandbox.sanitize {
        Sanitizing::Judged
    } else if args.no_sanitize {
        Sanitizing::Off
    } else {
        Sanitizing::FirstReport
    };
    // The sanitized pass's builder and session: --sanitize's.
    let sanitized_args = SandboxArgs {
        sanitize: true,
        ..args.sandbox.clone()
    };
    let sanitized_builder = sanitized_args.builder(std::slice::from_ref(tests_dir), interrupt);
    let sanitized_session = sanitized_args.session(&test_folders(&tests), &bar, interrupt);
    let pass = SanitizedPass {
        builder: &sanitized_builder,
        session: &sanitized_session,
    };
    let matrix = measure(
        problem,
        tests,
        all,
        &builder,
        &session,
        sanitizing,
        Some(&pass),
    );
    bar.finish();
    let matrix = matrix?;
    let survivors = Survivors::Families {
        problem,
        builder: &builder,
        session: &session,
    };
    show(
        args,
        problem.id(),
        tests_dir,
        &matrix,
        &survivors,
        out,
        interrupt,
    )
}

fn of_package(
    package: &PackageProblem,
    args: &Args,
    out: &mut dyn Write,
    interrupt: &Cancel,
) -> Result<Outcome> {
    use judge_core::package::strength;
    let (mut all, left_out) = strength::wrong_entrants(package);
    // --correct first, as for a built-in problem; then the package's own, then --wrong's.
    let (correct, wrong): (Vec<Entrant>, Vec<Entrant>) = given_entrants(args)?
        .into_iter()
        .partition(|e| e.expect == Expect::Correct);
    all.splice(0..0, correct);
    all.extend(wrong);
    if all.iter().all(|e| e.expect == Expect::Correct) {
        return Err(JudgeError::Usage(format!(
            "{}: no submission a test must reject (none in submissions/ outside accepted/ \
             whose expectation rules out AC{}), and no --wrong DIR",
            package.dir.display(),
            if left_out.is_empty() {
                String::new()
            } else {
                format!("; {} allowed to pass", count(left_out.len(), "submission"))
            }
        )));
    }
    let mut hidden = package.hidden();
    hidden.extend(args.tests.iter().cloned());
    let builder = args.sandbox.builder(&hidden, interrupt);
    let prepared = package.prepare(
        args.tests.as_deref(),
        &builder,
        args.sandbox.jobs(),
        interrupt,
    )?;
    super::warn(package.warnings().iter().chain(&prepared.warnings));
    let time_limit = strength::time_limit(
        package,
        &prepared.tests,
        &prepared.checker,
        &builder,
        &args
            .sandbox
            .session(&hidden, &judge_core::progress::Hidden, interrupt),
        args.sandbox.time_limit,
        args.sandbox.memory_limit,
    )?;
    errln!(
        "time limit: {} s ({})",
        time_limit.seconds,
        escape::line(&time_limit.origin)
    );
    let mut limits = package.limits(time_limit.seconds, args.sandbox.memory_limit);
    limits.sanitizer = args.sandbox.sanitize;
    for skip in &left_out {
        outln!(
            out,
            "{}",
            escape::line(&format!("left out  {}: {}", skip.path, skip.why))
        );
    }
    let tests = prepared.tests;
    let bar = Bar::new("runs", Some((all.len() * tests.len()) as u64));
    let session = Session {
        limits,
        ..args.sandbox.session(&hidden, &bar, interrupt)
    };
    let matrix = strength::measure(tests, &prepared.checker, all, &builder, &session);
    bar.finish();
    let matrix = matrix?;
    if matrix.entrants.is_empty() && matrix.not_judged.is_empty() {
        // Every one was skipped: no test set is measured by nothing.
        for (entrant, why) in &matrix.skipped {
            outln!(
                out,
                "{}",
                escape::line(&format!("skip      {}: not judged: {why}", entrant.name))
            );
        }
        return Err(JudgeError::Usage(format!(
            "{}: none of the {} to measure the data against can be judged here",
            package.dir.display(),
            count(matrix.skipped.len(), "submission"),
        )));
    }
    let tests_dir = args.tests.clone().unwrap_or_else(|| package.dir.clone());
    let survivors = Survivors::Stress {
        package: &package.dir,
    };
    show(
        args,
        package.name(),
        &tests_dir,
        &matrix,
        &survivors,
        out,
        interrupt,
    )
}

/// What is said about a wrong submission no test rejects.
enum Survivors<'a> {
    /// A built-in problem: on how many generated cases of each family it fails.
    Families {
        problem: &'static dyn ProblemEntry,
        builder: &'a Builder,
        session: &'a Session<'a>,
    },
    /// A package: the command that searches for an input that rejects it.
    Stress { package: &'a std::path::Path },
}

/// Prints the matrix's findings, writes the report, and says how the command ends: the one
/// printer of a built-in problem's test set and a package's data.
fn show(
    args: &Args,
    problem: &str,
    tests_dir: &std::path::Path,
    matrix: &Matrix,
    survivor_hints: &Survivors,
    out: &mut dyn Write,
    cancel: &Cancel,
) -> Result<Outcome> {
    let tests = &matrix.tests;
    // What a sanitizer said (`--sanitize`), escaped like everything a submission writes.
    let mark = |e: usize| {
        matrix
            .sanitizer_mark(e)
            .map(|m| escape::terminal(&format!("; {m}")))
            .unwrap_or_default()
    };
    // A survivor, a rejected correct submission, or one that does not build (which leaves
    // the check unfinished): exit 1, as every report says.
    let failed = (0..matrix.entrants.len()).any(|e| matrix.standing(e).is_finding());
    for (e, why) in &matrix.compile_errors {
        outln!(
            out,
            "{}",
            escape::line(&format!(
                "CE        {}: the build failed {why}",
                matrix.entrants[*e].name
            ))
        );
    }
    for (entrant, why) in &matrix.skipped {
        outln!(
            out,
            "{}",
            escape::line(&format!("skip      {}: not judged: {why}", entrant.name))
        );
    }
    for e in matrix.of(Expect::Correct) {
        // A submission's name: one line on the terminal, whatever it holds.
        let name = escape::line(&matrix.entrants[e].name);
        match matrix.standing(e) {
            Standing::Accepted => {
                outln!(
                    out,
                    "correct  {name}: accepted by {}{}",
                    if tests.len() == 1 {
                        "the 1 test".to_string()
                    } else {
                        format!("all {}", count(tests.len(), "test"))
                    },
                    mark(e)
                );
            }
            Standing::CorrectRejected(by) => {
                let rejected: Vec<String> = by
                    .into_iter()
                    .map(|t| {
                        format!(
                            "{} ({})",
                            escape::line(&tests[t].name),
                            matrix.verdicts[e][t]
                        )
                    })
                    .collect();
                outln!(
                    out,
                    "CORRECT SOLUTION REJECTED  {name}: by {}{}",
                    rejected.join(", "),
                    mark(e)
                );
            }
            // A compile error is printed above.
            _ => {}
        }
    }
    // Why a C or C++ submission has no sanitized run, in one line each.
    for (e, why) in &matrix.not_sanitized {
        outln!(
            out,
            "{}",
            escape::line(&format!(
                "not sanitized  {}: {why}",
                matrix.entrants[*e].name
            ))
        );
    }
    // No sanitized run although a C or C++ entrant could have one: why, in one line.
    let none_because = if args.no_sanitize {
        "--no-sanitize"
    } else {
        "not yet for a package's submissions"
    };
    if matrix.sanitizing == Sanitizing::Off
        && matrix
            .entrants
            .iter()
            .any(|e| judge_core::strength::sanitizable(&e.path))
    {
        outln!(out, "sanitized runs: none ({none_because})");
    }
    let mut survivors = Vec::new();
    for e in matrix.of(Expect::Wrong) {
        // A submission's name: one line on the terminal, whatever it holds.
        let name = escape::line(&matrix.entrants[e].name);
        match matrix.standing(e) {
            Standing::Survives => {
                outln!(out, "SURVIVES  {name}: no test rejects it{}", mark(e));
                survivors.push(e);
            }
            Standing::Fragile(t) => {
                outln!(
                    out,
                    "fragile   {name}: only {} rejects it{}",
                    escape::line(&tests[t].name),
                    mark(e)
                );
            }
            Standing::Rejected(by) => {
                let n = by.len();
                let first: Vec<String> = by
                    .iter()
                    .take(3)
                    .map(|&t| escape::line(&tests[t].name))
                    .collect();
                outln!(
                    out,
                    "rejected  {name}: by {} ({}{}){}",
                    count(n, "test"),
                    first.join(", "),
                    if n > 3 { ", …" } else { "" },
                    mark(e)
                );
            }
            // A compile error is printed above.
            _ => {}
        }
    }
    let cover = matrix.cover();
    outln!(
        out,
        "smallest rejecting subset (greedy set cover): {} of {}: {}",
        thousands(cover.len() as u64),
        count(tests.len(), "test"),
        cover
            .iter()
            .map(|&t| escape::line(&tests[t].name))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if matches!(survivor_hints, Survivors::Stress { .. }) {
        // A package's data: which of its tests no wrong submission needs (a built-in
        // problem's test set says it in its report's matrix).
        let idle = matrix.rejecting_none();
        outln!(
            out,
            "{}",
            escape::line(&format!(
                "tests that reject no wrong submission: {} of {}{}",
                thousands(idle.len() as u64),
                count(tests.len(), "test"),
                if idle.is_empty() {
                    String::new()
                } else {
                    format!(
                        ": {}",
                        idle.iter()
                            .map(|&t| tests[t].name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                }
            ))
        );
    }
    let interrupted = !matrix.not_judged.is_empty() || cancel.is_cancelled();
    let mut hints_of = BTreeMap::new();
    for e in survivors {
        if interrupted {
            // No time to look for the families that would catch it.
            continue;
        }
        let entrant = &matrix.entrants[e];
        let (entry, builder, session) = match survivor_hints {
            Survivors::Families {
                problem,
                builder,
                session,
            } => (*problem, *builder, *session),
            Survivors::Stress { package } => {
                // A package has no families: a generator and the stress search stand in.
                outln!(
                    out,
                    "  {}: `judge stress {} --seed 1 -- {}` searches for an input that rejects it",
                    escape::line(&entrant.name),
                    escape::line(&package.display().to_string()),
                    escape::line(&entrant.path.display().to_string())
                );
                continue;
            }
        };
        let hints = family_hints(entry, entrant, builder, session)?;
        hints_of.insert(e, hints.clone());
        let catching: Vec<String> = hints
            .iter()
            .filter(|h| h.failed > 0)
            .map(|h| format!("{} ({}/{})", h.family, h.failed, h.tried))
            .collect();
        if catching.is_empty() {
            outln!(
                out,
                "  {}: no generator family caught it in 30 cases each; add a corpus case or a family",
                escape::line(&entrant.name)
            );
        } else {
            outln!(
                out,
                "  {}: would be caught by family {}: add tests from it (judge gen --family …)",
                escape::line(&entrant.name),
                catching.join(", ")
            );
        }
    }
    if let Some(path) = &args.report {
        let report = StrengthReport {
            problem: problem.to_string(),
            tests_dir: tests_dir.display().to_string(),
            tests: tests.iter().map(|t| t.name.clone()).collect(),
            submissions: matrix
                .entrants
                .iter()
                .enumerate()
                .map(|(e, entrant)| Submission {
                    name: entrant.name.clone(),
                    kind: entrant.expect.label(),
                    verdicts: matrix.verdicts[e].clone(),
                    sanitizer_tests: matrix.sanitized[e].iter().map(|(t, _)| *t).collect(),
                    sanitizer: matrix.sanitizer_mark(e),
                    families: hints_of
                        .get(&e)
                        .into_iter()
                        .flatten()
                        .map(|h| FamilyHint {
                            family: h.family.clone(),
                            failed: h.failed,
                            tried: h.tried,
                        })
                        .collect(),
                })
                .collect(),
            cover: cover.clone(),
            not_judged: matrix.not_judged.iter().map(|e| e.name.clone()).collect(),
        };
        report::write_strength(path, &report)?;
        outln!(
            out,
            "report written to {}{}",
            path.display(),
            if interrupted {
                " (what was judged before the interruption)"
            } else {
                ""
            }
        );
    }
    if interrupted {
        let names: Vec<String> = matrix
            .not_judged
            .iter()
            .map(|e| escape::line(&e.name))
            .collect();
        return Err(JudgeError::Interrupted(format!(
            "{} of {} judged on every test; not judged: {}",
            thousands(matrix.entrants.len() as u64),
            count(matrix.entrants.len() + names.len(), "submission"),
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    Ok(if failed {
        Outcome::Finding
    } else {
        Outcome::Success
    })
}
