//! omok families: exact five against six or more, every direction and colour (the `/`
//! diagonal is reported at its bottom-left stone), edges and corners, dense boards.

use solutions::Omok;
use solutions::board::{Board, LINES, Stone};
use solutions::omok::{Input, SIZE};

use crate::gomoku_checker::families::pick_move;
use crate::invalid::format_families;
use crate::stones::{Placer, line, put, random_line, run_if_placed, transform_board};
use crate::{Family, Generate, InvalidFamily, Rng};

type B = Board<SIZE>;

const STONES: [Stone; 2] = [Stone::Black, Stone::White];

fn noise(board: &mut B, rng: &mut Rng, max: u32) {
    let mut placer = Placer::new(*board);
    for stone in STONES {
        let n = rng.range(0, max) as usize;
        placer.fill(rng, stone, n, 3);
    }
    *board = placer.board;
}

/// Random play (no turn order in omok) until a move makes a run of five or more, or the
/// chosen length. Two fives at once make the input invalid: the generator then tries again.
fn random_game(rng: &mut Rng) -> (Input, String) {
    let length = rng.range(5, 160);
    let mut placer = Placer::new(B::empty());
    let mut stone = Stone::Black;
    let mut played = 0;
    while played < length {
        let Some(cell) = pick_move(&placer, rng, stone) else {
            break;
        };
        let long = run_if_placed(&placer.board, cell, stone) >= 5;
        placer.put(cell, stone);
        played += 1;
        if long && rng.chance(3, 4) {
            break;
        }
        stone = stone.other();
    }
    (placer.board, format!("moves={played}"))
}

/// One run of 4-7 in a random direction: a win exactly when it is 5.
fn exact_or_long(rng: &mut Rng) -> (Input, String) {
    let stone = rng.pick(&STONES);
    let len = rng.range(4, 7) as i32;
    let mut board = B::empty();
    put(&mut board, &random_line::<SIZE>(rng, len), stone);
    noise(&mut board, rng, 40);
    (board, format!("colour={stone:?} run={len}"))
}

/// An exact five of each colour in each direction, in turn: all winner/direction pairs.
fn every_direction(rng: &mut Rng) -> (Input, String) {
    let which = rng.below(8);
    let (stone, dir) = (STONES[(which % 2) as usize], LINES[(which / 2) as usize]);
    let mut board = B::empty();
    let cells = loop {
        let start = (rng.index(SIZE) as i32, rng.index(SIZE) as i32);
        if let Some(cells) = line::<SIZE>(start, dir, 5) {
            break cells;
        }
    };
    put(&mut board, &cells, stone);
    noise(&mut board, rng, 50);
    (board, format!("colour={stone:?} dir={dir:?}"))
}

/// Fives touching an edge or corner, in every orientation.
fn edges(rng: &mut Rng) -> (Input, String) {
    let stone = rng.pick(&STONES);
    let mut board = B::empty();
    let along_edge = rng.chance(1, 2);
    let cells = if along_edge {
        line::<SIZE>((0, rng.range(0, 14) as i32), (0, 1), 5)
    } else {
        // From a corner, along the diagonal or the edge.
        let dir = rng.pick(&[(1, 1), (0, 1), (1, 0)]);
        line::<SIZE>((0, 0), dir, 5)
    }
    .unwrap_or_default();
    put(&mut board, &cells, stone);
    noise(&mut board, rng, 20);
    let k = rng.below(8);
    (
        transform_board(k, &board),
        format!("colour={stone:?} along_edge={along_edge} symmetry={k}"),
    )
}

/// A six (not a win) and a separate exact five of the same or the other colour.
fn six_and_five(rng: &mut Rng) -> (Input, String) {
    let six_colour = rng.pick(&STONES);
    let five_colour = rng.pick(&STONES);
    let mut board = B::empty();
    let six_len = rng.range(6, 8) as i32;
    put(&mut board, &random_line::<SIZE>(rng, six_len), six_colour);
    let five = loop {
        let cells = random_line::<SIZE>(rng, 5);
        // Not on or next to the six, so it stays an exact five.
        if cells
            .iter()
            .all(|&(r, c)| (-1..=1).all(|dr| (-1..=1).all(|dc| board.at(r + dr, c + dc).is_none())))
        {
            break cells;
        }
    };
    put(&mut board, &five, five_colour);
    noise(&mut board, rng, 30);
    (board, format!("six={six_colour:?} five={five_colour:?}"))
}

