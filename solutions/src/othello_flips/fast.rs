//! The fast solver: 64-bit bitboards and precomputed rays.
//!
//! `RAYS[p]` holds, for each of the eight directions, the squares met walking from `p` to the
//! edge: four rays toward higher bit indices ("up"), then four toward lower ones ("down").
//! Nothing can wrap around an edge because the rays stop there. On a ray, the first square that
//! is not white (the blocker) decides: if it is black, every ray square before it is white and
//! flips. Both paths below handle the rays as four lanes of one up and one down ray each.
//!
//! [`solve`] uses the AVX2 kernel where the CPU has it (checked at run time: the default build
//! is baseline x86-64): the up rays in one 256-bit register, the down rays in another, about
//! 30 AVX instructions in all.
//!
//! * Up rays: the blocker is the lowest non-white ray square. Set every square that is white or
//!   off the ray, and add 1: the carry runs through the set squares and stops on the blocker,
//!   so the bits that change are the white run, its blocker and off-ray squares below it. Of
//!   those, keep the ray squares; removing the black ones changes the set exactly when the
//!   blocker is black, and then what is left is the run.
//! * Down rays: the blocker is the highest non-white ray square. It is black exactly when the
//!   black ray squares, read as a number, exceed the empty ray squares (the sets are disjoint,
//!   so the larger number holds the highest bit of their union; bit 63 is never on a down ray,
//!   so a signed comparison does). The run is then every ray square above the highest black
//!   one: smear the black ray squares down the ray by 1, 2 and 4 steps (a ray has at most 7
//!   squares; per-lane shift counts) and keep the ray squares the smear misses.
//!
//! Measured through `<OthelloFlips as Problem>::fast` from another crate, on legal moves of
//! random games (AMD EPYC, Zen 2): 4.2 ns per move in the default build, of which ~0.6 ns is the
//! `vzeroupper` every call from baseline code into AVX2 code must end with; 3.4 ns with
//! `-C target-cpu=native`, where the kernel inlines into the caller. Without AVX2, [`portable`]
//! (SSE2 code; see there) takes about twice as long.

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

/// `RAYS[p][d]`: the eight rays of a square lie together, in one 64-byte cache line.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

const fn rays() -> Rays {
    let mut table = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let mut d = 0;
        while d < 8 {
            table[square][d] = ray(square, STEPS[d]);
            d += 1;
        }
        square += 1;
    }
    Rays(table)
}

static RAYS: Rays = rays();

/// The solver. `#[inline]` so that a caller in another crate inlines the dispatch and calls the
/// AVX2 kernel directly (built with AVX2 enabled, the kernel inlines into the caller too).
#[inline]
pub fn solve(input: &Input) -> Answer {
    #[cfg(target_arch = "x86_64")]
    {
        // A cached bit test after the first call (and `true` at compile time when AVX2 is
        // enabled for the whole build).
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU was just found to support AVX2, the one feature the kernel is
            // compiled for.
            return unsafe { avx2::flips(input) };
        }
    }
    portable(input)
}

