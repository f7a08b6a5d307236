//! The case corpus of a problem: data, not code (`tests/data/<problem>/corpus.toml`), in the
//! manner of regex's `testdata/*.toml`. The same cases are fed to every solver the problem
//! has, in process, and to the `judge` binary and external submissions by the integration
//! tests.

use serde::Deserialize;

use solutions::problem::Problem;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Corpus {
    #[serde(default)]
    pub valid: Vec<ValidCase>,
    #[serde(default)]
    pub invalid: Vec<InvalidCase>,
}

/// A valid input and its answer, with the one rule or corner it pins.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidCase {
    pub name: String,
    pub why: String,
    pub input: String,
    pub answer: String,
    /// A sample of the spec (goes to `data/sample` in a Kattis test set).
    #[serde(default)]
    pub sample: bool,
}

/// An input the validator must reject, and text its error message must contain (typically
/// the position, `line L, column C`, and a word of the reason).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InvalidCase {
    pub name: String,
    pub why: String,
    pub input: String,
    pub error: String,
}

/// The corpus of problem `P`. The corpus files are part of the build, so a malformed one is a
/// bug of this repository and fails loudly.
pub fn corpus<P: Problem>() -> Corpus {
    match toml::from_str(P::CORPUS) {
        Ok(corpus) => corpus,
        Err(e) => panic!("{} is malformed: {e}", corpus_path(P::ID)),
    }
}

/// Where the corpus of problem `id` lives in this repository.
pub fn corpus_path(id: &str) -> String {
    solutions::problem_files::CORPUS
        .relative(id)
        .display()
        .to_string()
}

/// Runs every case of `P`'s corpus against the parser and every given solver, and returns one
/// line per failure (empty when everything passes). Valid cases must parse, round-trip through
/// the canonical writer, and be answered exactly as the corpus says; invalid cases must be
/// rejected with an error whose text contains the expected part.
pub fn check<P: Problem>(solvers: &[solutions::problem::Solver<P>]) -> Vec<String> {
    let corpus = corpus::<P>();
    let mut failures = Vec::new();
    for case in &corpus.valid {
        let input = match P::parse(case.input.as_bytes()) {
            Ok(input) => input,
            Err(e) => {
                failures.push(format!(
                    "{}/{}: valid input rejected: {e}",
                    P::ID,
                    case.name
                ));
                continue;
            }
        };
        if P::write_input(&input) != case.input {
            failures.push(format!(
                "{}/{}: canonical writer does not reproduce the input",
                P::ID,
                case.name
            ));
        }
        let expected = match P::read_answer(&case.answer) {
            Ok(answer) => answer,
            Err(e) => {
                failures.push(format!(
                    "{}/{}: the corpus answer does not read: {e}",
                    P::ID,
                    case.name
                ));
                continue;
            }
        };
        if P::write_answer(&expected) != case.answer {
            failures.push(format!(
                "{}/{}: the corpus answer is not in canonical form",
                P::ID,
                case.name
            ));
        }
        for solver in solvers {
            let got = (solver.solve)(&input);
            if got != expected {
                failures.push(format!(
                    "{}/{}: solver {} answered {:?}, expected {:?} ({})",
                    P::ID,
                    case.name,
                    solver.name,
                    P::write_answer(&got).trim_end(),
                    case.answer.trim_end(),
                    case.why
                ));
            }
        }
    }
    for case in &corpus.invalid {
        match P::parse(case.input.as_bytes()) {
            Ok(_) => failures.push(format!(
                "{}/{}: invalid input accepted ({})",
                P::ID,
                case.name,
                case.why
            )),
            Err(e) if !e.to_string().contains(&case.error) => failures.push(format!(
                "{}/{}: error '{e}' does not contain '{}'",
                P::ID,
                case.name,
                case.error
            )),
            Err(_) => {}
        }
    }
    failures
}
