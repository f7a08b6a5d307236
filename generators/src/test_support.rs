//! Helpers of the per-problem unit tests (`<problem>/tests.rs`): how often a family gives
//! each answer, and the proptest strategies that lay runs and stones on a board.

use std::collections::BTreeMap;

use proptest::prelude::*;
use solutions::Problem;
use solutions::board::{Board, LINES, Stone};

use crate::{Generate, generate};

/// The proptest settings of the fast = reference properties. Invalid inputs (omok double
/// wins, renju fives) are skipped, hence the reject allowance. A failure prints its shrunk
/// input; copy it into the corpus as a regression case.
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 3000,
        max_global_rejects: 200_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// How often each answer occurs over `count` inputs of family `family_name`.
pub fn answer_histogram<P: Generate>(family_name: &str, count: u64) -> BTreeMap<String, u64> {
    let family = P::families()
        .into_iter()
        .find(|f| f.name == family_name)
        .expect("family exists");
    let mut histogram = BTreeMap::new();
    for index in 0..count {
        let (input, _) = generate(&family, index, 1);
        *histogram
            .entry(P::write_answer(&P::reference(&input)))
            .or_insert(0) += 1;
    }
    histogram
}

/// A run: start row, start column, direction index, length, black?
pub type Run = (u8, u8, usize, u8, bool);

pub fn runs() -> impl Strategy<Value = Vec<Run>> {
    prop::collection::vec((0u8..19, 0u8..19, 0usize..4, 1u8..11, any::<bool>()), 0..6)
}

pub fn stones() -> impl Strategy<Value = Vec<(u8, u8, bool)>> {
    prop::collection::vec((0u8..19, 0u8..19, any::<bool>()), 0..60)
}

pub fn board<const N: usize>(runs: &[Run], stones: &[(u8, u8, bool)]) -> Board<N> {
    let mut board = Board::<N>::empty();
    let colour = |black: bool| if black { Stone::Black } else { Stone::White };
    for &(r, c, d, len, black) in runs {
        let (dr, dc) = LINES[d];
        for k in 0..i32::from(len) {
            let (rr, cc) = (i32::from(r) + k * dr, i32::from(c) + k * dc);
            if Board::<N>::on_board(rr, cc) {
                board.set(rr as usize, cc as usize, Some(colour(black)));
            }
        }
    }
    for &(r, c, black) in stones {
        if (r as usize) < N && (c as usize) < N {
            board.set(r.into(), c.into(), Some(colour(black)));
        }
    }
    board
}

/// Checks fast = reference on `input` if it is valid (invalid ones are skipped).
pub fn agree<P: Problem>(input: &P::Input) -> Result<(), TestCaseError> {
    let text = P::write_input(input);
    prop_assume!(P::parse(text.as_bytes()).is_ok());
    prop_assert_eq!(P::fast(input), P::reference(input), "input:\n{}", text);
    Ok(())
}
