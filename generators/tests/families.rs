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

/// Every image of a generated input (the in-process stress checks them all) is a valid input:
/// the parser takes its text back unchanged, and it meets the constraints.
fn images_of_valid_inputs_are_valid<P: Generate>() {
    let families = P::families();
    for index in 0..200 {
        let (input, _, _) = generators::mixed_case(&families, index, 3);
        for k in 0..P::IMAGES {
            let image = P::image(&input, k);
            let text = P::write_input(&image);
            let parsed = P::parse(text.as_bytes())
                .unwrap_or_else(|e| panic!("{} #{index} image {k}: {e}\n{text}", P::ID));
            assert_eq!(parsed, image, "{} #{index} image {k}: round trip", P::ID);
        }
        assert_eq!(
            P::image(&input, 0),
            input,
            "{}: image 0 is the input",
            P::ID
        );
    }
}

/// The stress loop's cached images are the stream's images (the finding is regenerated with
/// `image_case`), and the images of one position are distinct inputs where it has no symmetry
/// of its own (so the count of cases is a count of different inputs).
fn cached_images_are_the_streams<P: Generate>() {
    let families = P::families();
    let mut cached = generators::ImageCases::new(&families, 9);
    let mut distinct = 0;
    for index in 0..400 {
        let (expected, _, _) = generators::image_case(&families, index, 9);
        let got = cached.input(index);
        assert_eq!(got, expected, "{} case {index}", P::ID);
        let base = generators::image_case(&families, index - index % u64::from(P::IMAGES), 9).0;
        if index % u64::from(P::IMAGES) == 0 || got != base {
            distinct += 1;
        }
    }
    assert!(
        distinct > 300,
        "{}: only {distinct} of 400 cases differ from their position",
        P::ID
    );
}

solutions::for_each_problem!(tests_per_problem, images_are_valid => images_of_valid_inputs_are_valid);
solutions::for_each_problem!(tests_per_problem, cached_images => cached_images_are_the_streams);
