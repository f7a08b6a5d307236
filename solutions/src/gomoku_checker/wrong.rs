//! Known-wrong solutions: the reference's reasoning with one realistic bug each.

use super::{Answer, GomokuChecker, Input, SIZE};
use crate::board::{LINES, Stone};

fn five_windows(board: &Input, stone: Stone, bugs: Bugs) -> Vec<Vec<(i32, i32)>> {
    let n = SIZE as i32;
    // Where a window may start along an axis that it walks: the correct bound, or one short.
    let fits = |start: i32, step: i32| match step {
        1 => start <= n - 5 - i32::from(bugs.edge_off_by_one),
        -1 => start >= 4,
        _ => true,
    };
    let dirs: &[(i32, i32)] = if bugs.no_anti_diagonal {
        &LINES[..3]
    } else {
        &LINES
    };
    let mut windows = Vec::new();
    for r in 0..SIZE as i32 {
        for c in 0..SIZE as i32 {
            for &(dr, dc) in dirs {
                let cells: Vec<(i32, i32)> = (0..5).map(|k| (r + k * dr, c + k * dc)).collect();
                let inside = fits(r, dr)
                    && fits(c, dc)
                    && cells
                        .iter()
                        .all(|&(rr, cc)| (0..n).contains(&rr) && (0..n).contains(&cc));
                if inside
                    && cells
                        .iter()
                        .all(|&(rr, cc)| board.at(rr, cc) == Some(stone))
                {
                    let exact = board.at(r - dr, c - dc) != Some(stone)
                        && board.at(r + 5 * dr, c + 5 * dc) != Some(stone);
                    if !bugs.exact_five_only || exact {
                        windows.push(cells);
                    }
                }
            }
        }
    }
    windows
}

fn solve_with(board: &Input, bugs: Bugs) -> Answer {
    let (black, white) = (board.count(Stone::Black), board.count(Stone::White));
    let last = if black == white + 1 || bugs.no_count_check && black > white {
        Stone::Black
    } else if black == white || bugs.no_count_check || bugs.white_ahead_ok && white == black + 1 {
        Stone::White
    } else {
        return Answer::No;
    };
    if !bugs.ignores_other_five && !five_windows(board, last.other(), bugs).is_empty() {
        return Answer::No;
    }
    let windows = five_windows(board, last, bugs);
    if windows.is_empty() || bugs.five_always_last_move {
        return Answer::Yes;
    }
    if bugs.one_window_only {
        return if windows.len() == 1 {
            Answer::Yes
        } else {
            Answer::No
        };
    }
    let mut before = *board;
    for (r, c) in board
        .stones(last)
        .map(|(r, c)| (r as i32, c as i32))
        .collect::<Vec<_>>()
    {
        before.set(r as usize, c as usize, None);
        if five_windows(&before, last, bugs).is_empty() {
            return Answer::Yes;
        }
        before.set(r as usize, c as usize, Some(last));
    }
    Answer::No
}

crate::known_wrong! {
    GomokuChecker, solve_with;
    /// Accepts white one stone ahead of black (the bug that passed the original tests).
    "white-ahead-accepted" => white_ahead_ok,
    /// Never looks at the stone counts.
    "no-count-check" => no_count_check,
    /// A five of the last mover is always fine: never tries removing a stone.
    "five-always-last-move" => five_always_last_move,
    /// Forgets that the other colour must not have a five.
    "ignores-other-five" => ignores_other_five,
    /// Counts only exact fives as game-ending (six or more "does not count").
    "six-does-not-end-the-game" => exact_five_only,
    /// Checks `-`, `|` and `\` but not `/`.
    "no-anti-diagonal" => no_anti_diagonal,
    /// Window starts stop one short (`0..SIZE - 5` instead of `0..=SIZE - 5`): fives that
    /// touch the right or bottom edge are missed.
    "edge-off-by-one" => edge_off_by_one,
    /// "The last move made the five" only when there is exactly one five-cell window: runs of
    /// six to nine and crossing fives are called impossible.
    "one-window-only" => one_window_only,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[
    crate::access::Equivalent {
        model: "access-pad-thin-left-black",
        why: "the scan walks from stones along -, |, \\ and / (up-right) only, so its column never decreases and column -1 is never read; every other read is exact",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-left-white",
        why: "the scan walks from stones along -, |, \\ and / (up-right) only, so its column never decreases and column -1 is never read; every other read is exact",
    },
    crate::access::Equivalent {
        model: "six-check-parallel-line",
        why: "five or more wins in gomoku-checker, so the solver never looks past a run's end: the model's only change (which cell is read beyond a run) is never exercised; its reads are exact",
    },
];
