//! The boundary obligations of othello-flips: rays from P to every edge, closed or not, squares an aliasing read finds
//! beyond them, P on the rim,
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::access::Read;
use solutions::board::DIRECTIONS;
use solutions::OthelloFlips;

use crate::boundary::{Boundary, inside};
use crate::obligations::{DIRECTION_NAMES, Obligations, RIM, alias_models, ray_alias_feasible, ray_ends, rim, side};
use crate::Rng;

impl Obligations for OthelloFlips {
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
        list.sort();
        list
    }

    fn met(input: &Self::Input) -> BTreeSet<String> {
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
