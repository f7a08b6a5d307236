//! Decoy models: the tiers as real contestants write them, with a bug that only shows when
//! panels interact along a line — a run of three other panels (the longest that fits), the
//! own colour just past an empty panel, the own colour first on the line, several directions
//! from one panel. Each fails rarely on random positions, so a test set keeps them out only if
//! it has the decoy obligations (see the attack25 obligations in `generators`).

use super::{ALL_PANELS, Answer, Attack25, CENTRE, Input, panel_at};
use crate::board::DIRECTIONS;

/// What ends the run of other colours from `from` along `d`: `Some(true)` own panel,
/// `Some(false)` an empty panel, `None` no run (or the edge).
fn run_end(
    input: &Input,
    from: usize,
    (dr, dc): (i32, i32),
    colour: usize,
    bugs: Bugs,
) -> Option<bool> {
    let (mut r, mut c) = ((from / 5) as i32 + dr, (from % 5) as i32 + dc);
    let mut others = 0;
    let mut leading_own = true;
    let mut gap = false;
    loop {
        if bugs.run_cap_two && others == 2 && !gap {
            // `for k in 1..=3`: the panel after two others is the last one looked at.
            return match panel_at(r, c).map(|p| input.owner(p)) {
                Some(Some(k)) if k == colour => Some(true),
                Some(None) => Some(false),
                _ => None,
            };
        }
        let Some(p) = panel_at(r, c) else {
            return if gap { Some(false) } else { None };
        };
        match input.owner(p) {
            Some(k) if k == colour && bugs.skips_own_first && others == 0 && leading_own => {}
            Some(k) if k != colour && !gap => {
                others += 1;
                leading_own = false;
            }
            Some(k) if k == colour => return (others > 0).then_some(true),
            None if bugs.own_past_gap && others > 0 && !gap => gap = true,
            None => return (others > 0).then_some(false),
            _ => return if gap { Some(false) } else { None },
        }
        r += dr;
        c += dc;
    }
}

fn takeable(input: &Input, colour: usize, bugs: Bugs) -> u32 {
    if input.taken() == 0 {
        return 1 << CENTRE;
    }
    let empty: Vec<usize> = (0..25).filter(|&p| input.owner(p).is_none()).collect();
    // The first direction with a run decides the panel (with the bug): `break` after the
    // first run found.
    let ends = |p: usize| -> Vec<bool> {
        let mut out = Vec::new();
        for &d in &DIRECTIONS {
            if let Some(own) = run_end(input, p, d, colour, bugs) {
                out.push(own);
                if bugs.first_run_decides {
                    break;
                }
            }
        }
        out
    };
    let tier = |keep: &dyn Fn(usize) -> bool| {
        empty
            .iter()
            .filter(|&&p| keep(p))
            .fold(0u32, |m, &p| m | 1 << p)
    };
    let sandwich = tier(&|p| ends(p).contains(&true));
    if sandwich != 0 {
        return sandwich;
    }
    let future = tier(&|p| ends(p).contains(&false));
    if future != 0 {
        return future;
    }
    tier(&|p| {
        let (r, c) = ((p / 5) as i32, (p % 5) as i32);
        DIRECTIONS
            .iter()
            .any(|&(dr, dc)| panel_at(r + dr, c + dc).is_some_and(|q| input.owner(q).is_some()))
    }) & ALL_PANELS
}

fn solve_with(input: &Input, bugs: Bugs) -> Answer {
    Answer([0, 1, 2, 3].map(|colour| takeable(input, colour, bugs)))
}

crate::known_wrong! {
    Attack25, solve_with;
    /// Looks at most three panels along a line (`for k in 1..=3`): a run of three other panels
    /// and what ends it are never seen.
    "decoy-run-cap-two" => run_cap_two,
    /// Steps over one empty panel after the run: the own colour just past it makes a sandwich.
    "decoy-own-past-gap" => own_past_gap,
    /// Skips the own colour's panels first on the line before looking for others: `P C O C` is
    /// taken for a sandwich.
    "decoy-skips-own-first" => skips_own_first,
    /// Stops at the first direction that has a run: a panel whose first run ends on an empty
    /// panel but whose later one is a sandwich is only a future sandwich.
    "decoy-first-run-decides" => first_run_decides,
}
