//! gomoku-checker families: realistic games, and every corner of "who moved last, and could
//! the last move have made the five(s)".

use solutions::GomokuChecker;
use solutions::board::{Board, LINES, Stone};
use solutions::gomoku_checker::{Input, SIZE};

use crate::invalid::format_families;
use crate::stones::{Placer, fill, line, put, random_line, run_if_placed, transform_board};
use crate::{Family, Generate, InvalidFamily, Rng};

type B = Board<SIZE>;

/// Fills both colours (no new five) until black has `black` and white `white` stones.
fn fill_to(board: &mut B, rng: &mut Rng, black: u32, white: u32) {
    let mut placer = Placer::new(*board);
    for (stone, target) in [(Stone::Black, black), (Stone::White, white)] {
        let have = placer.board.count(stone);
        if target > have {
            placer.fill(rng, stone, (target - have) as usize, 3);
        }
    }
    *board = placer.board;
}

/// Counts such that `mover` moved last, with about `stones` stones in all.
fn counts_for(mover: Stone, rng: &mut Rng, min_each: u32) -> (u32, u32) {
    let white = rng.range(min_each, min_each + 25);
    match mover {
        Stone::Black => (white + 1, white),
        Stone::White => (white, white),
    }
}

/// A move: usually near earlier stones; one time in four the best of a few tries at
/// lengthening the mover's runs, so that games do end with fives.
pub(crate) fn pick_move<const N: usize>(
    placer: &Placer<N>,
    rng: &mut Rng,
    stone: Stone,
) -> Option<(i32, i32)> {
    let first = placer.random_empty(rng, 3)?;
    if !rng.chance(1, 4) {
        return Some(first);
    }
    let mut best = (run_if_placed(&placer.board, first, stone), first);
    for _ in 0..8 {
        if let Some(cell) = placer.random_empty(rng, 4) {
            let run = run_if_placed(&placer.board, cell, stone);
            if run > best.0 {
                best = (run, cell);
            }
        }
    }
    Some(best.1)
}

/// A random legal game: alternate moves, mostly near earlier stones, until a five (the game
/// ends) or the chosen length.
fn random_game(rng: &mut Rng) -> (Input, String) {
    let length = rng.range(0, 160);
    let mut placer = Placer::new(B::empty());
    let mut stone = Stone::Black;
    let mut played = 0;
    let mut five = false;
    while played < length {
        let Some(cell) = pick_move(&placer, rng, stone) else {
            break;
        };
        five = run_if_placed(&placer.board, cell, stone) >= 5;
        placer.put(cell, stone);
        played += 1;
        if five {
            break;
        }
        stone = stone.other();
    }
    (placer.board, format!("moves={played} ended_by_five={five}"))
}

/// The last move completes a five of the mover, sometimes joining runs into 6-9.
fn finished_game(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let len = if rng.chance(1, 3) {
        rng.range(6, 9) as i32
    } else {
        5
    };
    let run = random_line::<SIZE>(rng, len);
    let last = run[rng.index(run.len())];
    let mut board = B::empty();
    let others: Vec<_> = run.iter().copied().filter(|&c| c != last).collect();
    put(&mut board, &others, mover);
    let (black, white) = counts_for(mover, rng, 4);
    let (black, white) = if mover == Stone::Black {
        (black - 1, white)
    } else {
        (black, white - 1)
    };
    fill_to(&mut board, rng, black, white);
    put(&mut board, &[last], mover);
    (
        board,
        format!(
            "mover={mover:?} run={len} last_index={}",
            run.iter().position(|&c| c == last).unwrap_or(0)
        ),
    )
}

fn no_five_position(rng: &mut Rng, black: u32, white: u32) -> B {
    let mut board = B::empty();
    fill_to(&mut board, rng, black, white);
    board
}

/// White one stone ahead: the bug that passed the original problem's official tests.
fn white_ahead(rng: &mut Rng) -> (Input, String) {
    let black = rng.range(0, 40);
    (
        no_five_position(rng, black, black + 1),
        format!("black={black} white={}", black + 1),
    )
}

fn black_ahead_two(rng: &mut Rng) -> (Input, String) {
    let white = rng.range(0, 40);
    let extra = rng.range(2, 4);
    (
        no_five_position(rng, white + extra, white),
        format!("black={} white={white}", white + extra),
    )
}

/// A five of the colour that did not move last.
fn wrong_mover_five(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let mut board = B::empty();
    put(&mut board, &random_line::<SIZE>(rng, 5), mover.other());
    let (black, white) = counts_for(mover, rng, 5);
    fill_to(&mut board, rng, black, white);
    (
        board,
        format!("mover={mover:?} five_of={:?}", mover.other()),
    )
}

