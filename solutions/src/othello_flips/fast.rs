//! The fast solver: 64-bit bitboards and precomputed rays.
//!
//! `RAYS[p]` holds, for each of the eight directions, the squares met walking from `p` to the
//! edge: four rays toward higher bit indices ("up"), then four toward lower ones ("down").
//! Nothing can wrap around an edge because the rays stop there. On a ray, the first square that
//! is not white (the blocker) decides: if it is black, every ray square before it is white and
//! flips. Every kernel below handles the rays as four lanes of one up and one down ray each; on
//! an up ray the blocker is the lowest non-white ray square, on a down ray the highest.
//!
//! Three kernels, the fastest the CPU runs chosen once:
//!
//! * [`avx512`] (AVX-512 VL and CD, 256-bit registers): the lowest non-white square of the up
//!   rays by `x & -x`, the highest of the down rays by a leading-zero count per lane, and the
//!   rest in three-input logic instructions: about 20 vector instructions.
//! * [`avx2`]: the up rays by carry propagation, the down rays by comparing black and empty
//!   ray squares as numbers and smearing: about 30.
//! * [`portable`] (what LLVM makes of plain `u64` code: SSE2 on baseline x86-64).
//!
//! How [`solve`] reaches them (it is `#[inline]`, so this happens in the caller's crate):
//!
//! * If the build's target already has a kernel's features (`-C target-cpu=native` on an
//!   AVX-512 or AVX2 machine), [`solve`] is that kernel, which inlines into the caller: no
//!   dispatch, no call.
//! * Otherwise (the default x86-64 target has neither) [`solve`] is one load and one indirect
//!   call through a function pointer resolved on the first call (`dispatch`): the kernel is
//!   compiled for features the caller's code may not assume, so it cannot inline, and the
//!   pointer makes the choice cost nothing after the first call.
//!
//! The AVX-512 kernel needs Rust 1.89 (its intrinsics); `build.rs` sets `othello_avx512` when the
//! compiler has them. Without it (an older compiler, or this file built alone, as `judge
//! package` exports it) the AVX2 kernel is the fastest.
//!
//! Measured through `<OthelloFlips as Problem>::fast` from another crate (default target,
//! release profile, no LTO), on the 100,315 legal moves of `benches/othello_moves.rs`, in the
//! same process as Edax 4.6's `flip_avx_acepck` (see `benches/edax/`), on an Intel Xeon
//! (Sapphire Rapids class) at load 15-16, median passes: 3.0 ns per move with the AVX-512 kernel,
//! 0.82x Edax's flip inlined into its loop and 0.76x Edax's flip called (the AVX2 kernel through
//! the same pointer 3.5 ns, about 0.96x inlined Edax; the portable one 8.6-9.0 ns); 2.4 ns,
//! 0.69x, with `-C target-cpu=native`. Before the pointer and the AVX-512 kernel: 3.7 ns, 1.02x.
//! Figures and commands: the README, "Measured performance".

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

/// The solver: the AVX-512 kernel, inlined, when the build's target has its features.
#[cfg(all(
    target_arch = "x86_64",
    othello_avx512,
    target_feature = "avx512vl",
    target_feature = "avx512cd"
))]
#[inline]
pub fn solve(input: &Input) -> Answer {
    // SAFETY: the build's target has the kernel's features (the `cfg` above); rustc does not
    // count target features the whole build enables when it checks this call.
    unsafe { avx512::flips(input) }
}

/// The solver: the AVX2 kernel, inlined, when the build's target has AVX2 (and not the
/// AVX-512 kernel's features).
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    not(all(
        othello_avx512,
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))
))]
#[inline]
pub fn solve(input: &Input) -> Answer {
    // SAFETY: the build's target has AVX2 (the `cfg` above); rustc does not count target
    // features the whole build enables when it checks this call.
    unsafe { avx2::flips(input) }
}

/// The solver: the kernel chosen for this CPU on the first call, through a function pointer
/// (`#[inline]`, so the caller's loop holds the load and the call, and nothing else).
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
#[inline]
pub fn solve(input: &Input) -> Answer {
    dispatch::solve(input)
}

