//! Seeded generators of valid and invalid inputs: the [`Generate`] side of a problem.
//!
//! Every generated test has its own random stream, keyed by (problem, family, index, user
//! seed) through a fixed hash into Xoshiro256++ (see [`crate::rng`]), so a test never depends on which other
//! tests were generated, and the same arguments give the same bytes on every machine.
//!
//! Valid families are named and say what they target; each output is checked by the problem's
//! validator before it is returned. Invalid families produce bytes the validator must reject.

use crate::rng::Rng;
use solutions::Problem;

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
    /// Smaller variants of an input, for shrinking a counterexample: each removes or simplifies
    /// one thing (a stone, a disc, a panel, a row …), bigger steps first. Candidates need not be
    /// valid: the shrinker validates every one.
    fn shrink(input: &Self::Input) -> Vec<Self::Input>;
    /// A structured input decoded from fuzzer bytes (see [`fuzz_bodies`]); it may be invalid.
    fn decode(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<Self::Input>;

    /// How many symmetric images of a generated input the in-process stress checks (see
    /// [`image_case`]): 8 where every rule of the problem is the same under the rotations and
    /// reflections of the board, 1 (the input alone) otherwise.
    const IMAGES: u32 = 1;

    /// Image `k` (below [`Generate::IMAGES`]) of a valid input: a valid input too, the same
    /// position rotated or reflected; image 0 is the input itself.
    fn image(input: &Self::Input, _k: u32) -> Self::Input {
        input.clone()
    }
}

/// Case `index` of the mixed stream that `stress` and `bench` draw from: a family chosen by
/// weight (targeted families weigh more), then that family's test `index`.
pub fn mixed_case<P: Generate>(
    families: &[Family<P>],
    index: u64,
    seed: u64,
) -> (P::Input, &'static str, String) {
    let total: u32 = families.iter().map(|f| f.weight).sum();
    let mut pick = stream(P::ID, "mixed", index, seed).below(total);
    let family = families
        .iter()
        .find(|f| {
            if pick < f.weight {
                true
            } else {
                pick -= f.weight;
                false
            }
        })
        .unwrap_or(&families[0]);
    let (input, params) = generate(family, index, seed);
    (input, family.name, params)
}

/// Case `index` of the stream the in-process stress checks: image `index % IMAGES` of mixed
/// case `index / IMAGES` (see [`Generate::image`]). Generating a 19×19 position costs several
/// times what the reference and fast solvers spend on it, so each one serves for all its
/// symmetric images, each a distinct input checked in full: direction and edge bugs meet the
/// same shape in every orientation. [`ImageCases`] keeps the last generated position.
pub fn image_case<P: Generate>(
    families: &[Family<P>],
    index: u64,
    seed: u64,
) -> (P::Input, &'static str, String) {
    let images = u64::from(P::IMAGES.max(1));
    let (input, family, params) = mixed_case(families, index / images, seed);
    let k = (index % images) as u32;
    if images == 1 {
        (input, family, params)
    } else {
        (P::image(&input, k), family, format!("{params} image={k}"))
    }
}

/// [`image_case`] for consecutive indices, generating each position once: `input(index)`
/// equals `image_case(families, index, seed).0`.
pub struct ImageCases<'a, P: Generate> {
    families: &'a [Family<P>],
    seed: u64,
    last: Option<(u64, P::Input)>,
}

impl<'a, P: Generate> ImageCases<'a, P> {
    pub fn new(families: &'a [Family<P>], seed: u64) -> Self {
        ImageCases {
            families,
            seed,
            last: None,
        }
    }

    pub fn input(&mut self, index: u64) -> P::Input {
        let images = u64::from(P::IMAGES.max(1));
        let base = index / images;
        if self.last.as_ref().is_none_or(|(b, _)| *b != base) {
            let (input, _, _) = mixed_case(self.families, base, self.seed);
            self.last = Some((base, input));
        }
        let (_, input) = self.last.as_ref().expect("just generated");
        P::image(input, (index % images) as u32)
    }
}

/// Shrinks `input` greedily: repeatedly takes the first smaller valid variant that still
/// fails, until no variant does or `budget` runs out. Returns the smallest input found, the
/// number of successful steps, and whether it ended because no variant fails (1-minimal for
/// the shrink steps) rather than on the budget.
///
/// Variants are handed to `first_failing` in order, up to `batch` at a time (so a caller can
/// judge them in parallel); it returns the position in the batch of the first one that still
/// fails. The result is the same for every `batch`: the first failing variant in order.
pub fn shrink<P: Generate>(
    input: &P::Input,
    mut first_failing: impl FnMut(&[P::Input]) -> Option<usize>,
    batch: usize,
    budget: std::time::Duration,
    mut on_step: impl FnMut(usize),
) -> (P::Input, usize, bool) {
    let started = std::time::Instant::now();
    let batch = batch.max(1);
    let mut current = input.clone();
    let mut steps = 0;
    // After a successful step the next pass starts where that one succeeded (rather than at
    // the biggest steps again), so each variant is tried about once per pass; it ends when
    // a whole pass over the variants finds none that keeps failing: 1-minimal for the steps.
    let mut start = 0;
    loop {
        let variants = P::shrink(&current);
        let n = variants.len();
        let valid =
            |v: &P::Input| P::parse(P::write_input(v).as_bytes()).is_ok_and(|parsed| &parsed == v);
        // The valid variants in this pass's order, with their index in `variants`.
        let mut order = (0..n)
            .map(|k| (start + k) % n)
            .filter(|&i| valid(&variants[i]));
        let mut progressed = false;
        loop {
            if started.elapsed() > budget {
                return (current, steps, false);
            }
            let chunk: Vec<usize> = order.by_ref().take(batch).collect();
            if chunk.is_empty() {
                break;
            }
            let inputs: Vec<P::Input> = chunk.iter().map(|&i| variants[i].clone()).collect();
            if let Some(k) = first_failing(&inputs) {
                current = inputs[k].clone();
                steps += 1;
                on_step(steps);
                start = chunk[k];
                progressed = true;
                break;
            }
        }
        if !progressed {
            return (current, steps, true);
        }
    }
}

/// The stream of test `index` of `family` under `seed`.
pub fn stream(problem: &str, family: &str, index: u64, seed: u64) -> Rng {
    Rng::from_parts(&[problem.as_bytes(), family.as_bytes()], &[index, seed])
}

/// One valid input: family `family`'s test `index` under `seed`, with its parameters.
///
/// Families build their inputs to be valid; the constraints are checked anyway
/// ([`Problem::valid`]), and a family that produced an invalid input is asked again on the
/// same stream (a handful of families use this as rejection sampling, e.g. omok's random game
/// that made two fives at once). The tests check that every output also survives the text
/// round trip through the validator.
pub fn generate<P: Generate>(family: &Family<P>, index: u64, seed: u64) -> (P::Input, String) {
    let mut rng = stream(P::ID, family.name, index, seed);
    for _ in 0..1000 {
        let (input, params) = (family.make)(&mut rng);
        if P::valid(&input) {
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
