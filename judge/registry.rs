//! The problems the judge knows, looked up by id. The engine talks to a problem only through
//! [`ProblemEntry`], so it knows nothing of any one board; adding a problem is one line in
//! [`PROBLEMS`].

use std::marker::PhantomData;

use solutions::{Attack25, GomokuChecker, Omok, OthelloFlips, ParseError, Problem, Renju};

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
}

struct Entry<P>(PhantomData<fn() -> P>);

impl<P: Problem> ProblemEntry for Entry<P> {
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
}

/// Every problem, in the order `judge problems` lists them.
pub static PROBLEMS: &[&dyn ProblemEntry] = &[
    &Entry::<GomokuChecker>(PhantomData),
    &Entry::<Omok>(PhantomData),
    &Entry::<OthelloFlips>(PhantomData),
    &Entry::<Attack25>(PhantomData),
    &Entry::<Renju>(PhantomData),
];

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
