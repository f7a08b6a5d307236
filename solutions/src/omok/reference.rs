//! The reference: every run of one colour, in every line direction, looked at from its first
//! stone: five stones of that colour, and neither the cell before nor the cell after holds
//! one (so the run is exactly five long).
//!
//! Cells are read through a [`BoardAccess`]: [`Exact`] makes the reference, the other models
//! the board-access wrong solutions (see [`crate::access`]).

use super::{Answer, Input, SIZE, Win};
use crate::access::{BoardAccess, Exact};
use crate::board::{LINES, Stone};

/// Every exact five on the board, each reported at its leftmost stone (topmost if vertical),
/// in row-major order of that stone.
pub fn exact_fives(board: &Input) -> Vec<Win> {
    exact_fives_with::<Exact>(board)
}

fn exact_fives_with<A: BoardAccess>(board: &Input) -> Vec<Win> {
    let mut fives = Vec::new();
    for stone in [Stone::Black, Stone::White] {
        let holds = |(r, c): (i32, i32)| board.holds::<A>(r, c, stone);
        for (r, c) in board.stones(stone) {
            let (r, c) = (r as i32, c as i32);
            // Directions -, |, \ walk right/down from the leftmost (topmost) stone; `/` is
            // walked up-right from its bottom-left end, which is its leftmost stone.
            for &(dr, dc) in &LINES {
                let (before, after) = ((r - dr, c - dc), (r + 5 * dr, c + 5 * dc));
                // Five stones from here (the first is this one), and neither end holds one.
                if A::scans((r, c), (dr, dc), 5, SIZE as i32)
                    && (1..5).all(|k| holds((r + k * dr, c + k * dc)))
                    && !holds(A::beyond(before, (-dr, -dc)))
                    && !holds(A::beyond(after, (dr, dc)))
                {
                    fives.push(Win {
                        stone,
                        row: r as usize,
                        col: c as usize,
                    });
                }
            }
        }
    }
    // In row-major order of the reported stone, whatever the colour.
    fives.sort_by_key(|w| (w.row, w.col));
    fives
}

pub fn solve(board: &Input) -> Answer {
    solve_with::<Exact>(board)
}

/// The reference with cells read through `A`.
pub fn solve_with<A: BoardAccess>(board: &Input) -> Answer {
    exact_fives_with::<A>(board).first().copied()
}
