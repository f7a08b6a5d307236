//! The boundary obligations of omok: the line obligations around every run of five or more,
//! with stones on the parallel lines next to a six; the decoy and interaction obligations
//! around the exact five (see [`crate::decoy`]) and a five crossing a six; and the builder of
//! an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::Omok;
use solutions::board::{LINES, Stone};

use crate::Rng;
use crate::boundary::{Boundary, find_run, inside, line_index, line_layout, noise, run_cells};
use crate::decoy::{DecoyRules, decoy_layout, decoy_met, decoy_obligations};
use crate::obligations::{LINE_NAMES, LineRules, Obligations, Run, line_met, line_obligations, runs, side};
use crate::shortest::ShortestRules;

const OMOK_RULES: LineRules = LineRules {
    parallel: true,
    parallel_needs_six: true,
};

const OMOK_DECOYS: DecoyRules = DecoyRules {
    touch_min: 2,
    row_col: true,
    long: &["7", "8", "9", "10", "11", "12", "13+"],
};

const SIZE: usize = solutions::omok::SIZE;

impl Obligations for Omok {
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[
        (
            "decoy-start-first-on-line",
            &["decoy/row/before", "decoy/column/before", "decoy/diagonal/before", "decoy/anti-diagonal/before", "decoy/gap-of-one/before"],
        ),
        ("decoy-six-marks-stones", &["meet/five-six/diagonal", "meet/five-six/anti-diagonal"]),
        ("decoy-count-capped-at-six", &["long/11", "long/13+"]),
        ("decoy-switch-forgets-run", &["touch/after", "touch/row", "touch/column", "touch/diagonal", "touch/anti-diagonal"]),
        (
            "decoy-six-breaks-directions",
            &["meet/six-start-five/row/column", "meet/six-start-five/row/diagonal", "meet/six-start-five/row/anti-diagonal", "meet/six-start-five/column/diagonal", "meet/six-start-five/column/anti-diagonal", "meet/six-start-five/diagonal/anti-diagonal"],
        ),
        ("decoy-skip-after-six", &["touch-six/row", "touch-six/column", "touch-six/diagonal", "touch-six/anti-diagonal"]),
    ];

    fn obligations() -> Vec<(String, String)> {
        let mut list = line_obligations::<SIZE>(OMOK_RULES);
        list.extend(decoy_obligations(OMOK_DECOYS));
        for d in LINE_NAMES {
            list.push((
                format!("meet/five-six/{d}"),
                format!("a stone both in the exact five along {d} and in a run of six or more of the same colour along another line"),
            ));
        }
        list.extend(crate::shortest::shortest_obligations(SIZE as i32, SHORTEST));
        list.extend(issue_34_obligations());
        list
    }
    fn met(board: &Self::Input) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let all = runs(board, 5);
        line_met(board, &all, OMOK_RULES, &mut out);
        let fives: Vec<_> = all.iter().copied().filter(|r| r.len == 5).collect();
        decoy_met(board, &fives, &all, OMOK_DECOYS, &mut out);
        for five in &fives {
            let crossed = all.iter().any(|six| {
                six.len >= 6
                    && six.stone == five.stone
                    && six.line != five.line
                    && (0..five.len).any(|k| {
                        six.contains((five.start.0 + k * five.dir.0, five.start.1 + k * five.dir.1))
                    })
            });
            if crossed {
                out.insert(format!("meet/five-six/{}", LINE_NAMES[five.line]));
            }
        }
        crate::shortest::shortest_met(board, SHORTEST, |_, _, _| true, &mut out);
        issue_34_met(board, &all, &fives, &mut out);
        out
    }
}

/// omok's shortest lines: a six is no win, and a five is one however its end is closed.
const SHORTEST: ShortestRules = ShortestRules {
    six: true,
    blocked: true,
};

fn colour_name(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "black",
        Stone::White => "white",
    }
}

fn stone_named(name: &str) -> Option<Stone> {
    match name {
        "black" => Some(Stone::Black),
        "white" => Some(Stone::White),
        _ => None,
    }
}

/// Is SIDE (of [`crate::obligations::side`]) above or below the board? A two-dimensional
/// array's read there leaves the array (stray memory, whatever the build holds); a read past
/// the left or right side lands on the neighbouring row, which the `alias/flat/…`
/// obligations vary.
fn leaves_the_array(side: &str) -> bool {
    side.starts_with("top") || side.starts_with("bottom")
}

