//! Decoy and interaction obligations of the line problems (omok, renju): the stones around
//! the answer's run that real contestants' scans trip over, and the ways runs meet. The
//! boundary obligations of [`crate::obligations`] are about the board's edge; these are about
//! the other stones. Each problem adds its own ways runs meet (omok: a five crossing a six;
//! renju: a five or an overline with fours through `P`) in its folder.
//!
//! For a subject run R of colour C along direction D (omok: the exact five; renju: black's
//! runs of two or more through `P`, with `P` played):
//!
//! - `decoy/D/before`, `decoy/D/after` — a stone of C on R's line beyond the cell before
//!   (after) R: a scan that takes the first stone of C on the line as where the five starts, or
//!   that joins runs over a gap, answers wrongly;
//! - `decoy/gap-of-one/before|after` — the same with exactly one empty point between
//!   (`C.RRRRR`);
//! - `touch/D`, `touch/before|after` — the cell before (after) R starts a run of the other
//!   colour (omok: two or more stones; renju: a white stone): two colours end to end, which
//!   a scan that only judges a run at an empty cell never separates;
//! - `parallel-run/+1|-1` — a run of three or more of C on the line next to R's, alongside it;
//! - `decoy/row`, `decoy/column` (omok) — a stone of C in the answer's row left of it (a five
//!   not along the row) or in its column above it (a five not along the column);
//! - `long/L` — a run of exactly L (omok: anywhere; renju: through `P`), L far beyond six.

use std::collections::BTreeSet;

use solutions::board::{Board, LINES, Stone};

use crate::Rng;
use crate::boundary::{Layout, find_run, inside, line_index};
use crate::obligations::{LINE_NAMES, Run};

/// What a problem's line decoy obligations look at.
#[derive(Clone, Copy)]
pub struct DecoyRules {
    /// How long the other colour's run touching R must be.
    pub touch_min: i32,
    /// Are `decoy/row` and `decoy/column` part of the list (an answer that names a cell)?
    pub row_col: bool,
    /// The `long/L` classes: exact lengths, the last may end in `+` (that length or more).
    pub long: &'static [&'static str],
}

/// Every line decoy obligation of a problem.
pub fn decoy_obligations(rules: DecoyRules) -> Vec<(String, String)> {
    let mut list = Vec::new();
    for d in LINE_NAMES {
        for end in ["before", "after"] {
            list.push((
                format!("decoy/{d}/{end}"),
                format!(
                    "a stone of the run's colour on its line ({d}) {end} it, past the cell {end} it"
                ),
            ));
        }
        list.push((
            format!("touch/{d}"),
            format!("a run along {d} whose end cell starts a run of the other colour"),
        ));
    }
    for end in ["before", "after"] {
        list.push((
            format!("decoy/gap-of-one/{end}"),
            format!(
                "a stone of the run's colour on its line {end} it with one empty point between"
            ),
        ));
        list.push((
            format!("touch/{end}"),
            format!("the cell {end} the run starts a run of the other colour (end to end)"),
        ));
    }
    for offset in ["+1", "-1"] {
        list.push((
            format!("parallel-run/{offset}"),
            format!("a run of three or more of the run's colour on the parallel line at offset {offset}, alongside it"),
        ));
    }
    if rules.row_col {
        list.push((
            "decoy/row".to_string(),
            "a stone of the five's colour in the answer's row, left of it (a five not along the row)".to_string(),
        ));
        list.push((
            "decoy/column".to_string(),
            "a stone of the five's colour in the answer's column, above it (a five not along the column)".to_string(),
        ));
    }
    for class in rules.long {
        list.push((
            format!("long/{class}"),
            format!("a run of {class} stones of one colour, far longer than six"),
        ));
    }
    list
}

/// The `long/…` class of a run of `len`, if any.
pub fn long_class(len: i32, rules: DecoyRules) -> Option<&'static str> {
    rules
        .long
        .iter()
        .copied()
        .find(|class| match class.strip_suffix('+') {
            Some(min) => min.parse::<i32>().is_ok_and(|m| len >= m),
            None => class.parse::<i32>().is_ok_and(|l| len == l),
        })
}

