//! omok's own unit tests: its families reach what they target, and its fast
//! solver equals the reference on structurally generated inputs (a failure shrinks to a small
//! input).

use proptest::prelude::*;
use solutions::Omok;

use crate::Generate;
use crate::test_support::*;

#[test]
fn every_direction_reaches_all_winner_direction_pairs() {
    let family = <Omok as Generate>::families()
        .into_iter()
        .find(|f| f.name == "every-direction")
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for index in 0..200 {
        let (_, params) = crate::generate(&family, index, 3);
        seen.insert(params);
    }
    assert_eq!(seen.len(), 8, "{seen:?}");
}


proptest! {
    #![proptest_config(config())]

    #[test]
    fn omok_fast_equals_reference(runs in runs(), stones in stones()) {
        agree::<Omok>(&board::<19>(&runs, &stones))?;
    }

    #[test]
    fn omok_validator_counts_fives_like_the_reference(runs in runs(), stones in stones()) {
        let board = board::<19>(&runs, &stones);
        prop_assert_eq!(solutions::omok::count_exact_fives(&board) as usize, solutions::omok::exact_fives(&board).len());
    }
}
