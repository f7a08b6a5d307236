//! Every problem of the list has the same shape: in its three folders every part of
//! `solutions::problem_files::EVERY_PROBLEM_HAS` (its code, corpus, statement, pinned digests,
//! kept test set and its score, mutation lists, picture, Python port, committed fuzz inputs)
//! and no file that no part names; a corpus with the spec's samples, generator families of
//! valid and invalid inputs, known-wrong solutions and fuzz targets. A sixth problem that
//! lacks a part fails here, naming the file and how it is made.

use std::path::Path;

use generators::Generate;
use generators::corpus::corpus;
use solutions::problem_files::{
    CORPUS, EVERY_PROBLEM_HAS, Home, Kind, Part, SOME_PROBLEMS_HAVE, repository,
};
use solutions::{Problem, tests_per_problem};

/// Is problem `id`'s instance of `part` there (a folder: with a file in it)?
fn present(part: &Part, id: &str) -> bool {
    match part.kind {
        Kind::File => part.path(id).is_file(),
        Kind::Folder => !part.files(id).is_empty(),
    }
}

fn has_every_part<P: Generate>() {
    let id = P::ID;
    let missing: Vec<String> = EVERY_PROBLEM_HAS
        .iter()
        .filter(|part| !present(part, id))
        .map(|part| format!("{} ({})", part.relative(id).display(), part.what))
        .collect();
    assert!(missing.is_empty(), "{id}: missing {}", missing.join("; "));
    // The corpus is embedded with `include_str!` (a literal path): it must be the one here.
    assert!(
        P::CORPUS == CORPUS.read(id),
        "{id}: the corpus solutions/src/{}/mod.rs embeds is not {}",
        solutions::problem_files::module(id),
        CORPUS.relative(id).display()
    );
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
}

/// Every file below `folder`, as paths relative to it with `/` between folders.
fn files_below(folder: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let relative = path.strip_prefix(folder).unwrap();
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// Is `file` (relative to its home folder) `part`, or a file directly in the folder `part`?
fn is_part_of(file: &str, part: &Part) -> bool {
    match part.kind {
        Kind::File => file == part.name,
        Kind::Folder => file
            .strip_prefix(part.name)
            .and_then(|rest| rest.strip_prefix('/'))
            .is_some_and(|name| !name.contains('/')),
    }
}

/// A problem's folders hold its parts and nothing else, so [`EVERY_PROBLEM_HAS`] stays the
/// true list of what a problem needs (the README's "Adding a problem" gives its count).
fn holds_nothing_but_its_parts<P: Problem>() {
    let id = P::ID;
    let parts: Vec<&Part> = EVERY_PROBLEM_HAS
        .iter()
        .chain(&SOME_PROBLEMS_HAVE)
        .collect();
    let mut strangers = Vec::new();
    for home in Home::ALL {
        let folder = home.folder(id);
        for file in files_below(&repository().join(&folder)) {
            if !parts.iter().any(|p| p.home == home && is_part_of(&file, p)) {
                strangers.push(folder.join(file).display().to_string());
            }
        }
    }
    assert!(
        strangers.is_empty(),
        "{id}: files no part of a problem names (a new kind of part goes into \
         solutions::problem_files, and the count into the README's \"Adding a problem\"): {}",
        strangers.join(", ")
    );
}

#[test]
fn a_folder_part_holds_files_directly() {
    let fuzz = solutions::problem_files::FUZZ_PARSE;
    assert!(is_part_of("fuzz/parse/crash-1", &fuzz));
    assert!(!is_part_of("fuzz/parse", &fuzz));
    assert!(!is_part_of("fuzz/parse/deeper/crash-1", &fuzz));
    assert!(!is_part_of("fuzz/parser/crash-1", &fuzz));
    assert!(is_part_of("corpus.toml", &CORPUS));
    assert!(!is_part_of("corpus.toml.orig", &CORPUS));
}

solutions::for_each_problem!(tests_per_problem, has_every_part => has_every_part);
solutions::for_each_problem!(tests_per_problem, holds_nothing_but_its_parts => holds_nothing_but_its_parts);
