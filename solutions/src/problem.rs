//! The shape every problem has: one trait, implemented by a unit type per problem.

use std::fmt::Debug;
use std::hash::Hash;

use crate::error::{AnswerError, ParseError};

/// A problem: its canonical input (parsed strictly, which is also its validator), its answer,
/// both text formats, and its solvers.
pub trait Problem: Sized + Send + Sync + 'static {
    /// The id used on the command line, e.g. `othello-flips`.
    const ID: &'static str;
    /// One line saying what the problem asks.
    const SUMMARY: &'static str;
    /// The problem's case corpus, `tests/data/<id>/corpus.toml` (read by `generators::corpus`).
    const CORPUS: &'static str;

    type Input: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    type Answer: Clone + Eq + Debug + Send + Sync + 'static;

    /// The validator: accepts exactly the canonical form and every constraint of the spec,
    /// and says where the first deviation is.
    fn parse(text: &[u8]) -> Result<Self::Input, ParseError>;

    /// Does a typed input meet the spec's constraints (the semantic half of [`Problem::parse`],
    /// sharing its rule code)? Every input `parse` returns is valid; generators use this to
    /// check what they build without a round trip through text.
    fn valid(input: &Self::Input) -> bool;

    /// The canonical text of an input; `parse(write_input(x)) == Ok(x)` for every valid `x`.
    fn write_input(input: &Self::Input) -> String;

    /// The answer exactly as the spec prints it.
    fn write_answer(answer: &Self::Answer) -> String;

    /// Reads a program's output leniently (any whitespace between tokens) for the checker.
    fn read_answer(text: &str) -> Result<Self::Answer, AnswerError>;

    /// The solver written to be obviously correct from the spec.
    fn reference(input: &Self::Input) -> Self::Answer;

    /// The reference with every cell read through the board-access model `A` (see
    /// [`crate::access`]): the reference itself with [`crate::access::Exact`], a known-wrong
    /// solution with any other model.
    fn reference_with<A: crate::access::BoardAccess>(input: &Self::Input) -> Self::Answer;

    /// The solver written to be fast; it must agree with [`Problem::reference`] everywhere.
    fn fast(input: &Self::Input) -> Self::Answer;

    /// The input as a picture (see [`crate::picture`]).
    fn picture(input: &Self::Input) -> crate::picture::Picture;

    /// The cells an answer names (flipped discs, the start of a five, takeable panels …), as
    /// (row, column) of the picture; empty for answers that name no cell.
    fn marks(answer: &Self::Answer) -> Vec<(usize, usize)>;

    /// What the cells of [`Problem::marks`] are, for a picture's legend (`flipped`).
    const MARKED: &'static str = "named by the answer";

    /// The cells an answer names, in named layers for pictures: one layer of
    /// [`Problem::marks`] unless a problem groups them (attack25: one per colour).
    fn layers(answer: &Self::Answer) -> Vec<crate::picture::Layer> {
        vec![crate::picture::Layer {
            name: Self::MARKED.to_string(),
            cells: Self::marks(answer),
        }]
    }

    /// Every in-process solver of the problem that must be correct, by name.
    fn solvers() -> Vec<Solver<Self>> {
        vec![
            Solver {
                name: "reference",
                bug: "",
                solve: Self::reference,
            },
            Solver {
                name: "fast",
                bug: "",
                solve: Self::fast,
            },
        ]
    }

    /// The hand-written known-wrong solutions (`wrong.rs`, see [`crate::known_wrong!`]).
    fn known_wrong() -> Vec<Solver<Self>>;

    /// Board-access models (see [`crate::access`]) that can never differ from the reference
    /// on a valid input of this problem, each with the argument; they are not wrong solvers.
    const EQUIVALENT_MODELS: &'static [crate::access::Equivalent] = &[];

    /// Known-wrong solutions, each a realistic contestant bug named after it: every hidden
    /// test set must reject all of them (see `judge strength`). The hand-written ones, then
    /// the reference read through every board-access model but the equivalent ones.
    fn wrong_solvers() -> Vec<Solver<Self>> {
        let mut solvers = Self::known_wrong();
        solvers.extend(
            model_solvers::<Self>()
                .into_iter()
                .filter(|s| !Self::EQUIVALENT_MODELS.iter().any(|e| e.model == s.name)),
        );
        solvers
    }
}

