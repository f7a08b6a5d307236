//! The reference (and fast) solvers against the kept default test sets,
//! `tests/data/PROBLEM/testset.txt` (kept equal to `judge testset PROBLEM --seed 1` by an
//! integration test). This is the test the mutation score is measured with:
//! `cargo mutants -p solutions -f 'solutions/src/*/reference.rs' -- --test default_testsets`
//! (see the README, "Mutation score"): a mutant of a reference solver that this test does not
//! catch gives the same answers as the reference on every test of the default test set. One
//! test per problem of the list, plus the checks one problem adds.

use solutions::problem_files::{KEPT_TEST_SET, kept_tests};
use solutions::{Problem, tests_per_problem};

fn check<P: Problem>() {
    check_with::<P>(|_, _| {});
}

/// Also runs `extra(input, answer text)` on every test.
fn check_with<P: Problem>(extra: impl Fn(&P::Input, &str)) {
    let path = KEPT_TEST_SET.relative(P::ID);
    let path = path.display();
    let tests = kept_tests(&KEPT_TEST_SET.read(P::ID));
    for test in &tests {
        let name = &test.name;
        let parsed =
            P::parse(test.input.as_bytes()).unwrap_or_else(|e| panic!("{path}: {name}: {e}"));
        assert_eq!(
            P::write_answer(&P::reference(&parsed)),
            test.answer,
            "{}: reference on {name}",
            P::ID
        );
        assert_eq!(
            P::write_answer(&P::fast(&parsed)),
            test.answer,
            "{}: fast on {name}",
            P::ID
        );
        extra(&parsed, &test.answer);
    }
    assert!(tests.len() >= 30, "{path}: only {} tests", tests.len());
}

solutions::for_each_problem!(tests_per_problem, reference_and_fast_give_the_kept_answers => check);

#[test]
fn omok_answers_with_the_first_of_its_exact_fives() {
    // The list of every exact five (the validator words its double-win errors with it)
    // starts with the answer's five.
    check_with::<solutions::Omok>(|board, answer| {
        let first = solutions::omok::exact_fives(board).first().copied();
        assert_eq!(<solutions::Omok as Problem>::write_answer(&first), answer);
    });
}
