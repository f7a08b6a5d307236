//! The boundary obligations of gomoku-checker: the line obligations around every run of five or more, and the phantom fives
//! a read off the board can make (a four of the player who did not move last, at an edge),
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).
//!
//! Beside the line obligations (without the `parallel/…` ones): `phantom/edge/SIDE/COLOUR`,
//! `phantom/forward/D/SIDE/COLOUR`,
//! `phantom/alias/MODEL/D/END` — a four of the player who did not move last whose next cell
//! lies off the board: a read that finds that colour there (stray memory, a thin pad, an
//! aliased cell) sees a five that makes the position unreachable. See [`phantom_obligations`].

use std::collections::BTreeSet;

use solutions::access::Read;
use solutions::board::{Board, LINES, Stone};
use solutions::GomokuChecker;

use crate::boundary::{Boundary, find_run, line_index, line_layout, noise, run_cells};
use crate::obligations::{LINE_NAMES, LineRules, Obligations, alias_models, line_met, line_obligations, off_board_run_ends, runs, side};
use crate::shortest::{ShortestRules, shortest_layout, shortest_met, shortest_obligations};
use crate::stones::Placer;
use crate::Rng;

const NO_PARALLEL: LineRules = LineRules {
    parallel: false,
    parallel_needs_six: false,
};
impl Obligations for GomokuChecker {
    fn obligations() -> Vec<(String, String)> {
        let mut list = line_obligations::<{ solutions::gomoku_checker::SIZE }>(NO_PARALLEL);
        list.extend(phantom_obligations::<{ solutions::gomoku_checker::SIZE }>());
        list.extend(shortest_obligations(19, SHORTEST));
        list
    }
    fn met(board: &Self::Input) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        line_met(board, &runs(board, 5), NO_PARALLEL, &mut out);
        phantom_met(board, &mut out);
        shortest_met(board, SHORTEST, decides, &mut out);
        out
    }
}

/// gomoku-checker's shortest lines: a six is a win like a five (so it is listed: a scan that
/// skips the line misses it too), and nothing blocks a win.
const SHORTEST: ShortestRules = ShortestRules {
    six: true,
    blocked: false,
};

/// Does the run of `stone` decide the answer? It is the only run of five or more of the
/// player who did not move last: the answer is NO, and a solver that does not see it finds
/// no such five and answers YES.
fn decides(board: &Board<19>, stone: Stone, _cells: &[(i32, i32)]) -> bool {
    not_last_mover(board) == Some(stone)
        && runs(board, 5).iter().filter(|r| r.stone == stone).count() == 1
}

/// Fills `placer`'s board up to counts that leave `stone` not the last mover: equal counts
/// for black, black one ahead for white.
fn leave_not_last_mover(placer: &mut Placer<19>, rng: &mut Rng, stone: Stone) {
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
}

/// An attempt at a `shortest/…` obligation: the run in a random colour, some noise, and
/// counts that leave the run's colour not the last mover.
fn shortest_attempt(id: &str, rng: &mut Rng) -> Option<Board<19>> {
    let stone = crate::shortest::colour(rng);
    let board = shortest_layout(id, stone)?;
    let mut placer = Placer::new(board);
    let count = rng.range(0, 12) as usize;
    placer.fill(rng, Stone::Black, count, 2);
    placer.fill(rng, Stone::White, count, 2);
    leave_not_last_mover(&mut placer, rng, stone);
    Some(placer.board)
}

/// The colour whose five would end a gomoku-checker position as unreachable: the player who
/// did not move last (black moves first, so equal counts mean white moved last). `None` when
/// the counts fit no game.
pub fn not_last_mover<const N: usize>(board: &Board<N>) -> Option<Stone> {
    let (black, white) = (board.count(Stone::Black), board.count(Stone::White));
    if black == white {
        Some(Stone::Black)
    } else if black == white + 1 {
        Some(Stone::White)
    } else {
        None
    }
}

fn colour_name(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "black",
        Stone::White => "white",
    }
}

/// gomoku-checker's phantom fives: a four of the player who did not move last, whose next
/// cell lies off the board. A solver whose read there finds a stone of that colour (stray
/// memory, a pad one cell too thin, or an aliased cell) sees a five that would make the
/// position unreachable, and answers NO where the answer is YES. (A four of the last mover
/// cannot show it: removing one of its stones undoes the phantom five.)
///
/// - `phantom/edge/SIDE/COLOUR`: such a four of COLOUR whose next cell lies beyond SIDE;
/// - `phantom/forward/D/SIDE/COLOUR`: such a four along D whose cell *after* it lies beyond
///   SIDE: the reference, like most contestants, reads forward from each stone, so only this
///   end is read (a pad one cell too thin below the board shows only on a four walking down
///   to it; held out of the plan, `access-pad-thin-bottom-black` got through a set that met
///   `phantom/edge/bottom/black` with a `/` four, whose cell below is never read);
/// - `phantom/alias/MODEL/D/END`: such a four along D whose off-board cell END it (`before`,
///   `after`) MODEL reads as a board cell holding a stone of the four's colour. The direction
///   and end are named because a scan reads only some of them: gomoku-checker's reference,
///   like most contestants, reads forward from each stone.
pub fn phantom_obligations<const N: usize>() -> Vec<(String, String)> {
    let n = N as i32;
    let mut ids = BTreeSet::new();
    off_board_run_ends::<N>(4, |run, d, end, cell, s| {
        for colour in ["black", "white"] {
            ids.insert(format!("phantom/edge/{s}/{colour}"));
            if end == "after" {
                ids.insert(format!("phantom/forward/{d}/{s}/{colour}"));
            }
        }
        for (model, read) in alias_models() {
            if let Read::Cell(ar, ac) = read(cell.0, cell.1, n)
                && !run.contains((ar as i32, ac as i32))
            {
                ids.insert(format!("phantom/alias/{model}/{d}/{end}"));
            }
        }
    });
    ids.into_iter()
        .map(|id| {
            let parts: Vec<&str> = id.split('/').collect();
            let what = match parts[..] {
                ["phantom", "edge", side, colour] => format!(
                    "four {colour} stones in a line, {colour} not the last to move, whose next cell lies off the board ({side}): a read that finds a {colour} stone there sees a five"
                ),
                ["phantom", "forward", d, side, colour] => format!(
                    "four {colour} stones along {d}, {colour} not the last to move, whose cell after them lies off the board ({side}): the cell a scan reading forward from each stone reads"
                ),
                ["phantom", "alias", model, d, end] => format!(
                    "four stones along {d} of the player who did not move last, whose off-board cell {end} them the {model} model reads as a board cell holding the same colour: a phantom five"
                ),
                _ => id.clone(),
            };
            (id, what)
        })
        .collect()
}