/// Two fives of the mover that cross: they share the last stone (YES) or two lines that only
/// touch (NO).
fn crossing_fives(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let centre = (rng.range(4, 14) as i32, rng.range(4, 14) as i32);
    let (d1, d2) = loop {
        let (a, b) = (rng.pick(&LINES), rng.pick(&LINES));
        if a != b {
            break (a, b);
        }
    };
    let shared = rng.chance(1, 2);
    let mut board = B::empty();
    let k1 = rng.range(0, 4) as i32;
    let k2 = rng.range(0, 4) as i32;
    let first =
        line::<SIZE>((centre.0 - k1 * d1.0, centre.1 - k1 * d1.1), d1, 5).unwrap_or_default();
    // Not shared: the second five passes one cell beside the centre.
    let through = if shared {
        centre
    } else {
        (centre.0 + d1.0, centre.1 + d1.1 + 1)
    };
    let second =
        line::<SIZE>((through.0 - k2 * d2.0, through.1 - k2 * d2.1), d2, 5).unwrap_or_default();
    put(&mut board, &first, mover);
    put(&mut board, &second, mover);
    let (black, white) = counts_for(mover, rng, 10);
    fill_to(&mut board, rng, black, white);
    (board, format!("mover={mover:?} shared={shared}"))
}

/// One long run of the mover: 6-9 can come from one stone, 10 or more cannot.
fn long_run(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let len = rng.range(6, 12) as i32;
    let mut board = B::empty();
    put(&mut board, &random_line::<SIZE>(rng, len), mover);
    let (black, white) = counts_for(mover, rng, 12);
    fill_to(&mut board, rng, black, white);
    (board, format!("mover={mover:?} run={len}"))
}

fn both_fives(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let mut board = B::empty();
    put(&mut board, &random_line::<SIZE>(rng, 5), mover);
    let other = loop {
        let cells = random_line::<SIZE>(rng, 5);
        if cells.iter().all(|&c| board.at(c.0, c.1).is_none()) {
            break cells;
        }
    };
    put(&mut board, &other, mover.other());
    let (black, white) = counts_for(mover, rng, 6);
    fill_to(&mut board, rng, black, white);
    (board, format!("mover={mover:?}"))
}

/// Two fives of the mover that share no stone: apart, parallel, or in one line with a gap.
fn separate_fives(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let mut board = B::empty();
    let shape = rng.below(3);
    let cells = match shape {
        // ooooo.ooooo in one line
        0 => {
            let run = random_line::<SIZE>(rng, 11);
            run.iter()
                .enumerate()
                .filter(|&(i, _)| i != 5)
                .map(|(_, &c)| c)
                .collect()
        }
        // parallel, one line apart
        1 => {
            let d = rng.pick(&LINES);
            let side = if d == (0, 1) { (2, 0) } else { (0, 2) };
            let start = (rng.range(2, 12) as i32, rng.range(2, 12) as i32);
            let a = line::<SIZE>(start, d, 5).unwrap_or_default();
            let b = line::<SIZE>((start.0 + side.0, start.1 + side.1), d, 5).unwrap_or_default();
            [a, b].concat()
        }
        _ => [random_line::<SIZE>(rng, 5), random_line::<SIZE>(rng, 5)].concat(),
    };
    put(&mut board, &cells, mover);
    let (black, white) = counts_for(mover, rng, 10);
    fill_to(&mut board, rng, black, white);
    (board, format!("mover={mover:?} shape={shape}"))
}

/// A five touching an edge or a corner, in any direction (a symmetry of one along the top),
/// of the player who moved last (YES) or of the other one (NO): a solver that misses fives at
/// the far edge only shows on the NO side.
fn edge_five(rng: &mut Rng) -> (Input, String) {
    let mover = rng.pick(&[Stone::Black, Stone::White]);
    let owner = if rng.chance(1, 2) {
        mover
    } else {
        mover.other()
    };
    let mut board = B::empty();
    let dir = rng.pick(&LINES);
    let cells = match dir {
        (0, 1) => line::<SIZE>((0, rng.range(0, 14) as i32), dir, 5),
        (1, 0) => line::<SIZE>((0, rng.range(0, 18) as i32), dir, 5),
        (1, 1) => line::<SIZE>((0, rng.range(0, 14) as i32), dir, 5),
        _ => line::<SIZE>((4, rng.range(0, 14) as i32), dir, 5),
    }
    .unwrap_or_default();
    put(&mut board, &cells, owner);
    let (black, white) = counts_for(mover, rng, 5);
    fill_to(&mut board, rng, black, white);
    let k = rng.below(8);
    (
        transform_board(k, &board),
        format!("mover={mover:?} five_of={owner:?} dir={dir:?} symmetry={k}"),
    )
}

