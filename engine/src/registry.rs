//! The problems the judge knows, looked up by id. The engine talks to a problem only through
//! [`ProblemEntry`], so it knows nothing of any one board; adding a problem is one line in
//! [`PROBLEMS`].

use std::marker::PhantomData;
use std::path::Path;

use problems::Generate;
use problems::ParseError;

use crate::bench::{Measurement, bench};
use crate::error::JudgeError;
use crate::progress::Progress;
use crate::stress::{Budget, Summary, in_process, report};
use crate::testgen::{Layout, gen_files, testset};

/// Which trusted in-process solver to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
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
    fn check(&self, expected: &str, got: &[u8]) -> Result<(), String>;
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
    /// `judge bench`.
    fn bench(&self, cases: u64, seed: u64) -> Vec<Measurement>;
    /// `judge stress` without a command: the fast solver against the reference, in process.
    fn stress_in_process(&self, budget: Budget, jobs: usize, progress: &Progress) -> Summary;
    /// A finding as text, with the board drawn; `replay` is the command that reproduces it.
    fn render_finding(&self, finding: &crate::stress::Finding, replay: &str) -> String;
    /// Saves a finding's files to `dir`.
    fn save_finding(&self, finding: &crate::stress::Finding, dir: &Path) -> Result<(), JudgeError>;
    /// Names and targets of the valid families.
    fn families(&self) -> Vec<(&'static str, &'static str)>;
    /// The names of the correct in-process solvers and of the known-wrong ones.
    fn solver_names(&self) -> (Vec<&'static str>, Vec<&'static str>);
    /// The answer text of the named solver (correct or wrong); `None` if there is no such one.
    fn solve_named(&self, text: &[u8], name: &str) -> Option<Result<String, ParseError>>;
    /// Test `index` of family `family` under `seed`: (input text, answer text).
    fn family_case(&self, family: &str, index: u64, seed: u64) -> Option<(String, String)>;
    /// `judge stress` with a submission command, in the given sandbox.
    fn stress_external(
        &self,
        sandbox: &sandbox::Sandbox,
        budget: Budget,
        against: SolverKind,
        limits: &sandbox::Limits,
        progress: &Progress,
    ) -> Result<Summary, JudgeError>;
}

/// The stress cases of problem `P`, answers from the trusted solver: first the strongest
/// known cases (the default test set's set cover, then one boundary case per obligation: see
/// [`crate::testgen::strongest_cases`]), then the mixed family stream.
struct Cases<P: Generate> {
    families: Vec<problems::Family<P>>,
    strongest: Vec<(P::Input, &'static str, String)>,
    seed: u64,
    trusted: fn(&P::Input) -> P::Answer,
}

impl<P: Generate> crate::stress::external::CaseSource for Cases<P> {
    fn case(&self, index: u64) -> crate::stress::external::Case {
        if let Some((input, family, params)) = self.strongest.get(index as usize) {
            return crate::stress::external::Case {
                input: P::write_input(input),
                answer: P::write_answer(&(self.trusted)(input)),
                family,
                params: params.clone(),
            };
        }
        let index = index - self.strongest.len() as u64;
        let (input, family, params) = problems::mixed_case(&self.families, index, self.seed);
        crate::stress::external::Case {
            input: P::write_input(&input),
            answer: P::write_answer(&(self.trusted)(&input)),
            family,
            params,
        }
    }

    fn shrink_candidates(&self, input: &str) -> Vec<(String, String)> {
        let Ok(input) = P::parse(input.as_bytes()) else {
            return Vec::new();
        };
        P::shrink(&input)
            .into_iter()
            .filter(|c| P::parse(P::write_input(c).as_bytes()).is_ok_and(|parsed| &parsed == c))
            .map(|c| (P::write_input(&c), P::write_answer(&(self.trusted)(&c))))
            .collect()
    }
}

struct Entry<P>(PhantomData<fn() -> P>);

impl<P: problems::boundary::Boundary> ProblemEntry for Entry<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn summary(&self) -> &'static str {
        P::SUMMARY
    }

    fn validate(&self, text: &[u8]) -> Result<(), ParseError> {
        P::parse(text).map(|_| ())
    }

    fn solve(&self, text: &[u8], solver: SolverKind) -> Result<String, ParseError> {
        let input = P::parse(text)?;
        let answer = match solver {
            SolverKind::Reference => P::reference(&input),
            SolverKind::Fast => P::fast(&input),
        };
        Ok(P::write_answer(&answer))
    }

    fn check(&self, expected: &str, got: &[u8]) -> Result<(), String> {
        crate::checker::check::<P>(expected, got)
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

    fn stress_in_process(&self, budget: Budget, jobs: usize, progress: &Progress) -> Summary {
        in_process::run::<P>(budget, jobs, P::reference, P::fast, progress)
    }

    fn render_finding(&self, finding: &crate::stress::Finding, replay: &str) -> String {
        report::render::<P>(finding, replay)
    }

    fn save_finding(&self, finding: &crate::stress::Finding, dir: &Path) -> Result<(), JudgeError> {
        report::save::<P>(finding, dir)
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

    fn solve_named(&self, text: &[u8], name: &str) -> Option<Result<String, ParseError>> {
        let solver = P::solvers()
            .into_iter()
            .chain(P::wrong_solvers())
            .find(|s| s.name == name)?;
        Some(P::parse(text).map(|input| P::write_answer(&(solver.solve)(&input))))
    }

    fn family_case(&self, family: &str, index: u64, seed: u64) -> Option<(String, String)> {
        let family = P::families().into_iter().find(|f| f.name == family)?;
        let (input, _) = problems::generate(&family, index, seed);
        Some((
            P::write_input(&input),
            P::write_answer(&P::reference(&input)),
        ))
    }

    fn stress_external(
        &self,
        sandbox: &sandbox::Sandbox,
        budget: Budget,
        against: SolverKind,
        limits: &sandbox::Limits,
        progress: &Progress,
    ) -> Result<Summary, JudgeError> {
        let trusted = match against {
            SolverKind::Reference => P::reference,
            SolverKind::Fast => P::fast,
        };
        let cases = Cases::<P> {
            families: P::families(),
            strongest: crate::testgen::strongest_cases::<P>(budget.seed),
            seed: budget.seed,
            trusted,
        };
        crate::stress::external::run(self, &cases, sandbox, budget, limits, progress)
    }
}

macro_rules! entries {
    ($($module:ident: $problem:ty),*) => {
        &[$(&Entry::<$problem>(PhantomData)),*]
    };
}

/// Every problem of the list (`problems::for_each_problem!`), in its order.
pub static PROBLEMS: &[&dyn ProblemEntry] = problems::for_each_problem!(entries);

pub fn find(id: &str) -> Option<&'static dyn ProblemEntry> {
    PROBLEMS.iter().copied().find(|p| p.id() == id)
}

/// Parses a PROBLEM argument for clap, listing the known ids when it is none of them.
pub fn parse_problem(id: &str) -> Result<&'static dyn ProblemEntry, String> {
    find(id).ok_or_else(|| {
        let known: Vec<&str> = PROBLEMS.iter().map(|p| p.id()).collect();
        format!(
            "unknown problem '{id}'; known problems: {}",
            known.join(", ")
        )
    })
}

impl std::fmt::Debug for dyn ProblemEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
