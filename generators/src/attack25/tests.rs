//! attack25's own unit tests: its families reach what they target, and its fast
//! solver equals the reference on structurally generated inputs (a failure shrinks to a small
//! input).

use proptest::prelude::*;
use solutions::Attack25;

use crate::test_support::*;

#[test]
fn near_full_includes_the_full_board() {
    let histogram = answer_histogram::<Attack25>("near-full", 200);
    assert!(histogram.contains_key("R\nB\nW\nG\n"), "{histogram:?}");
}


proptest! {
    #![proptest_config(config())]

    /// Panels grown from 13 one neighbour at a time (always a reachable position), coloured.
    #[test]
    fn attack25_fast_equals_reference(growth in prop::collection::vec((0usize..8, 0usize..25, 0usize..4), 0..25), centre in 0usize..4) {
        let mut input = solutions::attack25::Input::default();
        input.panels[centre] |= 1 << 12;
        for (direction, pick, colour) in growth {
            let frontier: Vec<usize> = (0..25)
                .filter(|&p| input.owner(p).is_none())
                .filter(|&p| {
                    let (r, c) = ((p / 5) as i32, (p % 5) as i32);
                    solutions::board::DIRECTIONS.iter().any(|&(dr, dc)| solutions::attack25::panel_at(r + dr, c + dc).is_some_and(|q| input.owner(q).is_some()))
                })
                .collect();
            if frontier.is_empty() {
                break;
            }
            let _ = direction;
            input.panels[colour] |= 1 << frontier[pick % frontier.len()];
        }
        agree::<Attack25>(&input)?;
    }
}
