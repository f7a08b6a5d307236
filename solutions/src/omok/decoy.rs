//! Decoy models: real contestants' line scans with a bug that only shows when other stones
//! interact with the five — a stone of its colour earlier on its line, a six crossing it, a
//! run far longer than six, the other colour's run touching its end. On random positions
//! they fail rarely (or, for the first, on random games only), so a test set keeps them out
//! only if it has the decoy and interaction obligations (see `generators::decoy`).
//!
//! The scan is the usual one: every line of every direction walked from its first cell,
//! counting the current run; a run is judged when it ends. `/` lines are walked up-right
//! from their bottom-left end, so a run's first cell is the five's leftmost stone.

use super::{Answer, Input, Omok, SIZE, Win};
use crate::board::{LINES, Stone};

/// The first cell of every line of direction `d` (the cells whose predecessor is off the board).
fn line_starts((dr, dc): (i32, i32)) -> Vec<(i32, i32)> {
    let n = SIZE as i32;
    let mut starts = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (pr, pc) = (r - dr, c - dc);
            if !(0..n).contains(&pr) || !(0..n).contains(&pc) {
                starts.push((r, c));
            }
        }
    }
    starts
}

/// The other usual scan: every stone in row-major order, each of the four directions from it
/// when the stone starts the run there (its predecessor is not its colour), counting forward.
/// With `six_breaks_directions`, a run of six or more from the stone leaves the direction
/// loop (`break` where `continue` was meant): the stone's later directions are never looked
/// at, so a five that starts at a stone starting a six in an earlier direction is missed.
fn stone_by_stone(board: &Input, bugs: Bugs) -> Answer {
    for r in 0..SIZE as i32 {
        for c in 0..SIZE as i32 {
            let Some(stone) = board.at(r, c) else {
                continue;
            };
            for (dr, dc) in LINES {
                if board.at(r - dr, c - dc) == Some(stone) {
                    continue;
                }
                let len = (0..)
                    .take_while(|&k| board.at(r + k * dr, c + k * dc) == Some(stone))
                    .count();
                if len == 5 {
                    return Some(Win {
                        stone,
                        row: r as usize,
                        col: c as usize,
                    });
                }
                if len > 5 && bugs.six_breaks_directions {
                    break;
                }
            }
        }
    }
    None
}

fn solve_with(board: &Input, bugs: Bugs) -> Answer {
    if bugs.six_breaks_directions {
        return stone_by_stone(board, bugs);
    }
    let n = SIZE as i32;
    let inside = |(r, c): (i32, i32)| (0..n).contains(&r) && (0..n).contains(&c);
    let mut used = [[false; SIZE]; SIZE];
    let mut wins: Vec<Win> = Vec::new();
    for d in LINES {
        for first in line_starts(d) {
            let cells: Vec<(i32, i32)> = (0..)
                .map(|k| (first.0 + k * d.0, first.1 + k * d.1))
                .take_while(|&p| inside(p))
                .collect();
            let cell = |i: usize| {
                let (r, c) = cells[i];
                if bugs.six_marks_stones && used[r as usize][c as usize] {
                    None
                } else {
                    board.get(r as usize, c as usize)
                }
            };
            // The runs of this line: (colour, first index, length).
            let mut runs: Vec<(Stone, usize, usize)> = Vec::new();
            let mut current: Option<(Stone, usize, usize)> = None;
            for i in 0..cells.len() {
                let here = cell(i);
                match (current, here) {
                    (Some((s, start, len)), Some(h))
                        if h == s && !(bugs.count_capped_at_six && len == 6) =>
                    {
                        current = Some((s, start, len + 1));
                    }
                    // The colour changes with no empty cell between: the run that ends is
                    // forgotten, not judged.
                    (Some(_), Some(h)) if bugs.switch_forgets_run => {
                        current = Some((h, i, 1));
                    }
                    // The cell right after a six is marked as seen with it: a run of the
                    // other colour starting there starts one cell later.
                    (Some((_, _, len)), Some(_)) if bugs.skip_after_six && len >= 6 => {
                        runs.extend(current);
                        current = None;
                    }
                    _ => {
                        runs.extend(current);
                        current = here.map(|h| (h, i, 1));
                    }
                }
            }
            runs.extend(current);
            for (stone, start, len) in runs {
                if len >= 6 && bugs.six_marks_stones {
                    for &(r, c) in &cells[start..start + len] {
                        used[r as usize][c as usize] = true;
                    }
                }
                if len != 5 {
                    continue;
                }
                let mut at = cells[start];
                if bugs.start_first_on_line {
                    let first = (0..cells.len()).find(|&i| {
                        board.get(cells[i].0 as usize, cells[i].1 as usize) == Some(stone)
                    });
                    at = cells[first.unwrap_or(start)];
                }
                wins.push(Win {
                    stone,
                    row: at.0 as usize,
                    col: at.1 as usize,
                });
            }
        }
    }
    wins.sort_by_key(|w| (w.row, w.col));
    wins.first().copied()
}

crate::known_wrong! {
    Omok, solve_with;
    /// Finds the five, then reports the first stone of its colour on its line (scanning the
    /// line from its start) as where it starts: wrong when another stone of that colour lies
    /// earlier on the same line.
    "decoy-start-first-on-line" => start_first_on_line,
    /// Marks the stones of every six or longer run as used and skips them in the directions
    /// scanned later: a five through a stone of a six in another direction is missed.
    "decoy-six-marks-stones" => six_marks_stones,
    /// Counts a run only up to six ("six or more is all we need to know") and starts a new
    /// run at the seventh stone: a run of 11 or 17 ends in a phantom five.
    "decoy-count-capped-at-six" => count_capped_at_six,
    /// Judges a run only when an empty cell or the edge ends it: a five whose next cell holds
    /// the other colour (the two runs touching end to end) is never judged.
    "decoy-switch-forgets-run" => switch_forgets_run,
    /// Checks each stone's four directions in a loop and leaves the loop with `break` when
    /// the stone starts a run of six or more: a five starting at that stone in a later
    /// direction is never checked.
    "decoy-six-breaks-directions" => six_breaks_directions,
    /// Marks the cell right after a run of six or more as seen: a five of the other colour
    /// starting on that cell is counted from its second stone, a four.
    "decoy-skip-after-six" => skip_after_six,
}
