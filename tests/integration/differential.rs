//! The fast solvers against the reference on 100,000 generated cases per problem (the CI
//! size; the documented developer command runs 10 million), through `judge stress`.

use solutions::{Problem, tests_per_problem};

use crate::util::*;

fn fast_equals_reference_on_100k_generated_cases_per_problem<P: Problem>() {
    let problem = P::ID;
    let out = judge()
        .args(["stress", problem, "--seed", "20261121", "--cases", "100000"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{problem}:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("on 100000 cases"),
        "{}",
        text(&out.stdout)
    );
}

solutions::for_each_problem!(tests_per_problem, fast_equals_reference_on_100k_cases => fast_equals_reference_on_100k_generated_cases_per_problem);
