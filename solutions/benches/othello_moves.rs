//! ns per move of the othello-flips fast solver as a user calls it: from another crate (this
//! bench), through the trait (`<OthelloFlips as Problem>::fast`), default target, release
//! profile, no LTO; on legal moves of random games, with the XOR of every flip mask so that
//! another implementation measured on the same moves can be checked against it.
//!
//! `cargo bench -p solutions --bench othello_moves [-- OPTIONS]`
//!
//! * `--edax LIB`: also times Edax 4.6's `flip_avx_acepck` on the same moves in the same loop
//!   shape, inlined into its loop and called, from the library `benches/edax/build.sh` builds
//!   (Edax is GPL and not part of this repository; see there).
//! * `--kernels`: also times each kernel of the fast solver on its own (through a pointer).
//! * `--write FILE`: writes the moves, one per line: `PLAYER OPPONENT SQUARE` (bitboards as 16
//!   hex digits, bit 8 * row + col; the square 0..63).
//! * `--seed S` (default 1).
//!
//! The moves: from the start position the side to move plays a uniformly random legal move
//! (xorshift64*, seeded), passing when it has none, until neither side can move; every
//! (position, legal move) met is a case, the side to move as black (the player). Seed 1 gives
//! 100,315 moves whose flips XOR to 6ad94e916501964e.
//!
//! The contenders run in rounds, one pass of 5 sweeps over every move each, the order rotating
//! from round to round; a pass is timed in the thread's CPU time, so the other programs of a
//! loaded machine do not count (their effect on caches and the clock still does). Printed per
//! contender: the fastest pass, quartiles, and the ratio of the project's pass to the
//! contender's in the same round (the load moves both alike), with the load average.

use std::hint::black_box;
use std::io::Write;

use solutions::Problem;
use solutions::othello_flips::{FastKernel, Input, OthelloFlips, fast_kernels};

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

/// The same loop through one kernel of the fast solver, whichever the dispatch would pick.
#[inline(never)]
fn sweep_kernel(kernel: &FastKernel, inputs: &[Input]) -> u64 {
    inputs
        .iter()
        .fold(0, |acc, i| acc ^ kernel.flips(black_box(i)).0)
}

/// A move as `benches/edax/sweep.c` reads it.
#[repr(C)]
struct EdaxMove {
    player: u64,
    opponent: u64,
    square: u64,
}

/// `edax_sweep_inlined` / `edax_sweep_called` of `benches/edax/sweep.c`: the XOR of the flips
/// of every move.
type EdaxSweep = unsafe extern "C" fn(*const EdaxMove, usize) -> u64;

unsafe extern "C" {
    fn dlopen(filename: *const std::ffi::c_char, flags: std::ffi::c_int) -> *mut std::ffi::c_void;
    fn dlsym(
        handle: *mut std::ffi::c_void,
        symbol: *const std::ffi::c_char,
    ) -> *mut std::ffi::c_void;
}

/// The two sweeps of the library `benches/edax/build.sh` built (never unloaded).
fn load_edax(path: &str) -> [(&'static str, EdaxSweep); 2] {
    const RTLD_NOW: std::ffi::c_int = 2;
    let name = std::ffi::CString::new(path).expect("--edax: a path without NUL bytes");
    // SAFETY: `name` is a NUL-terminated string that outlives the call; the library is the one
    // `benches/edax/build.sh` builds (its constructors are the C runtime's only).
    let handle = unsafe { dlopen(name.as_ptr(), RTLD_NOW) };
    assert!(!handle.is_null(), "--edax: cannot load {path}");
    ["edax_sweep_inlined", "edax_sweep_called"].map(|symbol| {
        let c_symbol = std::ffi::CString::new(symbol).expect("no NUL");
        // SAFETY: a live handle and a NUL-terminated name.
        let address = unsafe { dlsym(handle, c_symbol.as_ptr()) };
        assert!(!address.is_null(), "--edax: {path} has no {symbol}");
        // SAFETY: sweep.c defines the symbol as `uint64_t (const struct edax_move *, size_t)`,
        // which is `EdaxSweep` (the struct is `EdaxMove`, `#[repr(C)]`).
        let sweep = unsafe { std::mem::transmute::<*mut std::ffi::c_void, EdaxSweep>(address) };
        (symbol.trim_start_matches("edax_sweep_"), sweep)
    })
}

/// The CPU time this thread has used: unlike the wall clock, it does not count the time the
/// other programs of a loaded machine run instead of this one.
fn thread_cpu_time() -> std::time::Duration {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: std::ffi::c_int, time: *mut Timespec) -> std::ffi::c_int;
    }
    const CLOCK_THREAD_CPUTIME_ID: std::ffi::c_int = 3;
    let mut time = Timespec {
        seconds: 0,
        nanoseconds: 0,
    };
    // SAFETY: a valid clock id and a pointer to a `struct timespec` (two 64-bit fields on
    // 64-bit Linux) that lives across the call.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    std::time::Duration::new(time.seconds as u64, time.nanoseconds as u32)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "?".to_string())
}

