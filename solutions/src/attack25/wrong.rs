//! Known-wrong solutions: the tiers of the reference with one realistic bug each.

use super::{ALL_PANELS, Answer, Attack25, CENTRE, Input, panel_at};
use crate::board::DIRECTIONS;

/// What ends the run of other colours from `from` along `d`, as the reference names it.
fn run_end(
    input: &Input,
    from: usize,
    (dr, dc): (i32, i32),
    colour: usize,
    bugs: Bugs,
) -> Option<bool> {
    // Some(true): own panel; Some(false): empty panel (or, with the bug, the edge); None: nothing.
    let (mut r, mut c) = ((from / 5) as i32 + dr, (from % 5) as i32 + dc);
    let mut first: Option<usize> = None;
    loop {
        let Some(p) = panel_at(r, c) else {
            return (bugs.edge_is_future && first.is_some()).then_some(false);
        };
        match input.owner(p) {
            Some(k) if k != colour => {
                if bugs.single_colour_runs && first.is_some_and(|f| f != k) {
                    return None;
                }
                first.get_or_insert(k);
            }
            Some(_) => return first.map(|_| true),
            None => return first.map(|_| false),
        }
        r += dr;
        c += dc;
    }
}

fn takeable(input: &Input, colour: usize, bugs: Bugs) -> u32 {
    if input.taken() == 0 {
        return if bugs.no_opening_rule { 0 } else { 1 << CENTRE };
    }
    let dirs: Vec<(i32, i32)> = DIRECTIONS
        .iter()
        .copied()
        .filter(|&(dr, dc)| !bugs.orthogonal_only || dr == 0 || dc == 0)
        .collect();
    let empty: Vec<usize> = (0..25).filter(|&p| input.owner(p).is_none()).collect();
    let tier = |keep: &dyn Fn(usize) -> bool| {
        empty
            .iter()
            .filter(|&&p| keep(p))
            .fold(0u32, |m, &p| m | 1 << p)
    };
    let sandwich = tier(&|p| {
        dirs.iter()
            .any(|&d| run_end(input, p, d, colour, bugs) == Some(true))
    });
    let future = tier(&|p| {
        dirs.iter()
            .any(|&d| run_end(input, p, d, colour, bugs) == Some(false))
    });
    let adjacent = tier(&|p| {
        let (r, c) = ((p / 5) as i32, (p % 5) as i32);
        DIRECTIONS
            .iter()
            .filter(|&&(dr, dc)| !bugs.adjacent_orthogonal || dr == 0 || dc == 0)
            .any(|&(dr, dc)| panel_at(r + dr, c + dc).is_some_and(|q| input.owner(q).is_some()))
    }) & ALL_PANELS;
    if bugs.union_of_tiers {
        return sandwich | future | adjacent;
    }
    let order: [u32; 3] = if bugs.adjacent_before_future {
        [sandwich, adjacent, future]
    } else if bugs.no_future_tier {
        [sandwich, adjacent, 0]
    } else {
        [sandwich, future, adjacent]
    };
    order.iter().copied().find(|&t| t != 0).unwrap_or(0)
}

fn solve_with(input: &Input, bugs: Bugs) -> Answer {
    Answer([0, 1, 2, 3].map(|colour| takeable(input, colour, bugs)))
}

crate::known_wrong! {
    Attack25, solve_with;
    /// Skips the future-sandwich tier (1 then 3).
    "no-future-sandwich-tier" => no_future_tier,
    /// Tries adjacency before future sandwiches.
    "adjacent-before-future" => adjacent_before_future,
    /// A sandwiched run must be of a single colour.
    "single-colour-runs" => single_colour_runs,
    /// Forgets the empty-board rule (nothing to take at the start).
    "no-opening-rule" => no_opening_rule,
    /// Offers every tier at once instead of the first non-empty one.
    "union-of-tiers" => union_of_tiers,
    /// Looks only along rows and columns.
    "orthogonal-only" => orthogonal_only,
    /// A run that reaches the edge counts as a future sandwich.
    "edge-is-future-sandwich" => edge_is_future,
    /// "Adjacent" means the four orthogonal neighbours.
    "adjacent-orthogonal-only" => adjacent_orthogonal,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[];
