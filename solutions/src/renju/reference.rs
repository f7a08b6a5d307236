//! The reference: the RIF definitions of the spec, applied literally, including the recursive
//! "three" (its straight-four point must not itself be forbidden).
//!
//! Everything is computed on one mutable board: a stone is placed, the question asked, and
//! the stone removed again, so each step is a direct reading of a definition.
//!
//! Cells are read through a [`BoardAccess`]: [`Exact`] makes the reference, the other models
//! the board-access wrong solutions (see [`crate::access`]).

use super::{Answer, Input, SIZE};
use crate::access::{BoardAccess, Exact};
use crate::board::{Board, LINES, Stone};

type Grid = Board<SIZE>;
type Point = (i32, i32);

const N: i32 = SIZE as i32;

/// Every point of the line through `p` in direction `d`, from one edge to the other.
fn line(p: Point, (dr, dc): (i32, i32)) -> Vec<Point> {
    let (mut r, mut c) = p;
    while Grid::on_board(r - dr, c - dc) {
        r -= dr;
        c -= dc;
    }
    let mut points = Vec::new();
    while Grid::on_board(r, c) {
        points.push((r, c));
        r += dr;
        c += dc;
    }
    points
}

fn is_black<A: BoardAccess>(board: &Grid, (r, c): Point) -> bool {
    board.read::<A>(r, c) == Some(Stone::Black)
}

/// The unbroken run of black stones through `p` along `d` (empty if `p` is not black), walked
/// from `p` both ways, sorted. (At most `N` steps each way: the bound only matters to models
/// that alias points outside the board to points inside.)
fn black_run<A: BoardAccess>(board: &Grid, p: Point, (dr, dc): (i32, i32)) -> Vec<Point> {
    if !is_black::<A>(board, p) {
        return Vec::new();
    }
    let mut run = vec![p];
    for sign in [1, -1] {
        let mut q = (p.0 + sign * dr, p.1 + sign * dc);
        for _ in 0..N {
            if !is_black::<A>(board, q) {
                break;
            }
            run.push(q);
            q = (q.0 + sign * dr, q.1 + sign * dc);
        }
    }
    run.sort_unstable();
    run
}

/// Is `p` (black) part of an exact five along `d`: a window of five black points holding `p`
/// with no black point just before or just after it?
fn in_exact_five<A: BoardAccess>(board: &Grid, p: Point, (dr, dc): (i32, i32)) -> bool {
    (0..5).any(|s| {
        let start = (p.0 - s * dr, p.1 - s * dc);
        let before = (start.0 - dr, start.1 - dc);
        let after = (start.0 + 5 * dr, start.1 + 5 * dc);
        A::scans(start, (dr, dc), 5, N)
            && (0..5).all(|k| is_black::<A>(board, (start.0 + k * dr, start.1 + k * dc)))
            && !is_black::<A>(board, A::beyond(before, (-dr, -dc)))
            && !is_black::<A>(board, A::beyond(after, (dr, dc)))
    })
}

fn is_empty(board: &Grid, p: Point) -> bool {
    board.at(p.0, p.1).is_none()
}

fn with_black<T>(board: &mut Grid, q: Point, f: impl FnOnce(&mut Grid) -> T) -> T {
    board.set(q.0 as usize, q.1 as usize, Some(Stone::Black));
    let result = f(board);
    board.set(q.0 as usize, q.1 as usize, None);
    result
}

/// The fours of direction `d` at `p` (black): one per different set of four stones that a
/// five-point completes to an exact five containing `p`.
fn fours<A: BoardAccess>(board: &mut Grid, p: Point, d: (i32, i32)) -> usize {
    let mut sets: Vec<Vec<Point>> = Vec::new();
    for q in line(p, d) {
        if !is_empty(board, q) {
            continue;
        }
        let five = with_black(board, q, |b| black_run::<A>(b, q, d));
        if five.len() == 5 && five.contains(&p) {
            let four: Vec<Point> = five.into_iter().filter(|&s| s != q).collect();
            if !sets.contains(&four) {
                sets.push(four);
            }
        }
    }
    sets.len()
}

/// Does the run of black through `p` along `d` form a straight four: exactly four stones and
/// two empty points each of which would make it an exact five?
fn is_straight_four<A: BoardAccess>(board: &mut Grid, p: Point, d: (i32, i32)) -> bool {
    let run = black_run::<A>(board, p, d);
    if run.len() != 4 {
        return false;
    }
    let mut five_points = 0;
    for q in line(p, d) {
        if is_empty(board, q)
            && with_black(board, q, |b| {
                let five = black_run::<A>(b, q, d);
                five.len() == 5 && run.iter().all(|s| five.contains(s))
            })
        {
            five_points += 1;
        }
    }
    five_points == 2
}

/// Does a black stone at `q` make an exact five in any direction?
fn makes_five<A: BoardAccess>(board: &mut Grid, q: Point) -> bool {
    with_black(board, q, |b| {
        LINES.iter().any(|&d| black_run::<A>(b, q, d).len() == 5)
    })
}

/// Is there a three of direction `d` at `p` (black): an empty `Q` on the line that, with `p`,
/// belongs to a straight four, does not make a five, and is not itself a forbidden point?
fn is_three<A: BoardAccess>(board: &mut Grid, p: Point, d: (i32, i32)) -> bool {
    for q in line(p, d) {
        if !is_empty(board, q) {
            continue;
        }
        let straight = with_black(board, q, |b| {
            black_run::<A>(b, p, d).contains(&q) && is_straight_four::<A>(b, p, d)
        });
        if straight && !makes_five::<A>(board, q) && !classify_with::<A>(board, q).is_forbidden() {
            return true;
        }
    }
    false
}

/// The classification of a black move at the empty point `p` of `board` (which is left as it
/// was found).
pub fn classify(board: &mut Grid, p: Point) -> Answer {
    classify_with::<Exact>(board, p)
}

fn classify_with<A: BoardAccess>(board: &mut Grid, p: Point) -> Answer {
    with_black(board, p, |b| classify_placed::<A>(b, p))
}

fn classify_placed<A: BoardAccess>(board: &mut Grid, p: Point) -> Answer {
    if LINES.iter().any(|&d| in_exact_five::<A>(board, p, d)) {
        return Answer::Five;
    }
    if LINES
        .iter()
        .any(|&d| black_run::<A>(board, p, d).len() >= 6)
    {
        return Answer::Overline;
    }
    let fours_per_line: Vec<usize> = LINES.iter().map(|&d| fours::<A>(board, p, d)).collect();
    let fours: usize = fours_per_line.iter().sum();
    if fours >= 2 {
        return Answer::DoubleFour;
    }
    let threes = LINES
        .iter()
        .zip(&fours_per_line)
        .filter(|&(&d, &f)| f == 0 && is_three::<A>(board, p, d))
        .count();
    match (fours, threes) {
        (_, t) if t >= 2 => Answer::DoubleThree,
        (1, 1) => Answer::FourThree,
        (1, 0) => Answer::Four,
        (0, 1) => Answer::Three,
        _ => Answer::None,
    }
}

pub fn solve(input: &Input) -> Answer {
    solve_with::<Exact>(input)
}

/// The reference with points read through `A`.
pub fn solve_with<A: BoardAccess>(input: &Input) -> Answer {
    let mut board = input.board;
    classify_with::<A>(&mut board, (i32::from(input.row), i32::from(input.col)))
}
