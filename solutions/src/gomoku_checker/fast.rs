//! The fast solver (to be replaced by the bitboard one).

use super::{Answer, Input};

pub fn solve(board: &Input) -> Answer {
    super::reference::solve(board)
}
