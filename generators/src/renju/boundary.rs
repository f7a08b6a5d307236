//! The boundary obligations of renju: the line obligations around black's runs through P
//! (with P played); the decoy and interaction obligations around them (see [`crate::decoy`])
//! and the ways the lines through P meet (a five with an overline or a four, an overline with
//! fours); and the builder of an input meeting each (see [`crate::obligations`],
//! [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::Renju;
use solutions::board::{Board, LINES, Stone};

use crate::Rng;
use crate::boundary::{Boundary, line_layout, noise};
use crate::decoy::{DecoyRules, decoy_layout, decoy_met, decoy_obligations};
use crate::obligations::{LineRules, Obligations, Run, line_met, line_obligations, runs};

const RENJU_RULES: LineRules = LineRules {
    parallel: true,
    parallel_needs_six: false,
};

const RENJU_DECOYS: DecoyRules = DecoyRules {
    touch_min: 1,
    row_col: false,
    // P joins at most four stones on each side: nine is the longest run through it.
    long: &["7", "8", "9"],
};

const SIZE: usize = solutions::renju::SIZE;

/// The ways the lines through P meet, with what each asks.
const MEETS: [(&str, &str); 4] = [
    ("five-overline", "P makes a five along one line and an overline along another"),
    ("five-four", "P makes a five along one line and a four along another"),
    ("overline-four", "P makes an overline along one line and one four along the others"),
    (
        "overline-double-four",
        "P makes an overline along one line and two or more fours along the others",
    ),
];

/// The fours of direction `d` through `p` (black, placed): the different sets of four stones
/// that one empty point within four of `p` completes to an exact five containing `p`.
fn fours(board: &Board<SIZE>, p: (i32, i32), d: (i32, i32)) -> usize {
    let mut sets: Vec<Vec<(i32, i32)>> = Vec::new();
    for k in (-4..=4).filter(|&k| k != 0) {
        let q = (p.0 + k * d.0, p.1 + k * d.1);
        if !Board::<SIZE>::on_board(q.0, q.1) || board.get(q.0 as usize, q.1 as usize).is_some() {
            continue;
        }
        let mut with = *board;
        with.set(q.0 as usize, q.1 as usize, Some(Stone::Black));
        if with.run_through(q.0 as usize, q.1 as usize, d, Stone::Black) != 5
            || with.run_through(p.0 as usize, p.1 as usize, d, Stone::Black) != 5
            || !run_contains(&with, q, d, p)
        {
            continue;
        }
        let mut four: Vec<(i32, i32)> = (-4..=4)
            .map(|j| (q.0 + j * d.0, q.1 + j * d.1))
            .filter(|&x| x != q && run_contains(&with, q, d, x))
            .collect();
        four.sort_unstable();
        if !sets.contains(&four) {
            sets.push(four);
        }
    }
    sets.len()
}

/// Is `x` in the black run through `q` along `d`?
fn run_contains(board: &Board<SIZE>, q: (i32, i32), d: (i32, i32), x: (i32, i32)) -> bool {
    for s in [1, -1] {
        let mut y = q;
        loop {
            if y == x {
                return true;
            }
            y = (y.0 + s * d.0, y.1 + s * d.1);
            if board.at(y.0, y.1) != Some(Stone::Black) {
                break;
            }
        }
    }
    false
}

impl Obligations for Renju {
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[
        ("decoy-longest-run-decides", &["meet/five-overline"]),
        ("decoy-overline-exactly-six", &["long/7", "long/8", "long/9"]),
        ("decoy-double-four-before-overline", &["meet/overline-double-four"]),
        (
            "decoy-five-points-within-three",
            &["decoy/row/before", "decoy/row/after", "decoy/column/before", "decoy/column/after", "decoy/diagonal/before", "decoy/diagonal/after", "decoy/anti-diagonal/before", "decoy/anti-diagonal/after"],
        ),
        ("decoy-white-is-open", &["touch/before", "touch/after", "touch/row", "touch/column", "touch/diagonal", "touch/anti-diagonal"]),
    ];

    fn obligations() -> Vec<(String, String)> {
        let mut list = line_obligations::<SIZE>(RENJU_RULES);
        list.extend(decoy_obligations(RENJU_DECOYS));
        for (id, what) in MEETS {
            list.push((format!("meet/{id}"), what.to_string()));
        }
        list
    }
    /// Black's runs through `P`, with `P` played.
    fn met(input: &Self::Input) -> BTreeSet<String> {
        let mut board = input.board;
        let p = (i32::from(input.row), i32::from(input.col));
        board.set(p.0 as usize, p.1 as usize, Some(Stone::Black));
        let through: Vec<Run> = runs(&board, 2)
            .into_iter()
            .filter(|r| r.stone == Stone::Black && r.contains(p))
            .collect();
        let mut out = BTreeSet::new();
        let long: Vec<Run> = through.iter().copied().filter(|r| r.len >= 5).collect();
        line_met(&board, &long, RENJU_RULES, &mut out);
        decoy_met(&board, &through, &through, RENJU_DECOYS, &mut out);
        let lens: Vec<usize> = LINES
            .iter()
            .map(|&d| board.run_through(p.0 as usize, p.1 as usize, d, Stone::Black))
            .collect();
        let four_counts: Vec<usize> = LINES.iter().map(|&d| fours(&board, p, d)).collect();
        for (a, &len) in lens.iter().enumerate() {
            let others = |f: &dyn Fn(usize) -> bool| (0..4).filter(|&b| b != a).any(f);
            let fours_elsewhere: usize = (0..4).filter(|&b| b != a).map(|b| four_counts[b]).sum();
            if len == 5 {
                if others(&|b| lens[b] >= 6) {
                    out.insert("meet/five-overline".to_string());
                }
                if fours_elsewhere >= 1 {
                    out.insert("meet/five-four".to_string());
                }
            }
            if len >= 6 {
                if fours_elsewhere == 1 {
                    out.insert("meet/overline-four".to_string());
                }
                if fours_elsewhere >= 2 {
                    out.insert("meet/overline-double-four".to_string());
                }
            }
        }
        out
    }
}

