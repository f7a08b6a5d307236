//! Random-family disagreement probes: synthetic rare bugs that nobody modelled, for the
//! never-weaker check (`tests/never_weaker.rs`).
//!
//! A probe stands for a program that is right everywhere except on the inputs that hold one
//! local configuration: a short line of cells (their contents, and the point to play where the
//! problem has one) along one direction, read off the picture of a position from the
//! problem's random families. Each probe is chosen so that it disagrees with the reference on
//! between 1 in 300 and 1 in 10 positions of those families (measured on a fixed sample), the
//! way the rare bugs of real contestants do. A test set kills a probe when one of its tests
//! holds the probe's configuration; a plan that drops ordinary positions loses probes.
//!
//! Everything is drawn from fixed streams (problem, `probe…`, index, [`PROBE_SEED`]), so the
//! probes are the same on every machine and for every test set.

use std::collections::{HashMap, HashSet};

use solutions::picture::Ink;

use crate::{Generate, generate, stream};

/// The seed of the probes' streams (independent of any test set's seed).
pub const PROBE_SEED: u64 = 26;
/// How many probes a problem has.
pub const PROBES: usize = 100;
/// The sample the probes' frequencies are measured on.
const SAMPLE: u64 = 300;

/// The line directions a probe may run along: `-`, `|`, `\`, `/`.
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// One probe: its id (`K dDIR PATTERN`) and what it looks for.
#[derive(Clone, Debug)]
pub struct Probe {
    pub id: String,
    key: (usize, Vec<u8>),
}

/// A picture as tokens: the ink's number, plus 8 on the point to play.
struct Grid {
    rows: i32,
    cols: i32,
    cells: Vec<u8>,
}

fn ink_code(ink: Ink) -> u8 {
    match ink {
        Ink::Empty => 0,
        Ink::Black => 1,
        Ink::White => 2,
        Ink::Red => 3,
        Ink::Blue => 4,
        Ink::Green => 5,
    }
}

fn grid<P: Generate>(input: &P::Input) -> Grid {
    let picture = P::picture(input);
    let mut cells: Vec<u8> = picture.cells.iter().map(|&i| ink_code(i)).collect();
    if let Some((r, c)) = picture.point {
        cells[r * picture.cols + c] |= 8;
    }
    Grid {
        rows: picture.rows as i32,
        cols: picture.cols as i32,
        cells,
    }
}

/// The window of `len` cells from (r, c) along direction `d`, in canonical orientation (the
/// smaller of it and its reverse), or `None` if it leaves the grid.
fn window(g: &Grid, (r, c): (i32, i32), d: (i32, i32), len: i32) -> Option<Vec<u8>> {
    let (er, ec) = (r + (len - 1) * d.0, c + (len - 1) * d.1);
    if !(0..g.rows).contains(&r)
        || !(0..g.cols).contains(&c)
        || !(0..g.rows).contains(&er)
        || !(0..g.cols).contains(&ec)
    {
        return None;
    }
    let forward: Vec<u8> = (0..len)
        .map(|k| g.cells[((r + k * d.0) * g.cols + c + k * d.1) as usize])
        .collect();
    let mut backward = forward.clone();
    backward.reverse();
    Some(forward.min(backward))
}

/// Every (direction, window) of length 2 to 7 that `g` holds.
fn windows(g: &Grid) -> HashSet<(usize, Vec<u8>)> {
    let mut out = HashSet::new();
    for (k, &d) in DIRS.iter().enumerate() {
        for len in 2..=7 {
            for r in 0..g.rows {
                for c in 0..g.cols {
                    if let Some(w) = window(g, (r, c), d, len) {
                        out.insert((k, w));
                    }
                }
            }
        }
    }
    out
}

fn random_input<P: Generate>(kind: &str, index: u64) -> P::Input {
    let families: Vec<_> = P::families()
        .into_iter()
        .filter(|f| P::RANDOM_FAMILIES.contains(&f.name))
        .collect();
    let family = &families[(index % families.len() as u64) as usize];
    generate(family, index, PROBE_SEED ^ fnv(kind)).0
}

fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn show(pattern: &[u8]) -> String {
    pattern
        .iter()
        .map(|&t| {
            let ink = ['.', 'B', 'W', 'R', 'U', 'G'][usize::from(t & 7)];
            if t & 8 != 0 { '*' } else { ink }
        })
        .collect()
}

/// The probes of problem `P`: [`PROBES`] configurations from its random families, each held
/// by between 1 and 30 of [`SAMPLE`] positions of those families.
pub fn probes<P: Generate>() -> Vec<Probe> {
    let mut held: HashMap<(usize, Vec<u8>), u32> = HashMap::new();
    for i in 0..SAMPLE {
        for key in windows(&grid::<P>(&random_input::<P>("probe-sample", i))) {
            *held.entry(key).or_default() += 1;
        }
    }
    let mut out: Vec<Probe> = Vec::new();
    let mut taken = HashSet::new();
    for i in 0..PROBES as u64 * 50 {
        if out.len() == PROBES {
            break;
        }
        let g = grid::<P>(&random_input::<P>("probe-source", i));
        let mut rng = stream(P::ID, "probe-anchor", i, PROBE_SEED);
        let k = rng.index(DIRS.len());
        let anchor = (
            rng.index(g.rows as usize) as i32,
            rng.index(g.cols as usize) as i32,
        );
        // The shortest window from the anchor that is rare enough.
        for len in 2..=7 {
            let Some(w) = window(&g, anchor, DIRS[k], len) else {
                break;
            };
            if w.iter().filter(|&&t| t != 0).count() < 2 {
                continue;
            }
            let count = held.get(&(k, w.clone())).copied().unwrap_or(0);
            if count > SAMPLE as u32 / 10 {
                continue;
            }
            if count >= 1 && taken.insert((k, w.clone())) {
                out.push(Probe {
                    id: format!("{} d{:?} {}", out.len(), DIRS[k], show(&w)),
                    key: (k, w),
                });
            }
            break;
        }
    }
    out
}

/// The probes a set of tests kills (each test holds the configuration of each probe killed).
pub fn killed<P: Generate>(probes: &[Probe], tests: &[P::Input]) -> Vec<bool> {
    let held: HashSet<(usize, Vec<u8>)> =
        tests.iter().flat_map(|t| windows(&grid::<P>(t))).collect();
    probes.iter().map(|p| held.contains(&p.key)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use solutions::tests_per_problem;

    /// Every problem has its full set of probes, each held by a position of the sample.
    fn a_full_set_of_rare_probes<P: Generate>() {
        let probes = probes::<P>();
        assert_eq!(probes.len(), PROBES, "{}", P::ID);
        let sample: Vec<P::Input> = (0..SAMPLE)
            .map(|i| random_input::<P>("probe-sample", i))
            .collect();
        let rates = killed::<P>(&probes, &sample);
        assert!(rates.iter().all(|&k| k), "{}", P::ID);
    }

    solutions::for_each_problem!(tests_per_problem, full_set_of_probes => a_full_set_of_rare_probes);
}
