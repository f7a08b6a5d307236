//! Known-wrong solutions: the reference's scan with one realistic bug each.

use super::{Answer, Input, Omok, SIZE, Win};
use crate::board::{LINES, Stone};
use crate::problem::Solver;

#[derive(Clone, Copy, Default)]
struct Bugs {
    /// Five or more wins: six counts as five.
    six_counts: bool,
    /// For `/` reports the top-right end instead of the bottom-left (leftmost) one.
    slash_reports_top: bool,
    /// Checks `-`, `|` and `\` but not `/`.
    no_anti_diagonal: bool,
    /// The scan for run starts stops one column and one row short of the far edges.
    edge_off_by_one: bool,
    /// Looks only for black's fives.
    black_only: bool,
    /// Reports the last stone of the five instead of the first.
    reports_last_stone: bool,
    /// A colour with a six anywhere "cannot win", even with an exact five elsewhere.
    six_disqualifies: bool,
    /// Prints the column before the row.
    row_col_swapped: bool,
}

fn solve_with(board: &Input, bugs: Bugs) -> Answer {
    let n = SIZE as i32;
    let dirs: &[(i32, i32)] = if bugs.no_anti_diagonal {
        &LINES[..3]
    } else {
        &LINES
    };
    let mut wins = Vec::new();
    let mut has_six = [false, false];
    let scan_end = n - i32::from(bugs.edge_off_by_one);
    for r in 0..scan_end {
        for c in 0..scan_end {
            let Some(stone) = board.at(r, c) else {
                continue;
            };
            if bugs.black_only && stone != Stone::Black {
                continue;
            }
            for &(dr, dc) in dirs {
                if board.at(r - dr, c - dc) == Some(stone) {
                    continue;
                }
                let len = (0..)
                    .take_while(|&k| board.at(r + k * dr, c + k * dc) == Some(stone))
                    .count() as i32;
                if len > 5 {
                    has_six[stone as usize] = true;
                }
                if len == 5 || bugs.six_counts && len > 5 {
                    let (mut wr, mut wc) = (r, c);
                    if bugs.reports_last_stone || bugs.slash_reports_top && dr == -1 {
                        (wr, wc) = (r + (len - 1) * dr, c + (len - 1) * dc);
                    }
                    wins.push(Win {
                        stone,
                        row: wr as usize,
                        col: wc as usize,
                    });
                }
            }
        }
    }
    let mut win = wins
        .into_iter()
        .find(|w| !(bugs.six_disqualifies && has_six[w.stone as usize]));
    if let Some(w) = win.as_mut().filter(|_| bugs.row_col_swapped) {
        std::mem::swap(&mut w.row, &mut w.col);
    }
    win
}

macro_rules! wrong {
    ($($name:literal => $bug:ident),* $(,)?) => {
        pub fn solvers() -> Vec<Solver<Omok>> {
            vec![$(Solver { name: $name, solve: |b| solve_with(b, Bugs { $bug: true, ..Bugs::default() }) }),*]
        }
    };
}

wrong! {
    "six-counts-as-five" => six_counts,
    "slash-reports-top-end" => slash_reports_top,
    "no-anti-diagonal" => no_anti_diagonal,
    "edge-off-by-one" => edge_off_by_one,
    "black-only" => black_only,
    "reports-last-stone" => reports_last_stone,
    "six-disqualifies-colour" => six_disqualifies,
    "row-col-swapped" => row_col_swapped,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[];
