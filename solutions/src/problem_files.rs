//! Every problem's files: which each problem has, where each lives, and the reading of the
//! kept ones. A problem is three folders — its code in `solutions/src/<module>/` and
//! `generators/src/<module>/`, and its data, all of it, in `tests/data/<id>/` — plus its line
//! in the list of problems. This module is the one place that builds the paths of those files:
//! the tests, both build scripts that read them (`generators/build.rs`, `judge/package/build.rs`,
//! which include this file with `#[path]`: a build script cannot use a crate of the workspace
//! without building it twice) and the shape check (`generators/tests/shape.rs`, which fails on
//! a missing part and on a file no part names, so [`EVERY_PROBLEM_HAS`] is the true list of what
//! a new problem needs). Two things cannot ask it: the corpus is embedded with `include_str!`,
//! which takes a literal path, and the shell and Python scripts (`solutions/mutants.sh`,
//! `tests/python/models.py`) spell `tests/data/<id>/` themselves.
//!
//! The standard library only, and nothing else of this crate, for the build scripts' sake.

use std::path::{Path, PathBuf};

/// The folder a part of a problem lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// `solutions/src/<module>/`: the problem's types, parser and solvers.
    Solutions,
    /// `generators/src/<module>/`: its generator families and boundary obligations.
    Generators,
    /// `tests/data/<id>/`: everything about it that is data rather than code.
    Data,
}

impl Home {
    /// Every home, in the order a problem's files are listed.
    pub const ALL: [Home; 3] = [Home::Solutions, Home::Generators, Home::Data];

    /// Problem `id`'s folder of this home, below the repository's root.
    pub fn folder(self, id: &str) -> PathBuf {
        match self {
            Home::Solutions => Path::new("solutions/src").join(module(id)),
            Home::Generators => Path::new("generators/src").join(module(id)),
            Home::Data => Path::new("tests/data").join(id),
        }
    }
}

/// Whether a part is one file or a folder that holds at least one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
}

/// One part of a problem: a file, or a folder of files, in one of its homes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub home: Home,
    /// Its path inside the home folder (`fuzz/parse` for a folder inside another).
    pub name: &'static str,
    pub kind: Kind,
    /// What it holds and, for the files the tests write, how to make it.
    pub what: &'static str,
}

impl Part {
    /// Problem `id`'s instance of this part, below the repository's root (for messages).
    pub fn relative(&self, id: &str) -> PathBuf {
        self.home.folder(id).join(self.name)
    }

    /// Problem `id`'s instance of this part.
    pub fn path(&self, id: &str) -> PathBuf {
        repository().join(self.relative(id))
    }

    /// The text of problem `id`'s instance of this file. Panics naming the file when it cannot
    /// be read: every reader is a test or a build script, where a missing part is a bug of
    /// this repository (and the shape check names it).
    pub fn read(&self, id: &str) -> String {
        let path = self.path(id);
        std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} ({}: {})",
                self.relative(id).display(),
                id,
                self.what
            )
        })
    }

    /// The files in problem `id`'s instance of this folder, sorted; none if it does not exist.
    pub fn files(&self, id: &str) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(self.path(id))
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.is_file())
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        found
    }
}

const fn code(home: Home, name: &'static str, what: &'static str) -> Part {
    Part {
        home,
        name,
        kind: Kind::File,
        what,
    }
}

const fn data(name: &'static str, kind: Kind, what: &'static str) -> Part {
    Part {
        home: Home::Data,
        name,
        kind,
        what,
    }
}

