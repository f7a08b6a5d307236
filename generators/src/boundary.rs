//! Boundary cases: for every obligation of [`crate::obligations`], an input built to meet it.
//!
//! [`Boundary::boundary_case`] builds a valid input meeting one named obligation from a random
//! stream (a few hundred attempts; each is checked with the problem's `valid` and the
//! obligation's predicate). `judge testset` adds one for every obligation its other tests
//! leave unmet; `judge stress` runs them after the test set's strongest cases.

use crate::obligations::{LINE_NAMES, Obligations, alias_models, corner_diagonals, side};
use crate::stones::Placer;
use crate::{Generate, Rng};
use solutions::access::Read;
use solutions::board::{Board, LINES, Stone};

/// How many random constructions are tried for one obligation.
pub(crate) const ATTEMPTS: usize = 400;

/// The most tests a default test set holds, unless its problem says otherwise
/// ([`Boundary::MAX_TESTS`]). Here, not in `selection`, which uses this module (the layering
/// test keeps modules free of cycles).
pub const DEFAULT_MAX_TESTS: usize = 100;

pub trait Boundary: Obligations + Generate {
    /// The most tests a default test set of the problem holds. gomoku-checker and omok have
    /// more obligations than fit in 100 tests: each of their fives at an edge or on a shortest
    /// line needs a board of its own (omok allows one exact five per board; gomoku-checker's
    /// must be the only five that decides the answer), and a cover cut short leaves
    /// obligations unmet.
    const MAX_TESTS: usize = DEFAULT_MAX_TESTS;

    /// One attempt at an input meeting obligation `id` (not necessarily valid or meeting it:
    /// [`boundary_case`] checks). With `hunting`, runs may also be one stone short (a four at
    /// the edge, which an aliasing read can turn into a phantom five).
    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input>;

    /// The two inputs' contents on one board (`None` where they clash or cannot be combined,
    /// the default): what [`merged_case`] builds test cases that meet many obligations from.
    fn overlay(_base: &Self::Input, _extra: &Self::Input) -> Option<Self::Input> {
        None
    }
}

/// How many boundary cases [`merged_case`] lays on one board at most.
const MERGES: usize = 8;

/// Merged case `index` under `seed`: the boundary case of a random obligation, with the
/// boundary cases of other obligations laid over it (in a random order) as long as the input
/// stays valid and keeps meeting everything it met: one test that meets many obligations,
/// which keeps test sets with many obligations within their cap. `cases` are the boundary
/// cases by obligation (one each); `None` if the problem cannot overlay inputs or nothing
/// merged.
pub fn merged_case<P: Boundary>(
    cases: &[(String, P::Input)],
    index: u64,
    seed: u64,
) -> Option<P::Input> {
    if cases.len() < 2 {
        return None;
    }
    let mut rng = crate::stream(P::ID, "boundary-merged", index, seed);
    let mut order: Vec<usize> = (0..cases.len()).collect();
    rng.shuffle(&mut order);
    let mut base = cases[order[0]].1.clone();
    let mut met = P::met(&base);
    let mut merged = 0;
    for &k in &order[1..] {
        let (id, extra) = &cases[k];
        if met.contains(id) {
            continue;
        }
        let Some(both) = P::overlay(&base, extra) else {
            continue;
        };
        if !P::valid(&both) {
            continue;
        }
        let both_met = P::met(&both);
        if both_met.contains(id) && met.is_subset(&both_met) {
            base = both;
            met = both_met;
            merged += 1;
            if merged == MERGES {
                break;
            }
        }
    }
    (merged > 0).then_some(base)
}

/// Two boards' stones on one board; `None` if a cell holds different stones in them.
pub fn overlay_boards<const N: usize>(base: &Board<N>, extra: &Board<N>) -> Option<Board<N>> {
    let mut out = *base;
    for r in 0..N {
        let clash = (base.black[r] & extra.white[r]) | (base.white[r] & extra.black[r]);
        if clash != 0 {
            return None;
        }
        out.black[r] |= extra.black[r];
        out.white[r] |= extra.white[r];
    }
    Some(out)
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
pub(crate) struct Layout<const N: usize> {
    pub board: Board<N>,
    pub run: Vec<(i32, i32)>,
}

pub(crate) fn inside(p: (i32, i32), n: i32) -> bool {
    side(p.0, p.1, n).is_none()
}

pub(crate) fn run_cells(start: (i32, i32), d: (i32, i32), len: i32) -> Vec<(i32, i32)> {
    (0..len)
        .map(|k| (start.0 + k * d.0, start.1 + k * d.1))
        .collect()
}

/// A random run of `len` along `d` on an empty board meeting `ok(start, before, after)`.
pub(crate) fn find_run<const N: usize>(
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

pub(crate) fn line_index(name: &str) -> Option<usize> {
    LINE_NAMES.iter().position(|&n| n == name)
}

pub(crate) fn run_len(rng: &mut Rng, class: &str) -> i32 {
    if class == "5" {
        5
    } else {
        rng.range(6, 7) as i32
    }
}

/// Lays out the run (and the stones around it) that obligation `id` asks for, in `stone`.
/// `same` is the run's colour, `other` the other colour, for alias and parallel stones.
pub(crate) fn line_layout<const N: usize>(
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
pub(crate) fn noise<const N: usize>(board: &mut Board<N>, rng: &mut Rng, count: usize) {
    let mut placer = Placer::new(*board);
    placer.fill(rng, Stone::Black, count, 2);
    placer.fill(rng, Stone::White, count, 2);
    *board = placer.board;
}

#[cfg(test)]
mod tests {
    use super::*;
    use solutions::tests_per_problem;

    /// Every obligation of a problem has a boundary case (so a test set can always be made to
    /// meet 100 %).
    fn every_obligation_can_be_built<P: Boundary>() {
        for (id, _) in P::obligations() {
            assert!(
                boundary_case_at::<P>(&id, 0, 1).is_some(),
                "{}: no boundary case for {id}",
                P::ID
            );
        }
    }

    solutions::for_each_problem!(tests_per_problem, boundary_cases => every_obligation_can_be_built);

    /// Every decoy model is listed with the obligations made to catch it, those obligations
    /// exist, and boundary cases of them reject it.
    fn decoy_models_are_caught_by_their_obligations<P: Boundary>() {
        let ids: Vec<String> = P::obligations().into_iter().map(|(id, _)| id).collect();
        for solver in P::known_wrong()
            .into_iter()
            .filter(|s| s.name.starts_with("decoy-"))
        {
            let (_, catchers) = P::CATCHES
                .iter()
                .find(|(name, _)| *name == solver.name)
                .unwrap_or_else(|| panic!("{}: {} is not in CATCHES", P::ID, solver.name));
            let caught = catchers.iter().any(|id| {
                assert!(ids.iter().any(|i| i == id), "{}: no obligation {id}", P::ID);
                (0..10).any(|index| {
                    boundary_case_at::<P>(id, index, 1)
                        .is_some_and(|input| (solver.solve)(&input) != P::reference(&input))
                })
            });
            assert!(
                caught,
                "{}: no boundary case of {catchers:?} rejects {}",
                P::ID,
                solver.name
            );
        }
    }

    solutions::for_each_problem!(tests_per_problem, decoys_caught => decoy_models_are_caught_by_their_obligations);
}