/// Dense boards (30-60% full) without long runs, with or without one exact five.
fn dense(rng: &mut Rng) -> (Input, String) {
    let mut board = B::empty();
    let with_five = rng.chance(1, 2);
    if with_five {
        put(&mut board, &random_line::<SIZE>(rng, 5), rng.pick(&STONES));
    }
    let target = rng.range(108, 216) as usize / 2;
    let mut placer = Placer::new(board);
    for stone in STONES {
        placer.fill(rng, stone, target, 0);
    }
    let board = placer.board;
    (board, format!("per_colour={target} with_five={with_five}"))
}

/// No winner, but fours, sixes and sevens of both colours.
fn no_winner(rng: &mut Rng) -> (Input, String) {
    let mut board = B::empty();
    let runs = rng.range(1, 4);
    for _ in 0..runs {
        let len = rng.pick(&[4, 6, 7]);
        let cells = random_line::<SIZE>(rng, len);
        if cells.iter().all(|&(r, c)| board.at(r, c).is_none()) {
            put(&mut board, &cells, rng.pick(&STONES));
        }
    }
    noise(&mut board, rng, 30);
    (board, format!("runs={runs}"))
}

impl Generate for Omok {
    fn families() -> Vec<Family<Self>> {
        vec![
            Family {
                name: "random-game",
                targets: "realistic play that stops at a five or later",
                weight: 3,
                make: random_game,
            },
            Family {
                name: "exact-or-long",
                targets: "a run of 4-7: only exactly 5 wins",
                weight: 3,
                make: exact_or_long,
            },
            Family {
                name: "every-direction",
                targets: "every winner and direction, / reported at its bottom-left",
                weight: 3,
                make: every_direction,
            },
            Family {
                name: "edges",
                targets: "fives touching edges and corners",
                weight: 2,
                make: edges,
            },
            Family {
                name: "six-and-five",
                targets: "a six that does not win beside a five that does",
                weight: 2,
                make: six_and_five,
            },
            Family {
                name: "dense",
                targets: "crowded boards with or without one five",
                weight: 1,
                make: dense,
            },
            Family {
                name: "no-winner",
                targets: "fours, sixes and sevens but no exact five",
                weight: 2,
                make: no_winner,
            },
        ]
    }

    fn shrink(board: &Input) -> Vec<Input> {
        crate::stones::shrink_board(board)
    }

    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Input> {
        crate::fuzz_bodies::decode_stones::<SIZE>(u)
    }

    /// Rotations and reflections keep every rule (the answer names another stone of the
    /// same five, which the solvers work out for the image).
    const IMAGES: u32 = 8;

    fn image(board: &Input, k: u32) -> Input {
        crate::stones::transform_board::<SIZE>(k, board)
    }

    fn invalid_families() -> Vec<InvalidFamily> {
        let mut families = format_families::<Self>();
        families.push(InvalidFamily {
            name: "double-win",
            targets: "two exact fives (one or both colours)",
            make: double_win,
        });
        families
    }
}

/// Two exact fives: both colours, or one colour twice.
fn double_win(rng: &mut Rng) -> (Vec<u8>, String) {
    use solutions::Problem;
    loop {
        let mut board = B::empty();
        let (a, b) = (rng.pick(&STONES), rng.pick(&STONES));
        put(&mut board, &random_line::<SIZE>(rng, 5), a);
        let second = random_line::<SIZE>(rng, 5);
        if second.iter().any(|&(r, c)| board.at(r, c).is_some()) {
            continue;
        }
        put(&mut board, &second, b);
        let text = Omok::write_input(&board);
        if solutions::omok::exact_fives(&board).len() >= 2 {
            return (text.into_bytes(), format!("fives of {a:?} and {b:?}"));
        }
    }
}