/// The case corpus: the spec's samples, hand-made valid cases with answers worked out from the
/// spec, invalid cases with the error they must get.
pub const CORPUS: Part = data(
    "corpus.toml",
    Kind::File,
    "the case corpus: the spec's samples and hand-made valid and invalid cases",
);
/// The LaTeX statement `judge package` puts in packages.
pub const STATEMENT: Part = data(
    "statement.en.tex",
    Kind::File,
    "the LaTeX statement, `\\problemname{…}` on its first line",
);
/// SHA-256 digests of what the judge generates (`tests/integration/generation.rs`).
pub const GOLDEN: Part = data(
    "golden.toml",
    Kind::File,
    "the pinned digests of `judge testset` and `judge gen`; the generation tests print them",
);
/// The kept default test set, `judge testset ID --seed 1` as one text (see [`kept_tests`]).
pub const KEPT_TEST_SET: Part = data(
    "testset.txt",
    Kind::File,
    "the kept default test set: BOARDJUDGE_BLESS=1 cargo test --release --test integration default_testsets",
);
/// What the kept test set kills of a fixed population (`generators/tests/never_weaker.rs`).
pub const SCORE: Part = data(
    "score.txt",
    Kind::File,
    "the never-weaker score: BOARDJUDGE_BLESS=1 cargo test --release -p generators --test never_weaker",
);
/// The recorded mutation population of the reference and fast solvers.
pub const MUTANTS: Part = data(
    "mutants.txt",
    Kind::File,
    "the mutation population: solutions/mutants.sh --fast --record ID",
);
/// Mutants that cannot change an answer on a valid input: cargo-mutants leaves them out.
pub const EQUIVALENT_MUTANTS: Part = data(
    "equivalent-mutants.txt",
    Kind::File,
    "the equivalent mutants' regexes, each with its argument (comments only if there are none)",
);
/// Mutants whose survival depends on the CPU (kernels picked at run time): mutants.sh leaves
/// them out, as a recorded score must not depend on the machine that recorded it.
pub const CPU_DEPENDENT_MUTANTS: Part = data(
    "cpu-dependent-mutants.txt",
    Kind::File,
    "regexes of mutants in code only some CPUs run (mutants.sh leaves them out)",
);
/// Kills of the never-weaker population given up in review, each with why
/// (`generators/tests/never_weaker.rs`).
pub const GIVEN_UP_KILLS: Part = data(
    "given-up-kills.txt",
    Kind::File,
    "kills of the never-weaker score given up in review, `MEMBER  # why` a line",
);
/// What `judge stress` must draw for the problem (`tests/integration/reports.rs`).
pub const PICTURE: Part = data(
    "picture.toml",
    Kind::File,
    "what the problem's picture must show",
);
/// The reference in plain Python, for the Python time-to-find benchmark.
pub const PYTHON_REFERENCE: Part = data(
    "reference.py",
    Kind::File,
    "the reference in plain Python, reading cells through read/scans/beyond",
);
/// Committed inputs of the parse fuzz target.
pub const FUZZ_PARSE: Part = data(
    "fuzz/parse",
    Kind::Folder,
    "committed inputs of the parse fuzz target",
);
/// Committed inputs of the differential fuzz target.
pub const FUZZ_DIFFERENTIAL: Part = data(
    "fuzz/differential",
    Kind::Folder,
    "committed inputs of the differential fuzz target",
);
/// Committed inputs of the generators fuzz target (only once one was found).
pub const FUZZ_GENERATORS: Part = data(
    "fuzz/generators",
    Kind::Folder,
    "committed inputs of the generators fuzz target",
);
/// Real contestants' programs, each with its bug in its first lines.
pub const CONTESTANTS: Part = data(
    "contestants",
    Kind::Folder,
    "real contestants' programs, each with its bug in its first lines",
);
/// Decoy models: known-wrong solvers whose bug only shows beside other stones.
pub const DECOY: Part = code(
    Home::Solutions,
    "decoy.rs",
    "decoy models, known-wrong solvers that `wrong.rs` lists",
);

/// Every part every problem has: a new problem needs one file for each (a folder, one file in
/// it). The shape check (`generators/tests/shape.rs`) fails on any of them missing.
pub const EVERY_PROBLEM_HAS: [Part; 19] = [
    code(
        Home::Solutions,
        "mod.rs",
        "input and answer types, the strict parser, the writers, `impl Problem`",
    ),
    code(
        Home::Solutions,
        "reference.rs",
        "the reference solver, generic over the board access",
    ),
    code(Home::Solutions, "fast.rs", "the fast solver"),
    code(
        Home::Solutions,
        "wrong.rs",
        "at least eight known-wrong solvers, each flag's doc comment its bug",
    ),
    code(
        Home::Generators,
        "mod.rs",
        "`pub mod boundary; pub mod families;` and the test module",
    ),
    code(
        Home::Generators,
        "families.rs",
        "`impl Generate`: valid and invalid families, shrinking steps, the fuzz decoder",
    ),
    code(
        Home::Generators,
        "boundary.rs",
        "`impl Obligations` and `impl Boundary`",
    ),
    code(Home::Generators, "tests.rs", "the generators' unit tests"),
    CORPUS,
    STATEMENT,
    GOLDEN,
    KEPT_TEST_SET,
    SCORE,
    MUTANTS,
    EQUIVALENT_MUTANTS,
    PICTURE,
    PYTHON_REFERENCE,
    FUZZ_PARSE,
    FUZZ_DIFFERENTIAL,
];

/// Parts only some problems have; no other file belongs in a problem's folders.
pub const SOME_PROBLEMS_HAVE: [Part; 5] = [
    DECOY,
    CONTESTANTS,
    FUZZ_GENERATORS,
    CPU_DEPENDENT_MUTANTS,
    GIVEN_UP_KILLS,
];

/// How many files a new problem needs (beside its line in the list of problems).
pub const fn files_a_new_problem_needs() -> usize {
    EVERY_PROBLEM_HAS.len()
}

/// Checks a text that tells how to add a problem (the README's "Adding a problem") against
/// [`EVERY_PROBLEM_HAS`]: it must give the true count, as "N files", and name every part's
/// file. Returns what is wrong, one finding a line.
pub fn check_adding_a_problem(text: &str) -> Result<(), String> {
    let count = format!("{} files", files_a_new_problem_needs());
    let mut wrong = Vec::new();
    if !text.contains(&count) {
        wrong.push(format!("does not say \"{count}\""));
    }
    for part in &EVERY_PROBLEM_HAS {
        if !text.contains(part.name) {
            wrong.push(format!("does not name {}", part.name));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.join("\n"))
    }
}

