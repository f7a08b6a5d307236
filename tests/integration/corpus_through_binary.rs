//! Every corpus case through the binary: `solve` with both solvers answers exactly,
//! `validate` accepts the valid inputs and rejects the invalid ones with the expected message
//! (exit 1), and `solve` rejects them with exit 2.

use generators::corpus::corpus;
use solutions::{Problem, tests_per_problem};

use crate::util::*;

fn run<P: Problem>() {
    let corpus = corpus::<P>();
    for case in &corpus.valid {
        for solver in ["reference", "fast"] {
            let out = run_with_stdin(&["solve", P::ID, "--solver", solver], case.input.as_bytes());
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}/{}: {}",
                P::ID,
                case.name,
                text(&out.stderr)
            );
            assert_eq!(
                text(&out.stdout),
                case.answer,
                "{}/{} with {solver}",
                P::ID,
                case.name
            );
        }
        let out = run_with_stdin(&["validate", P::ID], case.input.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}/{}: {}",
            P::ID,
            case.name,
            text(&out.stderr)
        );
    }
    for case in &corpus.invalid {
        let out = run_with_stdin(&["validate", P::ID], case.input.as_bytes());
        assert_no_panic(&out);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}/{} must be rejected",
            P::ID,
            case.name
        );
        let stderr = text(&out.stderr);
        let (line, col) = position(&case.error);
        assert!(
            stderr.starts_with(&format!("<stdin>:{line}:{col}: ")),
            "{}/{}: {stderr}",
            P::ID,
            case.name
        );
        let out = run_with_stdin(&["solve", P::ID], case.input.as_bytes());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}/{}: solve must exit 2",
            P::ID,
            case.name
        );
        assert!(
            text(&out.stderr).contains("invalid input"),
            "{}/{}",
            P::ID,
            case.name
        );
    }
}

/// The `line L, column C` an expected error starts with.
fn position(error: &str) -> (u32, u32) {
    let rest = error
        .strip_prefix("line ")
        .expect("expected errors start with 'line L, column C'");
    let (line, rest) = rest.split_once(", column ").unwrap();
    let col: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (line.parse().unwrap(), col.parse().unwrap())
}

solutions::for_each_problem!(tests_per_problem, corpus_through_the_binary => run);
