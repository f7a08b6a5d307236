//! The boundary obligations of attack25: runs of taken panels to every edge, what an aliasing read finds beyond them, the
//! corner panels,
//! and the builder of an input meeting each (see [`crate::obligations`], [`crate::boundary`]).

use std::collections::BTreeSet;

use solutions::access::Read;
use solutions::board::DIRECTIONS;
use solutions::Attack25;

use crate::boundary::{Boundary};
use crate::obligations::{DIRECTION_NAMES, Obligations, RIM, alias_models, ray_alias_feasible, ray_ends, rim, side};
use crate::{Generate, Rng};

impl Obligations for Attack25 {
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
        list.sort();
        list
    }

    fn met(input: &Self::Input) -> BTreeSet<String> {
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
}

impl Boundary for Attack25 {
    fn attempt(_id: &str, rng: &mut Rng, _hunting: bool) -> Option<Self::Input> {
        let families = Self::families();
        let family = &families[rng.index(families.len())];
        Some((family.make)(rng).0)
    }
}
