//! The fast solver: all panels of a tier at once, with shift fills on a padded bitboard.
//!
//! The 5×5 grid is embedded in rows of 8 bits (panel `r*5+c` is bit `r*8+c`). A shift that
//! steps off the grid sideways lands in columns 5..7 or rows 5..7, which no mask ever holds,
//! so nothing wraps. A panel `P` sandwiches for colour `C` in direction `d` iff walking the
//! opposite way from one of `C`'s panels crosses one or more other-coloured panels and then
//! reaches `P`: the classic Othello move generation, run from `C`'s panels (tier 1) or from
//! the empty panels (tier 2) through the other colours' panels.

use super::{Answer, Input};

const GRID: u64 = 0x1F_1F1F_1F1F; // five rows of five bits, 8 bits apart

#[inline(always)]
fn shift(x: u64, s: i32) -> u64 {
    if s > 0 { x << s } else { x >> -s }
}

/// The eight directions as bit shifts in the 8-wide layout.
const SHIFTS: [i32; 8] = [1, -1, 8, -8, 9, -9, 7, -7];

#[inline(always)]
fn embed(mask25: u32) -> u64 {
    let m = u64::from(mask25);
    (m & 0x1F)
        | (m >> 5 & 0x1F) << 8
        | (m >> 10 & 0x1F) << 16
        | (m >> 15 & 0x1F) << 24
        | (m >> 20 & 0x1F) << 32
}

#[inline(always)]
fn extract(mask64: u64) -> u32 {
    let m = mask64;
    ((m & 0x1F)
        | (m >> 8 & 0x1F) << 5
        | (m >> 16 & 0x1F) << 10
        | (m >> 24 & 0x1F) << 15
        | (m >> 32 & 0x1F) << 20) as u32
}

/// Empty panels reached from `from` by stepping over one or more `through` panels.
#[inline(always)]
fn reached_over(from: u64, through: u64, empty: u64) -> u64 {
    let mut found = 0;
    for s in SHIFTS {
        // A line on a 5×5 grid holds at most 3 panels between two others.
        let mut run = shift(from, s) & through;
        run |= shift(run, s) & through;
        run |= shift(run, s) & through;
        found |= shift(run, s) & empty;
    }
    found
}

/// Empty panels next to a taken one.
#[inline(always)]
fn adjacent(taken: u64, empty: u64) -> u64 {
    SHIFTS.iter().fold(0, |acc, &s| acc | shift(taken, s)) & empty
}

pub fn solve(input: &Input) -> Answer {
    let taken25 = input.taken();
    if taken25 == 0 {
        return Answer([1 << super::CENTRE; 4]);
    }
    let taken = embed(taken25);
    let empty = GRID & !taken;
    let mut answer = [0u32; 4];
    for (colour, slot) in answer.iter_mut().enumerate() {
        let own = embed(input.panels[colour]);
        let others = taken & !own;
        let mut pick = reached_over(own, others, empty);
        if pick == 0 {
            pick = reached_over(empty, others, empty);
        }
        if pick == 0 {
            pick = adjacent(taken, empty);
        }
        *slot = extract(pick);
    }
    Answer(answer)
}
