//! The default test sets (`judge testset PROBLEM --seed 1`) are kept, inputs and answers, in
//! `tests/data/PROBLEM/testset.txt`, where `solutions/tests/default_testsets.rs` runs the
//! reference solvers on them without the judge: the test cargo-mutants runs (see the README,
//! "Mutation score"). This test keeps those files equal to what the judge writes; after an
//! intended change to generated tests, rewrite them with `BOARDJUDGE_BLESS=1`.

use std::path::Path;

use solutions::problem_files::{KEPT_TEST_SET, KeptTest, kept_test_set_text};

use crate::generation::scratch;
use crate::util::*;

/// The kept test set's text of the test folder `dir`, its tests in name order.
fn bundle(dir: &Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_suffix(".in").map(str::to_string)
        })
        .collect();
    names.sort();
    let tests: Vec<KeptTest> = names
        .into_iter()
        .map(|name| KeptTest {
            input: std::fs::read_to_string(dir.join(format!("{name}.in"))).unwrap(),
            answer: std::fs::read_to_string(dir.join(format!("{name}.ans"))).unwrap(),
            name,
        })
        .collect();
    kept_test_set_text(&tests)
}

#[test]
fn kept_default_test_sets_match_what_the_judge_writes() {
    let bless = std::env::var_os("BOARDJUDGE_BLESS").is_some();
    for problem in problem_ids() {
        let dir = scratch(&format!("kept-{problem}"));
        let out = judge()
            .args(["testset", problem, "--seed", "1", "--out"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let fresh = bundle(&dir);
        let kept_path = KEPT_TEST_SET.path(problem);
        if bless {
            std::fs::create_dir_all(kept_path.parent().unwrap()).unwrap();
            std::fs::write(&kept_path, &fresh).unwrap();
        }
        let kept = std::fs::read_to_string(&kept_path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{} differs from `judge testset {problem} --seed 1`: rerun with BOARDJUDGE_BLESS=1 if the change is intended",
            kept_path.display()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
