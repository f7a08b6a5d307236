//! attack25 families: real play from the empty board (with sandwiches turning panels), random
//! connected positions, lines of mixed colours through the centre, near-full boards, boards
//! where only some colours play.

use solutions::Problem;
use solutions::attack25::{ALL_PANELS, Attack25, CENTRE, Input, panel_at};
use solutions::board::DIRECTIONS;

use crate::invalid::format_families;
use crate::{Family, Generate, InvalidFamily, Rng};

/// Colour `colour` takes `panel`: as in Othello, every run of other colours that the panel
/// closes against one of `colour`'s panels turns to `colour`.
fn take(input: &mut Input, colour: usize, panel: usize) {
    input.panels[colour] |= 1 << panel;
    for (dr, dc) in DIRECTIONS {
        let (mut r, mut c) = ((panel / 5) as i32 + dr, (panel % 5) as i32 + dc);
        let mut run = 0u32;
        while let Some(p) = panel_at(r, c) {
            match input.owner(p) {
                Some(k) if k != colour => run |= 1 << p,
                Some(_) => {
                    for k in 0..4 {
                        input.panels[k] &= !run;
                    }
                    input.panels[colour] |= run;
                    break;
                }
                None => break,
            }
            r += dr;
            c += dc;
        }
    }
}

/// Does the 0-based panel `p` touch (in 8 directions) a panel of `taken`?
fn touches(p: usize, taken: u32) -> bool {
    DIRECTIONS.iter().any(|&(dr, dc)| {
        panel_at((p / 5) as i32 + dr, (p % 5) as i32 + dc).is_some_and(|q| taken >> q & 1 == 1)
    })
}

/// The empty panels next to a taken one: where a connected position can grow.
fn frontier(taken: u32) -> Vec<usize> {
    (0..25)
        .filter(|&p| taken >> p & 1 == 0 && touches(p, taken))
        .collect()
}

fn panels(mask: u32) -> Vec<usize> {
    (0..25).filter(|&p| mask >> p & 1 == 1).collect()
}

/// Real play: a random colour answers, and takes a random panel its tiers allow.
fn random_play(rng: &mut Rng) -> (Input, String) {
    let turns = rng.range(0, 25);
    let mut input = Input::default();
    let players = rng.range(2, 4) as usize;
    for _ in 0..turns {
        let colour = rng.index(players);
        let allowed = panels(Attack25::fast(&input).0[colour]);
        if allowed.is_empty() {
            break;
        }
        take(&mut input, colour, rng.pick(&allowed));
    }
    (input, format!("turns={turns} players={players}"))
}

/// A random connected set of panels grown from 13, coloured at random (some colours may be
/// missing).
fn random_connected(rng: &mut Rng) -> (Input, String) {
    let size = rng.range(1, 25);
    let colours = rng.range(1, 4) as usize;
    let mut taken = 1u32 << CENTRE;
    while taken.count_ones() < size {
        taken |= 1 << rng.pick(&frontier(taken));
    }
    let mut input = Input::default();
    let palette: Vec<usize> = {
        let mut all = vec![0, 1, 2, 3];
        rng.shuffle(&mut all);
        all.truncate(colours);
        all
    };
    for p in panels(taken) {
        input.panels[rng.pick(&palette)] |= 1 << p;
    }
    (input, format!("size={size} colours={colours}"))
}

/// Lines of mixed colours through 13, so sandwiches run over several colours.
fn centre_lines(rng: &mut Rng) -> (Input, String) {
    let mut input = Input::default();
    input.panels[rng.index(4)] |= 1 << CENTRE;
    let lines = rng.range(1, 4);
    for _ in 0..lines {
        let (dr, dc) = rng.pick(&DIRECTIONS);
        let len = rng.range(1, 2);
        for k in 1..=len as i32 {
            if let Some(p) = panel_at(2 + k * dr, 2 + k * dc)
                && input.owner(p).is_none()
            {
                input.panels[rng.index(4)] |= 1 << p;
            }
        }
    }
    (input, format!("lines={lines}"))
}

