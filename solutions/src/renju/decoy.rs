//! Decoy models: the definitions applied the way real contestants write them, with a bug that
//! only shows when the lines through `P` interact — a run far longer than six, a five one way
//! and an overline another, a white stone touching a black run, a stone of the run's colour a
//! few points along the line. Each fails rarely on random positions, so a test set keeps them
//! out only if it has the decoy and interaction obligations (see `generators::decoy`).

use super::{Answer, Input, Renju, SIZE};
use crate::board::{Board, LINES, Stone};

type Grid = Board<SIZE>;
type Point = (i32, i32);

fn black(board: &Grid, (r, c): Point) -> bool {
    board.at(r, c) == Some(Stone::Black)
}

/// A point a five-point may be: empty (with the bug, anything but black).
fn open(board: &Grid, (r, c): Point, bugs: Bugs) -> bool {
    Grid::on_board(r, c)
        && match board.get(r as usize, c as usize) {
            None => true,
            Some(Stone::White) => bugs.white_is_open,
            Some(Stone::Black) => false,
        }
}

/// The length of the black run through `p` (counting `p`) along `d`.
fn run(board: &Grid, p: Point, d: (i32, i32)) -> usize {
    let mut len = 1;
    for s in [1, -1] {
        let mut q = (p.0 + s * d.0, p.1 + s * d.1);
        while black(board, q) {
            len += 1;
            q = (q.0 + s * d.0, q.1 + s * d.1);
        }
    }
    len
}

/// Black at `q` (whatever it held) for the duration of `f`.
fn with_black<T>(board: &mut Grid, q: Point, f: impl FnOnce(&mut Grid) -> T) -> T {
    let was = board.get(q.0 as usize, q.1 as usize);
    board.set(q.0 as usize, q.1 as usize, Some(Stone::Black));
    let t = f(board);
    board.set(q.0 as usize, q.1 as usize, was);
    t
}

/// The black stones of the run through `q` along `d`.
fn run_cells(board: &Grid, q: Point, d: (i32, i32)) -> Vec<Point> {
    let mut cells = vec![q];
    for s in [1, -1] {
        let mut x = (q.0 + s * d.0, q.1 + s * d.1);
        while black(board, x) {
            cells.push(x);
            x = (x.0 + s * d.0, x.1 + s * d.1);
        }
    }
    cells.sort_unstable();
    cells
}

/// Overline: a run of six or more (with the bug: of exactly six).
fn is_overline(len: usize, bugs: Bugs) -> bool {
    if bugs.overline_exactly_six {
        len == 6
    } else {
        len >= 6
    }
}

fn fours(board: &mut Grid, p: Point, d: (i32, i32), bugs: Bugs) -> usize {
    let reach = if bugs.five_points_within_three { 3 } else { 4 };
    let mut sets: Vec<Vec<Point>> = Vec::new();
    for k in -reach..=reach {
        let q = (p.0 + k * d.0, p.1 + k * d.1);
        if k == 0 || !open(board, q, bugs) {
            continue;
        }
        let five = with_black(board, q, |b| {
            let cells = run_cells(b, q, d);
            (cells.len() == 5 && cells.contains(&p)).then_some(cells)
        });
        if let Some(five) = five {
            let four: Vec<Point> = five.into_iter().filter(|&s| s != q).collect();
            if !sets.contains(&four) {
                sets.push(four);
            }
        }
    }
    sets.len()
}

fn straight_four(board: &mut Grid, p: Point, d: (i32, i32), bugs: Bugs) -> bool {
    let cells = run_cells(board, p, d);
    if cells.len() != 4 {
        return false;
    }
    // The points just past the run's two ends.
    let ends = [1, -1].map(|s| {
        let mut e = (p.0 + s * d.0, p.1 + s * d.1);
        while black(board, e) {
            e = (e.0 + s * d.0, e.1 + s * d.1);
        }
        e
    });
    ends.iter()
        .all(|&e| open(board, e, bugs) && with_black(board, e, |b| run(b, e, d) == 5))
}

fn makes_five(board: &mut Grid, q: Point) -> bool {
    with_black(board, q, |b| LINES.iter().any(|&d| run(b, q, d) == 5))
}

fn is_three(board: &mut Grid, p: Point, d: (i32, i32), bugs: Bugs) -> bool {
    for k in -4..=4 {
        let q = (p.0 + k * d.0, p.1 + k * d.1);
        if k == 0 || !Grid::on_board(q.0, q.1) || board.get(q.0 as usize, q.1 as usize).is_some() {
            continue;
        }
        let straight = with_black(board, q, |b| {
            run_cells(b, p, d).contains(&q) && straight_four(b, p, d, bugs)
        });
        if straight && !makes_five(board, q) && !classify(board, q, bugs).is_forbidden() {
            return true;
        }
    }
    false
}

fn classify(board: &mut Grid, p: Point, bugs: Bugs) -> Answer {
    with_black(board, p, |b| {
        let lens: Vec<usize> = LINES.iter().map(|&d| run(b, p, d)).collect();
        if bugs.longest_run_decides {
            match lens.iter().max() {
                Some(&5) => return Answer::Five,
                Some(&l) if l >= 6 => return Answer::Overline,
                _ => {}
            }
        }
        if lens.contains(&5) {
            return Answer::Five;
        }
        let overline = lens.iter().any(|&l| is_overline(l, bugs));
        if overline && !bugs.double_four_before_overline {
            return Answer::Overline;
        }
        let per_line: Vec<usize> = LINES.iter().map(|&d| fours(b, p, d, bugs)).collect();
        let total: usize = per_line.iter().sum();
        if total >= 2 {
            return Answer::DoubleFour;
        }
        if overline {
            return Answer::Overline;
        }
        let threes = LINES
            .iter()
            .zip(&per_line)
            .filter(|&(&d, &f)| f == 0 && is_three(b, p, d, bugs))
            .count();
        match (total, threes) {
            (_, t) if t >= 2 => Answer::DoubleThree,
            (1, 1) => Answer::FourThree,
            (1, 0) => Answer::Four,
            (0, 1) => Answer::Three,
            _ => Answer::None,
        }
    })
}

fn solve_with(input: &Input, bugs: Bugs) -> Answer {
    let mut board = input.board;
    classify(
        &mut board,
        (i32::from(input.row), i32::from(input.col)),
        bugs,
    )
}

crate::known_wrong! {
    Renju, solve_with;
    /// Takes the longest run through P to decide five or overline: a move that makes a five
    /// one way and an overline another is called an overline (it is a five).
    "decoy-longest-run-decides" => longest_run_decides,
    /// Tests `len == 6` for an overline: a run of seven or more through P is no overline.
    "decoy-overline-exactly-six" => overline_exactly_six,
    /// Judges two fours before the overline: an overline that also makes two fours is called
    /// a double four.
    "decoy-double-four-before-overline" => double_four_before_overline,
    /// Looks for a four's five-point only up to three points from P: a four whose five-point
    /// is four points away (a black stone three points along the line) is missed.
    "decoy-five-points-within-three" => five_points_within_three,
    /// "Not black" for an open point: a white stone touching the end of a black run is taken
    /// for a five-point.
    "decoy-white-is-open" => white_is_open,
}
