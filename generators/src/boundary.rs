//! Boundary cases: for every obligation of [`crate::obligations`], an input built to meet it.
//!
//! [`Boundary::boundary_case`] builds a valid input meeting one named obligation from a random
//! stream (a few hundred attempts; each is checked with the problem's `valid` and the
//! obligation's predicate). `judge testset` adds one for every obligation its other tests
//! leave unmet; `judge stress` runs them after the test set's strongest cases.

use crate::obligations::{
    DIRECTION_NAMES, LINE_NAMES, Obligations, RIM, alias_models, corner_diagonals, rim, side,
};
use crate::stones::Placer;
use crate::{Generate, Rng};
use solutions::access::Read;
use solutions::board::{Board, DIRECTIONS, LINES, Stone};
use solutions::{Attack25, GomokuChecker, Omok, OthelloFlips, Renju};

/// How many random constructions are tried for one obligation.
const ATTEMPTS: usize = 400;

pub trait Boundary: Obligations + Generate {
    /// One attempt at an input meeting obligation `id` (not necessarily valid or meeting it:
    /// [`boundary_case`] checks). With `hunting`, runs may also be one stone short (a four at
    /// the edge, which an aliasing read can turn into a phantom five).
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input>;
}

/// Hunting case `index` under `seed`: an attempt at a random obligation, runs possibly one
/// short, kept if valid (not necessarily meeting the obligation). `judge testset` draws from
/// these when a known-wrong solution is rejected by fewer than two tests.
pub fn hunting_case<P: Boundary>(index: u64, seed: u64) -> Option<P::Input> {
    let mut rng = crate::stream(P::ID, "boundary-hunt", index, seed);
    let obligations = P::obligations();
    let (id, _) = &obligations[rng.index(obligations.len())];
    P::attempt(id, &mut rng, true).filter(|input| P::valid(input))
}

/// A valid input meeting obligation `id`, built from `rng`; `None` if no attempt succeeded.
pub fn boundary_case<P: Boundary>(id: &str, rng: &mut Rng) -> Option<P::Input> {
    (0..ATTEMPTS).find_map(|_| {
        P::attempt(id, rng, false).filter(|input| P::valid(input) && P::met(input).contains(id))
    })
}

/// Boundary case `index` of obligation `id` under `seed`: its own stream, so it never
/// depends on which other cases were made.
pub fn boundary_case_at<P: Boundary>(id: &str, index: u64, seed: u64) -> Option<P::Input> {
    let mut rng = crate::stream(P::ID, &format!("boundary/{id}"), index, seed);
    boundary_case::<P>(id, &mut rng)
}

// ---------------------------------------------------------------------------------------
// Line problems.

/// What a line problem's attempt should lay: a run and the stones the obligation asks for
/// around it.
struct Layout<const N: usize> {
    board: Board<N>,
    run: Vec<(i32, i32)>,
}

fn inside(p: (i32, i32), n: i32) -> bool {
    side(p.0, p.1, n).is_none()
}

fn run_cells(start: (i32, i32), d: (i32, i32), len: i32) -> Vec<(i32, i32)> {
    (0..len)
        .map(|k| (start.0 + k * d.0, start.1 + k * d.1))
        .collect()
}

/// A random run of `len` along `d` on an empty board meeting `ok(start, before, after)`.
fn find_run<const N: usize>(
    rng: &mut Rng,
    d: (i32, i32),
    len: i32,
    ok: impl Fn((i32, i32), (i32, i32), (i32, i32)) -> bool,
) -> Option<Vec<(i32, i32)>> {
    let n = N as i32;
    let mut starts = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let cells = run_cells((r, c), d, len);
            let before = (r - d.0, c - d.1);
            let after = (r + len * d.0, c + len * d.1);
            if cells.iter().all(|&p| inside(p, n)) && ok((r, c), before, after) {
                starts.push(cells);
            }
        }
    }
    (!starts.is_empty()).then(|| starts.swap_remove(rng.index(starts.len())))
}

fn line_index(name: &str) -> Option<usize> {
    LINE_NAMES.iter().position(|&n| n == name)
}

fn run_len(rng: &mut Rng, class: &str) -> i32 {
    if class == "5" {
        5
    } else {
        rng.range(6, 7) as i32
    }
}

