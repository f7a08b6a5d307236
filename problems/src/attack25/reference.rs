//! The reference: the three tiers of the spec, tried in order, panel by panel and line by line.

use super::{ALL_PANELS, Answer, CENTRE, Input, panel_at};
use crate::board::DIRECTIONS;

/// What ends a line that starts with one or more panels of colours other than `colour`: the
/// first panel after that run, or `None` if there is no such run or it reaches the edge.
enum RunEnd {
    Own,
    Empty,
    NoRun,
}

fn run_end(input: &Input, from: usize, (dr, dc): (i32, i32), colour: usize) -> RunEnd {
    let (mut r, mut c) = ((from / 5) as i32 + dr, (from % 5) as i32 + dc);
    let mut others = 0;
    while let Some(p) = panel_at(r, c) {
        match input.owner(p) {
            Some(k) if k != colour => others += 1,
            Some(_) => {
                return if others > 0 {
                    RunEnd::Own
                } else {
                    RunEnd::NoRun
                };
            }
            None => {
                return if others > 0 {
                    RunEnd::Empty
                } else {
                    RunEnd::NoRun
                };
            }
        }
        r += dr;
        c += dc;
    }
    RunEnd::NoRun
}

fn takeable(input: &Input, colour: usize) -> u32 {
    let taken = input.taken();
    if taken == 0 {
        return 1 << CENTRE;
    }
    let empty: Vec<usize> = (0..25).filter(|&p| input.owner(p).is_none()).collect();
    let tier = |keep: &dyn Fn(usize) -> bool| {
        empty
            .iter()
            .filter(|&&p| keep(p))
            .fold(0u32, |m, &p| m | 1 << p)
    };

    let sandwich = tier(&|p| {
        DIRECTIONS
            .iter()
            .any(|&d| matches!(run_end(input, p, d, colour), RunEnd::Own))
    });
    if sandwich != 0 {
        return sandwich;
    }
    let future = tier(&|p| {
        DIRECTIONS
            .iter()
            .any(|&d| matches!(run_end(input, p, d, colour), RunEnd::Empty))
    });
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

pub fn solve(input: &Input) -> Answer {
    Answer([0, 1, 2, 3].map(|colour| takeable(input, colour)))
}
