//! Writing generated inputs (`judge gen`) and whole test sets (`judge testset`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use generators::corpus::corpus;
use solutions::Problem;
use std::collections::BTreeSet;

use generators::boundary::{Boundary, boundary_case_at, hunting_case};
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
        eprintln!(
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
            "boundary" if test.row.params == "hunt" => format!("boundary-hunt-{}", test.row.index),
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
    eprintln!(
        "coverage: {}/{} boundary obligations met (per obligation: {})",
        obligations.len() - unmet.len(),
        obligations.len(),
        path.display()
    );
    if !unmet.is_empty() {
        eprintln!("not met: {}", unmet.join(", "));
    }
    Ok(())
}

/// A generated test the selection may take.
pub struct Candidate<I> {
    pub input: I,
    pub source: &'static str,
    pub family: String,
    pub index: u64,
    pub params: String,
}

/// The most tests a default test set holds.
pub const MAX_TESTS: usize = 100;

/// Which generated tests join the fixed ones (samples and corpus), chosen by greedy set
/// cover over (a) the boundary obligations and (b) the kill matrix of the known-wrong
/// solutions (each should be rejected by two tests, so none is one test away from
/// surviving), from a pool of every family's first tests and one boundary case per
/// obligation; then every family gets at least one test, and the set is filled round-robin
/// from the families up to the usual size, never past [`MAX_TESTS`]. Deterministic: the
/// pool comes from the seed's streams and ties go to the earlier candidate. Generated tests
/// come out in family order, then boundary cases in obligation order.
pub fn choose_generated<P: Boundary>(
    fixed: &[P::Input],
    seed: u64,
    seen: &mut HashSet<String>,
) -> Vec<Candidate<P::Input>> {
    choose_generated_against(fixed, seed, seen, &P::wrong_solvers())
}