/// The phantom-five obligations `board` meets (see [`phantom_obligations`]).
pub fn phantom_met(board: &Board<{ solutions::gomoku_checker::SIZE }>, out: &mut BTreeSet<String>) {
    const N: usize = solutions::gomoku_checker::SIZE;
    let n = N as i32;
    let Some(stone) = not_last_mover(board) else {
        return;
    };
    // The phantom five shows only where the position is reachable: on a board whose answer
    // is NO anyway (a real five of the same player, say, laid there by another obligation's
    // case merged onto it) a solver that sees the phantom answers NO too and is not caught.
    // (Held out of the plan, two thin-pad models got through a set whose only phantom fours
    // below and above the board sat on such boards.)
    if <GomokuChecker as solutions::Problem>::reference(board) != solutions::gomoku_checker::Answer::Yes {
        return;
    }
    for run in runs(board, 4)
        .iter()
        .filter(|r| r.len == 4 && r.stone == stone)
    {
        let d = LINE_NAMES[run.line];
        for (end, cell) in [("before", run.before()), ("after", run.after())] {
            let Some(s) = side(cell.0, cell.1, n) else {
                continue;
            };
            out.insert(format!("phantom/edge/{s}/{}", colour_name(stone)));
            if end == "after" {
                out.insert(format!("phantom/forward/{d}/{s}/{}", colour_name(stone)));
            }
            for (model, read) in alias_models() {
                if let Read::Cell(r, c) = read(cell.0, cell.1, n)
                    && !run.contains((r as i32, c as i32))
                    && board.get(r, c) == Some(stone)
                {
                    out.insert(format!("phantom/alias/{model}/{d}/{end}"));
                }
            }
        }
    }
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
        ["phantom", "forward", d, s, colour] => (
            Some(s),
            if colour == "black" {
                Stone::Black
            } else {
                Stone::White
            },
            None,
            LINES[line_index(d)?],
            true,
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
    leave_not_last_mover(&mut placer, rng, stone);
    Some(placer.board)
}

impl Boundary for GomokuChecker {
    /// Room for a board per shortest-line and edge five (see [`Boundary::MAX_TESTS`]).
    const MAX_TESTS: usize = 130;

    fn overlay(base: &Self::Input, extra: &Self::Input) -> Option<Self::Input> {
        crate::boundary::overlay_boards(base, extra)
    }

    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        if id.starts_with("phantom/") {
            return phantom_attempt(id, rng);
        }
        if id.starts_with("shortest/") {
            return shortest_attempt(id, rng);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phantom_fives_are_the_four_of_the_player_who_did_not_move_last() {
        let list = phantom_obligations::<19>();
        let ids: Vec<&str> = list.iter().map(|(id, _)| id.as_str()).collect();
        assert!(ids.contains(&"phantom/edge/top-left/white"));
        assert!(ids.contains(&"phantom/alias/wrap-negative/anti-diagonal/after"));
        assert!(ids.contains(&"phantom/alias/flat/row/after"));
        // Python's wrap never turns a read past the right edge into a cell.
        assert!(!ids.contains(&"phantom/alias/wrap-negative/row/after"));

        // Four black stones down column 5 from the top edge, and black at (18, 5), where
        // Python's board[-1][5] reads; white has as many stones, so black did not move last.
        let mut board = Board::<19>::empty();
        for r in 0..4 {
            board.set(r, 5, Some(Stone::Black));
            board.set(10, 2 * r, Some(Stone::White));
        }
        board.set(18, 5, Some(Stone::Black));
        board.set(12, 12, Some(Stone::White));
        let mut met = BTreeSet::new();
        phantom_met(&board, &mut met);
        assert!(met.contains("phantom/edge/top/black"), "{met:?}");
        assert!(
            met.contains("phantom/alias/wrap-negative/column/before"),
            "{met:?}"
        );
        // With black one stone ahead, black moved last: no phantom five can show.
        board.set(12, 12, None);
        let mut met = BTreeSet::new();
        phantom_met(&board, &mut met);
        assert!(met.is_empty(), "{met:?}");
    }
}
