//! The fast solver: exact-five window starts from row bitboards (see [`crate::runs`]), both
//! colours, reported at the first start in row-major order like the reference.

use super::{Answer, Input, SIZE, Win};
use crate::board::Stone;
use crate::runs::five_starts;

pub fn solve(board: &Input) -> Answer {
    let black = five_starts(&board.black, true);
    let white = five_starts(&board.white, true);
    for r in 0..SIZE {
        let b = black[0][r] | black[1][r] | black[2][r] | black[3][r];
        let w = white[0][r] | white[1][r] | white[2][r] | white[3][r];
        if b | w != 0 {
            let col = (b | w).trailing_zeros() as usize;
            let stone = if b >> col & 1 == 1 {
                Stone::Black
            } else {
                Stone::White
            };
            return Some(Win { stone, row: r, col });
        }
    }
    None
}
