//! The shortest lines of a board: the lines that are only just long enough for a five (or a
//! six), where a scan's start or end bound one off, or a diagonal loop that starts one line
//! late, loses the answer, and random positions almost never put one (issue 34: a program that
//! never scans the 5-cell `\` diagonal at one corner fails on 0 % of random positions).
//!
//! The places, each a window of cells in the problem's scan order ([`LINES`] direction):
//!
//! - `corner5/CORNER`: the 5-cell diagonal at each corner (`\` at top-right and bottom-left,
//!   `/` at top-left and bottom-right);
//! - `corner6/CORNER`: the 6-cell diagonal beside it;
//! - `edge/SIDE/start|end`: the first or last six cells of the edge row (`top`, `bottom`) or
//!   column (`left`, `right`), the five on the five cells at the corner.
//!
//! The obligations `shortest/PLACE/KIND`, KIND one of
//!
//! - `five`: an exact five there (on an edge place, from the corner);
//! - `six`: a run of six or more filling the 6-cell window;
//! - `blocked`: an exact five there whose sixth cell holds the other colour;
//!
//! (on a 6-cell diagonal the five lies at either end: `five-at-first`, `blocked-at-last`, …)
//!
//! and in each the run must decide the answer (the problem's [`ShortestRules::decides`]):
//! gomoku-checker's five or six must be the player's who did not move last, so a solver that
//! does not see it answers YES where the answer is NO.

use std::collections::BTreeSet;

use solutions::board::{Board, Stone};

use crate::Rng;
use crate::boundary::run_cells;

/// What a problem asks of its shortest lines.
#[derive(Clone, Copy)]
pub struct ShortestRules {
    /// Are the `six` obligations listed (where a six is not the same as a five)?
    pub six: bool,
    /// Are the `blocked…` obligations listed?
    pub blocked: bool,
}

/// One shortest place: its name, the five's cells (in scan order) and the sixth cell of the
/// window (`None` for a 5-cell diagonal), which is also what a six adds.
pub struct Place {
    pub name: String,
    pub five: Vec<(i32, i32)>,
    pub sixth: Option<(i32, i32)>,
}

/// Every shortest place of an `n`×`n` board, with the five and sixth cells of each way the
/// place is used (a 6-cell diagonal twice: the five at either end).
pub fn places(n: i32) -> Vec<Place> {
    let mut out = Vec::new();
    // (corner, the 5-cell diagonal's first cell, the 6-cell one's, direction)
    let corners = [
        ("top-left", (4, 0), (5, 0), (-1, 1)),
        ("top-right", (0, n - 5), (0, n - 6), (1, 1)),
        ("bottom-left", (n - 5, 0), (n - 6, 0), (1, 1)),
        ("bottom-right", (n - 1, n - 5), (n - 1, n - 6), (-1, 1)),
    ];
    for (corner, start5, _, dir) in corners {
        out.push(Place {
            name: format!("corner5/{corner}"),
            five: run_cells(start5, dir, 5),
            sixth: None,
        });
    }
    for (corner, _, start6, dir) in corners {
        let cells = run_cells(start6, dir, 6);
        out.push(Place {
            name: format!("corner6/{corner}/at-first"),
            five: cells[..5].to_vec(),
            sixth: Some(cells[5]),
        });
        out.push(Place {
            name: format!("corner6/{corner}/at-last"),
            five: cells[1..].to_vec(),
            sixth: Some(cells[0]),
        });
    }
    // (side, the line's first cell, direction)
    let edges = [
        ("top", (0, 0), (0, 1)),
        ("bottom", (n - 1, 0), (0, 1)),
        ("left", (0, 0), (1, 0)),
        ("right", (0, n - 1), (1, 0)),
    ];
    for (side, first, dir) in edges {
        let line = run_cells(first, dir, n);
        let k = n as usize;
        out.push(Place {
            name: format!("edge/{side}/start"),
            five: line[..5].to_vec(),
            sixth: Some(line[5]),
        });
        out.push(Place {
            name: format!("edge/{side}/end"),
            five: line[k - 5..].to_vec(),
            sixth: Some(line[k - 6]),
        });
    }
    out
}