/// The line decoy obligations `subjects` meet on `board` (`long/…` from `long_runs`).
pub fn decoy_met<const N: usize>(
    board: &Board<N>,
    subjects: &[Run],
    long_runs: &[Run],
    rules: DecoyRules,
    out: &mut BTreeSet<String>,
) {
    for run in subjects {
        let d = LINE_NAMES[run.line];
        let stone = run.stone;
        for (end, cell, step) in [
            ("before", run.before(), (-run.dir.0, -run.dir.1)),
            ("after", run.after(), run.dir),
        ] {
            let at = |k: i32| board.at(cell.0 + k * step.0, cell.1 + k * step.1);
            let on = |k: i32| Board::<N>::on_board(cell.0 + k * step.0, cell.1 + k * step.1);
            if let Some(k) = (1..).take_while(|&k| on(k)).find(|&k| at(k) == Some(stone)) {
                out.insert(format!("decoy/{d}/{end}"));
                if k == 1 && on(0) && at(0).is_none() {
                    out.insert(format!("decoy/gap-of-one/{end}"));
                }
            }
            let other = stone.other();
            let touching = (0..).take_while(|&k| on(k) && at(k) == Some(other)).count() as i32;
            if touching >= rules.touch_min {
                out.insert(format!("touch/{d}"));
                out.insert(format!("touch/{end}"));
            }
        }
        for offset in [1, -1] {
            let shift = (offset * run.dir.1, -offset * run.dir.0);
            let alongside = (0..run.len).any(|k| {
                let (r, c) = (
                    run.start.0 + k * run.dir.0 + shift.0,
                    run.start.1 + k * run.dir.1 + shift.1,
                );
                board.at(r, c) == Some(stone)
                    && board.run_through(r as usize, c as usize, run.dir, stone) >= 3
            });
            if alongside {
                out.insert(format!("parallel-run/{offset:+}"));
            }
        }
        if rules.row_col {
            let (r, c) = run.start;
            if run.dir != (0, 1) && (0..c).any(|cc| board.at(r, cc) == Some(stone)) {
                out.insert("decoy/row".to_string());
            }
            if run.dir != (1, 0) && (0..r).any(|rr| board.at(rr, c) == Some(stone)) {
                out.insert("decoy/column".to_string());
            }
        }
    }
    for run in long_runs {
        if let Some(class) = long_class(run.len, rules) {
            out.insert(format!("long/{class}"));
        }
    }
}

/// The length a `long/CLASS` obligation asks for (`13+`: 13 to 16).
pub fn long_len(class: &str, rng: &mut Rng) -> Option<i32> {
    match class.strip_suffix('+') {
        Some(min) => {
            let min: u32 = min.parse().ok()?;
            Some(rng.range(min, min + 3) as i32)
        }
        None => class.parse().ok(),
    }
}

