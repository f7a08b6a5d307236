//! Every generated valid input is valid and answered alike by both solvers; every generated
//! invalid input is rejected; the families reach what they claim to target.

use std::collections::BTreeMap;

use generators::{Generate, generate, generate_invalid};
use solutions::tests_per_problem;
use solutions::{Attack25, GomokuChecker, Omok, OthelloFlips, Problem, Renju};

const PER_FAMILY: u64 = 300;

fn valid_inputs_are_valid_and_solvers_agree<P: Generate>() {
    for family in P::families() {
        for index in 0..PER_FAMILY {
            let (input, params) = generate(&family, index, 7);
            let text = P::write_input(&input);
            let parsed = P::parse(text.as_bytes())
                .unwrap_or_else(|e| panic!("{}/{} #{index}: {e}\n{text}", P::ID, family.name));
            assert_eq!(
                parsed,
                input,
                "{}/{} #{index}: round trip",
                P::ID,
                family.name
            );
            assert_eq!(
                P::reference(&input),
                P::fast(&input),
                "{}/{} #{index} ({params}):\n{text}",
                P::ID,
                family.name
            );
        }
    }
}

fn invalid_inputs_are_rejected<P: Generate>() {
    for family in P::invalid_families() {
        for index in 0..PER_FAMILY {
            let (bytes, params) = generate_invalid::<P>(&family, index, 7);
            assert!(
                P::parse(&bytes).is_err(),
                "{}/{} #{index} ({params}) was accepted:\n{}",
                P::ID,
                family.name,
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}

/// How often each answer occurs over `count` inputs of every family.
fn answer_histogram<P: Generate>(family_name: &str, count: u64) -> BTreeMap<String, u64> {
    let family = P::families()
        .into_iter()
        .find(|f| f.name == family_name)
        .expect("family exists");
    let mut histogram = BTreeMap::new();
    for index in 0..count {
        let (input, _) = generate(&family, index, 1);
        *histogram
            .entry(P::write_answer(&P::reference(&input)))
            .or_insert(0) += 1;
    }
    histogram
}

solutions::for_each_problem!(
    tests_per_problem,
    valid_families_are_valid_and_solvers_agree => valid_inputs_are_valid_and_solvers_agree
);
solutions::for_each_problem!(tests_per_problem, invalid_families_are_rejected => invalid_inputs_are_rejected);

#[test]
fn gomoku_answers_are_balanced_over_all_families() {
    let mut yes = 0;
    let mut total = 0;
    for family in GomokuChecker::families() {
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
fn gomoku_long_runs_give_both_answers() {
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

#[test]
fn omok_every_direction_reaches_all_winner_direction_pairs() {
    let family = Omok::families()
        .into_iter()
        .find(|f| f.name == "every-direction")
        .unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for index in 0..200 {
        let (_, params) = generate(&family, index, 3);
        seen.insert(params);
    }
    assert_eq!(seen.len(), 8, "{seen:?}");
}

#[test]
fn renju_class_family_reaches_its_classification() {
    let histogram = answer_histogram::<Renju>("class-three", 40);
    assert_eq!(histogram.len(), 1, "{histogram:?}");
}

#[test]
fn othello_legal_moves_flip_something() {
    let histogram = answer_histogram::<OthelloFlips>("legal-move", 200);
    assert!(!histogram.contains_key("0\n"), "{histogram:?}");
}

#[test]
fn attack25_near_full_includes_the_full_board() {
    let histogram = answer_histogram::<Attack25>("near-full", 200);
    assert!(histogram.contains_key("R\nB\nW\nG\n"), "{histogram:?}");
}

#[test]
fn othello_move_generation_matches_the_reference() {
    use solutions::othello_flips::Input;
    let family = OthelloFlips::families()
        .into_iter()
        .find(|f| f.name == "sparse")
        .unwrap();
    for index in 0..2000 {
        let (input, _) = generate(&family, index, 11);
        let (own, opp) = (input.black, input.white);
        for square in 0..64u8 {
            if (own | opp) >> square & 1 == 0 {
                let legal = OthelloFlips::reference(&Input {
                    black: own,
                    white: opp,
                    play: square,
                })
                .0 != 0;
                assert_eq!(
                    generators::othello_flips::families::is_legal(own, opp, square),
                    legal,
                    "#{index} square {square}"
                );
            }
        }
    }
}
