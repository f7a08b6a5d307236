//! The problems the judge knows, looked up by id. The judge talks to a problem only through
//! [`ProblemEntry`], so it knows nothing of any one board; [`PROBLEMS`] is made from the one
//! list of problems, `solutions::for_each_problem!`.

use std::marker::PhantomData;
use std::path::Path;

use generators::Generate;
use solutions::{AnswerError, ParseError};

use crate::checker::Rejection;
use solutions::picture::Comparison;

use crate::bench::{Measurement, bench};
use crate::error::JudgeError;
use crate::session::Session;
use crate::stress::candidate::{InProcess, Submission};
use crate::stress::{Budget, Summary, driver};
use crate::testgen::{Layout, gen_files, testset};
use sandbox::Sandbox;

/// Which trusted in-process solver to use (the command line's `reference` and `fast`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolverKind {
    Reference,
    Fast,
}

/// A problem with its types erased: everything works on text.
pub trait ProblemEntry: Sync {
    fn id(&self) -> &'static str;
    fn summary(&self) -> &'static str;
    /// Ok if `text` is a valid input.
    fn validate(&self, text: &[u8]) -> Result<(), ParseError>;
    /// The answer text, from the chosen solver.
    fn solve(&self, text: &[u8], solver: SolverKind) -> Result<String, ParseError>;
    /// The checker: does a program's output `got` give the same answer as `expected` (the
    /// answer file)? Tokens may be separated by any whitespace. `Err` says why not.
    fn check(&self, expected: &str, got: &[u8]) -> Result<(), Rejection>;
    /// Whether an answer file reads as an answer (else the test is broken: a jury error).
    fn answer_file_reads(&self, expected: &str) -> Result<(), AnswerError>;
    /// The picture of `input` with the cells `expected` and `got` (a program's output) name,
    /// for drawing; `None` if the input or the expected answer does not read.
    fn comparison(&self, input: &str, expected: &str, got: &str) -> Option<Comparison>;
    /// `judge gen`.
    fn generate(
        &self,
        seed: u64,
        count: u64,
        out: &Path,
        invalid: bool,
        family: Option<&str>,
    ) -> Result<u64, JudgeError>;
    /// `judge testset`; returns the number of tests written.
    fn testset(&self, seed: u64, out: &Path, layout: Layout) -> Result<usize, JudgeError>;
    /// The tests `judge testset` writes, named and in order (for `judge package`).
    fn testset_cases(&self, seed: u64) -> Result<Vec<crate::testgen::TestCase>, JudgeError>;
    /// Inputs the validator must reject, as (name, bytes): the corpus's hand-made ones, then
    /// `per_family` from every invalid family.
    fn invalid_inputs(&self, seed: u64, per_family: u64) -> Vec<(String, Vec<u8>)>;
    /// The problem's Rust type, e.g. `solutions::omok::Omok` (for exported programs).
    fn type_path(&self) -> &'static str;
    /// `judge bench`.
    fn bench(&self, cases: u64, seed: u64) -> Vec<Measurement>;
    /// `judge stress`: `submission` (run in its sandbox under the session's limits), or
    /// without one the fast solver in process, against the `against` solver, on the
    /// session's jobs.
    fn stress(
        &self,
        budget: Budget,
        against: SolverKind,
        submission: Option<&Sandbox>,
        session: &Session,
    ) -> Result<Summary, JudgeError>;
    /// Names and targets of the valid families.
    fn families(&self) -> Vec<(&'static str, &'static str)>;
    /// The names of the correct in-process solvers and of the known-wrong ones.
    fn solver_names(&self) -> (Vec<&'static str>, Vec<&'static str>);
    /// What the named known-wrong solver gets wrong, in a sentence; `None` if there is no
    /// such one.
    fn bug(&self, name: &str) -> Option<&'static str>;
    /// The answer text of the named solver (correct or wrong); `None` if there is no such one.
    fn solve_named(&self, text: &[u8], name: &str) -> Option<Result<String, ParseError>>;
    /// Test `index` of family `family` under `seed`: (input text, answer text).
    fn family_case(&self, family: &str, index: u64, seed: u64) -> Option<(String, String)>;
}

struct Entry<P>(PhantomData<fn() -> P>);

fn solver<P: Generate>(kind: SolverKind) -> fn(&P::Input) -> P::Answer {
    match kind {
        SolverKind::Reference => P::reference,
        SolverKind::Fast => P::fast,
    }
}

