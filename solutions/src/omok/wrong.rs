//! Known-wrong solutions: the reference's scan with one realistic bug each.

use super::{Answer, Input, Omok, SIZE, Win};
use crate::board::{LINES, Stone};

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

crate::known_wrong! {
    Omok, solve_with;
    /// Five or more wins: six counts as five.
    "six-counts-as-five" => six_counts,
    /// For `/` reports the top-right end instead of the bottom-left (leftmost) one.
    "slash-reports-top-end" => slash_reports_top,
    /// Checks `-`, `|` and `\` but not `/`.
    "no-anti-diagonal" => no_anti_diagonal,
    /// The scan for run starts stops one column and one row short of the far edges.
    "edge-off-by-one" => edge_off_by_one,
    /// Looks only for black's fives.
    "black-only" => black_only,
    /// Reports the last stone of the five instead of the first.
    "reports-last-stone" => reports_last_stone,
    /// A colour with a six anywhere "cannot win", even with an exact five elsewhere.
    "six-disqualifies-colour" => six_disqualifies,
    /// Prints the column before the row.
    "row-col-swapped" => row_col_swapped,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[];
