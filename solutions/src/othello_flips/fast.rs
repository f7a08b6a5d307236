//! The fast solver: 64-bit bitboards and precomputed rays.
//!
//! For each direction, `RAYS[d][p]` holds the squares met walking from `p` to the edge. The
//! first square along the ray that is not white decides: if it is black, every ray square
//! before it is white and flips. Along rays that go toward higher bit indices (east, south-west,
//! south, south-east) "first" is the lowest set bit; along the others it is the highest, found
//! with a leading-zero count. Nothing can wrap around an edge because the rays stop there.

use super::{Answer, Input};

/// (row step, column step); the first four walk toward higher indices, the last four lower.
const STEPS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

const fn ray(square: usize, (dr, dc): (i32, i32)) -> u64 {
    let (mut r, mut c) = ((square / 8) as i32 + dr, (square % 8) as i32 + dc);
    let mut mask = 0u64;
    while r >= 0 && r < 8 && c >= 0 && c < 8 {
        mask |= 1 << (r * 8 + c);
        r += dr;
        c += dc;
    }
    mask
}

const fn rays() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut square = 0;
        while square < 64 {
            table[d][square] = ray(square, STEPS[d]);
            square += 1;
        }
        d += 1;
    }
    table
}

static RAYS: [[u64; 64]; 8] = rays();

/// Flips along a ray that walks toward higher indices.
#[inline(always)]
fn flips_up(ray: u64, black: u64, white: u64) -> u64 {
    let blockers = ray & !white;
    let first = blockers & blockers.wrapping_neg();
    // `first - 1` are the squares before the blocker; only ray squares count.
    if first & black != 0 {
        ray & (first - 1)
    } else {
        0
    }
}

/// Flips along a ray that walks toward lower indices.
#[inline(always)]
fn flips_down(ray: u64, black: u64, white: u64) -> u64 {
    let blockers = ray & !white;
    if blockers == 0 {
        return 0;
    }
    let first = 1u64 << (63 - blockers.leading_zeros());
    // Squares above the blocker: everything but `first` and the bits below it.
    if first & black != 0 {
        ray & !(first | (first - 1))
    } else {
        0
    }
}

pub fn solve(input: &Input) -> Answer {
    let p = input.play as usize;
    let (b, w) = (input.black, input.white);
    Answer(
        flips_up(RAYS[0][p], b, w)
            | flips_up(RAYS[1][p], b, w)
            | flips_up(RAYS[2][p], b, w)
            | flips_up(RAYS[3][p], b, w)
            | flips_down(RAYS[4][p], b, w)
            | flips_down(RAYS[5][p], b, w)
            | flips_down(RAYS[6][p], b, w)
            | flips_down(RAYS[7][p], b, w),
    )
}