/// The kinds of obligation a place has under `rules`.
fn kinds(place: &Place, rules: ShortestRules) -> Vec<&'static str> {
    // A 6-cell diagonal's five is listed at either end, its six once.
    let at_last = place.name.ends_with("/at-last");
    let mut kinds = vec!["five"];
    if rules.six && place.sixth.is_some() && !at_last {
        kinds.push("six");
    }
    if rules.blocked && place.sixth.is_some() {
        kinds.push("blocked");
    }
    kinds
}

/// The obligation id of `kind` at `place` (`corner6/C/at-first` + `five` is
/// `shortest/corner6/C/five-at-first`, its six `shortest/corner6/C/six`).
fn id(place: &Place, kind: &str) -> String {
    match place
        .name
        .strip_suffix("/at-first")
        .or(place.name.strip_suffix("/at-last"))
    {
        Some(diagonal) if kind == "six" => format!("shortest/{diagonal}/six"),
        Some(diagonal) => {
            let end = place.name.rsplit('/').next().unwrap_or_default();
            format!("shortest/{diagonal}/{kind}-{end}")
        }
        None => format!("shortest/{}/{kind}", place.name),
    }
}

/// Every shortest-line obligation of an `n`×`n` board under `rules`, with what it asks.
pub fn shortest_obligations(n: i32, rules: ShortestRules) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for place in places(n) {
        for kind in kinds(&place, rules) {
            let at = describe_place(&place.name);
            let what = match kind {
                "five" => format!("an exact five on {at}, deciding the answer"),
                "six" => format!("a run of six or more filling {at}, deciding the answer"),
                _ => format!(
                    "an exact five on {at} whose sixth cell holds the other colour, deciding the answer"
                ),
            };
            out.push((id(&place, kind), what));
        }
    }
    out
}

fn describe_place(name: &str) -> String {
    let parts: Vec<&str> = name.split('/').collect();
    match parts[..] {
        ["corner5", corner] => format!("the 5-cell diagonal at the {corner} corner"),
        ["corner6", corner, end] => format!(
            "the 6-cell diagonal at the {corner} corner (the five {} of its cells)",
            if end == "at-first" {
                "on the first five"
            } else {
                "on the last five"
            }
        ),
        ["edge", side, end] => format!(
            "the {} six cells of the {side} edge {}",
            if end == "start" { "first" } else { "last" },
            if side == "top" || side == "bottom" {
                "row"
            } else {
                "column"
            }
        ),
        _ => name.to_string(),
    }
}

/// What `board` holds at `cell` (on the board by construction).
fn cell(board: &Board<19>, (r, c): (i32, i32)) -> Option<Stone> {
    board.get(r as usize, c as usize)
}

/// The shortest-line obligations `board` (19×19) meets; `decides(board, stone, cells)` says
/// whether the run of `stone` on `cells` decides the answer.
pub fn shortest_met(
    board: &Board<19>,
    rules: ShortestRules,
    decides: impl Fn(&Board<19>, Stone, &[(i32, i32)]) -> bool,
    out: &mut BTreeSet<String>,
) {
    for place in places(19) {
        let Some(stone) = cell(board, place.five[0]) else {
            continue;
        };
        if !place.five.iter().all(|&p| cell(board, p) == Some(stone)) {
            continue;
        }
        // The cells just outside the five along its line (off the board on a corner
        // diagonal; the sixth cell and the corner's outside on an edge place).
        let d = (
            place.five[1].0 - place.five[0].0,
            place.five[1].1 - place.five[0].1,
        );
        let (first, last) = (place.five[0], place.five[4]);
        let before = board.at(first.0 - d.0, first.1 - d.1);
        let after = board.at(last.0 + d.0, last.1 + d.1);
        let exact = before != Some(stone) && after != Some(stone);
        let sixth = place.sixth.map(|p| cell(board, p));
        for kind in kinds(&place, rules) {
            let holds = match kind {
                "five" => exact && decides(board, stone, &place.five),
                "six" => {
                    sixth == Some(Some(stone)) && {
                        let mut cells = place.five.clone();
                        cells.extend(place.sixth);
                        decides(board, stone, &cells)
                    }
                }
                _ => {
                    exact
                        && sixth == Some(Some(stone.other()))
                        && decides(board, stone, &place.five)
                }
            };
            if holds {
                out.insert(id(&place, kind));
            }
        }
    }
}

