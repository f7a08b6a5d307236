//! The reference: from `P`, walk each of the 8 directions over white discs; if the walk stops
//! on a black disc after at least one white one, those white discs flip.
//!
//! Squares are read through a [`BoardAccess`]: [`Exact`] makes the reference, the other models
//! the board-access wrong solutions (see [`crate::access`]).

use super::{Answer, Input, SIZE};
use crate::access::{BoardAccess, Colour, Exact, Read};
use crate::board::DIRECTIONS;

/// What a read finds: a white disc (with its bit, 0 when it is stray memory off the board),
/// a black disc, or anything else.
#[derive(Clone, Copy)]
enum Found {
    White(u64),
    Black,
    Other,
}

#[inline(always)]
fn look<A: BoardAccess>(input: &Input, (r, c): (i32, i32)) -> Found {
    match A::read(r, c, SIZE as i32) {
        Read::Cell(r, c) => {
            let bit = 1u64 << (r * SIZE + c);
            if input.white & bit != 0 {
                Found::White(bit)
            } else if input.black & bit != 0 {
                Found::Black
            } else {
                Found::Other
            }
        }
        Read::Nothing => Found::Other,
        Read::Stray(Colour::First) => Found::Black,
        Read::Stray(Colour::Second) => Found::White(0),
    }
}

pub fn solve(input: &Input) -> Answer {
    solve_with::<Exact>(input)
}

/// The reference with squares read through `A`.
pub fn solve_with<A: BoardAccess>(input: &Input) -> Answer {
    let (pr, pc) = (i32::from(input.play / 8), i32::from(input.play % 8));
    let mut flipped = 0u64;
    for (dr, dc) in DIRECTIONS {
        let (mut run, mut whites) = (0u64, 0);
        let (mut r, mut c) = (pr + dr, pc + dc);
        // At most 7 steps: a board line is 8 squares (the bound only matters to models that
        // alias squares outside the board to squares inside).
        let mut last = look::<A>(input, (r, c));
        // (No let chain: exported solutions build with edition 2018, as contest tools do.)
        while whites < SIZE as i32 {
            let Found::White(bit) = last else { break };
            run |= bit;
            whites += 1;
            r += dr;
            c += dc;
            last = look::<A>(input, (r, c));
        }
        // The square that closes the run, as the model reads it (the reference: the one just
        // read).
        let end = A::beyond((r, c), (dr, dc));
        if end != (r, c) {
            last = look::<A>(input, end);
        }
        if whites > 0
            && A::scans((pr, pc), (dr, dc), whites + 2, SIZE as i32)
            && matches!(last, Found::Black)
        {
            flipped |= run;
        }
    }
    Answer(flipped)
}
