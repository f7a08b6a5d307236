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

/// The longest run `stone` would have through `cell` if placed there.
pub fn run_if_placed<const N: usize>(board: &Board<N>, (r, c): Cell, stone: Stone) -> usize {
    LINES
        .iter()
        .map(|&d| board.run_through(r as usize, c as usize, d, stone))
        .max()
        .unwrap_or(1)
}

/// A board being filled at random, with the empty cells and the stones kept in lists so that
/// picking a cell costs O(1): random play must make 100,000 positions a second.
pub struct Placer<const N: usize> {
    pub board: Board<N>,
    empties: Vec<Cell>,
    /// Where each cell is in `empties` (`usize::MAX` when occupied).
    slot: Vec<usize>,
    stones: Vec<Cell>,
}

impl<const N: usize> Placer<N> {
    pub fn new(board: Board<N>) -> Self {
        let mut placer = Placer {
            board,
            empties: Vec::with_capacity(N * N),
            slot: vec![usize::MAX; N * N],
            stones: Vec::new(),
        };
        for r in 0..N as i32 {
            for c in 0..N as i32 {
                if is_empty(&board, (r, c)) {
                    placer.slot[r as usize * N + c as usize] = placer.empties.len();
                    placer.empties.push((r, c));
                } else {
                    placer.stones.push((r, c));
                }
            }
        }
        placer
    }

    pub fn put(&mut self, cell: Cell, stone: Stone) {
        let i = cell.0 as usize * N + cell.1 as usize;
        let at = self.slot[i];
        if at == usize::MAX {
            return;
        }
        let last = *self.empties.last().expect("an empty cell");
        self.empties.swap_remove(at);
        if last != cell {
            self.slot[last.0 as usize * N + last.1 as usize] = at;
        }
        self.slot[i] = usize::MAX;
        self.stones.push(cell);
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
                let (r, c) = rng.pick(&self.stones);
                let cell = (
                    r + rng.range(0, 4) as i32 - 2,
                    c + rng.range(0, 4) as i32 - 2,
                );
                if Board::<N>::on_board(cell.0, cell.1) && is_empty(&self.board, cell) {
                    return Some(cell);
                }
            }
        }
        Some(rng.pick(&self.empties))
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

pub fn transform_board<const N: usize>(k: u32, board: &Board<N>) -> Board<N> {
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
