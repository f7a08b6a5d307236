//! Writing generated inputs (`judge gen`) and whole test sets (`judge testset`). Which tests
//! a test set holds is `generators::selection`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use generators::corpus::corpus;
use solutions::Problem;
use std::collections::BTreeSet;

use generators::boundary::Boundary;
use generators::selection::choose_generated;
use generators::{Generate, generate, generate_invalid};
use serde::Serialize;

use crate::error::{JudgeError, JuryError};

/// The reference answer of `input`, checked against the fast solver: a test set must never
/// carry an answer the two trusted solvers disagree on.
pub fn trusted_answer<P: Problem>(input: &P::Input, origin: &str) -> Result<P::Answer, JudgeError> {
    let reference = P::reference(input);
    let fast = P::fast(input);
    if reference != fast {
        return Err(JuryError::SolversDisagree {
            origin: origin.to_string(),
            reference: P::write_answer(&reference).trim_end().to_string(),
            fast: P::write_answer(&fast).trim_end().to_string(),
            input: P::write_input(input),
        }
        .into());
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
        crate::say!(
            "warning: {} holds {strangers} .in/.ans files this run did not write (left from another run?): \
             they would be taken for tests; remove them or write into an empty folder",
            dir.display()
        );
    }
}

/// Creates the folder `path` and those above it. A file in the way (`--out` naming a file) is
/// a usage error that says so, not a bare "File exists".
pub fn create_dir(path: &Path) -> Result<(), JudgeError> {
    std::fs::create_dir_all(path).map_err(|e| {
        match path
            .ancestors()
            .find(|p| std::fs::metadata(p).is_ok_and(|m| !m.is_dir()))
        {
            Some(file) => JudgeError::Usage(format!(
                "{}: exists and is not a folder (a folder is needed here)",
                file.display()
            )),
            None => JudgeError::io(path, e),
        }
    })
}

