//! Seeded generators of valid and invalid inputs for the five problems.
//!
//! Every generated test has its own random stream, keyed by (problem, family, index, user
//! seed) through SHA-256 into ChaCha8 (see [`rng`]), so a test never depends on which other
//! tests were generated, and the same arguments give the same bytes on every machine.
//!
//! Valid families are named and say what they target; each output is checked by the problem's
//! validator before it is returned. Invalid families produce bytes the validator must reject.

pub mod attack25;
pub mod gomoku_checker;
pub mod invalid;
pub mod omok;
pub mod othello_flips;
pub mod renju;
pub mod rng;
pub mod stones;

use solutions::Problem;

pub use rng::Rng;

/// A named family of valid inputs.
pub struct Family<P: Problem> {
    pub name: &'static str,
    /// What the family is for: the rule or corner it aims at.
    pub targets: &'static str,
    /// Relative frequency among the families in a stress run.
    pub weight: u32,
    /// Makes one input and a short description of its parameters (for the manifest).
    pub make: fn(&mut Rng) -> (P::Input, String),
}

/// A named family of inputs the validator must reject.
pub struct InvalidFamily {
    pub name: &'static str,
    pub targets: &'static str,
    pub make: fn(&mut Rng) -> (Vec<u8>, String),
}

/// The generators of a problem.
pub trait Generate: Problem {
    fn families() -> Vec<Family<Self>>;
    fn invalid_families() -> Vec<InvalidFamily>;
}

/// The stream of test `index` of `family` under `seed`.
pub fn stream(problem: &str, family: &str, index: u64, seed: u64) -> Rng {
    Rng::from_key(&format!("boardjudge/v1/{problem}/{family}/{index}/{seed}"))
}

/// One valid input: family `family`'s test `index` under `seed`, with its parameters.
///
/// Families build their inputs to be valid; the validator is asked anyway, and a family that
/// produced an invalid input is asked again on the same stream (a handful of families use
/// this as rejection sampling, e.g. omok's random game that made two fives at once).
pub fn generate<P: Generate>(family: &Family<P>, index: u64, seed: u64) -> (P::Input, String) {
    let mut rng = stream(P::ID, family.name, index, seed);
    for _ in 0..1000 {
        let (input, params) = (family.make)(&mut rng);
        if P::parse(P::write_input(&input).as_bytes()).is_ok() {
            return (input, params);
        }
    }
    panic!(
        "{}/{}: 1000 invalid inputs in a row: the family is broken",
        P::ID,
        family.name
    )
}

/// One invalid input of `family`, test `index` under `seed`.
pub fn generate_invalid<P: Generate>(
    family: &InvalidFamily,
    index: u64,
    seed: u64,
) -> (Vec<u8>, String) {
    let mut rng = stream(P::ID, family.name, index, seed);
    (family.make)(&mut rng)
}

/// The canonical text of a family's input: the shape mutations of invalid families start from.
pub fn valid_text<P: Generate>(rng: &mut Rng) -> String {
    let families = P::families();
    let family = &families[rng.index(families.len())];
    for _ in 0..1000 {
        let (input, _) = (family.make)(rng);
        let text = P::write_input(&input);
        if P::parse(text.as_bytes()).is_ok() {
            return text;
        }
    }
    panic!("{}: no valid base input", P::ID)
}