/// The solver on other architectures.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub fn solve(input: &Input) -> Answer {
    portable::flips(input)
}

/// One of the kernels, with its name. Made only by [`kernels`], for kernels this CPU runs, which
/// is what makes [`Kernel::flips`] safe to call.
#[derive(Clone, Copy)]
pub struct Kernel {
    pub name: &'static str,
    run: unsafe fn(&Input) -> Answer,
}

impl Kernel {
    #[inline]
    pub fn flips(&self, input: &Input) -> Answer {
        // SAFETY: `kernels` makes a `Kernel` only for a kernel whose CPU features it found.
        unsafe { (self.run)(input) }
    }
}

/// Every kernel this CPU runs, the fastest first (the one the dispatch picks): for the tests,
/// which check each against the reference, and the bench, which times each.
pub fn kernels() -> Vec<Kernel> {
    let mut out = Vec::new();
    #[cfg(all(target_arch = "x86_64", othello_avx512))]
    if std::is_x86_feature_detected!("avx512vl") && std::is_x86_feature_detected!("avx512cd") {
        out.push(Kernel {
            name: "avx512",
            run: avx512::flips,
        });
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        out.push(Kernel {
            name: "avx2",
            run: avx2::flips,
        });
    }
    out.push(Kernel {
        name: "portable",
        run: portable::flips,
    });
    out
}

/// The function pointer [`solve`] calls when the build's target has no SIMD kernel's features.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(target_feature = "avx2", allow(dead_code))]
mod dispatch {
    use std::sync::atomic::{AtomicPtr, Ordering};

    use super::super::{Answer, Input};

    type Run = unsafe fn(&Input) -> Answer;

    /// Holds a `Run`: `first_call` until the first call stores the fastest kernel this CPU runs.
    /// (A data pointer, because atomics of function pointers are not in the standard library;
    /// two threads' first calls store the same value.)
    pub(super) static KERNEL: AtomicPtr<()> = AtomicPtr::new(first_call as Run as *mut ());

    #[inline]
    pub fn solve(input: &Input) -> Answer {
        // SAFETY: `KERNEL` only ever holds a `Run` (set above and in `first_call`), and a
        // function pointer survives the round trip through a data pointer on x86-64.
        let run = unsafe { std::mem::transmute::<*mut (), Run>(KERNEL.load(Ordering::Relaxed)) };
        // SAFETY: `first_call` is safe to call anywhere, and every other value is the first of
        // `kernels()`, a kernel whose CPU features were found.
        unsafe { run(input) }
    }

    /// Finds the fastest kernel, keeps it for the calls after this one and runs it.
    fn first_call(input: &Input) -> Answer {
        let kernel = super::kernels()[0];
        KERNEL.store(kernel.run as *mut (), Ordering::Relaxed);
        kernel.flips(input)
    }
}

/// Plain `u64` code: the same eight rays as four lanes of one up and one down ray each (LLVM
/// makes SSE2 of it on baseline x86-64); the down rays find their highest non-white square by
/// smearing it into every lower bit (no per-lane shifts in SSE2). The path for CPUs without
/// AVX2 and for other architectures.
mod portable {
    use super::super::{Answer, Input};
    use super::RAYS;

    pub fn flips(input: &Input) -> Answer {
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
}

/// The up rays in one 256-bit register, the down rays in another.
///
/// * Up rays: set every square that is white or off the ray, and add 1: the carry runs through
///   the set squares and stops on the blocker, so the bits that change are the white run, its
///   blocker and off-ray squares below it. Of those, keep the ray squares; removing the black
///   ones changes the set exactly when the blocker is black, and then what is left is the run.
/// * Down rays: the blocker is black exactly when the black ray squares, read as a number,
///   exceed the empty ray squares (the sets are disjoint, so the larger number holds the highest
///   bit of their union; bit 63 is never on a down ray, so a signed comparison does). The run is
///   then every ray square above the highest black one: smear the black ray squares down the
///   ray by 1, 2 and 4 steps (a ray has at most 7 squares; per-lane shift counts) and keep the
///   ray squares the smear misses.
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
    const DOWN_STEP: [i64; 4] = down_step();