/// A full board, or one with one to three empty panels (never 13).
fn near_full(rng: &mut Rng) -> (Input, String) {
    let holes = rng.range(0, 3);
    let mut empty = 0u32;
    while empty.count_ones() < holes {
        let p = rng.index(25);
        if p != CENTRE {
            empty |= 1 << p;
        }
    }
    let mut input = Input::default();
    for p in panels(ALL_PANELS & !empty) {
        input.panels[rng.index(4)] |= 1 << p;
    }
    (input, format!("holes={holes}"))
}

/// Only two colours on the board: the other two decide by future sandwiches or adjacency.
fn two_colours(rng: &mut Rng) -> (Input, String) {
    let (mut input, params) = random_connected(rng);
    let (a, b) = (rng.index(4), rng.index(4));
    let taken = input.taken();
    input = Input::default();
    for p in panels(taken) {
        input.panels[if rng.chance(1, 2) { a } else { b }] |= 1 << p;
    }
    (input, format!("{params} colours={a},{b}"))
}

/// The empty board or 13 alone.
fn opening(rng: &mut Rng) -> (Input, String) {
    let mut input = Input::default();
    let holder = rng.below(5) as usize;
    if holder < 4 {
        input.panels[holder] = 1 << CENTRE;
    }
    (input, format!("centre_holder={holder}"))
}

impl Generate for Attack25 {
    const RANDOM_FAMILIES: &'static [&'static str] = &["random-play", "random-connected", "near-full"];

    fn families() -> Vec<Family<Self>> {
        vec![
            Family {
                name: "random-play",
                targets: "real play from the empty board under the tiers",
                weight: 4,
                make: random_play,
            },
            Family {
                name: "random-connected",
                targets: "random reachable positions, some colours missing",
                weight: 3,
                make: random_connected,
            },
            Family {
                name: "centre-lines",
                targets: "mixed-colour runs through 13, sandwiches in several directions",
                weight: 2,
                make: centre_lines,
            },
            Family {
                name: "near-full",
                targets: "the full board and one to three empty panels",
                weight: 2,
                make: near_full,
            },
            Family {
                name: "two-colours",
                targets: "two colours play: the others decide by tier 2 or 3",
                weight: 2,
                make: two_colours,
            },
            Family {
                name: "opening",
                targets: "the empty board and 13 alone",
                weight: 1,
                make: opening,
            },
        ]
    }

    /// Remove a panel (the validator keeps only connected positions), or give it to red.
    fn shrink(input: &Input) -> Vec<Input> {
        let mut out = Vec::new();
        for p in panels(input.taken()) {
            let mut smaller = *input;
            for k in 0..4 {
                smaller.panels[k] &= !(1 << p);
            }
            out.push(smaller);
        }
        for p in panels(input.taken() & !input.panels[0]) {
            let mut simpler = *input;
            for k in 0..4 {
                simpler.panels[k] &= !(1 << p);
            }
            simpler.panels[0] |= 1 << p;
            out.push(simpler);
        }
        out
    }

    /// Panels grown from 13 one neighbour at a time (or the empty board), coloured.
    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Input> {
        let mut input = Input::default();
        let holder = u.int_in_range(0usize..=4)?;
        if holder == 4 {
            return Ok(input);
        }
        input.panels[holder] = 1 << CENTRE;
        for _ in 0..u.int_in_range(0u8..=24)? {
            let taken = input.taken();
            let frontier = frontier(taken);
            if frontier.is_empty() {
                break;
            }
            let p = frontier[u.int_in_range(0..=frontier.len() - 1)?];
            input.panels[u.int_in_range(0usize..=3)?] |= 1 << p;
        }
        Ok(input)
    }

    fn invalid_families() -> Vec<InvalidFamily> {
        let mut families = format_families::<Self>();
        families.extend([
            InvalidFamily {
                name: "duplicate",
                targets: "a panel listed for two colours",
                make: duplicate,
            },
            InvalidFamily {
                name: "unsorted",
                targets: "a colour's panels out of order",
                make: unsorted,
            },
            InvalidFamily {
                name: "missing-13",
                targets: "panels taken but not 13",
                make: missing_centre,
            },
            InvalidFamily {
                name: "disconnected",
                targets: "a taken panel not connected to 13",
                make: disconnected,
            },
            InvalidFamily {
                name: "bad-number",
                targets: "panel 0, 26 or more, or a leading zero",
                make: bad_number,
            },
        ]);
        families
    }
}

