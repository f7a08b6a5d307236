//! A square board of black and white stones, stored as one bit mask per row and colour.
//!
//! The representation serves both kinds of solver: the reference solvers read it one cell at
//! a time through [`Board::get`], the fast solvers use the row masks directly.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stone {
    Black,
    White,
}

impl Stone {
    pub fn other(self) -> Stone {
        match self {
            Stone::Black => Stone::White,
            Stone::White => Stone::Black,
        }
    }
}

/// The four line directions (row step, column step): `-`, `|`, `\`, `/` (up-right).
pub const LINES: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// All eight directions from a cell.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// An `N`×`N` board (`N` ≤ 32). Bit `c` of `black[r]` is the black stone at row `r`, column `c`
/// (0-based); a cell never holds both colours.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board<const N: usize> {
    pub black: [u32; N],
    pub white: [u32; N],
}

impl<const N: usize> Default for Board<N> {
    fn default() -> Self {
        Board {
            black: [0; N],
            white: [0; N],
        }
    }
}

impl<const N: usize> Board<N> {
    pub fn empty() -> Self {
        Self::default()
    }

    pub fn get(&self, r: usize, c: usize) -> Option<Stone> {
        if self.black[r] >> c & 1 == 1 {
            Some(Stone::Black)
        } else if self.white[r] >> c & 1 == 1 {
            Some(Stone::White)
        } else {
            None
        }
    }

    /// The cell at signed coordinates, `None` outside the board (the edge) as well as on an
    /// empty cell; `Some(None)` never occurs: use [`Board::on_board`] to tell them apart.
    pub fn at(&self, r: i32, c: i32) -> Option<Stone> {
        if Self::on_board(r, c) {
            self.get(r as usize, c as usize)
        } else {
            None
        }
    }

    /// The cell at signed coordinates as a solver reading through `A` sees it (see
    /// [`crate::access`]); with [`crate::access::Exact`] this is [`Board::at`].
    #[inline(always)]
    pub fn read<A: crate::access::BoardAccess>(&self, r: i32, c: i32) -> Option<Stone> {
        use crate::access::{Colour, Read};
        match A::read(r, c, N as i32) {
            Read::Cell(r, c) => self.get(r, c),
            Read::Nothing => None,
            Read::Stray(Colour::First) => Some(Stone::Black),
            Read::Stray(Colour::Second) => Some(Stone::White),
        }
    }

    /// Does the cell at signed coordinates, read through `A`, hold `stone`? The same as
    /// `self.read::<A>(r, c) == Some(stone)`, looking only at `stone`'s mask (a cell never
    /// holds both colours): one test of one bit where [`Board::read`] tells three cases apart.
    #[inline(always)]
    pub fn holds<A: crate::access::BoardAccess>(&self, r: i32, c: i32, stone: Stone) -> bool {
        use crate::access::{Colour, Read};
        match A::read(r, c, N as i32) {
            Read::Cell(r, c) => self.rows(stone)[r] >> c & 1 == 1,
            Read::Nothing => false,
            Read::Stray(Colour::First) => stone == Stone::Black,
            Read::Stray(Colour::Second) => stone == Stone::White,
        }
    }

    pub fn on_board(r: i32, c: i32) -> bool {
        r >= 0 && c >= 0 && (r as usize) < N && (c as usize) < N
    }

    pub fn set(&mut self, r: usize, c: usize, cell: Option<Stone>) {
        let bit = 1u32 << c;
        self.black[r] &= !bit;
        self.white[r] &= !bit;
        match cell {
            Some(Stone::Black) => self.black[r] |= bit,
            Some(Stone::White) => self.white[r] |= bit,
            None => {}
        }
    }

    pub fn rows(&self, stone: Stone) -> &[u32; N] {
        match stone {
            Stone::Black => &self.black,
            Stone::White => &self.white,
        }
    }

    pub fn count(&self, stone: Stone) -> u32 {
        self.rows(stone).iter().map(|r| r.count_ones()).sum()
    }

    /// Every cell holding `stone`, in row-major order (read off the row masks bit by bit).
    pub fn stones(&self, stone: Stone) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows(stone).iter().enumerate().flat_map(|(r, &row)| {
            let mut bits = row;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let c = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    (r, c)
                })
            })
        })
    }

    /// Length of the unbroken run of `stone` through (r, c) along (dr, dc), counting (r, c)
    /// itself as `stone` whatever it holds.
    pub fn run_through(&self, r: usize, c: usize, (dr, dc): (i32, i32), stone: Stone) -> usize {
        let mut len = 1;
        for sign in [1, -1] {
            let (mut rr, mut cc) = (r as i32 + sign * dr, c as i32 + sign * dc);
            while self.at(rr, cc) == Some(stone) {
                len += 1;
                rr += sign * dr;
                cc += sign * dc;
            }
        }
        len
    }
}

impl<const N: usize> fmt::Debug for Board<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f)?;
        for r in 0..N {
            for c in 0..N {
                let ch = match self.get(r, c) {
                    Some(Stone::Black) => 'X',
                    Some(Stone::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::{BoardAccess, Exact};

    /// `holds` is `read == Some(stone)` for every cell in and around the board.
    fn holds_is_read<A: BoardAccess>(board: &Board<19>) {
        for r in -7..26 {
            for c in -7..26 {
                for stone in [Stone::Black, Stone::White] {
                    assert_eq!(
                        board.holds::<A>(r, c, stone),
                        board.read::<A>(r, c) == Some(stone),
                        "{} at ({r}, {c}) for {stone:?}",
                        A::NAME
                    );
                }
            }
        }
    }

    #[test]
    fn holds_is_read_equal_to_the_stone() {
        // A fixed pseudo-random board about a third full of each colour (an LCG, no crate).
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut board = Board::<19>::empty();
        for r in 0..19 {
            for c in 0..19 {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let cell = match x >> 62 {
                    0 => Some(Stone::Black),
                    1 => Some(Stone::White),
                    _ => None,
                };
                board.set(r, c, cell);
            }
        }
        macro_rules! check {
            ($model:ty) => {
                holds_is_read::<$model>(&board);
            };
        }
        check!(Exact);
        crate::for_each_model!(check);
    }
}
