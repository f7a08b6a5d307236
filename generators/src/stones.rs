//! Helpers for square boards of stones (gomoku-checker, omok, renju): placing lines, random
//! play, filler that creates no new long run, and the eight symmetries of the square.

use solutions::board::{Board, LINES, Stone};

use crate::rng::Rng;

pub type Cell = (i32, i32);

/// The cells of a line of `len` from `start` along `dir`, or `None` if it leaves the board.
pub fn line<const N: usize>(start: Cell, dir: (i32, i32), len: i32) -> Option<Vec<Cell>> {
    let cells: Vec<Cell> = (0..len)
        .map(|k| (start.0 + k * dir.0, start.1 + k * dir.1))
        .collect();
    cells
        .iter()
        .all(|&(r, c)| Board::<N>::on_board(r, c))
        .then_some(cells)
}

/// A random line of `len` cells that fits on the board, in a random direction.
pub fn random_line<const N: usize>(rng: &mut Rng, len: i32) -> Vec<Cell> {
    loop {
        let dir = rng.pick(&LINES);
        let start = (rng.index(N) as i32, rng.index(N) as i32);
        if let Some(cells) = line::<N>(start, dir, len) {
            return cells;
        }
    }
}

pub fn is_empty<const N: usize>(board: &Board<N>, (r, c): Cell) -> bool {
    board.get(r as usize, c as usize).is_none()
}

pub fn put<const N: usize>(board: &mut Board<N>, cells: &[Cell], stone: Stone) {
    for &(r, c) in cells {
        board.set(r as usize, c as usize, Some(stone));
    }
}

/// The longest run `stone` would have through `cell` if placed there (every line direction;
/// the random games ask this of every move they try, so it reads the row masks directly).
pub fn run_if_placed<const N: usize>(board: &Board<N>, (r, c): Cell, stone: Stone) -> usize {
    let rows = board.rows(stone);
    let (r, c) = (r as usize, c as usize);
    // Along the row: the unbroken ones around bit `c` of the row with `c` set.
    let row = rows[r] | 1 << c;
    let right = (!(row >> c)).trailing_zeros();
    let left = (!(row << (31 - c))).leading_zeros();
    let mut longest = (right + left - 1) as usize;
    // The other lines: walk each way while the next row holds the stone at the next column.
    for (dr, dc) in [(1, 0), (1, 1), (-1, 1)] {
        let mut len = 1;
        for sign in [1i32, -1] {
            let (mut rr, mut cc) = (r as i32 + sign * dr, c as i32 + sign * dc);
            while rr >= 0
                && cc >= 0
                && (rr as usize) < N
                && (cc as usize) < N
                && rows[rr as usize] >> cc & 1 == 1
            {
                len += 1;
                rr += sign * dr;
                cc += sign * dc;
            }
        }
        longest = longest.max(len);
    }
    longest
}

/// A board being filled at random, with the empty cells and the stones kept in lists so that
/// picking a cell costs O(1): random play must make 100,000 positions a second. Cells are
/// kept as indices `r * N + c` (two bytes each: a stress run makes a placer for most cases).
pub struct Placer<const N: usize> {
    pub board: Board<N>,
    empties: Vec<u16>,
    /// Where each cell is in `empties` (`OCCUPIED` when occupied).
    slot: Vec<u16>,
    stones: Vec<u16>,
}

/// `Placer::slot` of an occupied cell.
const OCCUPIED: u16 = u16::MAX;

impl<const N: usize> Placer<N> {
    fn cell(index: u16) -> Cell {
        let index = usize::from(index);
        ((index / N) as i32, (index % N) as i32)
    }

    /// The lists in row-major order, read off the row masks.
    pub fn new(board: Board<N>) -> Self {
        let mut empties = Vec::with_capacity(N * N);
        let mut stones = Vec::with_capacity(N * N);
        let mut slot = vec![OCCUPIED; N * N];
        for r in 0..N {
            let taken = board.black[r] | board.white[r];
            for c in 0..N {
                let index = (r * N + c) as u16;
                if taken >> c & 1 == 0 {
                    slot[usize::from(index)] = empties.len() as u16;
                    empties.push(index);
                } else {
                    stones.push(index);
                }
            }
        }
        Placer {
            board,
            empties,
            slot,
            stones,
        }
    }

    pub fn put(&mut self, cell: Cell, stone: Stone) {
        let i = cell.0 as usize * N + cell.1 as usize;
        let at = self.slot[i];
        if at == OCCUPIED {
            return;
        }
        let last = *self.empties.last().expect("an empty cell");
        self.empties.swap_remove(usize::from(at));
        if usize::from(last) != i {
            self.slot[usize::from(last)] = at;
        }
        self.slot[i] = OCCUPIED;
        self.stones.push(i as u16);
        self.board
            .set(cell.0 as usize, cell.1 as usize, Some(stone));
    }