/// Writes the four lines of `lists` (already the panel numbers as they should appear).
fn write_lists(lists: &[Vec<String>; 4]) -> Vec<u8> {
    let mut out = String::new();
    for (k, letter) in ['R', 'B', 'W', 'G'].iter().enumerate() {
        out.push(*letter);
        for n in &lists[k] {
            out.push(',');
            out.push_str(n);
        }
        out.push('\n');
    }
    out.into_bytes()
}

fn lists_of(input: &Input) -> [Vec<String>; 4] {
    [0, 1, 2, 3].map(|k| {
        panels(input.panels[k])
            .iter()
            .map(|p| (p + 1).to_string())
            .collect()
    })
}

fn nonempty_position(rng: &mut Rng) -> Input {
    loop {
        let (input, _) = random_connected(rng);
        if input.taken().count_ones() >= 2 {
            return input;
        }
    }
}

fn duplicate(rng: &mut Rng) -> (Vec<u8>, String) {
    let input = nonempty_position(rng);
    let mut lists = lists_of(&input);
    let p = rng.pick(&panels(input.taken()));
    let holder = input.owner(p).unwrap_or(0);
    let other = (holder + 1 + rng.index(3)) % 4;
    lists[other].push((p + 1).to_string());
    lists[other].sort_by_key(|n| n.parse::<u32>().unwrap_or(0));
    (
        write_lists(&lists),
        format!("panel {} also listed for colour {other}", p + 1),
    )
}

fn unsorted(rng: &mut Rng) -> (Vec<u8>, String) {
    loop {
        let input = nonempty_position(rng);
        let mut lists = lists_of(&input);
        let k = rng.index(4);
        if lists[k].len() >= 2 {
            let i = rng.index(lists[k].len() - 1);
            lists[k].swap(i, i + 1);
            return (
                write_lists(&lists),
                format!("colour {k} entries {i} and {} swapped", i + 1),
            );
        }
    }
}

fn missing_centre(rng: &mut Rng) -> (Vec<u8>, String) {
    let input = nonempty_position(rng);
    let mut without = input;
    for k in 0..4 {
        without.panels[k] &= !(1 << CENTRE);
    }
    (write_lists(&lists_of(&without)), "13 removed".to_string())
}

fn disconnected(rng: &mut Rng) -> (Vec<u8>, String) {
    loop {
        let (mut input, _) = random_connected(rng);
        let taken = input.taken();
        // A panel two or more steps from every taken panel.
        let far: Vec<usize> = (0..25)
            .filter(|&p| taken >> p & 1 == 0 && !touches(p, taken))
            .collect();
        if !far.is_empty() {
            let p = rng.pick(&far);
            input.panels[rng.index(4)] |= 1 << p;
            return (
                write_lists(&lists_of(&input)),
                format!("panel {} stranded", p + 1),
            );
        }
    }
}

fn bad_number(rng: &mut Rng) -> (Vec<u8>, String) {
    let input = nonempty_position(rng);
    let mut lists = lists_of(&input);
    let k = rng.index(4);
    let kind = rng.below(3);
    match kind {
        0 => lists[k].insert(0, "0".to_string()),
        1 => lists[k].push(rng.range(26, 99).to_string()),
        _ => {
            let p = rng.pick(&panels(input.taken()));
            let holder = input.owner(p).unwrap_or(0);
            for n in lists[holder].iter_mut() {
                if *n == (p + 1).to_string() {
                    *n = format!("0{n}");
                }
            }
        }
    }
    (write_lists(&lists), format!("kind={kind}"))
}
