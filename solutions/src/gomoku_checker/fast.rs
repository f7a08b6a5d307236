//! The fast solver: popcounts and five-window starts from row bitboards.
//!
//! Removing stone `s` leaves no five iff `s` lies in every five-cell window of the player who
//! moved last (a window without `s` would survive). So it suffices to take the five cells of
//! any one window as candidates and count, for each, the windows that contain it. A run of 6–9
//! has a common cell in all its windows; a run of 10 or more, or two separate fives, has none.

use super::{Answer, Input, SIZE};
use crate::board::Stone;
use crate::runs::{ANTI_DIAGONAL, DIAGONAL, HORIZONTAL, Starts, VERTICAL, any, five_starts};

type S = Starts<SIZE>;

#[inline(always)]
fn has(starts: &S, d: usize, r: i32, c: i32) -> bool {
    (0..SIZE as i32).contains(&r)
        && (0..SIZE as i32).contains(&c)
        && starts[d][r as usize] >> c & 1 == 1
}

/// How many windows contain cell (r, c).
fn windows_containing(starts: &S, r: i32, c: i32) -> u32 {
    (0..5)
        .map(|k| {
            u32::from(has(starts, HORIZONTAL, r, c - k))
                + u32::from(has(starts, VERTICAL, r - k, c))
                + u32::from(has(starts, DIAGONAL, r - k, c - k))
                + u32::from(has(starts, ANTI_DIAGONAL, r + k, c - k))
        })
        .sum()
}

/// The cells of some window, as (row, column, row step, column step) of its start.
fn first_window(starts: &S) -> Option<(i32, i32, i32, i32)> {
    const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];
    for (d, &(dr, dc)) in STEPS.iter().enumerate() {
        for r in 0..SIZE {
            let m = starts[d][r];
            if m != 0 {
                return Some((r as i32, m.trailing_zeros() as i32, dr, dc));
            }
        }
    }
    None
}

pub fn solve(board: &Input) -> Answer {
    let (black, white) = (board.count(Stone::Black), board.count(Stone::White));
    let (last, other) = if black == white {
        (&board.white, &board.black)
    } else if black == white + 1 {
        (&board.black, &board.white)
    } else {
        return Answer::No;
    };
    if any(&five_starts(other, false)) {
        return Answer::No;
    }
    let starts = five_starts(last, false);
    let Some((r, c, dr, dc)) = first_window(&starts) else {
        return Answer::Yes;
    };
    let total: u32 = starts.iter().flatten().map(|m| m.count_ones()).sum();
    if (0..5).any(|k| windows_containing(&starts, r + k * dr, c + k * dc) == total) {
        Answer::Yes
    } else {
        Answer::No
    }
}
