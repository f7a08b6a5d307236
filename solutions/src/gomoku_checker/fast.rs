//! The fast solver: popcounts and five-window starts from row bitboards.
//!
//! Removing stone `s` leaves no five iff `s` lies in every five-cell window of the player who
//! moved last (a window without `s` would survive). So it suffices to take the five cells of
//! any one window as candidates and count, for each, the windows that contain it. A run of 6–9
//! has a common cell in all its windows; a run of 10 or more, or two separate fives, has none.

use super::{Answer, Input, SIZE};
use crate::board::Stone;
use crate::runs::{ANTI_DIAGONAL, DIAGONAL, HORIZONTAL, Starts, VERTICAL, any_five, five_starts};

/// Window starts with five rows of padding above and below and every mask shifted left by 4,
/// so that the windows around any cell are read with shifts and no bounds checks.
struct PaddedStarts([[u32; SIZE + 10]; 4]);

impl PaddedStarts {
    #[inline(always)]
    fn new(starts: &Starts<SIZE>) -> Self {
        let mut padded = [[0u32; SIZE + 10]; 4];
        for d in 0..4 {
            for r in 0..SIZE {
                padded[d][r + 5] = starts[d][r] << 4;
            }
        }
        PaddedStarts(padded)
    }

    /// Is the window of direction `d` starting at (r, c) there? (`r` in -5..N+5, `c` in -4..N.)
    #[inline(always)]
    fn bit(&self, d: usize, r: i32, c: i32) -> u32 {
        self.0[d][(r + 5) as usize] >> (c + 4) & 1
    }

    /// How many windows contain cell (r, c): those starting 0..4 cells before it.
    #[inline(always)]
    fn containing(&self, r: i32, c: i32) -> u32 {
        let horizontal = (self.0[HORIZONTAL][(r + 5) as usize] >> c & 0x1F).count_ones();
        let others: u32 = (0..5)
            .map(|k| {
                self.bit(VERTICAL, r - k, c)
                    + self.bit(DIAGONAL, r - k, c - k)
                    + self.bit(ANTI_DIAGONAL, r + k, c - k)
            })
            .sum();
        horizontal + others
    }
}

/// The start of some window, with its direction as (row step, column step).
#[inline(always)]
fn first_window(starts: &Starts<SIZE>) -> Option<(i32, i32, i32, i32)> {
    const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];
    for (d, &(dr, dc)) in STEPS.iter().enumerate() {
        for (r, &m) in starts[d].iter().enumerate() {
            if m != 0 {
                return Some((r as i32, m.trailing_zeros() as i32, dr, dc));
            }
        }
    }
    None
}

/// The portable body; inlined into the CPU-specific copy below.
#[inline(always)]
fn check(board: &Input) -> Answer {
    let (black, white) = (board.count(Stone::Black), board.count(Stone::White));
    let (last, other) = if black == white {
        (&board.white, &board.black)
    } else if black == white + 1 {
        (&board.black, &board.white)
    } else {
        return Answer::No;
    };
    if any_five(other) {
        return Answer::No;
    }
    let starts = five_starts(last, false);
    let Some((r, c, dr, dc)) = first_window(&starts) else {
        return Answer::Yes;
    };
    let total: u32 = starts.iter().flatten().map(|m| m.count_ones()).sum();
    // No cell lies in more than 5 windows of one direction, 20 in all.
    if total > 20 {
        return Answer::No;
    }
    let padded = PaddedStarts::new(&starts);
    if (0..5).any(|k| padded.containing(r + k * dr, c + k * dc) == total) {
        Answer::Yes
    } else {
        Answer::No
    }
}

/// The same code compiled for AVX2: the row loops become 8-lane vector code.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn check_avx2(board: &Input) -> Answer {
    check(board)
}

/// Runtime CPU-feature dispatch: the default build stays portable.
pub fn solve(board: &Input) -> Answer {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU was just found to support the features the function is compiled for.
            return unsafe { check_avx2(board) };
        }
    }
    check(board)
}
