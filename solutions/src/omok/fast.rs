//! The fast solver: exact-five window starts from row bitboards, the same shifts as
//! [`crate::runs::five_starts`] (see there for what a start is), both colours at once in one
//! 64-bit word per row, row by row, stopping at the first row with a start: the reference
//! reports the first start in row-major order.

use super::{Answer, Input, SIZE, Win};
use crate::board::Stone;

/// Where white's row sits in a word: black's is bits `0..19`, white's `32..51`. Every step
/// below shifts by at most 5, so a bit at column `c` of either half only ever meets bits of
/// the same half at columns `c - 5..=c + 5`, or the empty bits between and above the halves
/// (which stand for the empty cells beyond the edges, as the zeros shifted into a `u32` do);
/// masking each half to its 19 columns at the end leaves exactly the two colours' starts.
const WHITE: u32 = 32;

/// Five empty rows above and below the board, so that neighbours need no bounds checks.
const PAD: usize = 5;

pub fn solve(board: &Input) -> Answer {
    let mut rows = [0u64; SIZE + 2 * PAD];
    for r in 0..SIZE {
        rows[r + PAD] = u64::from(board.black[r]) | u64::from(board.white[r]) << WHITE;
    }
    let columns = (1u64 << SIZE) - 1;
    let on_board = columns | columns << WHITE;
    for r in 0..SIZE {
        let i = r + PAD;
        let x = rows[i];
        // `-`: (r, c+k); `|`: (r+k, c); `\`: (r+k, c+k); `/` from its bottom-left end:
        // (r-k, c+k); k in 0..5, and the cells just before and after empty or the other colour.
        let h2 = x & x >> 1;
        let h = h2 & h2 >> 2 & x >> 4 & !(x << 1) & !(x >> 5);
        let v = x & rows[i + 1] & rows[i + 2] & rows[i + 3] & rows[i + 4];
        let v = v & !rows[i - 1] & !rows[i + 5];
        let d = x & rows[i + 1] >> 1 & rows[i + 2] >> 2 & rows[i + 3] >> 3 & rows[i + 4] >> 4;
        let d = d & !(rows[i - 1] << 1) & !(rows[i + 5] >> 5);
        let a = x & rows[i - 1] >> 1 & rows[i - 2] >> 2 & rows[i - 3] >> 3 & rows[i - 4] >> 4;
        let a = a & !(rows[i + 1] << 1) & !(rows[i - 5] >> 5);
        let starts = (h | v | d | a) & on_board;
        if starts != 0 {
            let (black, white) = (starts as u32, (starts >> WHITE) as u32);
            let col = (black | white).trailing_zeros() as usize;
            let stone = if black >> col & 1 == 1 {
                Stone::Black
            } else {
                Stone::White
            };
            return Some(Win { stone, row: r, col });
        }
    }
    None
}
