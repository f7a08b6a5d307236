//! Property tests: the fast solvers equal the reference on structurally generated inputs (runs
//! laid in lines, scattered stones, grown panel sets), so a failure shrinks to a small board.

use proptest::prelude::*;
use solutions::board::{Board, LINES, Stone};
use solutions::{Attack25, GomokuChecker, Omok, OthelloFlips, Problem, Renju};

/// A run: start row, start column, direction index, length, black?
type Run = (u8, u8, usize, u8, bool);

fn runs() -> impl Strategy<Value = Vec<Run>> {
    prop::collection::vec((0u8..19, 0u8..19, 0usize..4, 1u8..11, any::<bool>()), 0..6)
}

fn stones() -> impl Strategy<Value = Vec<(u8, u8, bool)>> {
    prop::collection::vec((0u8..19, 0u8..19, any::<bool>()), 0..60)
}

fn board<const N: usize>(runs: &[Run], stones: &[(u8, u8, bool)]) -> Board<N> {
    let mut board = Board::<N>::empty();
    let colour = |black: bool| if black { Stone::Black } else { Stone::White };
    for &(r, c, d, len, black) in runs {
        let (dr, dc) = LINES[d];
        for k in 0..i32::from(len) {
            let (rr, cc) = (i32::from(r) + k * dr, i32::from(c) + k * dc);
            if Board::<N>::on_board(rr, cc) {
                board.set(rr as usize, cc as usize, Some(colour(black)));
            }
        }
    }
    for &(r, c, black) in stones {
        if (r as usize) < N && (c as usize) < N {
            board.set(r.into(), c.into(), Some(colour(black)));
        }
    }
    board
}

/// Checks fast = reference on `input` if it is valid (invalid ones are skipped).
fn agree<P: Problem>(input: &P::Input) -> Result<(), TestCaseError> {
    let text = P::write_input(input);
    prop_assume!(P::parse(text.as_bytes()).is_ok());
    prop_assert_eq!(P::fast(input), P::reference(input), "input:\n{}", text);
    Ok(())
}

proptest! {
    // Invalid inputs (omok double wins, renju fives) are skipped, hence the reject allowance.
    // A failure prints its shrunk input; copy it into the corpus as a regression case.
    #![proptest_config(ProptestConfig { cases: 3000, max_global_rejects: 200_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn gomoku_checker_fast_equals_reference(runs in runs(), stones in stones()) {
        agree::<GomokuChecker>(&board::<19>(&runs, &stones))?;
    }

    #[test]
    fn omok_fast_equals_reference(runs in runs(), stones in stones()) {
        agree::<Omok>(&board::<19>(&runs, &stones))?;
    }

    #[test]
    fn omok_validator_counts_fives_like_the_reference(runs in runs(), stones in stones()) {
        let board = board::<19>(&runs, &stones);
        prop_assert_eq!(solutions::omok::count_exact_fives(&board) as usize, solutions::omok::exact_fives(&board).len());
    }

    #[test]
    fn renju_fast_equals_reference(runs in prop::collection::vec((0u8..15, 0u8..15, 0usize..4, 1u8..6, prop::bool::weighted(0.8)), 0..6),
                                   stones in prop::collection::vec((0u8..15, 0u8..15, prop::bool::weighted(0.6)), 0..30),
                                   row in 0u8..15, col in 0u8..15) {
        let mut board = board::<15>(&runs, &stones);
        board.set(row.into(), col.into(), None);
        agree::<Renju>(&solutions::renju::Input { board, row, col })?;
    }

    #[test]
    fn othello_flips_fast_equals_reference(black in any::<u64>(), white in any::<u64>(), play in 0u8..64) {
        let bit = 1u64 << play;
        let input = solutions::othello_flips::Input { black: black & !white & !bit, white: white & !bit, play };
        agree::<OthelloFlips>(&input)?;
    }

    /// Panels grown from 13 one neighbour at a time (always a reachable position), coloured.
    #[test]
    fn attack25_fast_equals_reference(growth in prop::collection::vec((0usize..8, 0usize..25, 0usize..4), 0..25), centre in 0usize..4) {
        let mut input = solutions::attack25::Input::default();
        input.panels[centre] |= 1 << 12;
        for (direction, pick, colour) in growth {
            let frontier: Vec<usize> = (0..25)
                .filter(|&p| input.owner(p).is_none())
                .filter(|&p| {
                    let (r, c) = ((p / 5) as i32, (p % 5) as i32);
                    solutions::board::DIRECTIONS.iter().any(|&(dr, dc)| solutions::attack25::panel_at(r + dr, c + dc).is_some_and(|q| input.owner(q).is_some()))
                })
                .collect();
            if frontier.is_empty() {
                break;
            }
            let _ = direction;
            input.panels[colour] |= 1 << frontier[pick % frontier.len()];
        }
        agree::<Attack25>(&input)?;
    }
}
