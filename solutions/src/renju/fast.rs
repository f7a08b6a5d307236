//! The fast solver: the same definitions as the reference, on 11-cell line windows.
//!
//! Everything the definitions look at in one direction lies within 5 cells of the stone: a
//! five or a straight four containing it spans at most 4 cells to either side, and the cells
//! just beyond decide exactness. So each direction is read once into two 11-bit masks
//! (`black`, `empty`; off-board cells are neither), centre at bit 5, and five, overline, fours
//! and three candidates are bit operations. Only a three candidate needs the recursion of the
//! definition: the candidate point is classified in the position with the stone placed.

use super::{Answer, Input, SIZE};
use crate::board::{Board, LINES};

type Grid = Board<SIZE>;

const CENTRE: u32 = 5;

#[derive(Clone, Copy)]
struct Window {
    black: u16,
    empty: u16,
}

/// The board with five rows and columns of padding on every side (padding is neither black
/// nor empty, like the edge), so any 11-cell window is read without bounds checks. Bit `c + 5`
/// of row `r + 5` is cell (r, c).
struct Padded {
    black: [u32; SIZE + 10],
    empty: [u32; SIZE + 10],
}

impl Padded {
    fn new(board: &Grid) -> Padded {
        let mut padded = Padded {
            black: [0; SIZE + 10],
            empty: [0; SIZE + 10],
        };
        let on_board = ((1u32 << SIZE) - 1) << 5;
        for r in 0..SIZE {
            padded.black[r + 5] = board.black[r] << 5;
            padded.empty[r + 5] = !((board.black[r] | board.white[r]) << 5) & on_board;
        }
        padded
    }

    #[inline(always)]
    fn place(&mut self, r: i32, c: i32) {
        let bit = 1u32 << (c + 5);
        self.black[(r + 5) as usize] |= bit;
        self.empty[(r + 5) as usize] &= !bit;
    }

    #[inline(always)]
    fn remove(&mut self, r: i32, c: i32) {
        let bit = 1u32 << (c + 5);
        self.black[(r + 5) as usize] &= !bit;
        self.empty[(r + 5) as usize] |= bit;
    }

    /// The 11 cells from 5 before (r, c) to 5 after it along (dr, dc).
    #[inline(always)]
    fn window(&self, r: i32, c: i32, (dr, dc): (i32, i32)) -> Window {
        let (r, c) = ((r + 5) as usize, c as usize);
        if dr == 0 {
            // Along a row: bits c..c+10 of the padded row are cells c-5..c+5.
            return Window {
                black: (self.black[r] >> c & 0x7FF) as u16,
                empty: (self.empty[r] >> c & 0x7FF) as u16,
            };
        }
        let (mut black, mut empty) = (0u16, 0u16);
        for k in 0..11usize {
            let row = if dr > 0 { r + k - 5 } else { r + 5 - k };
            let col = (c as i32 + 5 + (k as i32 - 5) * dc) as u32;
            black |= ((self.black[row] >> col & 1) as u16) << k;
            empty |= ((self.empty[row] >> col & 1) as u16) << k;
        }
        Window { black, empty }
    }
}

/// The unbroken run of ones in `bits` through `pos`, as (lowest, highest) bit.
#[inline(always)]
fn run(bits: u16, pos: u32) -> (u32, u32) {
    let up = (bits >> pos).trailing_ones();
    let down = if pos == 0 {
        0
    } else {
        (bits << (16 - pos)).leading_ones()
    };
    (pos - down, pos + up - 1)
}

#[inline(always)]
fn span(lo: u32, hi: u32) -> u16 {
    (((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)) as u16
}

#[inline(always)]
fn run_len(w: Window) -> u32 {
    let (lo, hi) = run(w.black, CENTRE);
    hi - lo + 1
}

/// The number of different sets of four stones that one more stone completes to an exact
/// five containing the centre.
fn fours(w: Window) -> u32 {
    let mut sets = [0u16; 8];
    let mut n = 0;
    let mut points = w.empty & span(CENTRE - 4, CENTRE + 4);
    while points != 0 {
        let q = points.trailing_zeros();
        points &= points - 1;
        let (lo, hi) = run(w.black | 1 << q, q);
        if hi - lo == 4 && lo <= CENTRE && CENTRE <= hi {
            let set = span(lo, hi) & !(1 << q);
            if !sets[..n].contains(&set) {
                sets[n] = set;
                n += 1;
            }
        }
    }
    n as u32
}

/// The empty points that, with the centre, make a straight four: an unbroken run of exactly
/// four with both ends empty and each end making an exact five.
fn three_candidates(w: Window) -> u16 {
    let mut found = 0;
    let mut points = w.empty & span(CENTRE - 3, CENTRE + 3);
    while points != 0 {
        let q = points.trailing_zeros();
        points &= points - 1;
        let black = w.black | 1 << q;
        let (lo, hi) = run(black, CENTRE);
        if hi - lo == 3 && lo <= q && q <= hi {
            let open_low = w.empty >> (lo - 1) & 1 == 1 && black >> (lo - 2) & 1 == 0;
            let open_high = w.empty >> (hi + 1) & 1 == 1 && black >> (hi + 2) & 1 == 0;
            if open_low && open_high {
                found |= 1 << q;
            }
        }
    }
    found
}

fn classify(board: &mut Padded, r: i32, c: i32) -> Answer {
    board.place(r, c);
    let answer = classify_placed(board, r, c);
    board.remove(r, c);
    answer
}

fn classify_placed(board: &mut Padded, r: i32, c: i32) -> Answer {
    let windows = LINES.map(|d| board.window(r, c, d));
    let lens = windows.map(run_len);
    if lens.contains(&5) {
        return Answer::Five;
    }
    if lens.iter().any(|&l| l >= 6) {
        return Answer::Overline;
    }
    let fours = windows.map(fours);
    let total: u32 = fours.iter().sum();
    if total >= 2 {
        return Answer::DoubleFour;
    }
    let mut threes = 0;
    for d in 0..4 {
        if fours[d] != 0 {
            continue;
        }
        let (dr, dc) = LINES[d];
        let mut candidates = three_candidates(windows[d]);
        while candidates != 0 {
            let k = candidates.trailing_zeros() as i32 - CENTRE as i32;
            candidates &= candidates - 1;
            let at = classify(board, r + k * dr, c + k * dc);
            if at != Answer::Five && !at.is_forbidden() {
                threes += 1;
                break;
            }
        }
        if threes >= 2 {
            return Answer::DoubleThree;
        }
    }
    match (total, threes) {
        (1, 1) => Answer::FourThree,
        (1, _) => Answer::Four,
        (0, 1) => Answer::Three,
        _ => Answer::None,
    }
}

pub fn solve(input: &Input) -> Answer {
    let mut board = Padded::new(&input.board);
    classify(&mut board, i32::from(input.row), i32::from(input.col))
}
