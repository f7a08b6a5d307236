//! The reference: the three tiers of the spec, tried in order, panel by panel and line by line.
//!
//! Panels are read through a [`BoardAccess`]: [`Exact`] makes the reference, the other models
//! the board-access wrong solutions (see [`crate::access`]); stray memory off the grid reads as
//! a panel of `R` (the first colour) or `B` (the second).

use super::{ALL_PANELS, Answer, CENTRE, Input};
use crate::access::{BoardAccess, Colour, Exact, Read};
use crate::board::DIRECTIONS;

const SIDE: i32 = 5;

/// What a read of (r, c) finds: off the grid, an empty panel, or a panel of a colour.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Panel {
    Off,
    Empty,
    Taken(usize),
}

#[inline(always)]
fn look<A: BoardAccess>(input: &Input, r: i32, c: i32) -> Panel {
    match A::read(r, c, SIDE) {
        Read::Cell(r, c) => match input.owner(r * 5 + c) {
            Some(k) => Panel::Taken(k),
            None => Panel::Empty,
        },
        Read::Nothing => Panel::Off,
        Read::Stray(Colour::First) => Panel::Taken(0),
        Read::Stray(Colour::Second) => Panel::Taken(1),
    }
}

/// What ends a line that starts with one or more panels of colours other than `colour`: the
/// first panel after that run, or `None` if there is no such run or it reaches the edge.
enum RunEnd {
    Own,
    Empty,
    NoRun,
}

// Inlined into each tier's closure: without it the generic reference ran about 45 % slower
// than the pre-model one (criterion, quiet machine); with it, about 15 %.
#[inline(always)]
fn run_end<A: BoardAccess>(
    input: &Input,
    from: usize,
    (dr, dc): (i32, i32),
    colour: usize,
) -> RunEnd {
    let (fr, fc) = ((from / 5) as i32, (from % 5) as i32);
    let (mut r, mut c) = (fr + dr, fc + dc);
    let mut others = 0;
    // At most 5 steps (the bound only matters to models that alias outside panels to inside).
    let mut last = look::<A>(input, r, c);
    while others < SIDE && matches!(last, Panel::Taken(k) if k != colour) {
        others += 1;
        r += dr;
        c += dc;
        last = look::<A>(input, r, c);
    }
    if others == 0 || !A::scans((fr, fc), (dr, dc), others + 2, SIDE) {
        return RunEnd::NoRun;
    }
    // The panel that ends the run, as the model reads it (the reference: the one just read).
    let end = A::beyond((r, c), (dr, dc));
    if end != (r, c) {
        last = look::<A>(input, end.0, end.1);
    }
    match last {
        Panel::Taken(k) if k == colour => RunEnd::Own,
        Panel::Empty => RunEnd::Empty,
        _ => RunEnd::NoRun,
    }
}

fn takeable<A: BoardAccess>(input: &Input, colour: usize) -> u32 {
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
            .any(|&d| matches!(run_end::<A>(input, p, d, colour), RunEnd::Own))
    });
    if sandwich != 0 {
        return sandwich;
    }
    let future = tier(&|p| {
        DIRECTIONS
            .iter()
            .any(|&d| matches!(run_end::<A>(input, p, d, colour), RunEnd::Empty))
    });
    if future != 0 {
        return future;
    }
    tier(&|p| {
        let (r, c) = ((p / 5) as i32, (p % 5) as i32);
        DIRECTIONS
            .iter()
            .any(|&(dr, dc)| matches!(look::<A>(input, r + dr, c + dc), Panel::Taken(_)))
    }) & ALL_PANELS
}

pub fn solve(input: &Input) -> Answer {
    solve_with::<Exact>(input)
}

/// The reference with panels read through `A`.
pub fn solve_with<A: BoardAccess>(input: &Input) -> Answer {
    Answer([0, 1, 2, 3].map(|colour| takeable::<A>(input, colour)))
}
