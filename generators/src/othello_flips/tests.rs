//! othello-flips's own unit tests: its families reach what they target, and its fast
//! solver equals the reference on structurally generated inputs (a failure shrinks to a small
//! input).

use proptest::prelude::*;
use solutions::{Problem, OthelloFlips};

use crate::Generate;
use crate::test_support::*;

#[test]
fn legal_moves_flip_something() {
    let histogram = answer_histogram::<OthelloFlips>("legal-move", 200);
    assert!(!histogram.contains_key("0\n"), "{histogram:?}");
}


#[test]
fn move_generation_matches_the_reference() {
    use solutions::othello_flips::Input;
    let family = <OthelloFlips as Generate>::families()
        .into_iter()
        .find(|f| f.name == "sparse")
        .unwrap();
    for index in 0..2000 {
        let (input, _) = crate::generate(&family, index, 11);
        let (own, opp) = (input.black, input.white);
        for square in 0..64u8 {
            if (own | opp) >> square & 1 == 0 {
                let legal = <OthelloFlips as Problem>::reference(&Input {
                    black: own,
                    white: opp,
                    play: square,
                })
                .0 != 0;
                assert_eq!(
                    crate::othello_flips::families::is_legal(own, opp, square),
                    legal,
                    "#{index} square {square}"
                );
            }
        }
    }
}


proptest! {
    #![proptest_config(config())]

    #[test]
    fn othello_flips_fast_equals_reference(black in any::<u64>(), white in any::<u64>(), play in 0u8..64) {
        let bit = 1u64 << play;
        let input = solutions::othello_flips::Input { black: black & !white & !bit, white: white & !bit, play };
        agree::<OthelloFlips>(&input)?;
    }
}
