//! othello-flips families: positions of real games, runs closed by black, an empty square or
//! the edge, runs that would wrap around an edge in index arithmetic, crowded boards.

use solutions::othello_flips::{Input, OthelloFlips};
use solutions::{Problem, board::DIRECTIONS};

use crate::invalid::format_families;
use crate::{Family, Generate, InvalidFamily, Rng};

const START_BLACK: u64 = 1 << 28 | 1 << 35; // e4, d5
const START_WHITE: u64 = 1 << 27 | 1 << 36; // d4, e5

/// The fast solver (proven equal to the reference) computes flips: games are long.
fn flips(own: u64, opp: u64, square: u8) -> u64 {
    OthelloFlips::fast(&Input {
        black: own,
        white: opp,
        play: square,
    })
    .0
}

fn squares(mask: u64) -> Vec<u8> {
    (0..64u8).filter(|&s| mask >> s & 1 == 1).collect()
}

fn empties(own: u64, opp: u64) -> Vec<u8> {
    squares(!(own | opp))
}

/// All legal moves of `own` at once: from `own`'s discs, through runs of `opp`'s, to an
/// empty square, in the eight directions (the usual Othello move generation).
fn legal_mask(own: u64, opp: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE; // no column 0 (after a step east)
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F; // no column 7 (after a step west)
    type Shift = (fn(u64) -> u64, u64); // a one-square step, and the columns it may land on
    let shifts: [Shift; 8] = [
        (|x| x << 1, NOT_A),
        (|x| x >> 1, NOT_H),
        (|x| x << 8, !0),
        (|x| x >> 8, !0),
        (|x| x << 9, NOT_A),
        (|x| x >> 9, NOT_H),
        (|x| x << 7, NOT_H),
        (|x| x >> 7, NOT_A),
    ];
    let empty = !(own | opp);
    let mut moves = 0;
    for (step, mask) in shifts {
        let through = opp & mask;
        let mut run = step(own) & through;
        for _ in 0..5 {
            run |= step(run) & through;
        }
        moves |= step(run) & mask & empty;
    }
    moves
}

/// Is `square` a legal move of `own` (by the move generator)? For tests.
pub fn is_legal(own: u64, opp: u64, square: u8) -> bool {
    legal_mask(own, opp) >> square & 1 == 1
}

fn legal_moves(own: u64, opp: u64) -> Vec<u8> {
    squares(legal_mask(own, opp))
}

/// Plays `moves` random legal moves from the opening (passing when a side cannot move) and
/// returns (side to move, other side).
fn play(rng: &mut Rng, moves: u32) -> (u64, u64, u32) {
    let (mut own, mut opp) = (START_BLACK, START_WHITE);
    let mut played = 0;
    let mut passes = 0;
    while played < moves && passes < 2 {
        let legal = legal_mask(own, opp);
        if legal == 0 {
            passes += 1;
        } else {
            passes = 0;
            // The n-th legal square, straight from the mask.
            let mut rest = legal;
            for _ in 0..rng.below(legal.count_ones()) {
                rest &= rest - 1;
            }
            let square = rest.trailing_zeros() as u8;
            let flipped = flips(own, opp, square);
            own |= flipped | 1 << square;
            opp &= !flipped;
            played += 1;
        }
        std::mem::swap(&mut own, &mut opp);
    }
    (own, opp, played)
}

fn with_play(own: u64, opp: u64, square: u8) -> Input {
    Input {
        black: own,
        white: opp,
        play: square,
    }
}

/// A real game's position, the side to move as black, `P` on any empty square.
fn random_game(rng: &mut Rng) -> (Input, String) {
    loop {
        let moves = rng.range(0, 60);
        let (own, opp, played) = play(rng, moves);
        let free = empties(own, opp);
        if !free.is_empty() {
            return (
                with_play(own, opp, rng.pick(&free)),
                format!("moves={played}"),
            );
        }
    }
}

/// A real game's position, `P` on one of black's legal moves.
fn legal_move(rng: &mut Rng) -> (Input, String) {
    loop {
        let moves = rng.range(0, 58);
        let (own, opp, played) = play(rng, moves);
        let legal = legal_moves(own, opp);
        if !legal.is_empty() {
            return (
                with_play(own, opp, rng.pick(&legal)),
                format!("moves={played} legal={}", legal.len()),
            );
        }
    }
}

