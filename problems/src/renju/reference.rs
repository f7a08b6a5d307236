//! The reference: the RIF definitions of the spec, applied literally, including the recursive
//! "three" (its straight-four point must not itself be forbidden).
//!
//! Everything is computed on one mutable board: a stone is placed, the question asked, and
//! the stone removed again, so each step is a direct reading of a definition.

use super::{Answer, Input, SIZE};
use crate::board::{Board, LINES, Stone};

type Grid = Board<SIZE>;
type Point = (i32, i32);

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

/// The unbroken run of black stones through `p` along `d` (empty if `p` is not black).
fn black_run(board: &Grid, p: Point, d: (i32, i32)) -> Vec<Point> {
    line(p, d)
        .into_iter()
        .filter(|&q| {
            // q is in p's run iff every point from p to q (inclusive) is black.
            let steps = (q.0 - p.0).abs().max((q.1 - p.1).abs());
            let (sr, sc) = ((q.0 - p.0).signum(), (q.1 - p.1).signum());
            (0..=steps).all(|k| board.at(p.0 + k * sr, p.1 + k * sc) == Some(Stone::Black))
        })
        .collect()
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
fn fours(board: &mut Grid, p: Point, d: (i32, i32)) -> usize {
    let mut sets: Vec<Vec<Point>> = Vec::new();
    for q in line(p, d) {
        if !is_empty(board, q) {
            continue;
        }
        let five = with_black(board, q, |b| black_run(b, q, d));
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
fn is_straight_four(board: &mut Grid, p: Point, d: (i32, i32)) -> bool {
    let run = black_run(board, p, d);
    if run.len() != 4 {
        return false;
    }
    let mut five_points = 0;
    for q in line(p, d) {
        if is_empty(board, q)
            && with_black(board, q, |b| {
                let five = black_run(b, q, d);
                five.len() == 5 && run.iter().all(|s| five.contains(s))
            })
        {
            five_points += 1;
        }
    }
    five_points == 2
}

/// Does a black stone at `q` make an exact five in any direction?
fn makes_five(board: &mut Grid, q: Point) -> bool {
    with_black(board, q, |b| {
        LINES.iter().any(|&d| black_run(b, q, d).len() == 5)
    })
}

/// Is there a three of direction `d` at `p` (black): an empty `Q` on the line that, with `p`,
/// belongs to a straight four, does not make a five, and is not itself a forbidden point?
fn is_three(board: &mut Grid, p: Point, d: (i32, i32)) -> bool {
    for q in line(p, d) {
        if !is_empty(board, q) {
            continue;
        }
        let straight = with_black(board, q, |b| {
            black_run(b, p, d).contains(&q) && is_straight_four(b, p, d)
        });
        if straight && !makes_five(board, q) && !classify(board, q).is_forbidden() {
            return true;
        }
    }
    false
}

/// The classification of a black move at the empty point `p` of `board` (which is left as it
/// was found).
pub fn classify(board: &mut Grid, p: Point) -> Answer {
    with_black(board, p, |b| classify_placed(b, p))
}

fn classify_placed(board: &mut Grid, p: Point) -> Answer {
    if LINES.iter().any(|&d| black_run(board, p, d).len() == 5) {
        return Answer::Five;
    }
    if LINES.iter().any(|&d| black_run(board, p, d).len() >= 6) {
        return Answer::Overline;
    }
    let fours_per_line: Vec<usize> = LINES.iter().map(|&d| fours(board, p, d)).collect();
    let fours: usize = fours_per_line.iter().sum();
    if fours >= 2 {
        return Answer::DoubleFour;
    }
    let threes = LINES
        .iter()
        .zip(&fours_per_line)
        .filter(|&(&d, &f)| f == 0 && is_three(board, p, d))
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
    let mut board = input.board;
    classify(&mut board, (i32::from(input.row), i32::from(input.col)))
}
