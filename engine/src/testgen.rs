//! Writing generated inputs (`judge gen`) and whole test sets (`judge testset`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use problems::Problem;
use problems::corpus::corpus;
use problems::{Generate, generate, generate_invalid};
use serde::Serialize;

use crate::error::JudgeError;

/// The reference answer of `input`, checked against the fast solver: a test set must never
/// carry an answer the two trusted solvers disagree on.
pub fn trusted_answer<P: Problem>(input: &P::Input, origin: &str) -> Result<P::Answer, JudgeError> {
    let reference = P::reference(input);
    let fast = P::fast(input);
    if reference != fast {
        return Err(JudgeError::Jury(format!(
            "{origin}: the reference ({}) and the fast solver ({}) disagree on this input; please report it:\n{}",
            P::write_answer(&reference).trim_end(),
            P::write_answer(&fast).trim_end(),
            P::write_input(input)
        )));
    }
    Ok(reference)
}

pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), JudgeError> {
    std::fs::write(path, bytes).map_err(|e| JudgeError::io(path, e))
}

/// Warns about `.in`/`.ans` files in `dir` that this run did not write: leftovers of another
/// run that `judge run` would take for tests.
pub fn warn_about_strangers(dir: &Path, written: &HashSet<std::ffi::OsString>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let strangers = entries
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.path()
                .extension()
                .is_some_and(|x| x == "in" || x == "ans")
        })
        .filter(|e| !written.contains(&e.file_name()))
        .count();
    if strangers > 0 {
        eprintln!(
            "warning: {} holds {strangers} .in/.ans files this run did not write (left from another run?): \
             they would be taken for tests; remove them or write into an empty folder",
            dir.display()
        );
    }
}

pub fn create_dir(path: &Path) -> Result<(), JudgeError> {
    std::fs::create_dir_all(path).map_err(|e| JudgeError::io(path, e))
}

/// Checks a `--family` argument against the names that exist.
pub fn check_family(requested: Option<&str>, names: &[&str]) -> Result<(), JudgeError> {
    match requested {
        Some(name) if !names.contains(&name) => Err(JudgeError::Usage(format!(
            "unknown family '{name}'; families: {}",
            names.join(", ")
        ))),
        _ => Ok(()),
    }
}

/// `judge gen`: `count` inputs, cycling through the families (or only `family`), named
/// `INDEX-FAMILY.in` (+ `.ans` for valid ones).
pub fn gen_files<P: Generate>(
    seed: u64,
    count: u64,
    out: &Path,
    invalid: bool,
    family: Option<&str>,
) -> Result<u64, JudgeError> {
    create_dir(out)?;
    let mut written = HashSet::new();
    let width = count.saturating_sub(1).to_string().len().max(3);
    if invalid {
        let families: Vec<_> = P::invalid_families()
            .into_iter()
            .filter(|f| family.is_none_or(|n| n == f.name))
            .collect();
        let names: Vec<&str> = P::invalid_families().iter().map(|f| f.name).collect();
        check_family(family, &names)?;
        for i in 0..count {
            let f = &families[(i % families.len() as u64) as usize];
            let (bytes, _) = generate_invalid::<P>(f, i, seed);
            let name = format!("{i:0width$}-{}.in", f.name);
            write_file(&out.join(&name), &bytes)?;
            written.insert(name.into());
        }
    } else {
        let names: Vec<&str> = P::families().iter().map(|f| f.name).collect();
        check_family(family, &names)?;
        let families: Vec<_> = P::families()
            .into_iter()
            .filter(|f| family.is_none_or(|n| n == f.name))
            .collect();
        for i in 0..count {
            let f = &families[(i % families.len() as u64) as usize];
            let (input, _) = generate(f, i, seed);
            let name = format!("{i:0width$}-{}", f.name);
            let answer = trusted_answer::<P>(&input, &name)?;
            write_file(
                &out.join(format!("{name}.in")),
                P::write_input(&input).as_bytes(),
            )?;
            write_file(
                &out.join(format!("{name}.ans")),
                P::write_answer(&answer).as_bytes(),
            )?;
            written.insert(format!("{name}.in").into());
            written.insert(format!("{name}.ans").into());
        }
    }
    warn_about_strangers(out, &written);
    Ok(count)
}

/// The test set layouts of `judge testset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// `DIR/NAME.in` and `DIR/NAME.ans`.
    Plain,
    /// `DIR/data/sample/` and `DIR/data/secret/` (the ICPC / Kattis problem package layout).
    Kattis,
}

/// One row of a test set's manifest.
#[derive(Serialize)]
pub struct ManifestRow {
    pub test: String,
    pub source: &'static str,
    pub family: String,
    pub seed: String,
    pub index: String,
    pub params: String,
    pub answer: String,
}

/// How many tests each generated family contributes, given the fixed (sample and corpus)
/// tests: the set stays between 30 and 100 tests, small and sharp.
pub fn per_family(fixed: usize, families: usize) -> usize {
    ((95usize.saturating_sub(fixed)) / families.max(1)).clamp(2, 6)
}