/// [`choose_generated`] with the kill matrix of the wrong solutions `wrong` (the held-out
/// benchmark leaves one out, as a contestant's bug nobody modelled).
pub fn choose_generated_against<P: Boundary>(
    fixed: &[P::Input],
    seed: u64,
    seen: &mut HashSet<String>,
    wrong: &[solutions::Solver<P>],
) -> Vec<Candidate<P::Input>> {
    let families = P::families();
    let each = per_family(fixed.len(), families.len());
    let mut pool: Vec<Candidate<P::Input>> = Vec::new();
    for family in &families {
        let (mut taken, mut index) = (0, 0u64);
        // Skip duplicates (small families repeat themselves); give up on a family after
        // enough tries rather than loop forever.
        while taken < each && index < (each as u64) * 20 {
            let (input, params) = generate(family, index, seed);
            if !seen.contains(&P::write_input(&input)) {
                pool.push(Candidate {
                    input,
                    source: "generated",
                    family: family.name.to_string(),
                    index,
                    params,
                });
                taken += 1;
            }
            index += 1;
        }
    }
    let generated = pool.len();
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            pool.push(Candidate {
                input,
                source: "boundary",
                family: "boundary".to_string(),
                index: 0,
                params: id,
            });
        }
    }
    for index in 0..HUNT_POOL {
        if let Some(input) = hunting_case::<P>(index, seed) {
            pool.push(Candidate {
                input,
                source: "boundary",
                family: "boundary".to_string(),
                index,
                params: "hunt".to_string(),
            });
        }
    }

    let kills = |input: &P::Input| -> Vec<usize> {
        let want = P::reference(input);
        (0..wrong.len())
            .filter(|&k| (wrong[k].solve)(input) != want)
            .collect()
    };
    let mut covered: BTreeSet<String> = BTreeSet::new();
    let mut killed = vec![0usize; wrong.len()];
    for input in fixed {
        covered.extend(P::met(input));
        for k in kills(input) {
            killed[k] += 1;
        }
    }
    let pool_met: Vec<BTreeSet<String>> = pool.iter().map(|c| P::met(&c.input)).collect();
    let pool_kills: Vec<Vec<usize>> = pool.iter().map(|c| kills(&c.input)).collect();
    let mut chosen = vec![false; pool.len()];
    let mut texts: Vec<Option<String>> = pool
        .iter()
        .map(|c| Some(P::write_input(&c.input)))
        .collect();
    let mut count = fixed.len();
    // Takes candidate `i` unless a test with its text is already in the set.
    let take = |i: usize,
                texts: &mut [Option<String>],
                seen: &mut HashSet<String>,
                chosen: &mut [bool],
                count: &mut usize|
     -> bool {
        let text = texts[i].take().expect("each candidate is looked at once");
        if seen.insert(text) {
            chosen[i] = true;
            *count += 1;
            true
        } else {
            false
        }
    };
    // Greedy set cover: obligations met, and wrong solvers brought to two rejecting tests.
    while count < MAX_TESTS {
        let gain = |i: usize| -> usize {
            let new_obligations = pool_met[i]
                .iter()
                .filter(|id| !covered.contains(*id))
                .count();
            let kill_gain: usize = pool_kills[i]
                .iter()
                .map(|&k| match killed[k] {
                    0 => 2,
                    1 => 1,
                    _ => 0,
                })
                .sum();
            new_obligations + kill_gain
        };
        let best = (0..pool.len())
            .filter(|&i| !chosen[i] && texts[i].is_some())
            .map(|i| (gain(i), i))
            .max_by_key(|&(g, i)| (g, std::cmp::Reverse(i)));
        let Some((g, i)) = best else { break };
        if g == 0 {
            break;
        }
        if take(i, &mut texts, seen, &mut chosen, &mut count) {
            covered.extend(pool_met[i].iter().cloned());
            for &k in &pool_kills[i] {
                killed[k] += 1;
            }
        }
    }
    // A known-wrong solution still rejected by fewer than two tests: hunt for more among
    // edge cases with runs one short (phantom fives behind aliased reads).
    let mut hunted: Vec<Candidate<P::Input>> = Vec::new();
    let mut hunt_index = 0u64;
    let mut hunts: Vec<(P::Input, Vec<usize>)> = Vec::new();
    for k in 0..wrong.len() {
        let mut tries = HUNT_POOL as usize;
        // Unrejected: search long; rejected once: a shorter search for a second test.
        let budget = if killed[k] == 0 {
            HUNT_TRIES
        } else {
            HUNT_POOL as usize * 2
        };
        while killed[k] < 2 && count < MAX_TESTS && tries < budget {
            if hunts.len() + (HUNT_POOL as usize) <= tries {
                if let Some(input) = hunting_case::<P>(hunt_index + HUNT_POOL, seed) {
                    let k = kills(&input);
                    hunts.push((input, k));
                } else {
                    hunts.push((
                        fixed
                            .first()
                            .cloned()
                            .unwrap_or_else(|| pool[0].input.clone()),
                        Vec::new(),
                    ));
                }
                hunt_index += 1;
            }
            let (input, its_kills) = &hunts[tries - HUNT_POOL as usize];
            if its_kills.contains(&k) && seen.insert(P::write_input(input)) {
                for &j in its_kills {
                    killed[j] += 1;
                }
                count += 1;
                hunted.push(Candidate {
                    input: input.clone(),
                    source: "boundary",
                    family: "boundary".to_string(),
                    index: tries as u64,
                    params: "hunt".to_string(),
                });
            }
            tries += 1;
        }
    }
    // Every family at least once, then round-robin up to the usual size.
    let target = (fixed.len() + each * families.len()).min(MAX_TESTS);
    for round in 0..each {
        for family in &families {
            if count >= target.max(if round == 0 { MAX_TESTS } else { 0 }) {
                break;
            }
            let mine: Vec<usize> = (0..generated)
                .filter(|&i| pool[i].family == family.name)
                .collect();
            let have = mine.iter().filter(|&&i| chosen[i]).count();
            if have > round {
                continue;
            }
            if let Some(&i) = mine.iter().find(|&&i| !chosen[i] && texts[i].is_some()) {
                take(i, &mut texts, seen, &mut chosen, &mut count);
            }
        }
    }
    pool.into_iter()
        .zip(chosen)
        .filter(|(_, c)| *c)
        .map(|(candidate, _)| candidate)
        .chain(hunted)
        .collect()
}

