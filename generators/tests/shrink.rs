//! The shrinker's result does not depend on how many variants are judged at once
//! (`judge stress --jobs`): the first failing variant in order always wins.

use std::time::Duration;

use generators::{Generate, mixed_case};

use solutions::{Problem, tests_per_problem};

/// A failure predicate that keeps some variants and drops others, unrelated to the problem:
/// a hash of the input's text.
fn fails<P: Problem>(input: &P::Input) -> bool {
    let text = P::write_input(input);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    hash % 3 != 0
}

fn the_result_does_not_depend_on_the_batch<P: Generate>() {
    let families = P::families();
    let mut shrunk_some = false;
    for index in 0..20 {
        let (input, _, _) = mixed_case(&families, index, 5);
        let run = |batch: usize| {
            let mut judged = 0;
            let result = generators::shrink::<P>(
                &input,
                |variants| {
                    assert!(!variants.is_empty() && variants.len() <= batch);
                    judged += variants.len();
                    variants.iter().position(fails::<P>)
                },
                batch,
                Duration::from_secs(600),
                |_| {},
            );
            (result, judged)
        };
        let ((one, steps, complete), _) = run(1);
        assert!(complete);
        shrunk_some |= steps > 0;
        for batch in [2, 7] {
            let ((many, many_steps, _), _) = run(batch);
            assert_eq!(
                (P::write_input(&many), many_steps),
                (P::write_input(&one), steps)
            );
        }
    }
    assert!(shrunk_some, "{}: no case shrank at all", P::ID);
}

solutions::for_each_problem!(tests_per_problem, shrink_batches => the_result_does_not_depend_on_the_batch);