/// Makes `out` ready for a new test set. A folder that holds anything is refused (a test set
/// written over another mixes the two: `judge run` would judge both) unless `force`, which
/// removes an earlier test set from it — `manifest.csv`, `coverage.csv`, the `.in` and `.ans`
/// files in it and below `data/sample` and `data/secret` — and leaves everything else.
pub fn prepare_testset_folder(out: &Path, force: bool) -> Result<(), JudgeError> {
    let not_empty = std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some());
    if !not_empty {
        return Ok(());
    }
    if !force {
        return Err(JudgeError::Usage(format!(
            "{}: already exists and is not empty; write into an empty or new folder, or \
             give --force to replace the test set in it",
            out.display()
        )));
    }
    fn remove_tests(dir: &Path, recurse: bool) -> Result<(), JudgeError> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(());
        };
        for entry in entries {
            let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
            let kind = std::fs::symlink_metadata(&path).map_err(|e| JudgeError::io(&path, e))?;
            if kind.is_dir() {
                if recurse {
                    remove_tests(&path, true)?;
                }
            } else if path.extension().is_some_and(|e| e == "in" || e == "ans") {
                std::fs::remove_file(&path).map_err(|e| JudgeError::io(&path, e))?;
            }
        }
        Ok(())
    }
    remove_tests(out, false)?;
    remove_tests(&out.join("data/sample"), true)?;
    remove_tests(&out.join("data/secret"), true)?;
    for file in ["manifest.csv", "coverage.csv"] {
        let path = out.join(file);
        if path.is_file() {
            std::fs::remove_file(&path).map_err(|e| JudgeError::io(&path, e))?;
        }
    }
    Ok(())
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
pub fn testset_cases<P: Boundary>(seed: u64) -> Result<Vec<TestCase>, JudgeError> {
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
        let input =
            P::parse(case.input.as_bytes()).map_err(|error| JuryError::InvalidCorpusInput {
                corpus: generators::corpus::corpus_path(P::ID),
                case: case.name.clone(),
                error,
            })?;
        let answer = P::write_answer(&trusted_answer::<P>(&input, &case.name)?);
        if answer != case.answer {
            return Err(JuryError::CorpusMismatch {
                case: case.name.clone(),
                expected: case.answer.clone(),
                got: answer,
            }
            .into());
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

    let fixed: Vec<P::Input> = tests
        .iter()
        .map(|t| P::parse(t.text.as_bytes()).expect("corpus inputs were parsed above"))
        .collect();
    let chosen = choose_generated::<P>(&fixed, seed, &mut seen);
    for candidate in chosen {
        let text = P::write_input(&candidate.input);
        let answer = P::write_answer(&trusted_answer::<P>(
            &candidate.input,
            &format!("{} #{}", candidate.family, candidate.index),
        )?);
        tests.push(Test {
            text,
            answer: answer.clone(),
            sample: false,
            row: ManifestRow {
                test: String::new(),
                source: candidate.source,
                family: candidate.family,
                seed: seed.to_string(),
                index: candidate.index.to_string(),
                params: candidate.params,
                answer: summary(&answer),
            },
        });
    }

    for (n, test) in tests.iter_mut().enumerate() {
        let kind = match test.row.source {
            "generated" => format!("{}-{}", test.row.family, test.row.index),
            "boundary" if test.row.params == "hunt" || test.row.params == "merged" => {
                format!("boundary-{}-{}", test.row.params, test.row.index)
            }
            "boundary" => format!("boundary-{}", test.row.params.replace('/', ".")),
            _ => test.row.family.clone(),
        };
        test.row.test = format!("{:03}-{}", n + 1, file_name_safe(&kind));
    }
    Ok(tests)
}

/// `judge testset`: [`testset_cases`] written in a layout, with a manifest saying where each
/// test came from. Returns the number of tests.
pub fn testset<P: Boundary>(seed: u64, out: &Path, layout: Layout) -> Result<usize, JudgeError> {
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
    write_coverage::<P>(
        out,
        &tests
            .iter()
            .map(|t| (t.row.test.clone(), t.text.clone()))
            .collect::<Vec<_>>(),
    )?;
    Ok(tests.len())
}

/// Writes `coverage.csv` beside the manifest (`obligation,met,tests,what`: which tests meet
/// each boundary obligation) and prints the coverage on standard error.
fn write_coverage<P: Boundary>(out: &Path, tests: &[(String, String)]) -> Result<(), JudgeError> {
    let met: Vec<(String, BTreeSet<String>)> = tests
        .iter()
        .filter_map(|(name, text)| {
            P::parse(text.as_bytes())
                .ok()
                .map(|i| (name.clone(), P::met(&i)))
        })
        .collect();
    let path = out.join("coverage.csv");
    let mut writer = csv::Writer::from_path(&path).map_err(|e| csv_error(out, e))?;
    writer
        .write_record(["obligation", "met", "tests", "what"])
        .map_err(|e| csv_error(out, e))?;
    let obligations = P::obligations();
    let mut unmet = Vec::new();
    for (id, what) in &obligations {
        let by: Vec<&str> = met
            .iter()
            .filter(|(_, ids)| ids.contains(id))
            .map(|(name, _)| name.as_str())
            .collect();
        if by.is_empty() {
            unmet.push(id.as_str());
        }
        let yes = if by.is_empty() { "no" } else { "yes" };
        writer
            .write_record([id.as_str(), yes, &by.join(" "), what.as_str()])
            .map_err(|e| csv_error(out, e))?;
    }
    writer.flush().map_err(|e| JudgeError::io(&path, e))?;
    crate::say!(
        "coverage: {}/{} boundary obligations met (per obligation: {})",
        obligations.len() - unmet.len(),
        obligations.len(),
        path.display()
    );
    if !unmet.is_empty() {
        crate::say!("not met: {}", unmet.join(", "));
    }
    Ok(())
}

fn csv_error(out: &Path, e: csv::Error) -> JudgeError {
    JudgeError::report(out.join("manifest.csv"), e)
}

/// `kind` made fit for a test file name as the contest tools require
/// (`[a-zA-Z0-9_.-]`, problemtools and BAPCtools refuse others): `+` becomes `plus`, any other
/// character outside the set `_`.
fn file_name_safe(kind: &str) -> String {
    kind.chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '_' | '.' | '-' => c.to_string(),
            '+' => "plus".to_string(),
            _ => "_".to_string(),
        })
        .collect()
}
