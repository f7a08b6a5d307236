//! Every generated valid input is valid and answered alike by both solvers; every generated
//! invalid input is rejected; the families reach what they claim to target.

use generators::{Generate, generate, generate_invalid};
use solutions::tests_per_problem;

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

solutions::for_each_problem!(
    tests_per_problem,
    valid_families_are_valid_and_solvers_agree => valid_inputs_are_valid_and_solvers_agree
);
solutions::for_each_problem!(tests_per_problem, invalid_families_are_rejected => invalid_inputs_are_rejected);