/// Lays out a subject run of `len` (from `len`, given the direction) in `stone` and what the
/// line decoy obligation `id` asks for around it; `None` if `id` is not one or it did not fit.
pub(crate) fn decoy_layout<const N: usize>(
    id: &str,
    rng: &mut Rng,
    stone: Stone,
    len: i32,
    rules: DecoyRules,
) -> Option<Layout<N>> {
    let n = N as i32;
    let parts: Vec<&str> = id.split('/').collect();
    let random_dir = |rng: &mut Rng| rng.pick(&LINES);
    let mut board = Board::<N>::empty();
    let other = stone.other();
    let set = |board: &mut Board<N>, p: (i32, i32), s: Option<Stone>| {
        board.set(p.0 as usize, p.1 as usize, s);
    };
    let run = match parts[..] {
        ["decoy", "row" | "column"] => {
            let dir = loop {
                let d = random_dir(rng);
                if d != if parts[1] == "row" { (0, 1) } else { (1, 0) } {
                    break d;
                }
            };
            let run = find_run::<N>(rng, dir, len, |start, _, _| {
                if parts[1] == "row" {
                    start.1 > 0
                } else {
                    start.0 > 0
                }
            })?;
            let (r, c) = run[0];
            let decoy = if parts[1] == "row" {
                (r, rng.range(0, c as u32 - 1) as i32)
            } else {
                (rng.range(0, r as u32 - 1) as i32, c)
            };
            set(&mut board, decoy, Some(stone));
            run
        }
        ["decoy", which, end] => {
            let gap_of_one = which == "gap-of-one";
            let dir = if gap_of_one {
                random_dir(rng)
            } else {
                LINES[line_index(which)?]
            };
            let gap = if gap_of_one {
                2
            } else {
                rng.range(2, 6) as i32
            };
            let step = if end == "before" {
                (-dir.0, -dir.1)
            } else {
                dir
            };
            let run = find_run::<N>(rng, dir, len, |_, before, after| {
                let cell = if end == "before" { before } else { after };
                inside(
                    (cell.0 + (gap - 1) * step.0, cell.1 + (gap - 1) * step.1),
                    n,
                )
            })?;
            let edge = if end == "before" {
                run[0]
            } else {
                run[run.len() - 1]
            };
            let cell = (edge.0 + step.0, edge.1 + step.1);
            // The cell right past the run: empty, or (not for a gap of one) the other colour.
            if !gap_of_one && rng.chance(1, 2) {
                set(&mut board, cell, Some(other));
            }
            set(
                &mut board,
                (edge.0 + gap * step.0, edge.1 + gap * step.1),
                Some(stone),
            );
            run
        }
        ["touch", which] => {
            let (dir, end) = match which {
                "before" | "after" => (random_dir(rng), which),
                d => (
                    LINES[line_index(d)?],
                    if rng.chance(1, 2) { "before" } else { "after" },
                ),
            };
            let touching = rng.range(rules.touch_min as u32, rules.touch_min as u32 + 2) as i32;
            let step = if end == "before" {
                (-dir.0, -dir.1)
            } else {
                dir
            };
            let run = find_run::<N>(rng, dir, len, |_, before, after| {
                let cell = if end == "before" { before } else { after };
                inside(
                    (
                        cell.0 + (touching - 1) * step.0,
                        cell.1 + (touching - 1) * step.1,
                    ),
                    n,
                )
            })?;
            let edge = if end == "before" {
                run[0]
            } else {
                run[run.len() - 1]
            };
            for k in 1..=touching {
                set(
                    &mut board,
                    (edge.0 + k * step.0, edge.1 + k * step.1),
                    Some(other),
                );
            }
            run
        }
        ["parallel-run", offset] => {
            let offset: i32 = offset.parse().ok()?;
            let dir = random_dir(rng);
            let shift = (offset * dir.1, -offset * dir.0);
            let beside = rng.range(3, 4) as i32;
            let from = rng.range(0, (len + beside - 2) as u32) as i32 - (beside - 1);
            let run = find_run::<N>(rng, dir, len, |start, _, _| {
                (0..beside).all(|k| {
                    inside(
                        (
                            start.0 + (from + k) * dir.0 + shift.0,
                            start.1 + (from + k) * dir.1 + shift.1,
                        ),
                        n,
                    )
                })
            })?;
            for k in 0..beside {
                let p = (
                    run[0].0 + (from + k) * dir.0 + shift.0,
                    run[0].1 + (from + k) * dir.1 + shift.1,
                );
                set(&mut board, p, Some(stone));
            }
            run
        }
        ["long", class] => {
            let len = long_len(class, rng)?;
            let dir = random_dir(rng);
            find_run::<N>(rng, dir, len, |_, _, _| true)?
        }
        _ => return None,
    };
    for &p in &run {
        set(&mut board, p, Some(stone));
    }
    Some(Layout { board, run })
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: DecoyRules = DecoyRules {
        touch_min: 2,
        row_col: true,
        long: &["7", "8", "9", "10", "11", "12", "13+"],
    };

    #[test]
    fn long_classes() {
        assert_eq!(long_class(6, RULES), None);
        assert_eq!(long_class(11, RULES), Some("11"));
        assert_eq!(long_class(19, RULES), Some("13+"));
    }

    #[test]
    fn a_stone_past_a_gap_is_a_decoy_and_a_touching_run_is_touch() {
        // Row 3: B . B B B B B W W
        let mut board = Board::<19>::empty();
        board.set(3, 0, Some(Stone::Black));
        for c in 2..7 {
            board.set(3, c, Some(Stone::Black));
        }
        board.set(3, 7, Some(Stone::White));
        board.set(3, 8, Some(Stone::White));
        let runs: Vec<Run> = crate::obligations::runs(&board, 5);
        let mut out = BTreeSet::new();
        decoy_met(&board, &runs, &runs, RULES, &mut out);
        for id in [
            "decoy/row/before",
            "decoy/gap-of-one/before",
            "touch/row",
            "touch/after",
        ] {
            assert!(out.contains(id), "{id}: {out:?}");
        }
        assert!(!out.contains("decoy/row/after"), "{out:?}");
    }
}