/// The path for CPUs without AVX2 (LLVM makes SSE2 code of it): the same eight rays as four
/// lanes of one up and one down ray each, but the down rays find their highest non-white
/// square by smearing it into every lower bit (no variable per-lane shifts in SSE2). Kept out
/// of line on x86-64, where callers inline [`solve`] and this is the rare path.
#[cfg_attr(target_arch = "x86_64", inline(never))]
fn portable(input: &Input) -> Answer {
    let rays = &RAYS.0[usize::from(input.play & 63)];
    let (black, white) = (input.black, input.white);
    let mut lanes = [0u64; 4];
    for (i, lane) in lanes.iter_mut().enumerate() {
        // Upward: the blocker is the lowest bit. `outflank - 1` is every square before it;
        // with no black blocker `outflank` is 0, and the sign bit of `0 - 1` (which a real
        // `outflank - 1` never has) clears the result.
        let ray = rays[i];
        let blockers = ray & !white;
        let outflank = blockers & blockers.wrapping_neg() & black;
        let before = outflank.wrapping_sub(1);
        let up = ray & before & !(((before as i64) >> 63) as u64);
        // Downward: the blocker is the highest bit, isolated by smearing it into every lower
        // bit; `-outflank << 1` is every square above it (none when `outflank` is 0).
        let ray = rays[i + 4];
        let mut smear = ray & !white;
        smear |= smear >> 1;
        smear |= smear >> 2;
        smear |= smear >> 4;
        smear |= smear >> 8;
        smear |= smear >> 16;
        smear |= smear >> 32;
        let outflank = (smear ^ (smear >> 1)) & black;
        let down = outflank.wrapping_neg().wrapping_shl(1) & ray;
        *lane = up | down;
    }
    Answer((lanes[0] | lanes[1]) | (lanes[2] | lanes[3]))
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_cmpgt_epi64,
        _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi64x,
        _mm256_srlv_epi64, _mm256_sub_epi64, _mm256_xor_si256,
    };

    use super::super::{Answer, Input};
    use super::STEPS;

    /// Per square, `[!up rays, down rays]`: the complement of the up rays lets the kernel work
    /// with `white` as it comes (a `!white` costs LLVM three instructions per call).
    #[repr(C, align(64))]
    struct VectorRays([[__m256i; 2]; 64]);

    const fn vector_rays() -> [[[u64; 4]; 2]; 64] {
        let rays = super::rays().0;
        let mut table = [[[0u64; 4]; 2]; 64];
        let mut square = 0;
        while square < 64 {
            let mut lane = 0;
            while lane < 4 {
                table[square][0][lane] = !rays[square][lane];
                table[square][1][lane] = rays[square][lane + 4];
                lane += 1;
            }
            square += 1;
        }
        table
    }

    // SAFETY: a reinterpretation of plain data at compile time: `[u64; 4]` and `__m256i` have
    // the same size, and every bit pattern is a valid value of either.
    static VECTOR_RAYS: VectorRays = VectorRays(unsafe {
        std::mem::transmute::<[[[u64; 4]; 2]; 64], [[__m256i; 2]; 64]>(vector_rays())
    });

    /// The index distance of one step along each down ray (`STEPS[4..]`: 1, 7, 8, 9).
    const DOWN_STEP: [i64; 4] = {
        let mut steps = [0i64; 4];
        let mut i = 0;
        while i < 4 {
            let (dr, dc) = STEPS[4 + i];
            steps[i] = -(dr * 8 + dc) as i64;
            i += 1;
        }
        steps
    };

    /// Shift counts that move a bit `k` steps down each down ray (a constant vector).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn down_steps(k: i64) -> __m256i {
        let [a, b, c, d] = DOWN_STEP;
        _mm256_set_epi64x(k * d, k * c, k * b, k * a)
    }

    /// The flips of all eight rays: up rays in one register, down rays in the other.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub fn flips(input: &Input) -> Answer {
        let [not_up, down] = VECTOR_RAYS.0[usize::from(input.play & 63)];
        let black = _mm256_set1_epi64x(input.black as i64);
        let white = _mm256_set1_epi64x(input.white as i64);

        // Up rays: `closed` has ones on white and off-ray squares; adding 1 carries through them
        // to the first non-white ray square, so `closed ^ (closed + 1)` is the white run, its
        // blocker, and off-ray squares. Keep the ray squares, then drop a black blocker.
        let closed = _mm256_or_si256(white, not_up);
        let carried = _mm256_sub_epi64(closed, _mm256_set1_epi64x(-1));
        let through = _mm256_andnot_si256(not_up, _mm256_xor_si256(closed, carried));
        let run = _mm256_andnot_si256(black, through);
        let up_flips = _mm256_andnot_si256(_mm256_cmpeq_epi64(run, through), run);

        // Down rays: the run closes when the highest non-white square is black; it is every ray
        // square above the highest black square.
        let mine = _mm256_and_si256(black, down);
        let empty = _mm256_andnot_si256(_mm256_or_si256(black, white), down);
        let black_closes = _mm256_cmpgt_epi64(mine, empty);
        let mut below = _mm256_or_si256(mine, _mm256_srlv_epi64(mine, down_steps(1)));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, down_steps(2)));
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, down_steps(4)));
        let down_flips = _mm256_and_si256(_mm256_andnot_si256(below, down), black_closes);

        let all = _mm256_or_si256(up_flips, down_flips);
        let half = _mm_or_si128(
            _mm256_castsi256_si128(all),
            _mm256_extracti128_si256::<1>(all),
        );
        Answer(_mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every colouring of every ray of every square (3^k boards for a ray of k squares, the rest
    /// of the board from a fixed pseudo-random stream), on every path the machine has.
    #[test]
    fn every_ray_colouring_agrees_with_the_reference() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0u64;
        for play in 0..64u8 {
            for d in 0..8 {
                let squares: Vec<u32> = (0..64)
                    .filter(|&s| RAYS.0[usize::from(play)][d] >> s & 1 == 1)
                    .collect();
                for colouring in 0..3u32.pow(squares.len() as u32) {
                    let (a, b) = (next(), next());
                    let ray = RAYS.0[usize::from(play)][d] | 1 << play;
                    let (mut black, mut white) = (a & !b & !ray, b & !a & !ray);
                    let mut code = colouring;
                    for &s in &squares {
                        match code % 3 {
                            1 => black |= 1 << s,
                            2 => white |= 1 << s,
                            _ => {}
                        }
                        code /= 3;
                    }
                    let input = Input { black, white, play };
                    let expected = super::super::reference::solve(&input);
                    assert_eq!(portable(&input), expected, "portable: {input:?}");
                    assert_eq!(solve(&input), expected, "solve: {input:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 131_168);
    }
}