/// Lays out the run (and the stones around it) that obligation `id` asks for, in `stone`.
/// `same` is the run's colour, `other` the other colour, for alias and parallel stones.
fn line_layout<const N: usize>(
    id: &str,
    rng: &mut Rng,
    stone: Stone,
    needs_six: bool,
    hunting: bool,
) -> Option<Layout<N>> {
    let short = i32::from(hunting && rng.chance(1, 2));
    let n = N as i32;
    let parts: Vec<&str> = id.split('/').collect();
    let mut board = Board::<N>::empty();
    let colour_of = |word: &str| if word == "same" { stone } else { stone.other() };
    let run = match parts[..] {
        ["edge", d, end, s, len] => {
            let dir = LINES[line_index(d)?];
            let len = run_len(rng, len) - short;
            find_run::<N>(rng, dir, len, |_, before, after| {
                let cell = if end == "before" { before } else { after };
                side(cell.0, cell.1, n) == Some(s)
            })?
        }
        ["corner-diagonal", corner] => {
            let (_, start, dir) = corner_diagonals(n).into_iter().find(|c| c.0 == corner)?;
            run_cells(start, dir, 5)
        }
        ["alias", model, d, end, colour] => {
            let dir = LINES[line_index(d)?];
            let read = alias_models().into_iter().find(|m| m.0 == model)?.1;
            let len = rng.range(5, 6) as i32 - short;
            let run = find_run::<N>(rng, dir, len, |start, before, after| {
                let cell = if end == "before" { before } else { after };
                !inside(cell, n)
                    && matches!(read(cell.0, cell.1, n), Read::Cell(r, c)
                        if !run_cells(start, dir, len).contains(&(r as i32, c as i32)))
            })?;
            let first = run[0];
            let cell = if end == "before" {
                (first.0 - dir.0, first.1 - dir.1)
            } else {
                (first.0 + len * dir.0, first.1 + len * dir.1)
            };
            if let Read::Cell(r, c) = read(cell.0, cell.1, n) {
                board.set(r, c, Some(colour_of(colour)));
            }
            run
        }
        ["parallel", d, offset, colour] => {
            let dir = LINES[line_index(d)?];
            let offset: i32 = offset.parse().ok()?;
            let shift = (offset * dir.1, -offset * dir.0);
            let at_end = rng.chance(1, 2);
            let run = find_run::<N>(rng, dir, 5, |_, before, after| {
                let cell = if at_end { after } else { before };
                inside((cell.0 + shift.0, cell.1 + shift.1), n)
            })?;
            let end = if at_end {
                (run[4].0 + dir.0, run[4].1 + dir.1)
            } else {
                (run[0].0 - dir.0, run[0].1 - dir.1)
            };
            let target = (end.0 + shift.0, end.1 + shift.1);
            let other = colour_of(colour);
            if needs_six {
                // A parallel run of six or seven through `target`, on the board.
                let len = rng.range(6, 7) as i32;
                let options: Vec<Vec<(i32, i32)>> = (0..len)
                    .map(|k| run_cells((target.0 - k * dir.0, target.1 - k * dir.1), dir, len))
                    .filter(|cells| cells.iter().all(|&p| inside(p, n)))
                    .collect();
                if options.is_empty() {
                    return None;
                }
                for &(r, c) in &options[rng.index(options.len())] {
                    board.set(r as usize, c as usize, Some(other));
                }
            } else {
                board.set(target.0 as usize, target.1 as usize, Some(other));
            }
            run
        }
        _ => return None,
    };
    for &(r, c) in &run {
        board.set(r as usize, c as usize, Some(stone));
    }
    Some(Layout { board, run })
}

/// Random stones of both colours that make no run of five: `count` of each.
fn noise<const N: usize>(board: &mut Board<N>, rng: &mut Rng, count: usize) {
    let mut placer = Placer::new(*board);
    placer.fill(rng, Stone::Black, count, 2);
    placer.fill(rng, Stone::White, count, 2);
    *board = placer.board;
}