/// The module name of problem `id` (`gomoku-checker` → `gomoku_checker`).
pub fn module(id: &str) -> String {
    id.replace('-', "_")
}

/// The id of the problem whose module is `module` (ids have no `_`: the shape check sees to it).
pub fn id(module: &str) -> String {
    module.replace('_', "-")
}

/// The repository's root: the nearest folder above the crate being built that holds
/// `tests/data` (this file is compiled into crates and build scripts at different depths).
pub fn repository() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|folder| folder.join("tests/data").is_dir())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// One test of a kept default test set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptTest {
    pub name: String,
    pub input: String,
    pub answer: String,
}

/// The text of a kept test set: for each test, in the order given, `=== NAME`, its input,
/// `--- answer`, its answer (inputs and answers end with their newline).
pub fn kept_test_set_text(tests: &[KeptTest]) -> String {
    let mut out = String::new();
    for test in tests {
        out.push_str("=== ");
        out.push_str(&test.name);
        out.push('\n');
        out.push_str(&test.input);
        out.push_str("--- answer\n");
        out.push_str(&test.answer);
    }
    out
}

/// The tests of a kept test set's text (see [`kept_test_set_text`]). Panics on a malformed
/// one, naming the test: the kept sets are written by the tests, never by hand.
pub fn kept_tests(text: &str) -> Vec<KeptTest> {
    text.split("=== ")
        .skip(1)
        .map(|block| {
            let (name, rest) = block
                .split_once('\n')
                .unwrap_or_else(|| panic!("a kept test without a name line: {block:?}"));
            let (input, answer) = rest
                .split_once("--- answer\n")
                .unwrap_or_else(|| panic!("kept test {name}: no `--- answer` line"));
            KeptTest {
                name: name.to_string(),
                input: input.to_string(),
                answer: answer.to_string(),
            }
        })
        .collect()
}

/// The golden digest `key` of problem `id` (a `key = "DIGEST"` line of its [`GOLDEN`] file).
/// Panics naming the file when there is none.
pub fn golden_digest(id: &str, key: &str) -> String {
    GOLDEN
        .read(id)
        .lines()
        .filter_map(|l| l.split_once(" = \""))
        .find(|(k, _)| *k == key)
        .and_then(|(_, v)| v.split('"').next())
        .unwrap_or_else(|| panic!("{}: no {key} digest", GOLDEN.relative(id).display()))
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_test_set_reads_back_as_written() {
        let tests = vec![
            KeptTest {
                name: "001-sample-1".into(),
                input: "a\nb\n".into(),
                answer: "YES\n".into(),
            },
            KeptTest {
                name: "002-x".into(),
                input: "=\n".into(),
                answer: "1 2\n3\n".into(),
            },
        ];
        let text = kept_test_set_text(&tests);
        assert_eq!(
            text,
            "=== 001-sample-1\na\nb\n--- answer\nYES\n=== 002-x\n=\n--- answer\n1 2\n3\n"
        );
        assert_eq!(kept_tests(&text), tests);
    }

    #[test]
    fn every_part_is_named_once_and_its_home_is_the_problems() {
        let all: Vec<Part> = EVERY_PROBLEM_HAS
            .iter()
            .chain(&SOME_PROBLEMS_HAVE)
            .copied()
            .collect();
        for (i, a) in all.iter().enumerate() {
            assert!(
                all[i + 1..]
                    .iter()
                    .all(|b| (a.home, a.name) != (b.home, b.name)),
                "{:?} {} twice",
                a.home,
                a.name
            );
        }
        assert_eq!(
            KEPT_TEST_SET.relative("sixth-problem"),
            Path::new("tests/data/sixth-problem/testset.txt")
        );
        assert_eq!(
            EVERY_PROBLEM_HAS[0].relative("sixth-problem"),
            Path::new("solutions/src/sixth_problem/mod.rs")
        );
        assert_eq!(id(&module("sixth-problem")), "sixth-problem");
        assert!(repository().join("tests/data").is_dir());
    }

    #[test]
    fn a_description_of_adding_a_problem_must_give_the_count_and_name_every_part() {
        let every: Vec<&str> = EVERY_PROBLEM_HAS.iter().map(|p| p.name).collect();
        let count = files_a_new_problem_needs();
        let good = format!("A new problem is {count} files: {}.", every.join(", "));
        assert_eq!(check_adding_a_problem(&good), Ok(()));
        let wrong_count = good.replace(&format!("{count} files"), &format!("{} files", count + 1));
        assert_eq!(
            check_adding_a_problem(&wrong_count),
            Err(format!("does not say \"{count} files\""))
        );
        let no_score = good.replace("score.txt", "");
        assert_eq!(
            check_adding_a_problem(&no_score),
            Err("does not name score.txt".to_string())
        );
    }
}
