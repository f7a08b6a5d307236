//! The boundary obligations of attack25: runs of taken panels to every edge, what an aliasing read finds beyond them, the
//! corner panels,
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).
//!
//! The kinds: `run-to-edge/DIR`, `closed-at-edge/DIR` (from an empty panel, a run of other
//! panels up to the edge, or closed by the panel on the edge), `alias/MODEL/DIR/taken|empty`,
//! `corner/CORNER/taken|empty`.

use std::collections::BTreeSet;

use solutions::access::Read;
use solutions::board::DIRECTIONS;
use solutions::Attack25;
use solutions::attack25::{Input, panel_at};

use crate::boundary::{Boundary};
use crate::obligations::{DIRECTION_NAMES, Obligations, RIM, alias_models, ray_alias_feasible, ray_ends, rim, side};
use crate::{Generate, Rng};

impl Obligations for Attack25 {
    const CATCHES: &'static [(&'static str, &'static [&'static str])] = &[
        ("decoy-run-cap-two", &["long/3"]),
        ("decoy-own-past-gap", &["decoy/own-past-gap"]),
        ("decoy-skips-own-first", &["decoy/own-first"]),
        ("decoy-first-run-decides", &["meet/sandwich-and-future"]),
    ];

    fn obligations() -> Vec<(String, String)> {
        let mut list = Vec::new();
        for name in DIRECTION_NAMES {
            list.push((
                format!("run-to-edge/{name}"),
                format!("from an empty panel, taken panels toward {name} up to the edge"),
            ));
            list.push((
                format!("closed-at-edge/{name}"),
                format!(
                    "from an empty panel, taken panels toward {name} up to the edge, the one on the edge of a colour the others are not"
                ),
            ));
        }
        for (model, k) in ray_alias_feasible(5) {
            for what in ["taken", "empty"] {
                list.push((
                    format!("alias/{model}/{}/{what}", DIRECTION_NAMES[k]),
                    format!(
                        "from an empty panel, taken panels toward {} up to the edge, where the {model} model reads the panel beyond as a {what} board panel",
                        DIRECTION_NAMES[k]
                    ),
                ));
            }
        }
        for corner in &RIM[4..] {
            for what in ["taken", "empty"] {
                list.push((
                    format!("corner/{corner}/{what}"),
                    format!("the {corner} corner panel {what} on a non-empty board"),
                ));
            }
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

/// The decoy and interaction obligations of attack25: panels along a line from an empty
/// panel P that a real contestant's walk trips over, for some colour C.
///
/// - `decoy/own-past-gap`: other colours, one empty panel, then C (a future sandwich only);
/// - `decoy/own-first`: C next to P, then other colours, then C (no sandwich from P);
/// - `long/3`: three panels of other colours closed by C (the longest sandwich that fits);
/// - `meet/sandwich-and-future`: P sandwiches along one line and is only a future sandwich
///   along another;
/// - `touch/two-colours`: a sandwiched run of two other colours touching end to end.
fn decoy_obligations() -> Vec<(String, String)> {
    [
        ("decoy/own-past-gap", "from an empty panel: other colours, one empty panel, then the taker's colour"),
        ("decoy/own-first", "from an empty panel: the taker's colour, other colours, then the taker's colour again"),
        ("long/3", "from an empty panel: three panels of other colours closed by the taker's colour"),
        ("meet/sandwich-and-future", "an empty panel that sandwiches along one line and is only a future sandwich along another"),
        ("touch/two-colours", "a sandwiched run of two other colours touching end to end"),
    ]
    .into_iter()
    .map(|(id, what)| (id.to_string(), what.to_string()))
    .collect()
}

fn decoy_met(input: &Input, out: &mut BTreeSet<String>) {
    if input.taken() == 0 {
        return;
    }
    for p in (0..25).filter(|&p| input.owner(p).is_none()) {
        let (pr, pc) = ((p / 5) as i32, (p % 5) as i32);
        for colour in 0..4 {
            let (mut sandwich, mut future) = (false, false);
            for dir in DIRECTIONS {
                let line: Vec<Option<usize>> = (1..5)
                    .map(|k| panel_at(pr + k * dir.0, pc + k * dir.1))
                    .take_while(Option::is_some)
                    .flatten()
                    .map(|q| input.owner(q))
                    .collect();
                let others = |from: usize| {
                    line[from..]
                        .iter()
                        .take_while(|o| o.is_some_and(|k| k != colour))
                        .count()
                };
                let k = others(0);
                match line.get(k) {
                    Some(Some(c)) if *c == colour && k > 0 => {
                        sandwich = true;
                        if k == 3 {
                            out.insert("long/3".to_string());
                        }
                        let mut colours: Vec<usize> = line[..k].iter().flatten().copied().collect();
                        colours.dedup();
                        if colours.len() >= 2 {
                            out.insert("touch/two-colours".to_string());
                        }
                    }
                    Some(None) if k > 0 => {
                        future = true;
                        if line.get(k + 1) == Some(&Some(colour)) {
                            out.insert("decoy/own-past-gap".to_string());
                        }
                    }
                    _ => {}
                }
                if line.first() == Some(&Some(colour)) {
                    let k = others(1);
                    if k > 0 && line.get(1 + k) == Some(&Some(colour)) {
                        out.insert("decoy/own-first".to_string());
                    }
                }
            }
            if sandwich && future {
                out.insert("meet/sandwich-and-future".to_string());
            }
        }
    }
}

/// The edge obligations an input meets.
fn edge_met(input: &Input) -> BTreeSet<String> {
        let n = 5;
        let owner = |r: i32, c: i32| input.owner((r * 5 + c) as usize);
        let mut out = BTreeSet::new();
        if input.taken() == 0 {
            return out;
        }
        for p in 0..25i32 {
            let (pr, pc) = (p / 5, p % 5);
            if owner(pr, pc).is_some() {
                if let Some(corner) = rim(pr, pc, n).filter(|s| s.contains('-')) {
                    out.insert(format!("corner/{corner}/taken"));
                }
                continue;
            }
            if let Some(corner) = rim(pr, pc, n).filter(|s| s.contains('-')) {
                out.insert(format!("corner/{corner}/empty"));
            }
            for (k, &dir) in DIRECTIONS.iter().enumerate() {
                let name = DIRECTION_NAMES[k];
                let Some((end, len)) = ray_ends((pr, pc), dir, n, |r, c| owner(r, c).is_some())
                else {
                    continue;
                };
                if side(end.0, end.1, n).is_none() {
                    continue;
                }
                out.insert(format!("run-to-edge/{name}"));
                let last = (end.0 - dir.0, end.1 - dir.1);
                let closer = owner(last.0, last.1);
                if len >= 2 && (1..len).all(|s| owner(pr + s * dir.0, pc + s * dir.1) != closer) {
                    out.insert(format!("closed-at-edge/{name}"));
                }
                for (model, read) in alias_models() {
                    if let Read::Cell(r, c) = read(end.0, end.1, n) {
                        let what = if owner(r as i32, c as i32).is_some() {
                            "taken"
                        } else {
                            "empty"
                        };
                        out.insert(format!("alias/{model}/{name}/{what}"));
                    }
                }
            }
        }
        out
}

impl Boundary for Attack25 {
    fn attempt(_id: &str, rng: &mut Rng, _hunting: bool) -> Option<Self::Input> {
        let families = Self::families();
        let family = &families[rng.index(families.len())];
        Some((family.make)(rng).0)
    }
}