    /// (A function rather than a constant's block, so that mutation testing names it.)
    const fn down_step() -> [i64; 4] {
        let mut steps = [0i64; 4];
        let mut i = 0;
        while i < 4 {
            let (dr, dc) = STEPS[4 + i];
            steps[i] = -(dr * 8 + dc) as i64;
            i += 1;
        }
        steps
    }

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

/// The up rays in one 256-bit register, the down rays in another; AVX-512's three-input logic
/// (`vpternlogq`, its truth table as the immediate: bit `4a + 2b + c` is the result for inputs
/// `a, b, c`), unsigned 64-bit maximum, per-lane leading-zero count and rotation.
///
/// * Up rays: `x & -x` isolates the lowest set bit of `x`, so `nonwhite & -nonwhite & black` is
///   the blocker if it is black, else 0. The run is the ray squares below it: `ray & (blocker -
///   1)`. With no black blocker, the ray's first square stands in (the maximum of the two: a
///   real blocker is never below the first square), and no ray square is below that.
/// * Down rays: the highest set bit of `x` is bit 63 rotated right by the leading-zero count of
///   `x`. Of `nonwhite | 1` (bit 0 stands in when the ray has no non-white square: then it is
///   off the ray, or a white ray square, and the `& ray & black` that follows clears it), that
///   is the blocker; kept if black. The run is every ray square above it: `blocker ^ -blocker`
///   (0 when the blocker is 0).
#[cfg(all(target_arch = "x86_64", othello_avx512))]
#[clippy::msrv = "1.89"] // `build.rs` sets `othello_avx512` from Rust 1.89 on.
mod avx512 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_castsi256_si128,
        _mm256_extracti128_si256, _mm256_lzcnt_epi64, _mm256_max_epu64, _mm256_rorv_epi64,
        _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_sub_epi64, _mm256_ternarylogic_epi64,
    };

    use super::super::{Answer, Input};

    /// Per square, `[up rays, down rays, first square of each up ray, unused]`: 128 bytes, so
    /// the row of a square is one shift away.
    #[repr(C, align(64))]
    struct VectorRays([[__m256i; 4]; 64]);

    const fn vector_rays() -> [[[u64; 4]; 4]; 64] {
        let rays = super::rays().0;
        let mut table = [[[0u64; 4]; 4]; 64];
        let mut square = 0;
        while square < 64 {
            let mut lane = 0;
            while lane < 4 {
                let up = rays[square][lane];
                table[square][0][lane] = up;
                table[square][1][lane] = rays[square][lane + 4];
                table[square][2][lane] = up & up.wrapping_neg();
                lane += 1;
            }
            square += 1;
        }
        table
    }

    // SAFETY: a reinterpretation of plain data at compile time: `[u64; 4]` and `__m256i` have
    // the same size, and every bit pattern is a valid value of either.
    static VECTOR_RAYS: VectorRays = VectorRays(unsafe {
        std::mem::transmute::<[[[u64; 4]; 4]; 64], [[__m256i; 4]; 64]>(vector_rays())
    });

    /// `vpternlogq` truth tables, for inputs `(a, b, c)`.
    const AND3: i32 = 0x80; // a & b & c
    const NOT_A_AND_B: i32 = 0x0C; // !a & b (c unused)
    const NOT_A_AND_B_OR_C: i32 = 0xAE; // (!a & b) | c
    const A_AND_B_XOR_C: i32 = 0x60; // a & (b ^ c)
    const A_OR_B_AND_NOT_C: i32 = 0xF4; // a | (b & !c)

    /// The flips of all eight rays: up rays in one register, down rays in the other.
    #[target_feature(enable = "avx512f,avx512vl,avx512cd")]
    #[inline]
    pub fn flips(input: &Input) -> Answer {
        let [up, down, first, _] = VECTOR_RAYS.0[usize::from(input.play & 63)];
        let black = _mm256_set1_epi64x(input.black as i64);
        let white = _mm256_set1_epi64x(input.white as i64);
        let zero = _mm256_setzero_si256();

        // Up rays: the black blocker, or the first square; `up & !-x` is `up & (x - 1)`.
        let nonwhite = _mm256_ternarylogic_epi64::<NOT_A_AND_B>(white, up, up);
        let blocker =
            _mm256_ternarylogic_epi64::<AND3>(nonwhite, _mm256_sub_epi64(zero, nonwhite), black);
        let minus_end = _mm256_sub_epi64(zero, _mm256_max_epu64(blocker, first));

        // Down rays: the black blocker (bit 0 of `nonwhite | 1` never survives `& down & black`
        // unless it is a black ray square, the blocker itself), then the squares above it.
        let nonwhite =
            _mm256_ternarylogic_epi64::<NOT_A_AND_B_OR_C>(white, down, _mm256_set1_epi64x(1));
        let highest = _mm256_rorv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(nonwhite));
        let blocker = _mm256_ternarylogic_epi64::<AND3>(highest, black, down);
        let down_flips = _mm256_ternarylogic_epi64::<A_AND_B_XOR_C>(
            down,
            blocker,
            _mm256_sub_epi64(zero, blocker),
        );

        let all = _mm256_ternarylogic_epi64::<A_OR_B_AND_NOT_C>(down_flips, up, minus_end);
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
    /// of the board from a fixed pseudo-random stream), through every kernel this CPU runs and
    /// through `solve`.
    #[test]
    fn every_ray_colouring_agrees_with_the_reference() {
        let kernels = kernels();
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
                    for kernel in &kernels {
                        assert_eq!(kernel.flips(&input), expected, "{}: {input:?}", kernel.name);
                    }
                    assert_eq!(solve(&input), expected, "solve: {input:?}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 131_168);
    }

    /// Random boards of every density (each square black, white or empty with the chances of
    /// the density; `P` any empty square), through every kernel and `solve`.
    #[test]
    fn random_boards_agree_with_the_reference() {
        let kernels = kernels();
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for case in 0..200_000u32 {
            // Density: discs where two of `density + 1` random words agree (1/2, 3/4 … full).
            let mut discs = next();
            for _ in 0..case % 4 {
                discs |= next();
            }
            let colour = next();
            let play = (next() % 64) as u8;
            let discs = discs & !(1 << play);
            let input = Input {
                black: discs & colour,
                white: discs & !colour,
                play,
            };
            let expected = super::super::reference::solve(&input);
            for kernel in &kernels {
                assert_eq!(kernel.flips(&input), expected, "{}: {input:?}", kernel.name);
            }
            assert_eq!(solve(&input), expected, "solve: {input:?}");
        }
    }

    /// The dispatch picks the fastest kernel the CPU runs, and every kernel the machine has
    /// is in the list: AVX2 and AVX-512 where the CPU has them, the portable one always.
    #[test]
    fn the_kernels_are_the_ones_this_cpu_runs() {
        let names: Vec<&str> = kernels().iter().map(|k| k.name).collect();
        assert_eq!(names.last(), Some(&"portable"));
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(
                names.contains(&"avx2"),
                std::is_x86_feature_detected!("avx2")
            );
            #[cfg(othello_avx512)]
            assert_eq!(
                names.contains(&"avx512"),
                std::is_x86_feature_detected!("avx512vl")
                    && std::is_x86_feature_detected!("avx512cd")
            );
            // The first call stores the first kernel; the pointer is that kernel's after it.
            let input = Input {
                black: 0x0000_0008_1000_0000,
                white: 0x0000_0010_0800_0000,
                play: 19,
            };
            assert_eq!(dispatch::solve(&input), Answer(1 << 27));
            let stored = dispatch::KERNEL.load(std::sync::atomic::Ordering::Relaxed);
            assert_eq!(stored, kernels()[0].run as *mut ());
        }
    }
}