/// Random discs: each square black, white or empty with random densities.
fn random_board(rng: &mut Rng, fill_per_mille: u32) -> (u64, u64) {
    let (mut black, mut white) = (0u64, 0u64);
    let white_share = rng.range(300, 800);
    for s in 0..64 {
        if rng.below(1000) < fill_per_mille {
            if rng.below(1000) < white_share {
                white |= 1 << s;
            } else {
                black |= 1 << s;
            }
        }
    }
    (black, white)
}

fn place_p(rng: &mut Rng, black: u64, white: u64) -> Input {
    let p = rng.below(64) as u8;
    with_play(black & !(1 << p), white & !(1 << p), p)
}

fn crowded(rng: &mut Rng) -> (Input, String) {
    let fill = rng.range(700, 1000);
    let (black, white) = random_board(rng, fill);
    (place_p(rng, black, white), format!("fill_per_mille={fill}"))
}

fn sparse(rng: &mut Rng) -> (Input, String) {
    let fill = rng.range(0, 700);
    let (black, white) = random_board(rng, fill);
    (place_p(rng, black, white), format!("fill_per_mille={fill}"))
}

/// From `P`, in each direction, a white run of random length ended by black, empty or the edge.
fn closed_runs(rng: &mut Rng) -> (Input, String) {
    let p = rng.below(64) as i32;
    let (mut black, mut white) = (0u64, 0u64);
    let mut ends = String::new();
    for (dr, dc) in DIRECTIONS {
        let len = rng.range(0, 7) as i32;
        let end = rng.below(3); // 0 black, 1 empty, 2 as far as the edge
        let (mut r, mut c) = (p / 8 + dr, p % 8 + dc);
        let mut k = 0;
        while (0..8).contains(&r) && (0..8).contains(&c) && (k < len || end == 2) {
            white |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
            k += 1;
        }
        if end == 0 && (0..8).contains(&r) && (0..8).contains(&c) {
            black |= 1 << (r * 8 + c);
            // Sometimes more white and black beyond: nothing there may flip (no chain reaction).
            if rng.chance(1, 3) {
                let (r2, c2) = (r + dr, c + dc);
                if (0..8).contains(&(r2 + dr)) && (0..8).contains(&(c2 + dc)) {
                    white |= 1 << (r2 * 8 + c2);
                    black |= 1 << ((r2 + dr) * 8 + c2 + dc);
                }
            }
        }
        ends.push(['B', 'N', 'E'][end as usize]);
    }
    (
        with_play(black & !white, white, p as u8),
        format!("p={p} ends={ends}"),
    )
}

/// `P` on an edge with a white run toward it whose index continues onto the next or previous
/// row: a solver walking bit indices without edge masks flips discs across the edge.
fn edge_wrap(rng: &mut Rng) -> (Input, String) {
    // (square, index step) pairs where stepping the index leaves the board sideways.
    let (row, left_edge) = (rng.below(8) as i32, rng.chance(1, 2));
    let p = if left_edge { row * 8 } else { row * 8 + 7 };
    let step = rng.pick(&if left_edge { [-1, 7, -9] } else { [1, -7, 9] });
    let len = rng.range(1, 5) as i32;
    let noise = rng.range(0, 300);
    let (mut black, mut white) = random_board(rng, noise);
    let mut s = p + step;
    for _ in 0..len {
        if !(0..64).contains(&s) {
            break;
        }
        white |= 1 << s;
        black &= !(1 << s);
        s += step;
    }
    if (0..64).contains(&s) {
        black |= 1 << s;
        white &= !(1 << s);
    }
    (
        with_play(black & !(1 << p), white & !(1 << p), p as u8),
        format!("p={p} step={step} run={len}"),
    )
}

