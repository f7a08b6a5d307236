//! Boundary obligations: the situations a hidden test set must contain, because a real
//! contestant's board storage or scan gets them wrong (see [`crate::access`]).
//!
//! Each problem lists its obligations ([`Obligations::obligations`], a fixed list computed from
//! the board geometry) and says which ones an input meets ([`Obligations::met`], a predicate
//! per obligation). `judge testset` builds its set so that every obligation is met, and writes
//! the coverage next to the manifest. Each problem's `boundary.rs` says which kinds it has and
//! adds its own; the kinds shared here:
//!
//! - **Line problems** (about runs of five on a 19×19 or 15×15 board: [`line_obligations`]):
//!   - `edge/D/END/SIDE/LEN` — a run of LEN (`5`, or `6+`) along direction D (`row`, `column`,
//!     `diagonal` = `\`, `anti-diagonal` = `/`) whose cell just before (`before`) or after (`after`) it lies off the board beyond
//!     SIDE (`top`, `left`, …, or a corner such as `top-left`);
//!   - `corner-diagonal/CORNER` — a five filling one of the four 5-cell diagonals;
//!   - `alias/MODEL/D/END/same|opposite` — a run of five or more whose off-board end cell is
//!     read by MODEL (`wrap-negative`: Python's index -1; `flat`: a row-major array) as a board
//!     cell that holds a stone of the run's colour / of the other colour;
//!   - `parallel/D/OFFSET/same|opposite` (with [`LineRules::parallel`]) — an exact five whose
//!     end cell, moved to the parallel line at OFFSET (`+1`: one step clockwise from D, `-1`),
//!     holds a stone of the five's colour / the other colour; with
//!     [`LineRules::parallel_needs_six`] that stone is part of a parallel run of six or more.
//! - **Ray problems** (about the squares seen from one square in the eight directions: [`ray_ends`],
//!   [`rim`]): runs to each edge, closed there or not, what an aliasing read (`alias/MODEL/…`)
//!   finds beyond the edge, the square itself on the rim.

use std::collections::BTreeSet;

use solutions::access::{BoardAccess, Dir, Flat, Read, WrapNegative};
use solutions::board::{Board, DIRECTIONS, LINES, Stone};

/// A problem's boundary obligations.
pub trait Obligations: solutions::Problem {
    /// Every obligation, with a sentence saying what it asks; ids are unique.
    fn obligations() -> Vec<(String, String)>;
    /// The ids of the obligations `input` meets.
    fn met(input: &Self::Input) -> BTreeSet<String>;
    /// The decoy models (known-wrong solvers named `decoy-…`) with the obligations made to
    /// catch each: boundary cases of those obligations reject it (a test checks).
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[];
}

pub const LINE_NAMES: [&str; 4] = ["row", "column", "diagonal", "anti-diagonal"];

pub const DIRECTION_NAMES: [&str; 8] = [
    "up-left",
    "up",
    "up-right",
    "left",
    "right",
    "down-left",
    "down",
    "down-right",
];

/// The side(s) of an `n`×`n` board that (r, c) lies beyond, or `None` on the board.
pub fn side(r: i32, c: i32, n: i32) -> Option<&'static str> {
    let vertical = if r < 0 {
        Some("top")
    } else if r >= n {
        Some("bottom")
    } else {
        None
    };
    let horizontal = if c < 0 {
        Some("left")
    } else if c >= n {
        Some("right")
    } else {
        None
    };
    Some(match (vertical, horizontal) {
        (None, None) => return None,
        (Some(v), None) => v,
        (None, Some(h)) => h,
        (Some("top"), Some("left")) => "top-left",
        (Some("top"), Some(_)) => "top-right",
        (Some(_), Some("left")) => "bottom-left",
        (Some(_), Some(_)) => "bottom-right",
    })
}

/// What a model reads at (r, c) on an `n`×`n` board.
pub type ReadFn = fn(i32, i32, i32) -> Read;

