//! Known-wrong solutions: the 8-direction walk with one realistic bug each.

use super::{Answer, Input, OthelloFlips, Square};
use crate::board::DIRECTIONS;

fn solve_with(input: &Input, bugs: Bugs) -> Answer {
    let p = i32::from(input.play);
    let mut flipped = 0u64;
    for (dr, dc) in DIRECTIONS {
        if bugs.no_diagonals && dr != 0 && dc != 0 || bugs.no_south_diagonals && dr == 1 && dc != 0
        {
            continue;
        }
        let mut run = Vec::new();
        let (mut r, mut c) = (p / 8 + dr, p % 8 + dc);
        let mut index = p + dr * 8 + dc;
        let square_at = |r: i32, c: i32, index: i32| {
            if bugs.wraps_around {
                (0..64)
                    .contains(&index)
                    .then(|| input.square(index / 8, index % 8))
                    .flatten()
            } else {
                input.square(r, c)
            }
        };
        loop {
            match square_at(r, c, index) {
                Some(Square::White) => run.push(if bugs.wraps_around { index } else { r * 8 + c }),
                Some(Square::Black) if !run.is_empty() => {
                    if bugs.misses_last_disc {
                        run.pop();
                    }
                    flipped |= run.iter().fold(0, |m, &i| m | 1 << i);
                    if bugs.chain_reaction {
                        run.clear();
                        r += dr;
                        c += dc;
                        index += dr * 8 + dc;
                        continue;
                    }
                    break;
                }
                Some(Square::Empty) if bugs.empty_closes && !run.is_empty() => {
                    flipped |= run.iter().fold(0, |m, &i| m | 1 << i);
                    break;
                }
                None if bugs.edge_closes && !run.is_empty() => {
                    flipped |= run.iter().fold(0, |m, &i| m | 1 << i);
                    break;
                }
                _ => break,
            }
            r += dr;
            c += dc;
            index += dr * 8 + dc;
        }
        if bugs.first_direction_only && flipped != 0 {
            break;
        }
    }
    Answer(flipped)
}

crate::known_wrong! {
    OthelloFlips, solve_with;
    /// Walks bit indices (`p + 1`, `p + 9` …) with only a 0..64 check: runs wrap around edges.
    "wraps-around-edges" => wraps_around,
    /// Only the four straight directions.
    "no-diagonals" => no_diagonals,
    /// A run that reaches the edge flips too.
    "edge-closes-run" => edge_closes,
    /// Keeps flipping past the closing black disc (a chain reaction).
    "chain-reaction" => chain_reaction,
    /// Stops after the first direction that flips.
    "first-direction-only" => first_direction_only,
    /// Leaves the white disc next to the closing black one unflipped (off by one).
    "misses-last-disc" => misses_last_disc,
    /// An empty square closes a run as a black disc would.
    "empty-closes-run" => empty_closes,
    /// Misses the two directions that go down and to the left or right (a typo in the table).
    "no-south-diagonals" => no_south_diagonals,
}

/// Board-access models that cannot make this problem's answer differ from the reference on a
/// valid input, with the reason (see [`crate::access`]).
pub const EQUIVALENT_MODELS: &[crate::access::Equivalent] = &[
    crate::access::Equivalent {
        model: "access-flat-sentinel-stray-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-top-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-bottom-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-left-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-pad-thin-right-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-off-board-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
    crate::access::Equivalent {
        model: "access-row-unchecked-white",
        why: "every read on the board is exact and every read off it finds nothing or a white disc, never black: a ray that leaves the board is never closed, so it flips nothing, as in the reference (a stray white adds no disc)",
    },
];