/// The obligations of the wrong programs of issue 34 (omok), as board facts:
///
/// - `edge-colour/D/END/SIDE/COLOUR`: an exact five of COLOUR along D whose cell END it lies
///   off the board above or below it: a read there finds what the build left in memory, so
///   the test set holds both colours' fives (stray black turns a black five into a six);
/// - `meet/six-start-five/SIX/FIVE`, `meet/six-end-five/SIX/FIVE`: the stone that starts the
///   exact five along FIVE starts / ends a run of six or more of its colour along SIX (a stone
///   loop that leaves its direction loop with `break` on the six never checks the five);
/// - `touch-six/D`: the exact five along D starts on the cell right after a run of six or more
///   of the other colour along D (a scan that marks the cell after a six as seen skips it);
/// - `phantom/edge/SIDE/COLOUR`: no exact five on the board, and an exact four of COLOUR whose
///   next cell lies off the board beyond SIDE: a read that finds COLOUR there (a `/` walk
///   past the first or last row into stack memory) sees a phantom five.
fn issue_34_obligations() -> Vec<(String, String)> {
    let n = SIZE as i32;
    let mut ids: BTreeSet<String> = BTreeSet::new();
    crate::obligations::off_board_run_ends::<SIZE>(5, |_, d, end, _, s| {
        if leaves_the_array(s) {
            for colour in ["black", "white"] {
                ids.insert(format!("edge-colour/{d}/{end}/{s}/{colour}"));
            }
        }
    });
    for five in LINE_NAMES {
        for six in LINE_NAMES.iter().filter(|&&x| x != five) {
            ids.insert(format!("meet/six-start-five/{six}/{five}"));
            ids.insert(format!("meet/six-end-five/{six}/{five}"));
        }
        ids.insert(format!("touch-six/{five}"));
    }
    crate::obligations::off_board_run_ends::<SIZE>(4, |_, _, _, _, s| {
        for colour in ["black", "white"] {
            ids.insert(format!("phantom/edge/{s}/{colour}"));
        }
    });
    let _ = n;
    ids.into_iter()
        .map(|id| {
            let parts: Vec<&str> = id.split('/').collect();
            let what = match parts[..] {
                ["edge-colour", d, end, s, colour] => format!(
                    "an exact {colour} five along {d} whose cell {end} it lies off the board ({s}), outside a two-dimensional array"
                ),
                ["meet", "six-start-five", six, five] => format!(
                    "the stone that starts the exact five along {five} also starts a run of six or more of its colour along {six}"
                ),
                ["meet", "six-end-five", six, five] => format!(
                    "the stone that starts the exact five along {five} also ends a run of six or more of its colour along {six}"
                ),
                ["touch-six", d] => format!(
                    "the exact five along {d} starts on the cell right after a run of six or more of the other colour along {d}"
                ),
                ["phantom", "edge", s, colour] => format!(
                    "no exact five, and an exact {colour} four whose next cell lies off the board ({s}): a read that finds {colour} there sees a five"
                ),
                _ => id.clone(),
            };
            (id, what)
        })
        .collect()
}

/// The issue-34 obligations (see [`issue_34_obligations`]) `board` meets, from its runs of
/// five or more (`all`) and exact fives.
fn issue_34_met(
    board: &solutions::omok::Input,
    all: &[Run],
    fives: &[Run],
    out: &mut BTreeSet<String>,
) {
    let n = SIZE as i32;
    for five in fives {
        let d = LINE_NAMES[five.line];
        let colour = colour_name(five.stone);
        for (end, cell) in [("before", five.before()), ("after", five.after())] {
            if let Some(s) = side(cell.0, cell.1, n)
                && leaves_the_array(s)
            {
                out.insert(format!("edge-colour/{d}/{end}/{s}/{colour}"));
            }
        }
        for six in all
            .iter()
            .filter(|r| r.len >= 6 && r.stone == five.stone && r.line != five.line)
        {
            let last = (
                six.start.0 + (six.len - 1) * six.dir.0,
                six.start.1 + (six.len - 1) * six.dir.1,
            );
            let six_name = LINE_NAMES[six.line];
            if six.start == five.start {
                out.insert(format!("meet/six-start-five/{six_name}/{d}"));
            }
            if last == five.start {
                out.insert(format!("meet/six-end-five/{six_name}/{d}"));
            }
        }
        if all.iter().any(|r| {
            r.len >= 6 && r.stone != five.stone && r.line == five.line && r.after() == five.start
        }) {
            out.insert(format!("touch-six/{d}"));
        }
    }
    if fives.is_empty() {
        for four in runs(board, 4).iter().filter(|r| r.len == 4) {
            for cell in [four.before(), four.after()] {
                if let Some(s) = side(cell.0, cell.1, n) {
                    out.insert(format!("phantom/edge/{s}/{}", colour_name(four.stone)));
                }
            }
        }
    }
}