/// The two alias models obligations name, with what each reads at (r, c).
pub fn alias_models() -> [(&'static str, ReadFn); 2] {
    [("wrap-negative", WrapNegative::read), ("flat", Flat::read)]
}

/// A maximal run of one colour along a line direction.
#[derive(Clone, Copy, Debug)]
pub struct Run {
    pub stone: Stone,
    pub start: (i32, i32),
    pub dir: Dir,
    pub line: usize,
    pub len: i32,
}

impl Run {
    pub fn before(&self) -> (i32, i32) {
        (self.start.0 - self.dir.0, self.start.1 - self.dir.1)
    }
    pub fn after(&self) -> (i32, i32) {
        (
            self.start.0 + self.len * self.dir.0,
            self.start.1 + self.len * self.dir.1,
        )
    }
    pub fn contains(&self, p: (i32, i32)) -> bool {
        (0..self.len).any(|k| (self.start.0 + k * self.dir.0, self.start.1 + k * self.dir.1) == p)
    }
}

/// Every maximal run of `min_len` or more stones of one colour.
pub fn runs<const N: usize>(board: &Board<N>, min_len: i32) -> Vec<Run> {
    let mut out = Vec::new();
    for stone in [Stone::Black, Stone::White] {
        for (r, c) in board.stones(stone) {
            let (r, c) = (r as i32, c as i32);
            for (line, &(dr, dc)) in LINES.iter().enumerate() {
                if board.at(r - dr, c - dc) == Some(stone) {
                    continue;
                }
                let len = (0..)
                    .take_while(|&k| board.at(r + k * dr, c + k * dc) == Some(stone))
                    .count() as i32;
                if len >= min_len {
                    out.push(Run {
                        stone,
                        start: (r, c),
                        dir: (dr, dc),
                        line,
                        len,
                    });
                }
            }
        }
    }
    out
}

/// The four 5-cell diagonals of an `n`×`n` board: (name, start, direction).
pub fn corner_diagonals(n: i32) -> [(&'static str, (i32, i32), Dir); 4] {
    [
        ("top-left", (4, 0), (-1, 1)),
        ("top-right", (0, n - 5), (1, 1)),
        ("bottom-left", (n - 5, 0), (1, 1)),
        ("bottom-right", (n - 1, n - 5), (-1, 1)),
    ]
}

/// What the line-problem obligations look at, per problem.
#[derive(Clone, Copy)]
pub struct LineRules {
    /// Are `parallel/…` obligations part of the list?
    pub parallel: bool,
    /// Must the parallel stone be part of a run of six or more (a six beside a five)?
    pub parallel_needs_six: bool,
}

pub(crate) fn len_class(len: i32) -> &'static str {
    if len == 5 { "5" } else { "6+" }
}

/// The ids a set of runs (each of five or more) meets on `board`.
pub fn line_met<const N: usize>(
    board: &Board<N>,
    runs: &[Run],
    rules: LineRules,
    out: &mut BTreeSet<String>,
) {
    let n = N as i32;
    for run in runs.iter().filter(|r| r.len >= 5) {
        let d = LINE_NAMES[run.line];
        for (end, cell) in [("before", run.before()), ("after", run.after())] {
            if let Some(s) = side(cell.0, cell.1, n) {
                out.insert(format!("edge/{d}/{end}/{s}/{}", len_class(run.len)));
                for (model, read) in alias_models() {
                    if let Read::Cell(r, c) = read(cell.0, cell.1, n) {
                        match board.get(r, c) {
                            Some(x) if x == run.stone => {
                                out.insert(format!("alias/{model}/{d}/{end}/same"));
                            }
                            Some(_) => {
                                out.insert(format!("alias/{model}/{d}/{end}/opposite"));
                            }
                            None => {}
                        }
                    }
                }
            }
        }
        if run.len == 5 {
            for (name, start, dir) in corner_diagonals(n) {
                if run.dir == dir && run.contains(start) {
                    out.insert(format!("corner-diagonal/{name}"));
                }
            }
            if rules.parallel {
                for offset in [1, -1] {
                    let shift = (offset * run.dir.1, -offset * run.dir.0);
                    for cell in [run.before(), run.after()] {
                        let (r, c) = (cell.0 + shift.0, cell.1 + shift.1);
                        let Some(x) = board.at(r, c) else { continue };
                        if rules.parallel_needs_six
                            && board.run_through(r as usize, c as usize, run.dir, x) < 6
                        {
                            continue;
                        }
                        let colour = if x == run.stone { "same" } else { "opposite" };
                        out.insert(format!("parallel/{d}/{offset:+}/{colour}"));
                    }
                }
            }
        }
    }
}

/// Every placement of a run of `len` on an `N`×`N` board with an end cell off the board:
/// `f(run, line name, "before" | "after", the end cell, its side)`.
pub(crate) fn off_board_run_ends<const N: usize>(
    len: i32,
    mut f: impl FnMut(&Run, &str, &str, (i32, i32), &str),
) {
    let n = N as i32;
    for (line, &dir) in LINES.iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                let run = Run {
                    stone: Stone::Black,
                    start: (r, c),
                    dir,
                    line,
                    len,
                };
                let last = (r + (len - 1) * dir.0, c + (len - 1) * dir.1);
                if side(last.0, last.1, n).is_some() {
                    continue;
                }
                for (end, cell) in [("before", run.before()), ("after", run.after())] {
                    if let Some(s) = side(cell.0, cell.1, n) {
                        f(&run, LINE_NAMES[line], end, cell, s);
                    }
                }
            }
        }
    }
}

