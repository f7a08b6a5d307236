//! Every problem of the list has the same shape: its folder with the same files, a corpus with
//! the spec's samples, generator families of valid and invalid inputs, known-wrong solutions,
//! pinned digests and fuzz targets with committed inputs. A sixth problem that lacks a part
//! fails here, by name.

use std::path::Path;

use generators::Generate;
use generators::corpus::corpus;
use solutions::tests_per_problem;

/// The files every problem's folders hold: (folder below the repository root, file), the
/// folder named by the problem's module (`<id with _>`) or, under `tests/data`, by its id.
const FILES: [(&str, &str); 12] = [
    ("solutions/src", "mod.rs"),
    ("solutions/src", "reference.rs"),
    ("solutions/src", "fast.rs"),
    ("solutions/src", "wrong.rs"),
    ("tests/data", "corpus.toml"),
    ("tests/data", "statement.en.tex"),
    ("generators/src", "mod.rs"),
    ("generators/src", "families.rs"),
    ("tests/data", "golden.toml"),
    ("tests/data", "testset.txt"),
    ("tests/data", "reference.py"),
    ("tests/data", "fuzz"),
];

fn has_every_part<P: Generate>() {
    let id = P::ID;
    let module = id.replace('-', "_");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (parent, file) in FILES {
        let folder = if parent == "tests/data" { id } else { &module };
        let path = Path::new(parent).join(folder).join(file);
        assert!(
            root.join(&path).exists(),
            "{id}: {} is missing",
            path.display()
        );
    }
    assert!(
        id.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
        "{id}: ids are lowercase letters, digits and '-'"
    );
    assert!(!P::SUMMARY.is_empty(), "{id}: no summary");
    let corpus = corpus::<P>();
    assert!(
        corpus.valid.iter().any(|c| c.sample),
        "{id}: no spec sample in the corpus"
    );
    assert!(!corpus.invalid.is_empty(), "{id}: no invalid corpus case");
    assert!(!P::families().is_empty(), "{id}: no valid family");
    assert!(!P::invalid_families().is_empty(), "{id}: no invalid family");
    assert!(
        P::solvers().len() >= 2,
        "{id}: needs a reference and a fast solver"
    );
    assert!(
        P::wrong_solvers().len() >= 8,
        "{id}: fewer than 8 known-wrong solutions"
    );
    assert!(
        generators::fuzz_bodies::ALL.iter().any(|t| t.id == id),
        "{id}: no fuzz targets"
    );
    for kind in ["parse", "differential"] {
        let committed = root.join("tests/data").join(id).join("fuzz").join(kind);
        let count = std::fs::read_dir(&committed).map_or(0, |d| d.count());
        assert!(
            count > 0,
            "{id}: no committed inputs in {}",
            committed.display()
        );
    }
}

solutions::for_each_problem!(tests_per_problem, has_every_part => has_every_part);