/// Nearly empty boards with every count difference from -2 to +2.
fn tiny(rng: &mut Rng) -> (Input, String) {
    let white = rng.range(0, 2);
    let black = (white + rng.range(0, 4)).saturating_sub(2).min(white + 2);
    (
        no_five_position(rng, black, white),
        format!("black={black} white={white}"),
    )
}

/// A random game with one stone added or removed: counts off by one either way.
fn count_perturbed(rng: &mut Rng) -> (Input, String) {
    let (mut board, params) = random_game(rng);
    let add = rng.chance(1, 2) || board.count(Stone::Black) + board.count(Stone::White) == 0;
    let stone = rng.pick(&[Stone::Black, Stone::White]);
    if add {
        fill(&mut board, rng, stone, 1, 3);
    } else if let Some(&(r, c)) = board.stones(stone).collect::<Vec<_>>().first() {
        board.set(r, c, None);
    }
    (
        board,
        format!(
            "{params} {} {stone:?}",
            if add { "added" } else { "removed" }
        ),
    )
}

impl Generate for GomokuChecker {
    fn families() -> Vec<Family<Self>> {
        vec![
            Family {
                name: "random-game",
                targets: "realistic positions of legal games",
                weight: 3,
                make: random_game,
            },
            Family {
                name: "finished-game",
                targets: "the last move made a five (or joined runs into 6-9)",
                weight: 2,
                make: finished_game,
            },
            Family {
                name: "white-ahead",
                targets: "white one stone ahead (the classic weak-test bug)",
                weight: 2,
                make: white_ahead,
            },
            Family {
                name: "black-ahead-two",
                targets: "black two or more ahead",
                weight: 1,
                make: black_ahead_two,
            },
            Family {
                name: "wrong-mover-five",
                targets: "a five of the colour that did not move last",
                weight: 2,
                make: wrong_mover_five,
            },
            Family {
                name: "crossing-fives",
                targets: "two fives that share the last stone, or do not",
                weight: 2,
                make: crossing_fives,
            },
            Family {
                name: "long-run",
                targets: "runs of 6-9 (one stone can make them) and 10+ (cannot)",
                weight: 2,
                make: long_run,
            },
            Family {
                name: "both-fives",
                targets: "both colours have a five",
                weight: 1,
                make: both_fives,
            },
            Family {
                name: "separate-fives",
                targets: "two fives sharing no stone (apart, parallel, one line)",
                weight: 2,
                make: separate_fives,
            },
            Family {
                name: "edge-five",
                targets: "fives along every edge, corner and diagonal",
                weight: 2,
                make: edge_five,
            },
            Family {
                name: "tiny",
                targets: "the empty board and a few stones, counts -2..+2",
                weight: 1,
                make: tiny,
            },
            Family {
                name: "count-perturbed",
                targets: "a real game with one stone added or removed",
                weight: 2,
                make: count_perturbed,
            },
        ]
    }

    /// The board steps, then every black-white pair (last): the stone counts decide who
    /// moved last, so a finding may need a pair removed together to keep failing; with them
    /// a finished shrink is 1-minimal for single stones and for pairs.
    fn shrink(board: &Input) -> Vec<Input> {
        let mut out = crate::stones::shrink_board(board);
        let blacks: Vec<(usize, usize)> = board.stones(Stone::Black).collect();
        let whites: Vec<(usize, usize)> = board.stones(Stone::White).collect();
        for (i, &(br, bc)) in blacks.iter().enumerate() {
            for (j, &(wr, wc)) in whites.iter().enumerate() {
                if i != j {
                    let mut b = *board;
                    b.set(br, bc, None);
                    b.set(wr, wc, None);
                    out.push(b);
                }
            }
        }
        out
    }

    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Input> {
        crate::fuzz_bodies::decode_stones::<SIZE>(u)
    }

    /// Rotations and reflections keep every rule (lines, fives, counts).
    const IMAGES: u32 = 8;

    fn image(board: &Input, k: u32) -> Input {
        crate::stones::transform_board::<SIZE>(k, board)
    }

    fn invalid_families() -> Vec<InvalidFamily> {
        format_families::<Self>()
    }
}