/// A shape along a line through P (at `P`): `X` black, `O` white, `.` empty.
fn lay(board: &mut Board<SIZE>, p: (i32, i32), d: (i32, i32), shape: &str) -> Option<()> {
    let at = shape.find('P')? as i32;
    for (i, ch) in shape.bytes().enumerate() {
        let k = i as i32 - at;
        let (r, c) = (p.0 + k * d.0, p.1 + k * d.1);
        if !Board::<SIZE>::on_board(r, c) {
            return None;
        }
        let cell = match ch {
            b'X' => Some(Stone::Black),
            b'O' => Some(Stone::White),
            _ => None,
        };
        if ch != b'P' {
            if board.get(r as usize, c as usize).is_some() && board.get(r as usize, c as usize) != cell {
                return None;
            }
            board.set(r as usize, c as usize, cell);
        }
    }
    Some(())
}

const FIVES: [&str; 3] = ["XXPXX", "XXXPX", ".XXXXP."];
const OVERLINES: [&str; 4] = ["XXXPXX", "XXPXXX", "XXXXPX", "XXXPXXX"];
const FOURS: [&str; 5] = [".XXXP.", "XXP.X", "X.XPX", "OXXXP.", "XP.XX"];

/// Lines through P that meet as `meet/KIND` asks.
fn meeting(kind: &str, rng: &mut Rng) -> Option<solutions::renju::Input> {
    let mut dirs = LINES;
    rng.shuffle(&mut dirs);
    let shapes: Vec<&str> = match kind {
        "five-overline" => vec![rng.pick(&FIVES), rng.pick(&OVERLINES)],
        "five-four" => vec![rng.pick(&FIVES), rng.pick(&FOURS)],
        "overline-four" => vec![rng.pick(&OVERLINES), rng.pick(&FOURS)],
        "overline-double-four" => vec![rng.pick(&OVERLINES), rng.pick(&FOURS), rng.pick(&FOURS)],
        _ => return None,
    };
    let p = (rng.range(0, 14) as i32, rng.range(0, 14) as i32);
    let mut board = Board::<SIZE>::empty();
    for (shape, &d) in shapes.iter().zip(&dirs) {
        let d = if rng.chance(1, 2) { d } else { (-d.0, -d.1) };
        lay(&mut board, p, d, shape)?;
    }
    Some(solutions::renju::Input {
        board,
        row: p.0 as u8,
        col: p.1 as u8,
    })
}

impl Boundary for Renju {
    /// The extra input's stones moved so that its P lands on the base's P (stones moved off
/// the board are dropped), laid over the base's.
fn overlay(base: &Self::Input, extra: &Self::Input) -> Option<Self::Input> {
        let n = SIZE as i32;
        let (dr, dc) = (
            i32::from(base.row) - i32::from(extra.row),
            i32::from(base.col) - i32::from(extra.col),
        );
        let mut moved = Board::<SIZE>::empty();
        for r in 0..n {
            for c in 0..n {
                let (tr, tc) = (r + dr, c + dc);
                if let Some(stone) = extra.board.get(r as usize, c as usize)
                    && (0..n).contains(&tr)
                    && (0..n).contains(&tc)
                {
                    moved.set(tr as usize, tc as usize, Some(stone));
                }
            }
        }
        let board = crate::boundary::overlay_boards(&base.board, &moved)?;
        Some(solutions::renju::Input { board, ..*base })
    }

    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        if let Some(kind) = id.strip_prefix("meet/") {
            let mut input = meeting(kind, rng)?;
            let p = (input.row as usize, input.col as usize);
            let n = rng.range(0, 8) as usize;
            noise(&mut input.board, rng, n);
            input.board.set(p.0, p.1, None);
            return Some(input);
        }
        let len = rng.range(2, 5) as i32;
        let layout = match decoy_layout::<SIZE>(id, rng, Stone::Black, len, RENJU_DECOYS) {
            Some(layout) => layout,
            None => line_layout::<SIZE>(id, rng, Stone::Black, false, hunting)?,
        };
        let len = layout.run.len();
        // P inside the run so that neither part left without it is a five or longer.
        let choices: Vec<usize> = (0..len).filter(|&k| k < 5 && len - 1 - k < 5).collect();
        if choices.is_empty() {
            return None;
        }
        let (pr, pc) = layout.run[rng.pick(&choices)];
        let mut board = layout.board;
        board.set(pr as usize, pc as usize, None);
        let n = rng.range(0, 10) as usize;
        noise(&mut board, rng, n);
        board.set(pr as usize, pc as usize, None);
        Some(solutions::renju::Input {
            board,
            row: pr as u8,
            col: pc as u8,
        })
    }
}
