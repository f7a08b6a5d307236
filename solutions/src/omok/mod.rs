//! omok: who has exactly five in a row on a 19×19 board, and where does it start?
//! Spec: `shared/problems/omok.md`.

mod fast;
mod reference;

mod decoy;
mod wrong;

use crate::board::{Board, Stone};
use crate::error::{AnswerError, ParseError};
use crate::grid_text::{masks, read_spaced_grid};
use crate::picture::{Ink, Key, Picture};
use crate::problem::{Problem, Tokens};
use crate::scan::Scanner;

pub use reference::exact_fives;

pub const SIZE: usize = 19;

pub type Input = Board<SIZE>;

/// A win: the colour and the 0-based row and column of the five's leftmost stone (topmost for
/// a vertical five).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Win {
    pub stone: Stone,
    pub row: usize,
    pub col: usize,
}

/// `None` when nobody wins.
pub type Answer = Option<Win>;

pub struct Omok;

impl Problem for Omok {
    const ID: &'static str = "omok";
    const SUMMARY: &'static str =
        "who has exactly five in a row on a 19x19 board, and where it starts";
    const CORPUS: &'static str = include_str!("../../../tests/data/omok/corpus.toml");
    type Input = Input;
    type Answer = Answer;

    fn parse(text: &[u8]) -> Result<Input, ParseError> {
        let mut sc = Scanner::new(text);
        let cells = read_spaced_grid(&mut sc, SIZE, SIZE, b"012", "'0', '1' or '2'")?;
        sc.end("end of input after 19 rows")?;
        let board = Board {
            black: masks(&cells, b'1'),
            white: masks(&cells, b'2'),
        };
        // The guarantee: at most one exact five on the whole board. Counted on bitboards;
        // the reference's list of fives only to word the error.
        let fives = if count_exact_fives(&board) >= 2 {
            exact_fives(&board)
        } else {
            Vec::new()
        };
        if let [first, second, ..] = fives[..] {
            let what = if first.stone == second.stone {
                format!("{} has two exact fives", colour_name(first.stone))
            } else {
                "black and white both have an exact five".to_string()
            };
            return Err(ParseError::at(
                second.row as u32 + 1,
                2 * second.col as u32 + 1,
                format!(
                    "{what} (starting at row {} column {} and row {} column {}); valid inputs have at most one",
                    first.row + 1,
                    first.col + 1,
                    second.row + 1,
                    second.col + 1
                ),
            ));
        }
        Ok(board)
    }

    fn valid(board: &Input) -> bool {
        count_exact_fives(board) <= 1
    }

    fn write_input(board: &Input) -> String {
        let mut out = String::with_capacity(SIZE * SIZE * 2);
        for r in 0..SIZE {
            for c in 0..SIZE {
                if c > 0 {
                    out.push(' ');
                }
                out.push(match board.get(r, c) {
                    Some(Stone::Black) => '1',
                    Some(Stone::White) => '2',
                    None => '0',
                });
            }
            out.push('\n');
        }
        out
    }

    fn write_answer(answer: &Answer) -> String {
        match answer {
            None => "0\n".to_string(),
            Some(win) => format!(
                "{}\n{} {}\n",
                colour_digit(win.stone),
                win.row + 1,
                win.col + 1
            ),
        }
    }

    fn read_answer(text: &str) -> Result<Answer, AnswerError> {
        let mut tokens = Tokens::new(text);
        let answer = match tokens.number(0, 2, "the winner")? {
            0 => None,
            n => {
                let stone = if n == 1 { Stone::Black } else { Stone::White };
                let row = tokens.number(1, SIZE as u32, "the row")? as usize - 1;
                let col = tokens.number(1, SIZE as u32, "the column")? as usize - 1;
                Some(Win { stone, row, col })
            }
        };
        tokens.end()?;
        Ok(answer)
    }

    fn picture(board: &Input) -> Picture {
        Picture::new(SIZE, SIZE, |r, c| match board.get(r, c) {
            Some(Stone::Black) => Ink::Black,
            Some(Stone::White) => Ink::White,
            None => Ink::Empty,
        })
        .with_legend(vec![
            Key {
                ink: Ink::Black,
                glyph: '1',
                meaning: "black stone",
            },
            Key {
                ink: Ink::White,
                glyph: '2',
                meaning: "white stone",
            },
            Key {
                ink: Ink::Empty,
                glyph: '.',
                meaning: "empty (0 in the input)",
            },
        ])
    }

    const MARKED: &'static str = "first stone of the five (ROW COL)";

    fn marks(answer: &Answer) -> Vec<(usize, usize)> {
        answer.iter().map(|w| (w.row, w.col)).collect()
    }

    fn reference(board: &Input) -> Answer {
        reference::solve(board)
    }

    fn reference_with<A: crate::access::BoardAccess>(board: &Input) -> Answer {
        reference::solve_with::<A>(board)
    }

    fn fast(board: &Input) -> Answer {
        fast::solve(board)
    }

    fn known_wrong() -> Vec<crate::problem::Solver<Self>> {
        let mut solvers = wrong::solvers();
        solvers.extend(decoy::solvers());
        solvers
    }

    const EQUIVALENT_MODELS: &'static [crate::access::Equivalent] = wrong::EQUIVALENT_MODELS;
}

/// How many exact fives the board holds (both colours), from row bitboards.
pub fn count_exact_fives(board: &Input) -> u32 {
    [&board.black, &board.white]
        .into_iter()
        .map(|rows| {
            crate::runs::five_starts(rows, true)
                .iter()
                .flatten()
                .map(|m| m.count_ones())
                .sum::<u32>()
        })
        .sum()
}

fn colour_digit(stone: Stone) -> char {
    match stone {
        Stone::Black => '1',
        Stone::White => '2',
    }
}

fn colour_name(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "black",
        Stone::White => "white",
    }
}
