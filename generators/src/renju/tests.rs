//! renju's own unit tests: its families reach what they target, and its fast
//! solver equals the reference on structurally generated inputs (a failure shrinks to a small
//! input).

use proptest::prelude::*;
use solutions::Renju;

use crate::test_support::*;

#[test]
fn class_family_reaches_its_classification() {
    let histogram = answer_histogram::<Renju>("class-three", 40);
    assert_eq!(histogram.len(), 1, "{histogram:?}");
}


proptest! {
    #![proptest_config(config())]

    #[test]
    fn renju_fast_equals_reference(runs in prop::collection::vec((0u8..15, 0u8..15, 0usize..4, 1u8..6, prop::bool::weighted(0.8)), 0..6),
                                   stones in prop::collection::vec((0u8..15, 0u8..15, prop::bool::weighted(0.6)), 0..30),
                                   row in 0u8..15, col in 0u8..15) {
        let mut board = board::<15>(&runs, &stones);
        board.set(row.into(), col.into(), None);
        agree::<Renju>(&solutions::renju::Input { board, row, col })?;
    }
}
