//! The random floor: ordinary positions every default test set keeps, chosen without the kill
//! matrix, so a change of the plan never drops them.

use std::collections::HashSet;

use super::Candidate;
use crate::{Generate, generate};

/// How many tests of the random families every default test set keeps, chosen without the
/// kill matrix.
pub const RANDOM_FLOOR: usize = 20;

/// The first index of a random family's floor tests: apart from the indices the families'
/// first tests use, so the floor never depends on which of those the plan takes.
const FLOOR_FIRST_INDEX: u64 = 1000;

/// The random floor of a test set: [`RANDOM_FLOOR`] tests of the problem's random families
/// (round-robin, each test its own stream), none already in `seen` (which they join).
pub fn random_floor<P: Generate>(
    seed: u64,
    seen: &mut HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    let families: Vec<_> = P::families()
        .into_iter()
        .filter(|f| P::RANDOM_FAMILIES.contains(&f.name))
        .collect();
    let mut floor = Vec::new();
    let mut index = FLOOR_FIRST_INDEX;
    while floor.len() < RANDOM_FLOOR && !families.is_empty() && index < FLOOR_FIRST_INDEX + 1000 {
        for family in &families {
            if floor.len() == RANDOM_FLOOR {
                break;
            }
            let (input, params) = generate(family, index, seed);
            if seen.insert(P::write_input(&input)) {
                floor.push(Candidate {
                    input,
                    source: "generated",
                    family: family.name.to_string(),
                    index,
                    params: format!("random floor; {params}"),
                });
            }
        }
        index += 1;
    }
    floor
}