/// White runs closed by black in all eight directions at once.
fn all_directions(rng: &mut Rng) -> (Input, String) {
    let p = (rng.range(2, 5) * 8 + rng.range(2, 5)) as i32;
    let (mut black, mut white) = (0u64, 0u64);
    for (dr, dc) in DIRECTIONS {
        let (mut r, mut c) = (p / 8 + dr, p % 8 + dc);
        let len = rng.range(1, 5);
        let mut k = 0;
        while (0..8).contains(&(r + dr)) && (0..8).contains(&(c + dc)) && k < len {
            white |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
            k += 1;
        }
        black |= 1 << (r * 8 + c);
    }
    let black = black & !white;
    (with_play(black, white, p as u8), format!("p={p}"))
}

impl Generate for OthelloFlips {
    fn families() -> Vec<Family<Self>> {
        vec![
            Family {
                name: "random-game",
                targets: "positions of real games, P on any empty square",
                weight: 2,
                make: random_game,
            },
            Family {
                name: "legal-move",
                targets: "positions of real games, P a legal move",
                weight: 3,
                make: legal_move,
            },
            Family {
                name: "closed-runs",
                targets: "runs closed by black, an empty square or the edge",
                weight: 3,
                make: closed_runs,
            },
            Family {
                name: "edge-wrap",
                targets: "runs that would wrap around an edge in index arithmetic",
                weight: 3,
                make: edge_wrap,
            },
            Family {
                name: "all-directions",
                targets: "flips in all eight directions at once",
                weight: 1,
                make: all_directions,
            },
            Family {
                name: "crowded",
                targets: "boards 70-100% full",
                weight: 2,
                make: crowded,
            },
            Family {
                name: "sparse",
                targets: "random boards up to 70% full",
                weight: 2,
                make: sparse,
            },
        ]
    }

    /// Remove discs (bigger steps first: a whole row), never `P`.
    fn shrink(input: &Input) -> Vec<Input> {
        let mut out = Vec::new();
        for r in 0..8 {
            let row = 0xFFu64 << (8 * r);
            if (input.black | input.white) & row != 0 {
                out.push(Input {
                    black: input.black & !row,
                    white: input.white & !row,
                    play: input.play,
                });
            }
        }
        for s in 0..64 {
            let bit = 1u64 << s;
            if (input.black | input.white) & bit != 0 {
                out.push(Input {
                    black: input.black & !bit,
                    white: input.white & !bit,
                    play: input.play,
                });
            }
        }
        out
    }

    /// Rotations and reflections keep every rule (the eight rays map onto each other).
    const IMAGES: u32 = 8;

    fn image(input: &Input, k: u32) -> Input {
        let square = |s: u32| {
            let (r, c) = crate::stones::transform::<8>(k, ((s / 8) as i32, (s % 8) as i32));
            (r * 8 + c) as u32
        };
        let mask = |bits: u64| {
            let (mut bits, mut out) = (bits, 0u64);
            while bits != 0 {
                out |= 1 << square(bits.trailing_zeros());
                bits &= bits - 1;
            }
            out
        };
        Input {
            black: mask(input.black),
            white: mask(input.white),
            play: square(u32::from(input.play)) as u8,
        }
    }

    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Input> {
        let (black, white, play) = (
            u.arbitrary::<u64>()?,
            u.arbitrary::<u64>()?,
            u.int_in_range(0u8..=63)?,
        );
        let bit = 1u64 << play;
        Ok(Input {
            black: black & !white & !bit,
            white: white & !bit,
            play,
        })
    }

    fn invalid_families() -> Vec<InvalidFamily> {
        let mut families = format_families::<Self>();
        families.push(InvalidFamily {
            name: "no-p",
            targets: "no square to play",
            make: no_p,
        });
        families.push(InvalidFamily {
            name: "two-p",
            targets: "two squares to play",
            make: two_p,
        });
        families
    }
}

fn no_p(rng: &mut Rng) -> (Vec<u8>, String) {
    let text = OthelloFlips::write_input(&random_game(rng).0);
    let replacement = rng.pick(&['B', 'W', 'N']);
    (
        text.replace('P', &replacement.to_string()).into_bytes(),
        format!("P replaced by {replacement}"),
    )
}

fn two_p(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = OthelloFlips::write_input(&random_game(rng).0).into_bytes();
    let others: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b != b'\n' && b != b'P')
        .map(|(i, _)| i)
        .collect();
    let at = rng.pick(&others);
    text[at] = b'P';
    (text, format!("second P at byte {at}"))
}
