//! The reference: every maximal run of one colour, in every line direction, measured from its
//! first stone; the runs of length exactly five are the wins.

use super::{Answer, Input, Win};
use crate::board::{LINES, Stone};

/// Every exact five on the board, each reported at its leftmost stone (topmost if vertical),
/// in row-major order of that stone.
pub fn exact_fives(board: &Input) -> Vec<Win> {
    let mut fives = Vec::new();
    let stones = board
        .stones(Stone::Black)
        .map(|cell| (cell, Stone::Black))
        .chain(board.stones(Stone::White).map(|cell| (cell, Stone::White)));
    for ((r, c), stone) in stones {
        let (r, c) = (r as i32, c as i32);
        // Directions -, |, \ walk right/down from the leftmost (topmost) stone; `/` is walked
        // up-right from its bottom-left end, which is its leftmost stone.
        for &(dr, dc) in &LINES {
            if board.at(r - dr, c - dc) == Some(stone) {
                continue; // not the first stone of its run
            }
            let len = (0..)
                .take_while(|&k| board.at(r + k * dr, c + k * dc) == Some(stone))
                .count();
            if len == 5 {
                fives.push(Win {
                    stone,
                    row: r as usize,
                    col: c as usize,
                });
            }
        }
    }
    // In row-major order of the reported stone, whatever the colour.
    fives.sort_by_key(|w| (w.row, w.col));
    fives
}

pub fn solve(board: &Input) -> Answer {
    exact_fives(board).first().copied()
}
