//! The round-robin fill: every family in the set at least once, then the families in turn up
//! to the usual size.

use std::collections::HashSet;

use super::cover::Cover;
use super::{MAX_TESTS, per_family};
use crate::{Family, Generate};

/// Takes tests of the families in rounds: in round `r` a family with at most `r` tests in the
/// set gets its next open candidate (its first tests, then its floor tests). The first round
/// gives every family one while the set has room ([`Cover::max`]); the later ones stop at the
/// usual size, the `fixed` tests and [`per_family`] tests per family (a problem with a cap
/// above [`MAX_TESTS`]: its cap).
pub fn fill_round_robin<P: Generate>(
    cover: &mut Cover<P::Input>,
    families: &[Family<P>],
    fixed: usize,
    seen: &mut HashSet<String>,
) {
    let each = per_family(fixed, families.len());
    // A problem allowed more than [`MAX_TESTS`] tests needs the room for its obligations,
    // which push its set past the usual size and so left no family a second test: what room
    // its cap leaves goes to the families' ordinary positions (gomoku-checker's set of
    // issue 34 lost two rare configurations of ordinary positions that way).
    let usual_size = if cover.max > MAX_TESTS {
        cover.max
    } else {
        (fixed + each * families.len()).min(cover.max)
    };
    // Each family's candidates, in pool order; boundary cases belong to no family.
    let candidates_of: Vec<Vec<usize>> = families
        .iter()
        .map(|family| {
            (0..cover.pool.len())
                .filter(|&i| {
                    let candidate = &cover.pool[i];
                    candidate.source == "generated" && candidate.family == family.name
                })
                .collect()
        })
        .collect();
    for round in 0..each {
        let limit = if round == 0 { cover.max } else { usual_size };
        for candidates in &candidates_of {
            if cover.count >= limit {
                break;
            }
            let have = candidates.iter().filter(|&&i| cover.chosen[i]).count();
            if have > round {
                continue;
            }
            if let Some(&i) = candidates.iter().find(|&&i| cover.open(i)) {
                cover.take(i, seen);
            }
        }
    }
}
