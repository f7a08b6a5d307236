//! The boundary obligations of omok: the line obligations around every run of five or more,
//! with stones on the parallel lines next to a six; the decoy and interaction obligations
//! around the exact five (see [`crate::decoy`]) and a five crossing a six; and the builder of
//! an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::Omok;
use solutions::board::{LINES, Stone};

use crate::Rng;
use crate::boundary::{Boundary, inside, line_layout, noise, run_cells};
use crate::decoy::{DecoyRules, decoy_layout, decoy_met, decoy_obligations};
use crate::obligations::{LINE_NAMES, LineRules, Obligations, line_met, line_obligations, runs};

const OMOK_RULES: LineRules = LineRules {
    parallel: true,
    parallel_needs_six: true,
};

const OMOK_DECOYS: DecoyRules = DecoyRules {
    touch_min: 2,
    row_col: true,
    long: &["7", "8", "9", "10", "11", "12", "13+"],
};

const SIZE: usize = solutions::omok::SIZE;

impl Obligations for Omok {
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[
        (
            "decoy-start-first-on-line",
            &["decoy/row/before", "decoy/column/before", "decoy/diagonal/before", "decoy/anti-diagonal/before", "decoy/gap-of-one/before"],
        ),
        ("decoy-six-marks-stones", &["meet/five-six/diagonal", "meet/five-six/anti-diagonal"]),
        ("decoy-count-capped-at-six", &["long/11", "long/13+"]),
        ("decoy-switch-forgets-run", &["touch/after", "touch/row", "touch/column", "touch/diagonal", "touch/anti-diagonal"]),
    ];

    fn obligations() -> Vec<(String, String)> {
        let mut list = line_obligations::<SIZE>(OMOK_RULES);
        list.extend(decoy_obligations(OMOK_DECOYS));
        for d in LINE_NAMES {
            list.push((
                format!("meet/five-six/{d}"),
                format!("a stone both in the exact five along {d} and in a run of six or more of the same colour along another line"),
            ));
        }
        list
    }
    fn met(board: &Self::Input) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let all = runs(board, 5);
        line_met(board, &all, OMOK_RULES, &mut out);
        let fives: Vec<_> = all.iter().copied().filter(|r| r.len == 5).collect();
        decoy_met(board, &fives, &all, OMOK_DECOYS, &mut out);
        for five in &fives {
            let crossed = all.iter().any(|six| {
                six.len >= 6
                    && six.stone == five.stone
                    && six.line != five.line
                    && (0..five.len).any(|k| {
                        six.contains((five.start.0 + k * five.dir.0, five.start.1 + k * five.dir.1))
                    })
            });
            if crossed {
                out.insert(format!("meet/five-six/{}", LINE_NAMES[five.line]));
            }
        }
        out
    }
}

/// A five along `d` and a six or seven of the same colour along another line through one of
/// its stones.
fn five_crossing_six(id_dir: &str, rng: &mut Rng, stone: Stone) -> Option<solutions::omok::Input> {
    let n = SIZE as i32;
    let d = LINES[LINE_NAMES.iter().position(|&x| x == id_dir)?];
    let other = loop {
        let o = rng.pick(&LINES);
        if o != d {
            break o;
        }
    };
    let five = run_cells(
        (rng.range(0, 18) as i32, rng.range(0, 18) as i32),
        d,
        5,
    );
    let len = rng.range(6, 7) as i32;
    let shared = five[rng.index(5)];
    let j = rng.range(0, len as u32 - 1) as i32;
    let six = run_cells((shared.0 - j * other.0, shared.1 - j * other.1), other, len);
    if !five.iter().chain(&six).all(|&p| inside(p, n)) {
        return None;
    }
    let mut board = solutions::omok::Input::empty();
    for &(r, c) in five.iter().chain(&six) {
        board.set(r as usize, c as usize, Some(stone));
    }
    Some(board)
}

impl Boundary for Omok {
    fn overlay(base: &Self::Input, extra: &Self::Input) -> Option<Self::Input> {
        crate::boundary::overlay_boards(base, extra)
    }

    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let stone = rng.pick(&[Stone::Black, Stone::White]);
        let mut board = if let Some(d) = id.strip_prefix("meet/five-six/") {
            five_crossing_six(d, rng, stone)?
        } else if let Some(layout) = decoy_layout::<SIZE>(id, rng, stone, 5, OMOK_DECOYS) {
            layout.board
        } else {
            line_layout::<SIZE>(id, rng, stone, true, hunting)?.board
        };
        let n = rng.range(0, 20) as usize;
        noise(&mut board, rng, n);
        Some(board)
    }
}