/// The stones obligation `id` asks for on an empty 19×19 board, in `stone`; `None` if `id` is
/// not a shortest-line obligation.
pub fn shortest_layout(id: &str, stone: Stone) -> Option<Board<19>> {
    let rest = id.strip_prefix("shortest/")?;
    let (place_part, kind) = rest.rsplit_once('/')?;
    let (kind, end) = match kind.split_once('-') {
        Some((k, "at-first")) => (k, Some("at-first")),
        Some((k, "at-last")) => (k, Some("at-last")),
        _ => (kind, None),
    };
    let name = match end {
        Some(end) => format!("{place_part}/{end}"),
        None if place_part.starts_with("corner6/") => format!("{place_part}/at-first"),
        None => place_part.to_string(),
    };
    let place = places(19).into_iter().find(|p| p.name == name)?;
    let mut board = Board::<19>::empty();
    for &(r, c) in &place.five {
        board.set(r as usize, c as usize, Some(stone));
    }
    match (kind, place.sixth) {
        ("five", _) => {}
        ("six", Some((r, c))) => board.set(r as usize, c as usize, Some(stone)),
        ("blocked", Some((r, c))) => board.set(r as usize, c as usize, Some(stone.other())),
        _ => return None,
    }
    Some(board)
}

/// A random colour for a shortest-line layout.
pub fn colour(rng: &mut Rng) -> Stone {
    rng.pick(&[Stone::Black, Stone::White])
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: ShortestRules = ShortestRules {
        six: true,
        blocked: true,
    };

    #[test]
    fn the_places_are_the_shortest_lines() {
        let places = places(19);
        for place in &places {
            assert_eq!(place.five.len(), 5, "{}", place.name);
            assert!(
                place
                    .five
                    .iter()
                    .chain(&place.sixth)
                    .all(|&(r, c)| Board::<19>::on_board(r, c)),
                "{}",
                place.name
            );
        }
        let corner5: Vec<&Place> = places
            .iter()
            .filter(|p| p.name.starts_with("corner5/"))
            .collect();
        assert_eq!(corner5.len(), 4);
        // Each 5-cell diagonal has both its ends' outside cells off the board.
        for p in corner5 {
            let d = (p.five[1].0 - p.five[0].0, p.five[1].1 - p.five[0].1);
            assert!(!Board::<19>::on_board(p.five[0].0 - d.0, p.five[0].1 - d.1));
            assert!(!Board::<19>::on_board(p.five[4].0 + d.0, p.five[4].1 + d.1));
        }
        let ids: Vec<String> = shortest_obligations(19, ALL)
            .into_iter()
            .map(|o| o.0)
            .collect();
        assert!(ids.contains(&"shortest/corner5/top-left/five".to_string()));
        assert!(ids.contains(&"shortest/corner6/bottom-right/six".to_string()));
        assert!(ids.contains(&"shortest/corner6/top-right/blocked-at-last".to_string()));
        assert!(ids.contains(&"shortest/edge/left/end/blocked".to_string()));
        // 4 five-cell diagonals; 4 six-cell ones with a five at each end, a six, a blocked
        // five at each end; 8 edge places with a five, a six and a blocked five.
        assert_eq!(ids.len(), 4 + 4 * 5 + 8 * 3);
        let unique: BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len());
    }

    /// Every layout meets its own obligation (and nothing on it is read off the board).
    #[test]
    fn every_layout_meets_its_obligation() {
        for (id, _) in shortest_obligations(19, ALL) {
            let board = shortest_layout(&id, Stone::White).unwrap_or_else(|| panic!("{id}"));
            let mut met = BTreeSet::new();
            shortest_met(&board, ALL, |_, _, _| true, &mut met);
            assert!(met.contains(&id), "{id}: {met:?}");
            // Nothing decides: nothing met.
            let mut none = BTreeSet::new();
            shortest_met(&board, ALL, |_, _, _| false, &mut none);
            assert!(none.is_empty(), "{id}: {none:?}");
        }
    }
}
