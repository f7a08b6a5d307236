//! The reference: from `P`, walk each of the 8 directions over white discs; if the walk stops
//! on a black disc after at least one white one, those white discs flip.

use super::{Answer, Input, Square};
use crate::board::DIRECTIONS;

pub fn solve(input: &Input) -> Answer {
    let (pr, pc) = (i32::from(input.play / 8), i32::from(input.play % 8));
    let mut flipped = 0u64;
    for (dr, dc) in DIRECTIONS {
        let mut run = 0u64;
        let (mut r, mut c) = (pr + dr, pc + dc);
        while input.square(r, c) == Some(Square::White) {
            run |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
        }
        if run != 0 && input.square(r, c) == Some(Square::Black) {
            flipped |= run;
        }
    }
    Answer(flipped)
}
