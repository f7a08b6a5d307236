//! The boundary obligations of othello-flips: rays from P to every edge, closed or not, squares an aliasing read finds
//! beyond them, P on the rim,
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).
//!
//! The kinds: `ray-to-edge/DIR` (whites from `P` up to the edge, nothing closes),
//! `closed-at-edge/DIR` (whites closed by black on the edge square), `alias/MODEL/DIR/COLOUR`
//! (a ray to the edge whose off-board square MODEL reads as a square of COLOUR: the wrap to
//! the next row), `play-on/SIDE` (`P` on each edge and corner).

use std::collections::BTreeSet;

use solutions::access::Read;
use solutions::board::DIRECTIONS;
use solutions::OthelloFlips;
use solutions::othello_flips::{Input, Square};

use crate::boundary::{Boundary, inside};
use crate::obligations::{DIRECTION_NAMES, Obligations, RIM, alias_models, ray_alias_feasible, ray_ends, rim, side};
use crate::Rng;

impl Obligations for OthelloFlips {
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[
        ("decoy-ray-cap-six", &["long/6"]),
        ("decoy-closer-past-gap", &["decoy/past-gap/orthogonal", "decoy/past-gap/diagonal"]),
        ("decoy-skips-black-next-to-p", &["decoy/black-first/orthogonal", "decoy/black-first/diagonal"]),
    ];

    fn obligations() -> Vec<(String, String)> {
        let mut list = Vec::new();
        for name in DIRECTION_NAMES {
            list.push((
                format!("ray-to-edge/{name}"),
                format!("white discs from P toward {name} up to the edge, nothing closing them"),
            ));
            list.push((
                format!("closed-at-edge/{name}"),
                format!(
                    "white discs from P toward {name} closed by a black disc on the edge square"
                ),
            ));
        }
        for (model, k) in ray_alias_feasible(8) {
            for colour in ["black", "white"] {
                list.push((
                    format!("alias/{model}/{}/{colour}", DIRECTION_NAMES[k]),
                    format!(
                        "white discs from P toward {} up to the edge, where the {model} model reads the square beyond as a board square holding a {colour} disc",
                        DIRECTION_NAMES[k]
                    ),
                ));
            }
        }
        for place in RIM {
            list.push((
                format!("play-on/{place}"),
                format!("P on the {place} of the board"),
            ));
        }
        list.extend(decoy_obligations());
        list.sort();
        list
    }

    fn met(input: &Self::Input) -> BTreeSet<String> {
        let mut out = edge_met(input);
        decoy_met(input, &mut out);
        out
    }
}

/// The decoy and interaction obligations of othello-flips: discs along a ray from P that a
/// real contestant's walk trips over.
///
/// - `decoy/past-gap/orthogonal|diagonal`: whites, one empty square, then black (not closed);
/// - `decoy/black-first/orthogonal|diagonal`: black next to P, then whites, then black;
/// - `long/5`, `long/6`: a flipped run of five or six whites (six: P and the black disc on
///   opposite edges);
/// - `meet/flips-in-3`, `meet/flips-in-5`: discs flip in three (five) or more directions;
/// - `touch/closer-run`: the black disc that closes a flipped run is followed by another black.
fn decoy_obligations() -> Vec<(String, String)> {
    let mut list = Vec::new();
    for class in ["orthogonal", "diagonal"] {
        list.push((
            format!("decoy/past-gap/{class}"),
            format!("from P along an {class} ray: white discs, one empty square, then a black disc (nothing flips)"),
        ));
        list.push((
            format!("decoy/black-first/{class}"),
            format!("from P along an {class} ray: a black disc next to P, then white discs, then black (nothing flips)"),
        ));
    }
    for len in [5, 6] {
        list.push((format!("long/{len}"), format!("a flipped run of {len} white discs")));
    }
    for k in [3, 5] {
        list.push((format!("meet/flips-in-{k}"), format!("discs flip in {k} or more directions")));
    }
    list.push((
        "touch/closer-run".to_string(),
        "the black disc closing a flipped run is followed by another black disc".to_string(),
    ));
    list
}

/// What lies along the ray from P in direction `dir`: the squares up to the edge.
fn ray(input: &Input, dir: (i32, i32)) -> Vec<Square> {
    let p = (i32::from(input.play / 8), i32::from(input.play % 8));
    (1..8)
        .map(|k| input.square(p.0 + k * dir.0, p.1 + k * dir.1))
        .take_while(Option::is_some)
        .flatten()
        .collect()
}