/// Every line-problem obligation that some placement of one run on an empty `N`×`N` board
/// could meet (computed from the geometry, so the list is exactly the feasible ones).
pub fn line_obligations<const N: usize>(rules: LineRules) -> Vec<(String, String)> {
    let n = N as i32;
    let mut ids = BTreeSet::new();
    for len in [5, 6] {
        off_board_run_ends::<N>(len, |run, d, end, cell, s| {
            ids.insert(format!("edge/{d}/{end}/{s}/{}", len_class(len)));
            for (model, read) in alias_models() {
                if let Read::Cell(ar, ac) = read(cell.0, cell.1, n)
                    && !run.contains((ar as i32, ac as i32))
                {
                    ids.insert(format!("alias/{model}/{d}/{end}/same"));
                    ids.insert(format!("alias/{model}/{d}/{end}/opposite"));
                }
            }
        });
    }
    if rules.parallel {
        for d in LINE_NAMES {
            for offset in ["+1", "-1"] {
                for colour in ["same", "opposite"] {
                    ids.insert(format!("parallel/{d}/{offset}/{colour}"));
                }
            }
        }
    }
    for (name, _, _) in corner_diagonals(n) {
        ids.insert(format!("corner-diagonal/{name}"));
    }
    ids.into_iter()
        .map(|id| {
            let what = describe_line(&id);
            (id, what)
        })
        .collect()
}

pub(crate) fn describe_line(id: &str) -> String {
    let parts: Vec<&str> = id.split('/').collect();
    match parts[..] {
        ["edge", d, end, side, len] => {
            format!("a run of {len} along {d} whose cell {end} it is off the board ({side})")
        }
        ["corner-diagonal", corner] => {
            format!("a five on the 5-cell diagonal at the {corner} corner")
        }
        ["alias", model, d, end, colour] => format!(
            "a run of five or more along {d} whose off-board cell {end} it is read by the {model} model as a cell holding a stone of the {colour} colour"
        ),
        ["parallel", d, offset, colour] => format!(
            "an exact five along {d} whose end cell on the parallel line at offset {offset} holds a stone of the {colour} colour"
        ),
        _ => id.to_string(),
    }
}