/// An attempt at gomoku-checker's `phantom/…` obligation `id`: a four of one colour whose
/// next cell lies beyond the named side (for `alias`: along the named line, at the named end,
/// with the model's aliased cell holding the same colour), some noise, and counts that leave
/// the four's colour not the last mover.
fn phantom_attempt(id: &str, rng: &mut Rng) -> Option<Board<{ solutions::gomoku_checker::SIZE }>> {
    const N: usize = solutions::gomoku_checker::SIZE;
    let n = N as i32;
    let parts: Vec<&str> = id.split('/').collect();
    let (want_side, stone, model, dir, at_end) = match parts[..] {
        ["phantom", "edge", s, colour] => (
            Some(s),
            if colour == "black" {
                Stone::Black
            } else {
                Stone::White
            },
            None,
            rng.pick(&LINES),
            rng.chance(1, 2),
        ),
        ["phantom", "alias", model, d, end] => (
            None,
            rng.pick(&[Stone::Black, Stone::White]),
            Some(alias_models().into_iter().find(|m| m.0 == model)?.1),
            LINES[line_index(d)?],
            end == "after",
        ),
        _ => return None,
    };
    let next_cell = |start: (i32, i32)| {
        if at_end {
            (start.0 + 4 * dir.0, start.1 + 4 * dir.1)
        } else {
            (start.0 - dir.0, start.1 - dir.1)
        }
    };
    let run = find_run::<N>(rng, dir, 4, |start, _, _| {
        let cell = next_cell(start);
        side(cell.0, cell.1, n).is_some_and(|s| want_side.is_none_or(|want| s == want))
            && model.is_none_or(|read| {
                matches!(read(cell.0, cell.1, n), Read::Cell(r, c)
                    if !run_cells(start, dir, 4).contains(&(r as i32, c as i32)))
            })
    })?;
    let mut board = Board::<N>::empty();
    for &(r, c) in &run {
        board.set(r as usize, c as usize, Some(stone));
    }
    if let Some(read) = model
        && let Read::Cell(r, c) = read(next_cell(run[0]).0, next_cell(run[0]).1, n)
    {
        board.set(r, c, Some(stone));
    }
    let mut placer = Placer::new(board);
    let count = rng.range(0, 12) as usize;
    placer.fill(rng, Stone::Black, count, 2);
    placer.fill(rng, Stone::White, count, 2);
    // Black moved last when it has one stone more; the four's colour must not have.
    let (b, w) = (
        placer.board.count(Stone::Black),
        placer.board.count(Stone::White),
    );
    let (b_want, w_want) = match stone {
        Stone::Black => (b.max(w), b.max(w)),
        Stone::White => (b.max(w + 1), b.max(w + 1) - 1),
    };
    placer.fill(rng, Stone::Black, (b_want - b) as usize, 2);
    placer.fill(rng, Stone::White, (w_want - w) as usize, 2);
    Some(placer.board)
}

impl Boundary for GomokuChecker {
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        if id.starts_with("phantom/") {
            return phantom_attempt(id, rng);
        }
        let stone = rng.pick(&[Stone::Black, Stone::White]);
        let mut layout =
            line_layout::<{ solutions::gomoku_checker::SIZE }>(id, rng, stone, false, hunting)?;
        let n = rng.range(0, 12) as usize;
        noise(&mut layout.board, rng, n);
        // Balance the counts so the last mover is either colour, as a game would leave them.
        let (b, w) = (
            layout.board.count(Stone::Black),
            layout.board.count(Stone::White),
        );
        let mut placer = Placer::new(layout.board);
        let extra = u32::from(rng.chance(1, 2));
        if b < w + extra {
            placer.fill(rng, Stone::Black, (w + extra - b) as usize, 2);
        } else {
            placer.fill(rng, Stone::White, (b - extra - w) as usize, 2);
        }
        Some(placer.board)
    }
}

impl Boundary for Omok {
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let stone = rng.pick(&[Stone::Black, Stone::White]);
        let mut layout = line_layout::<{ solutions::omok::SIZE }>(id, rng, stone, true, hunting)?;
        let n = rng.range(0, 20) as usize;
        noise(&mut layout.board, rng, n);
        Some(layout.board)
    }
}

