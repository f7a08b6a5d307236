//! Known-wrong solutions: the heuristic shortcuts hobby programs take, one each.

use super::{Answer, Input, Renju, SIZE};
use crate::board::{Board, LINES, Stone};

type Grid = Board<SIZE>;

fn run_len(board: &Grid, p: (i32, i32), (dr, dc): (i32, i32)) -> usize {
    board.run_through(p.0 as usize, p.1 as usize, (dr, dc), Stone::Black)
}

fn empty(board: &Grid, (r, c): (i32, i32)) -> bool {
    Grid::on_board(r, c) && board.get(r as usize, c as usize).is_none()
}

fn with_black<T>(board: &mut Grid, q: (i32, i32), f: impl FnOnce(&mut Grid) -> T) -> T {
    board.set(q.0 as usize, q.1 as usize, Some(Stone::Black));
    let t = f(board);
    board.set(q.0 as usize, q.1 as usize, None);
    t
}

/// The fours of direction `d` at `p` (black): different four-stone sets completed to a five.
fn fours(board: &mut Grid, p: (i32, i32), d: (i32, i32), bugs: Bugs) -> usize {
    let mut sets: Vec<Vec<(i32, i32)>> = Vec::new();
    for k in -4..=4 {
        let q = (p.0 + k * d.0, p.1 + k * d.1);
        if k == 0 || !empty(board, q) {
            continue;
        }
        let five = with_black(board, q, |b| {
            let len = run_len(b, q, d);
            let exact = len == 5 || bugs.overline_straight_four && len >= 5;
            // The five's stones, if it contains p.
            (exact && run_len(b, p, d) == len).then(|| {
                let mut cells: Vec<(i32, i32)> = (-5..=5)
                    .map(|j| (q.0 + j * d.0, q.1 + j * d.1))
                    .filter(|&c| {
                        Grid::on_board(c.0, c.1)
                            && b.get(c.0 as usize, c.1 as usize) == Some(Stone::Black)
                    })
                    .filter(|&c| run_len(b, c, d) == len && run_len(b, q, d) == len)
                    .filter(|&c| (c.0 - q.0).abs().max((c.1 - q.1).abs()) < len as i32)
                    .collect();
                cells.retain(|&c| c != q);
                cells.sort();
                cells
            })
        });
        if let Some(four) = five {
            if bugs.contiguous_fours_only && run_len(board, p, d) != 4 {
                continue;
            }
            if !sets.contains(&four) {
                sets.push(four);
            }
        }
    }
    if bugs.one_four_per_line {
        sets.len().min(1)
    } else {
        sets.len()
    }
}

fn is_three(board: &mut Grid, p: (i32, i32), d: (i32, i32), bugs: Bugs, depth: u32) -> bool {
    for k in -3..=3 {
        let q = (p.0 + k * d.0, p.1 + k * d.1);
        if k == 0 || !empty(board, q) {
            continue;
        }
        let straight = with_black(board, q, |b| {
            let len = run_len(b, p, d);
            if len != 4 || run_len(b, q, d) != 4 {
                return false;
            }
            // Both ends empty, and each end making an exact five (or, with the bug, any run).
            let ends: Vec<(i32, i32)> = [-1, 1]
                .iter()
                .map(|&s| {
                    let mut e = q;
                    while Grid::on_board(e.0, e.1)
                        && b.get(e.0 as usize, e.1 as usize) == Some(Stone::Black)
                    {
                        e = (e.0 + s * d.0, e.1 + s * d.1);
                    }
                    e
                })
                .collect();
            let five_point = |b: &mut Grid, e: (i32, i32)| {
                empty(b, e)
                    && (bugs.overline_straight_four
                        || with_black(b, e, |bb| run_len(bb, e, d) == 5))
            };
            if bugs.closed_threes {
                ends.iter().any(|&e| five_point(b, e))
            } else {
                ends.iter().all(|&e| five_point(b, e))
            }
        });
        if !straight {
            continue;
        }
        if bugs.heuristic_threes {
            return true;
        }
        let at_q = classify(board, q, bugs, depth + 1);
        let five_at_q =
            !bugs.three_point_may_make_five && (at_q == Answer::Five || makes_five(board, q));
        if !five_at_q && !at_q.is_forbidden() {
            return true;
        }
    }
    false
}

fn makes_five(board: &mut Grid, q: (i32, i32)) -> bool {
    with_black(board, q, |b| LINES.iter().any(|&d| run_len(b, q, d) == 5))
}

fn classify(board: &mut Grid, p: (i32, i32), bugs: Bugs, depth: u32) -> Answer {
    with_black(board, p, |b| {
        let lens: Vec<usize> = LINES.iter().map(|&d| run_len(b, p, d)).collect();
        let five = lens.contains(&5) || bugs.overline_is_five && lens.iter().any(|&l| l >= 5);
        let overline = !bugs.overline_is_five && lens.iter().any(|&l| l >= 6);
        if five && !bugs.forbidden_before_five {
            return Answer::Five;
        }
        if overline {
            return Answer::Overline;
        }
        let fours: Vec<usize> = LINES.iter().map(|&d| fours(b, p, d, bugs)).collect();
        let total: usize = fours.iter().sum();
        if total >= 2 {
            return Answer::DoubleFour;
        }
        let threes = LINES
            .iter()
            .zip(&fours)
            .filter(|&(&d, &f)| f == 0 && is_three(b, p, d, bugs, depth))
            .count();
        if threes >= 2 {
            return Answer::DoubleThree;
        }
        if five {
            return Answer::Five;
        }
        match (total, threes) {
            (1, 1) => Answer::FourThree,
            (1, _) => Answer::Four,
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
        0,
    )
}

crate::known_wrong! {
    Renju, solve_with;
    /// Threes by pattern only: no check that the straight-four point is not forbidden (or a
    /// five, or an overline).
    "heuristic-threes" => heuristic_threes,
    /// Six or more counts as a five.
    "overline-is-five" => overline_is_five,
    /// Only contiguous fours (`XXXX` with an open end); `XX.XX` and `X.XXX` missed.
    "contiguous-fours-only" => contiguous_fours_only,
    /// At most one four per direction (two fours in one line missed).
    "one-four-per-line" => one_four_per_line,
    /// Forbidden shapes are judged before the five.
    "forbidden-before-five" => forbidden_before_five,
    /// A three's straight four may be an overline.
    "overline-straight-four" => overline_straight_four,
    /// A closed three counts: one open five-point is taken for a straight four (`OXXX.`).
    "closed-threes-count" => closed_threes,
    /// Forgets that the point completing a three must not make a five elsewhere.
    "three-point-may-make-five" => three_point_may_make_five,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[
    crate::access::Equivalent {
        model: "access-flat-sentinel-stray-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-top-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-bottom-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-left-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-right-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-off-board-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
    crate::access::Equivalent {
        model: "access-row-unchecked-white",
        why: "renju's solver only ever asks whether a point holds a black stone; every read on the board is exact and every read off it finds nothing or a white stone, both of which are 'not black', as the edge is in the reference",
    },
];