/// ns per move of one pass of `SWEEPS` sweeps.
const SWEEPS: usize = 5;
const ROUNDS: usize = 100;

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

    // The contenders, each a sweep of every move returning the XOR of the flips: the project's
    // solver, then Edax's flip inlined into its loop and called, when `--edax LIB` is given.
    let edax_moves: Vec<EdaxMove> = inputs
        .iter()
        .map(|i| EdaxMove {
            player: i.black,
            opponent: i.white,
            square: u64::from(i.play),
        })
        .collect();
    let kernels = fast_kernels();
    let mut contenders: Vec<(String, Box<dyn Fn() -> u64>)> =
        vec![("fast".to_string(), Box::new(|| sweep(black_box(&inputs))))];
    if args.iter().any(|a| a == "--kernels") {
        for kernel in &kernels {
            let inputs = &inputs;
            contenders.push((
                format!("kernel {}", kernel.name),
                Box::new(move || sweep_kernel(black_box(kernel), black_box(inputs))),
            ));
        }
    }
    if let Some(path) = value("--edax") {
        for (name, edax) in load_edax(path) {
            let edax_moves = &edax_moves;
            contenders.push((
                format!("edax {name}"),
                // SAFETY: the pointer and length of a live slice of `EdaxMove`, which the
                // sweep only reads.
                Box::new(move || unsafe { edax(black_box(edax_moves.as_ptr()), edax_moves.len()) }),
            ));
        }
    }
    for (name, sweep) in &contenders {
        assert_eq!(sweep(), xor, "{name}: the XOR of its flips differs");
        for _ in 0..3 {
            black_box(sweep());
        }
    }

    // Rounds of one pass of `SWEEPS` sweeps per contender, the order rotating from round to
    // round (so no contender always follows the same one); ns per move of each pass.
    let load_before = load_average();
    let mut passes = vec![Vec::new(); contenders.len()];
    for round in 0..ROUNDS {
        for k in 0..contenders.len() {
            let c = (round + k) % contenders.len();
            let started = thread_cpu_time();
            for _ in 0..SWEEPS {
                assert_eq!((contenders[c].1)(), xor);
            }
            let elapsed = thread_cpu_time() - started;
            passes[c].push(elapsed.as_nanos() as f64 / (SWEEPS * inputs.len()) as f64);
        }
    }
    let load_after = load_average();
    let quantile =
        |sorted: &[f64], q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    println!(
        "othello-flips fast: {} moves (seed {seed}), xor {xor:016x}: fastest pass {:.2} ns/move, median {:.2}",
        inputs.len(),
        passes[0].iter().copied().fold(f64::INFINITY, f64::min),
        quantile(&sorted(&passes[0]), 0.5)
    );
    println!(
        "{ROUNDS} rounds of {SWEEPS} sweeps per contender, interleaved, thread CPU time; load average {load_before} before, {load_after} after"
    );
    println!(
        "kernels this CPU runs: {} (`fast` calls the first through a pointer, or inlines the one the build's target enables: avx2 {}, avx512vl {})",
        kernels
            .iter()
            .map(|k| k.name)
            .collect::<Vec<_>>()
            .join(", "),
        cfg!(target_feature = "avx2"),
        cfg!(target_feature = "avx512vl"),
    );
    for (c, (name, _)) in contenders.iter().enumerate() {
        let times = sorted(&passes[c]);
        print!(
            "  {name:<16} ns/move: fastest {:.2}, p25 {:.2}, median {:.2}, p75 {:.2}",
            times[0],
            quantile(&times, 0.25),
            quantile(&times, 0.5),
            quantile(&times, 0.75)
        );
        if c > 0 {
            // The ratio of the project's pass to this one's in the same round: the load moves
            // both alike.
            let ratios: Vec<f64> = (0..ROUNDS).map(|r| passes[0][r] / passes[c][r]).collect();
            let ratios = sorted(&ratios);
            print!(
                "; fast / this: fastest {:.2}x, round by round median {:.2}x (p25 {:.2}, p75 {:.2})",
                passes[0].iter().copied().fold(f64::INFINITY, f64::min) / times[0],
                quantile(&ratios, 0.5),
                quantile(&ratios, 0.25),
                quantile(&ratios, 0.75)
            );
        }
        println!();
    }
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut values = values.to_vec();
    values.sort_by(f64::total_cmp);
    values
}
