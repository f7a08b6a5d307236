//! gomoku-checker: can this 19×19 gomoku position arise in a game (black first, alternating,
//! the game ends at the first five or more)? Spec: `shared/problems/gomoku-checker.md`.

mod fast;
mod reference;

mod wrong;

use crate::board::{Board, Stone};
use crate::error::{AnswerError, ParseError};
use crate::grid_text::write_char_grid;
use crate::picture::{Ink, Key, Picture};
use crate::problem::{Problem, Tokens, shorten};
use crate::scan::Scanner;

pub const SIZE: usize = 19;

pub type Input = Board<SIZE>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    Yes,
    No,
}

pub struct GomokuChecker;

impl Problem for GomokuChecker {
    const ID: &'static str = "gomoku-checker";
    const SUMMARY: &'static str = "is a 19x19 gomoku position reachable in a game (YES/NO)";
    const CORPUS: &'static str = include_str!("../../../tests/data/gomoku-checker/corpus.toml");
    type Input = Input;
    type Answer = Answer;

    fn parse(text: &[u8]) -> Result<Input, ParseError> {
        let mut sc = Scanner::new(text);
        let board =
            crate::grid_text::read_stone_board::<SIZE>(&mut sc, *b"ox.", "'o', 'x' or '.'")?;
        sc.end("end of input after 19 rows")?;
        Ok(board)
    }

    /// Any arrangement of stones is an input.
    fn valid(_: &Input) -> bool {
        true
    }

    fn write_input(board: &Input) -> String {
        write_char_grid(SIZE, SIZE, |r, c| match board.get(r, c) {
            Some(Stone::Black) => b'o',
            Some(Stone::White) => b'x',
            None => b'.',
        })
    }

    fn write_answer(answer: &Answer) -> String {
        match answer {
            Answer::Yes => "YES\n",
            Answer::No => "NO\n",
        }
        .to_string()
    }

    fn read_answer(text: &str) -> Result<Answer, AnswerError> {
        let mut tokens = Tokens::new(text);
        let answer = match tokens.next("YES or NO")? {
            "YES" => Answer::Yes,
            "NO" => Answer::No,
            other => {
                return Err(AnswerError(format!(
                    "expected YES or NO, found '{}'",
                    shorten(other)
                )));
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
                glyph: 'o',
                meaning: "black stone",
            },
            Key {
                ink: Ink::White,
                glyph: 'x',
                meaning: "white stone",
            },
            Key {
                ink: Ink::Empty,
                glyph: '.',
                meaning: "empty",
            },
        ])
    }

    fn marks(_: &Answer) -> Vec<(usize, usize)> {
        Vec::new()
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
        wrong::solvers()
    }

    const EQUIVALENT_MODELS: &'static [crate::access::Equivalent] = wrong::EQUIVALENT_MODELS;
}
