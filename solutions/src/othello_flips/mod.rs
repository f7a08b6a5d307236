//! othello-flips: which white discs does black's disc on `P` flip? Spec:
//! `shared/problems/othello-flips.md`.

mod fast;
mod reference;

/// The fast solver's kernels, each on its own (the bench times each; the dispatch of
/// `OthelloFlips::fast` picks the first). Not part of the problem's interface.
#[doc(hidden)]
pub use fast::{Kernel as FastKernel, kernels as fast_kernels};

mod decoy;
mod wrong;

use crate::error::{AnswerError, ParseError};
use crate::grid_text::{read_char_grid, write_char_grid};
use crate::picture::{Ink, Key, Picture, Style};
use crate::problem::{Problem, Tokens};
use crate::scan::Scanner;

pub const SIZE: usize = 8;

/// A position: bit `8 * row + col` (0-based) of `black`/`white` is a disc; `play` is the index
/// of the empty square where black plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    pub black: u64,
    pub white: u64,
    pub play: u8,
}

/// What a disc at a square is, for the reference solver's square-by-square walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    Black,
    White,
    Empty,
}

impl Input {
    /// The square at signed coordinates, `None` off the board.
    pub fn square(&self, r: i32, c: i32) -> Option<Square> {
        if !(0..8).contains(&r) || !(0..8).contains(&c) {
            return None;
        }
        let bit = 1u64 << (r * 8 + c);
        Some(if self.black & bit != 0 {
            Square::Black
        } else if self.white & bit != 0 {
            Square::White
        } else {
            Square::Empty
        })
    }
}

/// The flipped discs, bit `8 * row + col`; bit order is row-major order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Answer(pub u64);

pub struct OthelloFlips;

impl Problem for OthelloFlips {
    const ID: &'static str = "othello-flips";
    const SUMMARY: &'static str = "which discs black's move on an 8x8 othello board flips";
    const CORPUS: &'static str = include_str!("../../../tests/data/othello-flips/corpus.toml");
    type Input = Input;
    type Answer = Answer;

    fn parse(text: &[u8]) -> Result<Input, ParseError> {
        let mut sc = Scanner::new(text);
        let cells = read_char_grid(&mut sc, SIZE, SIZE, b"BWNP", "'B', 'W', 'N' or 'P'")?;
        sc.end("end of input after 8 rows")?;
        let (mut black, mut white, mut play) = (0u64, 0u64, None);
        for (i, &ch) in cells.iter().enumerate() {
            match ch {
                b'B' => black |= 1 << i,
                b'W' => white |= 1 << i,
                b'P' => match play {
                    None => play = Some(i as u8),
                    Some(first) => {
                        return Err(ParseError::at(
                            i as u32 / 8 + 1,
                            i as u32 % 8 + 1,
                            format!(
                                "expected exactly one 'P', found a second one (the first is at row {} column {})",
                                first / 8 + 1,
                                first % 8 + 1
                            ),
                        ));
                    }
                },
                _ => {}
            }
        }
        let play = play.ok_or_else(|| {
            ParseError::at(9, 1, "expected exactly one 'P' on the board, found none")
        })?;
        Ok(Input { black, white, play })
    }

    fn valid(input: &Input) -> bool {
        input.play < 64
            && input.black & input.white == 0
            && (input.black | input.white) >> input.play & 1 == 0
    }

    fn write_input(input: &Input) -> String {
        write_char_grid(SIZE, SIZE, |r, c| {
            let i = r * 8 + c;
            if i == input.play as usize {
                b'P'
            } else if input.black >> i & 1 == 1 {
                b'B'
            } else if input.white >> i & 1 == 1 {
                b'W'
            } else {
                b'N'
            }
        })
    }

    fn write_answer(answer: &Answer) -> String {
        let mut out = format!("{}\n", answer.0.count_ones());
        for i in 0..64 {
            if answer.0 >> i & 1 == 1 {
                out.push_str(&format!("{} {}\n", i / 8 + 1, i % 8 + 1));
            }
        }
        out
    }

    fn read_answer(text: &str) -> Result<Answer, AnswerError> {
        let mut tokens = Tokens::new(text);
        let count = tokens.number(0, 64, "the number of flipped discs")?;
        let mut mask = 0u64;
        let mut previous: Option<u32> = None;
        for k in 1..=count {
            let row = tokens.number(1, 8, &format!("the row of flipped disc {k}"))?;
            let col = tokens.number(1, 8, &format!("the column of flipped disc {k}"))?;
            let index = (row - 1) * 8 + (col - 1);
            if previous.is_some_and(|p| p >= index) {
                return Err(AnswerError(format!(
                    "flipped disc {k} ({row} {col}) is not after the one before it in row-major order"
                )));
            }
            previous = Some(index);
            mask |= 1 << index;
        }
        tokens.end()?;
        Ok(Answer(mask))
    }

    fn picture(input: &Input) -> Picture {
        Picture::new(SIZE, SIZE, |r, c| match input.square(r as i32, c as i32) {
            Some(Square::Black) => Ink::Black,
            Some(Square::White) => Ink::White,
            _ => Ink::Empty,
        })
        .with_style(Style::Othello)
        .with_legend(vec![
            Key {
                ink: Ink::Black,
                glyph: 'B',
                meaning: "black disc",
            },
            Key {
                ink: Ink::White,
                glyph: 'W',
                meaning: "white disc",
            },
            Key {
                ink: Ink::Empty,
                glyph: '.',
                meaning: "empty (N in the input)",
            },
        ])
        .with_point(
            (usize::from(input.play / 8), usize::from(input.play % 8)),
            Key {
                ink: Ink::Empty,
                glyph: 'P',
                meaning: "black plays here",
            },
        )
    }

    const MARKED: &'static str = "flipped";

    fn marks(answer: &Answer) -> Vec<(usize, usize)> {
        (0..64)
            .filter(|i| answer.0 >> i & 1 == 1)
            .map(|i| (i / 8, i % 8))
            .collect()
    }

    fn reference(input: &Input) -> Answer {
        reference::solve(input)
    }

    fn reference_with<A: crate::access::BoardAccess>(input: &Input) -> Answer {
        reference::solve_with::<A>(input)
    }

    /// `#[inline]`: callers in other crates inline the dispatch, one load and one call (or the
    /// kernel itself when their target has its features; see `fast::solve`).
    #[inline]
    fn fast(input: &Input) -> Answer {
        fast::solve(input)
    }

    fn known_wrong() -> Vec<crate::problem::Solver<Self>> {
        let mut solvers = wrong::solvers();
        solvers.extend(decoy::solvers());
        solvers
    }

    const EQUIVALENT_MODELS: &'static [crate::access::Equivalent] = wrong::EQUIVALENT_MODELS;
}