    /// A random empty cell; with probability `near`/4 one within distance 2 of a random stone.
    pub fn random_empty(&self, rng: &mut Rng, near: u32) -> Option<Cell> {
        if self.empties.is_empty() {
            return None;
        }
        if !self.stones.is_empty() && rng.chance(near, 4) {
            for _ in 0..8 {
                let (r, c) = Self::cell(rng.pick(&self.stones));
                let cell = (
                    r + rng.range(0, 4) as i32 - 2,
                    c + rng.range(0, 4) as i32 - 2,
                );
                if Board::<N>::on_board(cell.0, cell.1) && is_empty(&self.board, cell) {
                    return Some(cell);
                }
            }
        }
        Some(Self::cell(rng.pick(&self.empties)))
    }

    /// Places up to `count` stones of `stone` at random empty cells, none of which makes a
    /// run of five or more of that colour (so the filler never creates or lengthens a five).
    /// Returns how many were placed (fewer only on a crowded board).
    pub fn fill(&mut self, rng: &mut Rng, stone: Stone, count: usize, near: u32) -> usize {
        let mut placed = 0;
        let mut attempts = 0;
        while placed < count && attempts < count * 20 + 100 {
            attempts += 1;
            let Some(cell) = self.random_empty(rng, near) else {
                break;
            };
            if run_if_placed(&self.board, cell, stone) < 5 {
                self.put(cell, stone);
                placed += 1;
            }
        }
        placed
    }
}

/// [`Placer::fill`] on `board`.
pub fn fill<const N: usize>(
    board: &mut Board<N>,
    rng: &mut Rng,
    stone: Stone,
    count: usize,
    near: u32,
) -> usize {
    let mut placer = Placer::new(*board);
    let placed = placer.fill(rng, stone, count, near);
    *board = placer.board;
    placed
}

/// One of the 8 symmetries of the square (rotations and reflections), applied to a cell.
pub fn transform<const N: usize>(k: u32, (r, c): Cell) -> Cell {
    let n = N as i32 - 1;
    let (r, c) = if k & 4 != 0 { (c, r) } else { (r, c) };
    let r = if k & 1 != 0 { n - r } else { r };
    let c = if k & 2 != 0 { n - c } else { c };
    (r, c)
}

/// `board` under symmetry `k` of [`transform`], on the row masks: a transpose (bit by bit),
/// then the order of the rows and of the bits in each row reversed as `k` says.
pub fn transform_board<const N: usize>(k: u32, board: &Board<N>) -> Board<N> {
    fn masks<const N: usize>(rows: &[u32; N], k: u32) -> [u32; N] {
        let mut out = *rows;
        if k & 4 != 0 {
            out = [0; N];
            for (r, &row) in rows.iter().enumerate() {
                let mut bits = row;
                while bits != 0 {
                    let c = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out[c] |= 1 << r;
                }
            }
        }
        if k & 1 != 0 {
            out.reverse();
        }
        if k & 2 != 0 {
            for row in &mut out {
                *row = row.reverse_bits() >> (32 - N);
            }
        }
        out
    }
    Board {
        black: masks(&board.black, k),
        white: masks(&board.white, k),
    }
}

/// The same as [`transform_board`], one cell at a time: what it must equal.
#[cfg(test)]
fn transform_board_cell_by_cell<const N: usize>(k: u32, board: &Board<N>) -> Board<N> {
    let mut out = Board::<N>::empty();
    for r in 0..N {
        for c in 0..N {
            let (tr, tc) = transform::<N>(k, (r as i32, c as i32));
            out.set(tr as usize, tc as usize, board.get(r, c));
        }
    }
    out
}

/// Shrink steps for a board of stones: empty a whole row or column (bigger steps first),
/// remove the k-th black and the k-th white stone together (which keeps the difference of the
/// counts, often what a bug depends on), then remove single stones.
pub fn shrink_board<const N: usize>(board: &Board<N>) -> Vec<Board<N>> {
    let mut out = Vec::new();
    let blacks: Vec<(usize, usize)> = board.stones(Stone::Black).collect();
    let whites: Vec<(usize, usize)> = board.stones(Stone::White).collect();
    for r in 0..N {
        if board.black[r] | board.white[r] != 0 {
            let mut b = *board;
            b.black[r] = 0;
            b.white[r] = 0;
            out.push(b);
        }
    }
    for c in 0..N {
        let bit = 1u32 << c;
        if (0..N).any(|r| (board.black[r] | board.white[r]) & bit != 0) {
            let mut b = *board;
            for r in 0..N {
                b.black[r] &= !bit;
                b.white[r] &= !bit;
            }
            out.push(b);
        }
    }
    for (&(br, bc), &(wr, wc)) in blacks.iter().zip(&whites) {
        let mut b = *board;
        b.set(br, bc, None);
        b.set(wr, wc, None);
        out.push(b);
    }
    for &(r, c) in blacks.iter().chain(&whites) {
        let mut b = *board;
        b.set(r, c, None);
        out.push(b);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_board_moves_every_stone_as_transform_moves_its_cell() {
        let mut rng = crate::stream("stones", "transform", 0, 1);
        for _ in 0..200 {
            let mut board = Board::<19>::empty();
            fill(&mut board, &mut rng, Stone::Black, 60, 1);
            fill(&mut board, &mut rng, Stone::White, 60, 1);
            for k in 0..8 {
                assert_eq!(
                    transform_board::<19>(k, &board),
                    transform_board_cell_by_cell::<19>(k, &board),
                    "symmetry {k}"
                );
            }
        }
    }
}
