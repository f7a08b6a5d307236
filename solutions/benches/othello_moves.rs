//! ns per move of the othello-flips fast solver, called from another crate through the trait
//! (`<OthelloFlips as Problem>::fast`), on legal moves of random games, with the XOR of every
//! flip mask so that another implementation measured on the same moves can be checked against
//! it. How the figure was compared with Edax's `flip_avx_acepck`: the README, "Measured
//! performance".
//!
//! `cargo bench -p solutions --bench othello_moves [-- --write FILE] [-- --seed S]`
//!
//! The moves: from the start position the side to move plays a uniformly random legal move
//! (xorshift64*, seeded), passing when it has none, until neither side can move; every
//! (position, legal move) met is a case, the side to move as black (the player). `--write FILE`
//! writes them, one per line: `PLAYER OPPONENT SQUARE` (bitboards as 16 hex digits, bit
//! 8 * row + col; the square 0..63). Seed 1 gives 100,315 moves whose flips XOR to
//! 6ad94e916501964e.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use solutions::Problem;
use solutions::othello_flips::{Input, OthelloFlips};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Every legal move of `player` against `opponent`, with the discs it flips (the reference's).
fn legal(player: u64, opponent: u64) -> Vec<(u8, u64)> {
    (0..64u8)
        .filter(|&x| (player | opponent) >> x & 1 == 0)
        .filter_map(|x| {
            let input = Input {
                black: player,
                white: opponent,
                play: x,
            };
            let flips = OthelloFlips::reference(&input).0;
            (flips != 0).then_some((x, flips))
        })
        .collect()
}

/// At least `min` (position, move) cases from random games.
fn moves(seed: u64, min: usize) -> Vec<Input> {
    let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = Vec::new();
    while out.len() < min {
        // d5 and e4 the player's, d4 and e5 the opponent's.
        let (mut player, mut opponent) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut passes = 0;
        while passes < 2 {
            let moves = legal(player, opponent);
            if moves.is_empty() {
                passes += 1;
                std::mem::swap(&mut player, &mut opponent);
                continue;
            }
            passes = 0;
            out.extend(moves.iter().map(|&(x, _)| Input {
                black: player,
                white: opponent,
                play: x,
            }));
            let (x, flips) = moves[(rng.next() % moves.len() as u64) as usize];
            (player, opponent) = (opponent & !flips, player | flips | 1 << x);
        }
    }
    out
}

#[inline(never)]
fn sweep(inputs: &[Input]) -> u64 {
    inputs.iter().fold(0, |acc, i| {
        acc ^ <OthelloFlips as Problem>::fast(black_box(i)).0
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let seed = value("--seed").map_or(1, |s| s.parse().expect("--seed takes a number"));
    let inputs = moves(seed, 100_000);
    if let Some(path) = value("--write") {
        let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect(path));
        for i in &inputs {
            writeln!(file, "{:016x} {:016x} {}", i.black, i.white, i.play).expect(path);
        }
    }
    let reference = inputs
        .iter()
        .fold(0, |acc, i| acc ^ OthelloFlips::reference(i).0);
    let xor = sweep(&inputs);
    assert_eq!(xor, reference, "the fast and reference flips differ");
    for _ in 0..3 {
        black_box(sweep(&inputs));
    }
    // Passes of 20 sweeps; the fastest and the median pass, per move.
    let mut passes: Vec<f64> = (0..40)
        .map(|_| {
            let started = Instant::now();
            for _ in 0..20 {
                assert_eq!(sweep(black_box(&inputs)), xor);
            }
            started.elapsed().as_nanos() as f64 / (20 * inputs.len()) as f64
        })
        .collect();
    passes.sort_by(f64::total_cmp);
    println!(
        "othello-flips fast: {} moves (seed {seed}), xor {xor:016x}: fastest pass {:.2} ns/move, median {:.2}",
        inputs.len(),
        passes[0],
        passes[passes.len() / 2]
    );
}
