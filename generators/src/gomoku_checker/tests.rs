//! gomoku-checker's own unit tests: its families reach what they target, and its fast
//! solver equals the reference on structurally generated inputs (a failure shrinks to a small
//! input).

use proptest::prelude::*;
use solutions::GomokuChecker;

use crate::Generate;
use crate::test_support::*;

#[test]
fn answers_are_balanced_over_all_families() {
    let mut yes = 0;
    let mut total = 0;
    for family in <GomokuChecker as Generate>::families() {
        for (answer, n) in answer_histogram::<GomokuChecker>(family.name, 100) {
            total += n;
            if answer == "YES\n" {
                yes += n;
            }
        }
    }
    let share = yes * 100 / total;
    assert!((35..=65).contains(&share), "YES share {share}%");
}


#[test]
fn long_runs_give_both_answers() {
    let histogram = answer_histogram::<GomokuChecker>("long-run", 200);
    assert!(
        histogram.get("YES\n").copied().unwrap_or(0) >= 40,
        "{histogram:?}"
    );
    assert!(
        histogram.get("NO\n").copied().unwrap_or(0) >= 40,
        "{histogram:?}"
    );
}


proptest! {
    #![proptest_config(config())]

    #[test]
    fn gomoku_checker_fast_equals_reference(runs in runs(), stones in stones()) {
        agree::<GomokuChecker>(&board::<19>(&runs, &stones))?;
    }
}