fn decoy_met(input: &Input, out: &mut BTreeSet<String>) {
    let mut flipping = 0;
    for dir in DIRECTIONS {
        let squares = ray(input, dir);
        let class = if dir.0 == 0 || dir.1 == 0 { "orthogonal" } else { "diagonal" };
        let whites = |from: usize| squares[from..].iter().take_while(|&&s| s == Square::White).count();
        let w = whites(0);
        match squares.get(w) {
            Some(Square::Black) if w > 0 => {
                flipping += 1;
                if w >= 5 {
                    out.insert(format!("long/{w}"));
                }
                if squares.get(w + 1) == Some(&Square::Black) {
                    out.insert("touch/closer-run".to_string());
                }
            }
            Some(Square::Empty) if w > 0 && squares.get(w + 1) == Some(&Square::Black) => {
                out.insert(format!("decoy/past-gap/{class}"));
            }
            _ => {}
        }
        if squares.first() == Some(&Square::Black) {
            let w = whites(1);
            if w > 0 && squares.get(1 + w) == Some(&Square::Black) {
                out.insert(format!("decoy/black-first/{class}"));
            }
        }
    }
    for k in [3, 5] {
        if flipping >= k {
            out.insert(format!("meet/flips-in-{k}"));
        }
    }
}

/// The edge obligations an input meets.
fn edge_met(input: &Input) -> BTreeSet<String> {
    let n = 8;
        let bit = |r: i32, c: i32| 1u64 << (r * 8 + c);
        let white = |r: i32, c: i32| input.white & bit(r, c) != 0;
        let black = |r: i32, c: i32| input.black & bit(r, c) != 0;
        let p = (i32::from(input.play / 8), i32::from(input.play % 8));
        let mut out = BTreeSet::new();
        for (k, &dir) in DIRECTIONS.iter().enumerate() {
            let name = DIRECTION_NAMES[k];
            let Some((end, _)) = ray_ends(p, dir, n, white) else {
                continue;
            };
            if side(end.0, end.1, n).is_some() {
                out.insert(format!("ray-to-edge/{name}"));
                for (model, read) in alias_models() {
                    if let Read::Cell(r, c) = read(end.0, end.1, n) {
                        let (r, c) = (r as i32, c as i32);
                        if black(r, c) {
                            out.insert(format!("alias/{model}/{name}/black"));
                        } else if white(r, c) {
                            out.insert(format!("alias/{model}/{name}/white"));
                        }
                    }
                }
            } else if black(end.0, end.1) && side(end.0 + dir.0, end.1 + dir.1, n).is_some() {
                out.insert(format!("closed-at-edge/{name}"));
            }
        }
        if let Some(place) = rim(p.0, p.1, n) {
            out.insert(format!("play-on/{place}"));
        }
        out
}

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
        let p = (rng.range(0, 7) as i32, rng.range(0, 7) as i32);
        let mut set = |r: i32, c: i32, v: u8| cells[(r * 8 + c) as usize] = v;
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
            ["decoy", kind, class] => {
                let dirs: Vec<(i32, i32)> = DIRECTIONS
                    .iter()
                    .copied()
                    .filter(|d| (d.0 == 0 || d.1 == 0) == (class == "orthogonal"))
                    .collect();
                let dir = rng.pick(&dirs);
                let whites = rng.range(1, 3) as i32;
                let pattern: Vec<u8> = if kind == "past-gap" {
                    std::iter::repeat_n(2, whites as usize).chain([0, 1]).collect()
                } else {
                    std::iter::once(1).chain(std::iter::repeat_n(2, whites as usize)).chain([1]).collect()
                };
                lay_ray(&mut cells, p, dir, &pattern)?;
                p
            }
            ["long", len] => {
                let whites: usize = len.parse().ok()?;
                let dir = rng.pick(&DIRECTIONS);
                let pattern: Vec<u8> = std::iter::repeat_n(2, whites).chain([1]).collect();
                lay_ray(&mut cells, p, dir, &pattern)?;
                p
            }
            ["touch", _] => {
                let dir = rng.pick(&DIRECTIONS);
                let whites = rng.range(1, 3) as usize;
                let pattern: Vec<u8> = std::iter::repeat_n(2, whites).chain([1, 1]).collect();
                lay_ray(&mut cells, p, dir, &pattern)?;
                p
            }
            ["meet", flips] => {
                let k: usize = flips.strip_prefix("flips-in-")?.parse().ok()?;
                let mut dirs = DIRECTIONS;
                rng.shuffle(&mut dirs);
                let mut laid = 0;
                for dir in dirs {
                    let whites = rng.range(1, 2) as usize;
                    let pattern: Vec<u8> = std::iter::repeat_n(2, whites).chain([1]).collect();
                    if lay_ray(&mut cells, p, dir, &pattern).is_some() {
                        laid += 1;
                    }
                }
                if laid < k {
                    return None;
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

/// Lays `pattern` (0 empty, 1 black, 2 white) along the ray from `p` in `dir`; `None` (and
/// nothing laid) if it does not fit on the board.
fn lay_ray(cells: &mut [u8; 64], p: (i32, i32), dir: (i32, i32), pattern: &[u8]) -> Option<()> {
    let at = |k: usize| (p.0 + (k as i32 + 1) * dir.0, p.1 + (k as i32 + 1) * dir.1);
    if !(0..pattern.len()).all(|k| inside(at(k), 8)) {
        return None;
    }
    for (k, &v) in pattern.iter().enumerate() {
        let (r, c) = at(k);
        cells[(r * 8 + c) as usize] = v;
    }
    Some(())
}
