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

/// A random empty cell; near existing stones (within distance 2) with probability `near`/4.
pub fn random_empty<const N: usize>(board: &Board<N>, rng: &mut Rng, near: u32) -> Option<Cell> {
    let empties: Vec<Cell> = (0..N as i32)
        .flat_map(|r| (0..N as i32).map(move |c| (r, c)))
        .filter(|&p| is_empty(board, p))
        .collect();
    if empties.is_empty() {
        return None;
    }
    if rng.chance(near, 4) {
        let close: Vec<Cell> = empties
            .iter()
            .copied()
            .filter(|&(r, c)| {
                (-2..=2).any(|dr| (-2..=2).any(|dc| board.at(r + dr, c + dc).is_some()))
            })
            .collect();
        if !close.is_empty() {
            return Some(rng.pick(&close));
        }
    }
    Some(rng.pick(&empties))
}

/// Places up to `count` stones of `stone` at random empty cells, none of which makes a run of
/// five or more of that colour (so the filler never creates or lengthens a five). Returns how
/// many were placed (fewer only on a crowded board).
pub fn fill<const N: usize>(
    board: &mut Board<N>,
    rng: &mut Rng,
    stone: Stone,
    count: usize,
    near: u32,
) -> usize {
    let mut placed = 0;
    let mut attempts = 0;
    while placed < count && attempts < count * 20 + 100 {
        attempts += 1;
        let Some(cell) = random_empty(board, rng, near) else {
            break;
        };
        if run_if_placed(board, cell, stone) < 5 {
            put(board, &[cell], stone);
            placed += 1;
        }
    }
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
