//! The reference (and fast) solvers against the kept default test sets,
//! `tests/data/PROBLEM/testset.txt` (kept equal to `judge testset PROBLEM --seed 1` by an
//! integration test). This is the test the mutation score is measured with:
//! `cargo mutants -p solutions -f 'solutions/src/*/reference.rs' -- --test default_testsets`
//! (see the README, "Mutation score"): a mutant of a reference solver that this test does not
//! catch gives the same answers as the reference on every test of the default test set.

use solutions::Problem;

fn check<P: Problem>() {
    check_with::<P>(|_, _| {});
}

/// Also runs `extra(input, answer text)` on every test.
fn check_with<P: Problem>(extra: impl Fn(&P::Input, &str)) {
    let path = format!(
        "{}/../tests/data/{}/testset.txt",
        env!("CARGO_MANIFEST_DIR"),
        P::ID
    );
    let bundle = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut tests = 0;
    for block in bundle.split("=== ").skip(1) {
        let (name, rest) = block.split_once('\n').expect("a name line");
        let (input, answer) = rest.split_once("--- answer\n").expect("an answer");
        let parsed = P::parse(input.as_bytes()).unwrap_or_else(|e| panic!("{path}: {name}: {e}"));
        assert_eq!(
            P::write_answer(&P::reference(&parsed)),
            answer,
            "{}: reference on {name}",
            P::ID
        );
        assert_eq!(
            P::write_answer(&P::fast(&parsed)),
            answer,
            "{}: fast on {name}",
            P::ID
        );
        extra(&parsed, answer);
        tests += 1;
    }
    assert!(tests >= 30, "{path}: only {tests} tests");
}

#[test]
fn gomoku_checker() {
    check::<solutions::GomokuChecker>();
}

#[test]
fn omok() {
    // The list of every exact five (the validator words its double-win errors with it)
    // starts with the answer's five.
    check_with::<solutions::Omok>(|board, answer| {
        let first = solutions::omok::exact_fives(board).first().copied();
        assert_eq!(<solutions::Omok as Problem>::write_answer(&first), answer);
    });
}

#[test]
fn othello_flips() {
    check::<solutions::OthelloFlips>();
}

#[test]
fn attack25() {
    check::<solutions::Attack25>();
}

#[test]
fn renju() {
    check::<solutions::Renju>();
}