/// One test of a test set: its name (`NNN-KIND`), input, answer and origin.
pub struct TestCase {
    pub text: String,
    pub answer: String,
    pub sample: bool,
    pub row: ManifestRow,
}

/// The tests of `judge testset` (and `judge package`), in order, named: the spec's samples,
/// the corpus's hand-made cases, and tests from every family, each answered by the reference
/// and checked against the fast solver.
pub fn testset_cases<P: Generate>(seed: u64) -> Result<Vec<TestCase>, JudgeError> {
    type Test = TestCase;
    let mut tests: Vec<Test> = Vec::new();
    let mut seen = HashSet::new();
    let summary = |answer: &str| answer.trim_end().replace('\n', " / ");

    let corpus = corpus::<P>();
    // Samples first, then the hand-made cases, in the corpus's order.
    let ordered = corpus
        .valid
        .iter()
        .filter(|c| c.sample)
        .chain(corpus.valid.iter().filter(|c| !c.sample));
    for case in ordered {
        let input = P::parse(case.input.as_bytes()).map_err(|error| JudgeError::Invalid {
            source_name: format!("{} ({})", problems::corpus::corpus_path(P::ID), case.name),
            error,
        })?;
        let answer = P::write_answer(&trusted_answer::<P>(&input, &case.name)?);
        if answer != case.answer {
            return Err(JudgeError::Jury(format!(
                "corpus case {} expects {:?} but the solvers say {answer:?}",
                case.name, case.answer
            )));
        }
        seen.insert(case.input.clone());
        tests.push(Test {
            text: case.input.clone(),
            answer: answer.clone(),
            sample: case.sample,
            row: ManifestRow {
                test: String::new(),
                source: if case.sample { "sample" } else { "corpus" },
                family: case.name.clone(),
                seed: String::new(),
                index: String::new(),
                params: case.why.clone(),
                answer: summary(&answer),
            },
        });
    }

    let families = P::families();
    let each = per_family(tests.len(), families.len());
    for family in &families {
        let mut taken = 0;
        let mut index = 0u64;
        // Skip duplicates (small families repeat themselves); give up on a family after
        // enough tries rather than loop forever.
        while taken < each && index < (each as u64) * 20 {
            let (input, params) = generate(family, index, seed);
            let text = P::write_input(&input);
            if seen.insert(text.clone()) {
                let answer = P::write_answer(&trusted_answer::<P>(
                    &input,
                    &format!("{} #{index}", family.name),
                )?);
                tests.push(Test {
                    text,
                    answer: answer.clone(),
                    sample: false,
                    row: ManifestRow {
                        test: String::new(),
                        source: "generated",
                        family: family.name.to_string(),
                        seed: seed.to_string(),
                        index: index.to_string(),
                        params,
                        answer: summary(&answer),
                    },
                });
                taken += 1;
            }
            index += 1;
        }
    }

    for (n, test) in tests.iter_mut().enumerate() {
        let kind = match test.row.source {
            "generated" => format!("{}-{}", test.row.family, test.row.index),
            _ => test.row.family.clone(),
        };
        test.row.test = format!("{:03}-{kind}", n + 1);
    }
    Ok(tests)
}

/// `judge testset`: [`testset_cases`] written in a layout, with a manifest saying where each
/// test came from. Returns the number of tests.
pub fn testset<P: Generate>(seed: u64, out: &Path, layout: Layout) -> Result<usize, JudgeError> {
    let tests = testset_cases::<P>(seed)?;
    let (sample_dir, secret_dir) = match layout {
        Layout::Plain => (out.to_path_buf(), out.to_path_buf()),
        Layout::Kattis => (
            out.join("data").join("sample"),
            out.join("data").join("secret"),
        ),
    };
    create_dir(&sample_dir)?;
    create_dir(&secret_dir)?;
    let mut manifest =
        csv::Writer::from_path(out.join("manifest.csv")).map_err(|e| csv_error(out, e))?;
    let mut written = HashSet::new();
    for test in &tests {
        let name = &test.row.test;
        let dir: &PathBuf = if test.sample {
            &sample_dir
        } else {
            &secret_dir
        };
        write_file(&dir.join(format!("{name}.in")), test.text.as_bytes())?;
        write_file(&dir.join(format!("{name}.ans")), test.answer.as_bytes())?;
        written.insert(format!("{name}.in").into());
        written.insert(format!("{name}.ans").into());
        manifest
            .serialize(&test.row)
            .map_err(|e| csv_error(out, e))?;
    }
    manifest
        .flush()
        .map_err(|e| JudgeError::io(out.join("manifest.csv"), e))?;
    warn_about_strangers(&sample_dir, &written);
    if secret_dir != sample_dir {
        warn_about_strangers(&secret_dir, &written);
    }
    Ok(tests.len())
}

fn csv_error(out: &Path, e: csv::Error) -> JudgeError {
    JudgeError::report(out.join("manifest.csv"), e)
}
