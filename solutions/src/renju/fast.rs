//! The fast solver (to be replaced by the pattern-table one).

use super::{Answer, Input};

pub fn solve(input: &Input) -> Answer {
    super::reference::solve(input)
}
