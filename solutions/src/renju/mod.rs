//! renju: classify black's move on a 15×15 board under the RIF definitions (five, overline,
//! double four, double three, four-three, four, three, none). Spec: `shared/problems/renju.md`.

mod fast;
mod reference;

mod decoy;
mod wrong;

use crate::board::{Board, LINES, Stone};
use crate::error::{AnswerError, ParseError};
use crate::grid_text::write_char_grid;
use crate::picture::{Ink, Key, Picture};
use crate::problem::{Problem, Tokens, shorten};
use crate::scan::Scanner;

pub use reference::classify as reference_classify;

pub const SIZE: usize = 15;

/// A position and the empty point (0-based row, column) where black is about to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Input {
    pub board: Board<SIZE>,
    pub row: u8,
    pub col: u8,
}

/// The classification, in the spec's order of precedence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Answer {
    Five,
    Overline,
    DoubleFour,
    DoubleThree,
    FourThree,
    Four,
    Three,
    None,
}

impl Answer {
    pub const ALL: [Answer; 8] = [
        Answer::Five,
        Answer::Overline,
        Answer::DoubleFour,
        Answer::DoubleThree,
        Answer::FourThree,
        Answer::Four,
        Answer::Three,
        Answer::None,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Answer::Five => "FIVE",
            Answer::Overline => "OVERLINE",
            Answer::DoubleFour => "DOUBLE-FOUR",
            Answer::DoubleThree => "DOUBLE-THREE",
            Answer::FourThree => "FOUR-THREE",
            Answer::Four => "FOUR",
            Answer::Three => "THREE",
            Answer::None => "NONE",
        }
    }

    /// Overline, double four and double three are forbidden to black.
    pub fn is_forbidden(self) -> bool {
        matches!(
            self,
            Answer::Overline | Answer::DoubleFour | Answer::DoubleThree
        )
    }
}

pub struct Renju;

impl Problem for Renju {
    const ID: &'static str = "renju";
    const SUMMARY: &'static str =
        "classify black's renju move: five, forbidden shapes, four-three, four, three or none";
    const CORPUS: &'static str = include_str!("../../../tests/data/renju/corpus.toml");
    type Input = Input;
    type Answer = Answer;

    fn parse(text: &[u8]) -> Result<Input, ParseError> {
        let mut sc = Scanner::new(text);
        let board =
            crate::grid_text::read_stone_board::<SIZE>(&mut sc, *b"XO.", "'X', 'O' or '.'")?;
        if sc.peek().is_none() {
            return Err(sc.expected("a line 'ROW COL' naming the point to play"));
        }
        let at = (sc.line(), sc.col());
        let row = sc.number(1, SIZE as u32, "the row")? as u8 - 1;
        sc.byte(b' ', "a single space between row and column")?;
        let col = sc.number(1, SIZE as u32, "the column")? as u8 - 1;
        sc.newline()?;
        sc.end("end of input after the line 'ROW COL'")?;
        if let Some(stone) = board.get(row.into(), col.into()) {
            let what = if stone == Stone::Black {
                "black ('X')"
            } else {
                "white ('O')"
            };
            return Err(ParseError::at(
                at.0,
                at.1,
                format!(
                    "the point row {} column {} is occupied by {what}; black must play an empty point",
                    row + 1,
                    col + 1
                ),
            ));
        }
        // The bitboard check is the quick filter; the cell-by-cell scan words the error.
        if let Some((r, c, stone, len)) = has_long_run(&board)
            .then(|| first_long_run(&board))
            .flatten()
        {
            let what = if stone == Stone::Black {
                "black ('X')"
            } else {
                "white ('O')"
            };
            return Err(ParseError::at(
                r as u32 + 1,
                c as u32 + 1,
                format!(
                    "{what} already has {len} in a row starting here; no five or more may be on the board"
                ),
            ));
        }
        Ok(Input { board, row, col })
    }

    fn valid(input: &Input) -> bool {
        usize::from(input.row) < SIZE
            && usize::from(input.col) < SIZE
            && input
                .board
                .get(input.row.into(), input.col.into())
                .is_none()
            && !has_long_run(&input.board)
    }

    fn write_input(input: &Input) -> String {
        let mut out = write_char_grid(SIZE, SIZE, |r, c| match input.board.get(r, c) {
            Some(Stone::Black) => b'X',
            Some(Stone::White) => b'O',
            None => b'.',
        });
        out.push_str(&format!("{} {}\n", input.row + 1, input.col + 1));
        out
    }

    fn write_answer(answer: &Answer) -> String {
        format!("{}\n", answer.name())
    }

    fn read_answer(text: &str) -> Result<Answer, AnswerError> {
        let mut tokens = Tokens::new(text);
        let token = tokens.next("a classification")?;
        let answer = Answer::ALL.iter().copied().find(|a| a.name() == token).ok_or_else(|| {
            AnswerError(format!("expected one of FIVE, OVERLINE, DOUBLE-FOUR, DOUBLE-THREE, FOUR-THREE, FOUR, THREE, NONE; found '{}'", shorten(token)))
        })?;
        tokens.end()?;
        Ok(answer)
    }

    fn picture(input: &Input) -> Picture {
        Picture::new(SIZE, SIZE, |r, c| match input.board.get(r, c) {
            Some(Stone::Black) => Ink::Black,
            Some(Stone::White) => Ink::White,
            None => Ink::Empty,
        })
        .with_legend(vec![
            Key {
                ink: Ink::Black,
                glyph: 'X',
                meaning: "black stone",
            },
            Key {
                ink: Ink::White,
                glyph: 'O',
                meaning: "white stone",
            },
            Key {
                ink: Ink::Empty,
                glyph: '.',
                meaning: "empty",
            },
        ])
        .with_point(
            (input.row.into(), input.col.into()),
            Key {
                ink: Ink::Empty,
                glyph: '*',
                meaning: "black plays here (the input's ROW COL)",
            },
        )
    }

    fn marks(_: &Answer) -> Vec<(usize, usize)> {
        Vec::new()
    }

    fn reference(input: &Input) -> Answer {
        reference::solve(input)
    }

    fn reference_with<A: crate::access::BoardAccess>(input: &Input) -> Answer {
        reference::solve_with::<A>(input)
    }

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

/// Does either colour have five or more in a row anywhere? (Row bitboards; see
/// [`first_long_run`] for where.)
pub fn has_long_run(board: &Board<SIZE>) -> bool {
    crate::runs::any_five(&board.black) || crate::runs::any_five(&board.white)
}

/// The first (row-major) start of a run of five or more of either colour: (row, col, stone,
/// length), 0-based.
pub fn first_long_run(board: &Board<SIZE>) -> Option<(usize, usize, Stone, usize)> {
    for r in 0..SIZE as i32 {
        for c in 0..SIZE as i32 {
            let Some(stone) = board.at(r, c) else {
                continue;
            };
            for (dr, dc) in LINES {
                if board.at(r - dr, c - dc) == Some(stone) {
                    continue;
                }
                let len = (0..)
                    .take_while(|&k| board.at(r + k * dr, c + k * dc) == Some(stone))
                    .count();
                if len >= 5 {
                    return Some((r as usize, c as usize, stone, len));
                }
            }
        }
    }
    None
}
