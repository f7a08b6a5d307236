//! The boundary obligations of renju: the line obligations around black's runs through P (with P played),
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::board::Stone;
use solutions::Renju;

use crate::boundary::{Boundary, line_layout, noise};
use crate::obligations::{LineRules, Obligations, Run, line_met, line_obligations, runs};
use crate::Rng;

const RENJU_RULES: LineRules = LineRules {
    parallel: true,
    parallel_needs_six: false,
};

impl Obligations for Renju {
    fn obligations() -> Vec<(String, String)> {
        line_obligations::<{ solutions::renju::SIZE }>(RENJU_RULES)
    }
    /// Black's runs through `P`, with `P` played.
    fn met(input: &Self::Input) -> BTreeSet<String> {
        let mut board = input.board;
        let p = (i32::from(input.row), i32::from(input.col));
        board.set(p.0 as usize, p.1 as usize, Some(Stone::Black));
        let through: Vec<Run> = runs(&board, 5)
            .into_iter()
            .filter(|r| r.stone == Stone::Black && r.contains(p))
            .collect();
        let mut out = BTreeSet::new();
        line_met(&board, &through, RENJU_RULES, &mut out);
        out
    }
}

impl Boundary for Renju {
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let layout =
            line_layout::<{ solutions::renju::SIZE }>(id, rng, Stone::Black, false, hunting)?;
        let len = layout.run.len();
        // P inside the run so that neither part left without it is a five or longer.
        let choices: Vec<usize> = (0..len).filter(|&k| k < 5 && len - 1 - k < 5).collect();
        let (pr, pc) = layout.run[rng.pick(&choices)];
        let mut board = layout.board;
        board.set(pr as usize, pc as usize, None);
        let n = rng.range(0, 10) as usize;
        noise(&mut board, rng, n);
        board.set(pr as usize, pc as usize, None);
        Some(solutions::renju::Input {
            board,
            row: pr as u8,
            col: pc as u8,
        })
    }
}