/// An attempt at an issue-34 obligation (see [`issue_34_obligations`]); `None` for any other.
fn issue_34_attempt(id: &str, rng: &mut Rng) -> Option<solutions::omok::Input> {
    let n = SIZE as i32;
    let parts: Vec<&str> = id.split('/').collect();
    let mut board = solutions::omok::Input::empty();
    let mut lay = |cells: &[(i32, i32)], stone: Stone| -> Option<()> {
        for &p in cells {
            if !inside(p, n) {
                return None;
            }
            board.set(p.0 as usize, p.1 as usize, Some(stone));
        }
        Some(())
    };
    match parts[..] {
        ["edge-colour", d, end, s, colour] => {
            let stone = stone_named(colour)?;
            let layout = line_layout::<SIZE>(&format!("edge/{d}/{end}/{s}/5"), rng, stone, true, false)?;
            return Some(layout.board);
        }
        ["meet", which, six, five] if which == "six-start-five" || which == "six-end-five" => {
            let stone = crate::shortest::colour(rng);
            let five_dir = LINES[line_index(five)?];
            let six_dir = LINES[line_index(six)?];
            let start = (rng.range(0, n as u32 - 1) as i32, rng.range(0, n as u32 - 1) as i32);
            lay(&run_cells(start, five_dir, 5), stone)?;
            // Sixes along every other line that fits (at least the named one), so the
            // five is missed whatever order a loop takes the directions in.
            for other in LINES.iter().filter(|&&x| x != five_dir) {
                let from = if which == "six-start-five" {
                    start
                } else {
                    (start.0 - 5 * other.0, start.1 - 5 * other.1)
                };
                let cells = run_cells(from, *other, 6);
                let fits = cells.iter().all(|&p| inside(p, n));
                if *other == six_dir || (fits && rng.chance(2, 3)) {
                    lay(&cells, stone)?;
                }
            }
        }
        ["touch-six", d] => {
            let stone = crate::shortest::colour(rng);
            let dir = LINES[line_index(d)?];
            let len = rng.range(6, 7) as i32;
            let run = find_run::<SIZE>(rng, dir, len + 5, |_, _, _| true)?;
            lay(&run[..len as usize], stone.other())?;
            lay(&run[len as usize..], stone)?;
        }
        ["phantom", "edge", s, colour] => {
            let stone = stone_named(colour)?;
            let dir = rng.pick(&LINES);
            let at_end = rng.chance(1, 2);
            let run = find_run::<SIZE>(rng, dir, 4, |_, before, after| {
                let cell = if at_end { after } else { before };
                side(cell.0, cell.1, n) == Some(s)
            })?;
            lay(&run, stone)?;
        }
        _ => return None,
    }
    Some(board)
}

/// A five along `d` and a six or seven of the same colour along another line through one of
/// its stones.
fn five_crossing_six(id_dir: &str, rng: &mut Rng, stone: Stone) -> Option<solutions::omok::Input> {
    let n = SIZE as i32;
    let d = LINES[LINE_NAMES.iter().position(|&x| x == id_dir)?];
    let other = loop {
        let o = rng.pick(&LINES);
        if o != d {
            break o;
        }
    };
    let five = run_cells(
        (rng.range(0, 18) as i32, rng.range(0, 18) as i32),
        d,
        5,
    );
    let len = rng.range(6, 7) as i32;
    let shared = five[rng.index(5)];
    let j = rng.range(0, len as u32 - 1) as i32;
    let six = run_cells((shared.0 - j * other.0, shared.1 - j * other.1), other, len);
    if !five.iter().chain(&six).all(|&p| inside(p, n)) {
        return None;
    }
    let mut board = solutions::omok::Input::empty();
    for &(r, c) in five.iter().chain(&six) {
        board.set(r as usize, c as usize, Some(stone));
    }
    Some(board)
}

impl Boundary for Omok {
    /// Room for a board per shortest-line and edge five (see [`Boundary::MAX_TESTS`]).
    const MAX_TESTS: usize = 130;

    fn overlay(base: &Self::Input, extra: &Self::Input) -> Option<Self::Input> {
        crate::boundary::overlay_boards(base, extra)
    }

    fn attempt(id: &str, rng: &mut Rng, hunting: bool) -> Option<Self::Input> {
        let stone = rng.pick(&[Stone::Black, Stone::White]);
        let mut board = if let Some(d) = id.strip_prefix("meet/five-six/") {
            five_crossing_six(d, rng, stone)?
        } else if id.starts_with("shortest/") {
            crate::shortest::shortest_layout(id, stone)?
        } else if let Some(board) = issue_34_attempt(id, rng) {
            board
        } else if let Some(layout) = decoy_layout::<SIZE>(id, rng, stone, 5, OMOK_DECOYS) {
            layout.board
        } else {
            line_layout::<SIZE>(id, rng, stone, true, hunting)?.board
        };
        let n = rng.range(0, 20) as usize;
        noise(&mut board, rng, n);
        Some(board)
    }
}