/// A ray from `start` along `dir` over cells for which `run_cell` holds: the first cell after
/// it (possibly off the grid) and its length, or `None` if it is empty.
pub fn ray_ends(
    start: (i32, i32),
    dir: Dir,
    n: i32,
    run_cell: impl Fn(i32, i32) -> bool,
) -> Option<((i32, i32), i32)> {
    let (mut r, mut c) = (start.0 + dir.0, start.1 + dir.1);
    let mut len = 0;
    while side(r, c, n).is_none() && run_cell(r, c) {
        len += 1;
        r += dir.0;
        c += dir.1;
    }
    (len > 0).then_some(((r, c), len))
}

/// The feasible `alias/MODEL/DIR/*` pairs for rays on an `n`×`n` grid: (model, direction
/// index) such that some ray from some start reaching the edge has its off-board cell read
/// as a board cell outside the ray.
pub fn ray_alias_feasible(n: i32) -> BTreeSet<(&'static str, usize)> {
    let mut out = BTreeSet::new();
    for (k, &dir) in DIRECTIONS.iter().enumerate() {
        for r in 0..n {
            for c in 0..n {
                // A ray of every cell from (r, c) + dir to the edge.
                let Some((end, len)) = ray_ends((r, c), dir, n, |_, _| true) else {
                    continue;
                };
                for (model, read) in alias_models() {
                    if let Read::Cell(ar, ac) = read(end.0, end.1, n) {
                        let (ar, ac) = (ar as i32, ac as i32);
                        let on_ray = (0..=len).any(|s| (r + s * dir.0, c + s * dir.1) == (ar, ac));
                        if !on_ray {
                            out.insert((model, k));
                        }
                    }
                }
            }
        }
    }
    out
}

/// Where (r, c) lies on the rim of an `n`×`n` grid: a side (`top` …) or a corner
/// (`top-left` …); `None` inside.
pub fn rim(r: i32, c: i32, n: i32) -> Option<&'static str> {
    let step = |x: i32| {
        if x == 0 {
            -1
        } else if x == n - 1 {
            n
        } else {
            x
        }
    };
    side(step(r), step(c), n)
}

/// The eight rim places, sides then corners.
pub const RIM: [&str; 8] = [
    "top",
    "bottom",
    "left",
    "right",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
];

/// Coverage of a list of inputs: for every obligation, whether some input meets it.
pub fn coverage<P: Obligations>(inputs: &[P::Input]) -> Vec<(String, String, bool)> {
    let mut met = BTreeSet::new();
    for input in inputs {
        met.extend(P::met(input));
    }
    P::obligations()
        .into_iter()
        .map(|(id, what)| {
            let ok = met.contains(&id);
            (id, what, ok)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_and_rim() {
        assert_eq!(side(-1, 3, 19), Some("top"));
        assert_eq!(side(19, 19, 19), Some("bottom-right"));
        assert_eq!(side(3, 3, 19), None);
        assert_eq!(rim(0, 0, 8), Some("top-left"));
        assert_eq!(rim(0, 3, 8), Some("top"));
        assert_eq!(rim(7, 3, 8), Some("bottom"));
        assert_eq!(rim(3, 3, 8), None);
    }

    #[test]
    fn line_obligations_are_the_expected_kinds() {
        let list = line_obligations::<19>(LineRules {
            parallel: true,
            parallel_needs_six: true,
        });
        let ids: Vec<&str> = list.iter().map(|(id, _)| id.as_str()).collect();
        assert!(ids.contains(&"edge/row/before/left/5"));
        assert!(ids.contains(&"edge/diagonal/after/bottom-right/6+"));
        assert!(ids.contains(&"alias/flat/row/after/same"));
        assert!(ids.contains(&"alias/wrap-negative/column/before/opposite"));
        // Python's wrap never turns a read past the right edge into a cell.
        assert!(!ids.contains(&"alias/wrap-negative/row/after/same"));
        assert!(ids.contains(&"corner-diagonal/bottom-right"));
        assert!(ids.contains(&"parallel/anti-diagonal/-1/same"));
    }
}