/// How many hunting cases are tried for one unrejected wrong solution.
const HUNT_TRIES: usize = 4000;
/// How many hunting cases join the pool of the set cover.
const HUNT_POOL: u64 = 300;

fn csv_error(out: &Path, e: csv::Error) -> JudgeError {
    JudgeError::report(out.join("manifest.csv"), e)
}

/// The tests every test set of `P` starts with (the corpus's valid cases), and their texts.
pub fn fixed_tests<P: Problem>() -> (Vec<P::Input>, HashSet<String>) {
    let corpus = corpus::<P>();
    let fixed = corpus
        .valid
        .iter()
        .filter_map(|c| P::parse(c.input.as_bytes()).ok())
        .collect();
    let seen = corpus.valid.iter().map(|c| c.input.clone()).collect();
    (fixed, seen)
}

/// The strongest known cases of problem `P` under `seed`, strongest first, for `judge
/// stress`: the default test set's set cover (greedy over the kill matrix of the known-wrong
/// solutions, board-access models included: each next test rejects the most solutions no
/// earlier one rejects), then the rest of the default test set, then one boundary case per
/// obligation (each with its obligation id).
/// (The hunting cases are not added: with them, wrong solutions that the plan does not know
/// took longer to find, not shorter — `cargo bench -p judge-core --bench held_out`.)
pub fn strongest_cases<P: Boundary>(seed: u64) -> Vec<(P::Input, &'static str, String)> {
    strongest_cases_against::<P>(seed, &P::wrong_solvers())
}

/// [`strongest_cases`] planned with the kill matrix of the wrong solutions `wrong` only.
pub fn strongest_cases_against<P: Boundary>(
    seed: u64,
    wrong: &[solutions::Solver<P>],
) -> Vec<(P::Input, &'static str, String)> {
    let (fixed, mut seen) = fixed_tests::<P>();
    let mut tests = fixed.clone();
    tests.extend(
        choose_generated_against::<P>(&fixed, seed, &mut seen, wrong)
            .into_iter()
            .map(|c| c.input),
    );
    let kills: Vec<Vec<usize>> = tests
        .iter()
        .map(|input| {
            let want = P::reference(input);
            (0..wrong.len())
                .filter(|&k| (wrong[k].solve)(input) != want)
                .collect()
        })
        .collect();
    let mut rejected = vec![false; wrong.len()];
    let mut used = vec![false; tests.len()];
    let mut out = Vec::new();
    loop {
        let best = (0..tests.len())
            .filter(|&i| !used[i])
            .map(|i| (kills[i].iter().filter(|&&k| !rejected[k]).count(), i))
            .max_by_key(|&(gain, i)| (gain, std::cmp::Reverse(i)));
        let Some((gain, i)) = best else { break };
        if gain == 0 {
            break;
        }
        used[i] = true;
        for &k in &kills[i] {
            rejected[k] = true;
        }
        out.push((tests[i].clone(), "testset-cover", String::new()));
    }
    // Then the rest of the default test set: a test that rejects no known-wrong solution may
    // still reject a bug nobody modelled (it meets an obligation), so stress is never weaker
    // than the test set.
    for i in (0..tests.len()).filter(|&i| !used[i]) {
        out.push((tests[i].clone(), "testset", String::new()));
    }
    for (id, _) in P::obligations() {
        if let Some(input) = boundary_case_at::<P>(&id, 0, seed) {
            out.push((input, "boundary", id));
        }
    }
    out
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
