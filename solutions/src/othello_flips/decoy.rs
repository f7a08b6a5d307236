//! Decoy models: the 8-direction walk as real contestants write it, with a bug that only shows
//! when discs interact along a ray — a ray far longer than usual, a black disc just past a gap,
//! a black disc next to `P` in front of the whites. Each fails rarely on random positions, so a
//! test set keeps them out only if it has the decoy obligations (see the othello-flips
//! obligations in `generators`).

use super::{Answer, Input, OthelloFlips, Square};
use crate::board::DIRECTIONS;

fn solve_with(input: &Input, bugs: Bugs) -> Answer {
    let (pr, pc) = (i32::from(input.play / 8), i32::from(input.play % 8));
    let mut flipped = 0u64;
    for (dr, dc) in DIRECTIONS {
        let mut run = 0u64;
        // Squares at distance 1..=7 along the ray (with the bug, 1..=6: `k < 7`).
        let reach = if bugs.ray_cap_six { 6 } else { 7 };
        let mut gap = false;
        for k in 1..=reach {
            let (r, c) = (pr + k * dr, pc + k * dc);
            match input.square(r, c) {
                Some(Square::White) if !gap => run |= 1 << (r * 8 + c),
                Some(Square::Black) if run != 0 => {
                    flipped |= run;
                    break;
                }
                // An empty square after the whites: with the bug the walk steps over it
                // and a black disc beyond still closes the run.
                Some(Square::Empty) if bugs.closer_past_gap && run != 0 && !gap => gap = true,
                // A black disc right next to P: with the bug the walk steps over it.
                Some(Square::Black) if bugs.skips_black_next_to_p && k == 1 => {}
                _ => break,
            }
        }
    }
    Answer(flipped)
}

crate::known_wrong! {
    OthelloFlips, solve_with;
    /// Walks at most six squares (`k < 7`): six whites closed by the black disc on the far
    /// edge are not flipped.
    "decoy-ray-cap-six" => ray_cap_six,
    /// Steps over one empty square after the whites: a black disc just past the gap closes the
    /// run.
    "decoy-closer-past-gap" => closer_past_gap,
    /// Steps over a black disc right next to P before looking for whites: `P B W B` flips.
    "decoy-skips-black-next-to-p" => skips_black_next_to_p,
}
