//! The boundary obligations of omok: the line obligations around every run of five or more, with stones on the parallel
//! lines next to a six,
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::board::Stone;
use solutions::Omok;

use crate::boundary::{Boundary, line_layout, noise};
use crate::obligations::{LineRules, Obligations, line_met, line_obligations, runs};
use crate::Rng;

const OMOK_RULES: LineRules = LineRules {
    parallel: true,
    parallel_needs_six: true,
};
impl Obligations for Omok {
    fn obligations() -> Vec<(String, String)> {
        line_obligations::<{ solutions::omok::SIZE }>(OMOK_RULES)
    }
    fn met(board: &Self::Input) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        line_met(board, &runs(board, 5), OMOK_RULES, &mut out);
        out
    }
}

impl Boundary for Omok {
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let stone = rng.pick(&[Stone::Black, Stone::White]);
        let mut layout = line_layout::<{ solutions::omok::SIZE }>(id, rng, stone, true, hunting)?;
        let n = rng.range(0, 20) as usize;
        noise(&mut layout.board, rng, n);
        Some(layout.board)
    }
}