/// A named in-process solver of problem `P`.
pub struct Solver<P: Problem> {
    pub name: &'static str,
    /// What a known-wrong solver gets wrong, in a sentence; empty for a correct one.
    pub bug: &'static str,
    pub solve: fn(&P::Input) -> P::Answer,
}

/// The reference of `P` read through every model, equivalent ones included, in
/// [`crate::for_each_model`] order: each a solver named after its model and described by it.
/// ([`Problem::wrong_solvers`] leaves out the problem's equivalent ones.)
pub fn model_solvers<P: Problem>() -> Vec<Solver<P>> {
    let mut out = Vec::new();
    macro_rules! push {
        ($t:ty) => {
            out.push(Solver {
                name: <$t as crate::access::BoardAccess>::NAME,
                bug: <$t as crate::access::BoardAccess>::DOES,
                solve: P::reference_with::<$t>,
            });
        };
    }
    crate::for_each_model!(push);
    out
}

/// The hand-written known-wrong solvers of a problem, from one table: each is the problem's
/// `solve_with(input, Bugs)` with one flag set, named, and described by the flag's doc
/// comment (the description is data: `Solver::bug`, which exports and reports show).
///
/// ```ignore
/// crate::known_wrong! {
///     Omok, solve_with;
///     /// Five or more wins: six counts as five.
///     "six-counts-as-five" => six_counts,
/// }
/// ```
/// declares `struct Bugs { six_counts: bool }` and `pub fn solvers() -> Vec<Solver<Omok>>`.
#[macro_export]
macro_rules! known_wrong {
    ($problem:ty, $solve:ident; $($(#[doc = $doc:literal])+ $name:literal => $flag:ident,)+) => {
        /// One flag per known-wrong solution: the bug it plants in the correct scan.
        #[derive(Clone, Copy, Default)]
        struct Bugs {
            $($(#[doc = $doc])+ $flag: bool,)+
        }

        pub fn solvers() -> Vec<$crate::problem::Solver<$problem>> {
            vec![$($crate::problem::Solver {
                name: $name,
                bug: concat!($($doc),+).trim_ascii(),
                solve: |input| $solve(input, Bugs { $flag: true, ..Bugs::default() }),
            }),+]
        }
    };
}

impl<P: Problem> Clone for Solver<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: Problem> Copy for Solver<P> {}

/// Whitespace-separated tokens of a program's output, for the lenient answer readers.
pub struct Tokens<'a> {
    iter: std::str::SplitAsciiWhitespace<'a>,
    seen: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Tokens<'a> {
        Tokens {
            iter: text.split_ascii_whitespace(),
            seen: 0,
        }
    }

    pub fn next(&mut self, what: &str) -> Result<&'a str, AnswerError> {
        self.seen += 1;
        self.iter.next().ok_or_else(|| {
            AnswerError(format!(
                "expected {what} as token {}, found end of output",
                self.seen
            ))
        })
    }

    /// The next token as a number in `min..=max` (leading zeros and signs are not numbers).
    pub fn number(&mut self, min: u32, max: u32, what: &str) -> Result<u32, AnswerError> {
        let token = self.next(what)?;
        let canonical = !token.is_empty()
            && token.bytes().all(|b| b.is_ascii_digit())
            && (token.len() == 1 || !token.starts_with('0'));
        match token.parse::<u32>() {
            Ok(n) if canonical && (min..=max).contains(&n) => Ok(n),
            _ => Err(AnswerError(format!(
                "expected {what} (a number from {min} to {max}) as token {}, found '{}'",
                self.seen,
                shorten(token)
            ))),
        }
    }

    pub fn end(&mut self) -> Result<(), AnswerError> {
        match self.iter.next() {
            None => Ok(()),
            Some(t) => Err(AnswerError(format!(
                "expected end of output after token {}, found '{}'",
                self.seen,
                shorten(t)
            ))),
        }
    }
}

/// A token cut to a length fit for a one-line message.
pub fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    if token.chars().count() <= MAX {
        token.to_string()
    } else {
        format!("{}…", token.chars().take(MAX).collect::<String>())
    }
}