impl<P: generators::boundary::Boundary> ProblemEntry for Entry<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn summary(&self) -> &'static str {
        P::SUMMARY
    }

    fn validate(&self, text: &[u8]) -> Result<(), ParseError> {
        P::parse(text).map(|_| ())
    }

    fn solve(&self, text: &[u8], kind: SolverKind) -> Result<String, ParseError> {
        let input = P::parse(text)?;
        Ok(P::write_answer(&solver::<P>(kind)(&input)))
    }

    fn check(&self, expected: &str, got: &[u8]) -> Result<(), Rejection> {
        crate::checker::check::<P>(expected, got)
    }

    fn answer_file_reads(&self, expected: &str) -> Result<(), AnswerError> {
        crate::checker::answer_file_reads::<P>(expected)
    }

    fn comparison(&self, input: &str, expected: &str, got: &str) -> Option<Comparison> {
        let input = P::parse(input.as_bytes()).ok()?;
        let expected = P::read_answer(expected).ok()?;
        Some(Comparison {
            picture: P::picture(&input),
            expected: P::layers(&expected),
            got: P::read_answer(got).ok().as_ref().map(P::layers),
        })
    }

    fn generate(
        &self,
        seed: u64,
        count: u64,
        out: &Path,
        invalid: bool,
        family: Option<&str>,
    ) -> Result<u64, JudgeError> {
        gen_files::<P>(seed, count, out, invalid, family)
    }

    fn testset(&self, seed: u64, out: &Path, layout: Layout) -> Result<usize, JudgeError> {
        testset::<P>(seed, out, layout)
    }

    fn bench(&self, cases: u64, seed: u64) -> Vec<Measurement> {
        bench::<P>(cases, seed)
    }

    fn testset_cases(&self, seed: u64) -> Result<Vec<crate::testgen::TestCase>, JudgeError> {
        crate::testgen::testset_cases::<P>(seed)
    }

    fn invalid_inputs(&self, seed: u64, per_family: u64) -> Vec<(String, Vec<u8>)> {
        let corpus = generators::corpus::corpus::<P>().invalid.into_iter();
        let handmade = corpus.map(|case| (case.name, case.input.into_bytes()));
        let generated = P::invalid_families().into_iter().flat_map(|family| {
            (0..per_family).map(move |index| {
                let (bytes, _) = generators::generate_invalid::<P>(&family, index, seed);
                (format!("{}-{index}", family.name), bytes)
            })
        });
        handmade.chain(generated).collect()
    }

    fn type_path(&self) -> &'static str {
        std::any::type_name::<P>()
    }

    fn stress(
        &self,
        budget: Budget,
        against: SolverKind,
        submission: Option<&Sandbox>,
        session: &Session,
    ) -> Result<Summary, JudgeError> {
        let trusted = solver::<P>(against);
        match submission {
            None => {
                let fast = InProcess::<P> { solve: P::fast };
                driver::run::<P>(budget, trusted, &fast, &[], session)
            }
            Some(sandbox) => {
                let submission = Submission::<P> {
                    sandbox,
                    limits: &session.limits,
                    cancel: &session.cancel,
                    problem: PhantomData,
                };
                // A submission costs a process per case: the strongest known cases first.
                let strongest = generators::selection::strongest_cases::<P>(budget.seed);
                driver::run::<P>(budget, trusted, &submission, &strongest, session)
            }
        }
    }

    fn families(&self) -> Vec<(&'static str, &'static str)> {
        P::families().iter().map(|f| (f.name, f.targets)).collect()
    }

    fn solver_names(&self) -> (Vec<&'static str>, Vec<&'static str>) {
        (
            P::solvers().iter().map(|s| s.name).collect(),
            P::wrong_solvers().iter().map(|s| s.name).collect(),
        )
    }

    fn bug(&self, name: &str) -> Option<&'static str> {
        P::wrong_solvers()
            .into_iter()
            .find(|s| s.name == name)
            .map(|s| s.bug)
    }

    fn solve_named(&self, text: &[u8], name: &str) -> Option<Result<String, ParseError>> {
        let solver = P::solvers()
            .into_iter()
            .chain(P::wrong_solvers())
            .find(|s| s.name == name)?;
        Some(P::parse(text).map(|input| P::write_answer(&(solver.solve)(&input))))
    }

    fn family_case(&self, family: &str, index: u64, seed: u64) -> Option<(String, String)> {
        let family = P::families().into_iter().find(|f| f.name == family)?;
        let (input, _) = generators::generate(&family, index, seed);
        Some((
            P::write_input(&input),
            P::write_answer(&P::reference(&input)),
        ))
    }
}

macro_rules! entries {
    ([] $($module:ident: $problem:ty,)*) => {
        &[$(&Entry::<$problem>(PhantomData)),*]
    };
}

/// Every problem of the list (`solutions::for_each_problem!`), in its order.
pub static PROBLEMS: &[&dyn ProblemEntry] = solutions::for_each_problem!(entries);

pub fn find(id: &str) -> Option<&'static dyn ProblemEntry> {
    PROBLEMS.iter().copied().find(|p| p.id() == id)
}

/// A PROBLEM argument that names no problem of the list.
#[derive(Debug, thiserror::Error)]
pub enum UnknownProblem {
    #[error("unknown problem '{id}'; known problems: {}", known.join(", "))]
    NotKnown {
        id: String,
        known: Vec<&'static str>,
    },
    /// A problem package folder given to a command that works on the built-in problems only.
    #[error(
        "'{0}' is a problem package folder; this command works on the five built-in problems only \
         (a package works with `judge run PKG`, `judge verify PKG` and `judge validate PKG`)"
    )]
    Package(String),
}

/// Whether a PROBLEM argument names a package folder: it contains `/`, or names an existing
/// folder that is no built-in problem's id (a built-in id never contains `/`; `./omok` is the
/// folder, `omok` the problem).
pub fn names_a_package(arg: &str) -> bool {
    arg.contains('/') || (find(arg).is_none() && Path::new(arg).is_dir())
}

/// Parses a PROBLEM argument (the binary hands it to its argument parser), listing the known ids when it is none of them. A
/// package folder ([`names_a_package`]) is refused with a word on what takes
/// one: the commands that parse PROBLEM with this work on the built-in problems only.
pub fn parse_problem(id: &str) -> Result<&'static dyn ProblemEntry, UnknownProblem> {
    if let Some(problem) = find(id) {
        return Ok(problem);
    }
    if names_a_package(id) {
        return Err(UnknownProblem::Package(id.to_string()));
    }
    Err(UnknownProblem::NotKnown {
        id: id.to_string(),
        known: PROBLEMS.iter().map(|p| p.id()).collect(),
    })
}

impl std::fmt::Debug for dyn ProblemEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