impl Boundary for Renju {
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let layout =
            line_layout::<{ solutions::renju::SIZE }>(id, rng, Stone::Black, false, hunting)?;
        let len = layout.run.len();
        // P inside the run so that neither part left without it is a five or longer.
        let choices: Vec<usize> = (0..len).filter(|&k| k < 5 && len - 1 - k < 5).collect();
        let (pr, pc) = layout.run[rng.pick(&choices)];
        let mut board = layout.board;
        board.set(pr as usize, pc as usize, None);
        let n = rng.range(0, 10) as usize;
        noise(&mut board, rng, n);
        board.set(pr as usize, pc as usize, None);
        Some(solutions::renju::Input {
            board,
            row: pr as u8,
            col: pc as u8,
        })
    }
}

// ---------------------------------------------------------------------------------------
// othello-flips.

fn direction_index(name: &str) -> Option<usize> {
    DIRECTION_NAMES.iter().position(|&n| n == name)
}

impl Boundary for OthelloFlips {
    fn attempt(id: &str, rng: &mut Rng, _hunting: bool) -> Option<Self::Input> {
        let n = 8;
        let parts: Vec<&str> = id.split('/').collect();
        // Random background first; the obligation's squares are then set over it.
        let mut cells = [0u8; 64]; // 0 empty, 1 black, 2 white
        let density = rng.range(0, 8);
        for cell in cells.iter_mut() {
            if rng.below(10) < density {
                *cell = rng.range(1, 2) as u8;
            }
        }
        let mut set = |r: i32, c: i32, v: u8| cells[(r * 8 + c) as usize] = v;
        let p = (rng.range(0, 7) as i32, rng.range(0, 7) as i32);
        let p = match parts[..] {
            ["ray-to-edge", d] | ["closed-at-edge", d] | ["alias", _, d, _] => {
                let dir = DIRECTIONS[direction_index(d)?];
                let mut q = (p.0 + dir.0, p.1 + dir.1);
                let mut ray = Vec::new();
                while inside(q, n) {
                    ray.push(q);
                    q = (q.0 + dir.0, q.1 + dir.1);
                }
                let closed = parts[0] == "closed-at-edge";
                if ray.len() < 1 + usize::from(closed) {
                    return None;
                }
                for (k, &(r, c)) in ray.iter().enumerate() {
                    set(r, c, if closed && k + 1 == ray.len() { 1 } else { 2 });
                }
                if let ["alias", model, _, colour] = parts[..] {
                    let read = alias_models().into_iter().find(|m| m.0 == model)?.1;
                    let Read::Cell(r, c) = read(q.0, q.1, n) else {
                        return None;
                    };
                    let (r, c) = (r as i32, c as i32);
                    if ray.contains(&(r, c)) || (r, c) == p {
                        return None;
                    }
                    set(r, c, if colour == "black" { 1 } else { 2 });
                }
                p
            }
            ["play-on", place] => {
                let options: Vec<(i32, i32)> = (0..64)
                    .map(|i| (i / 8, i % 8))
                    .filter(|&(r, c)| rim(r, c, n) == Some(place))
                    .collect();
                let _ = RIM;
                rng.pick(&options)
            }
            _ => return None,
        };
        let (mut black, mut white) = (0u64, 0u64);
        for (i, &v) in cells.iter().enumerate() {
            match v {
                1 => black |= 1 << i,
                2 => white |= 1 << i,
                _ => {}
            }
        }
        let play = (p.0 * 8 + p.1) as u8;
        black &= !(1 << play);
        white &= !(1 << play);
        Some(solutions::othello_flips::Input { black, white, play })
    }
}

// ---------------------------------------------------------------------------------------
// attack25: random positions of its own families, kept when they meet the obligation (the
// grid is small: every obligation turns up within a few hundred draws).

impl Boundary for Attack25 {
    fn attempt(_id: &str, rng: &mut Rng, _hunting: bool) -> Option<Self::Input> {
        let families = Self::families();
        let family = &families[rng.index(families.len())];
        Some((family.make)(rng).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every obligation of every problem has a boundary case (so a test set can always be
    /// made to meet 100 %).
    #[test]
    fn every_obligation_can_be_built() {
        fn check<P: Boundary>() {
            for (id, _) in P::obligations() {
                assert!(
                    boundary_case_at::<P>(&id, 0, 1).is_some(),
                    "{}: no boundary case for {id}",
                    P::ID
                );
            }
        }
        check::<GomokuChecker>();
        check::<Omok>();
        check::<Renju>();
        check::<OthelloFlips>();
        check::<Attack25>();
    }
}
