//! The layers, checked on the sources and manifests, so a new dependency or `use` that breaks
//! them fails here, naming it:
//!
//! - crates depend one way: the `judge` binary → {`judge-package`, `judge-report`} →
//!   `judge-core` → {`generators`, `sandbox`} → `solutions`, which uses the standard library
//!   only (single-file export inlines its modules as they are); `package-format` (reading
//!   contest problem packages) depends on no workspace crate, so any layer may use it;
//! - within every crate, no two modules depend on each other (no cycles), and the binary's
//!   commands never import each other;
//! - `unsafe` only in the sandbox crate and the solvers' SIMD kernels: every other crate
//!   forbids it;
//! - the terminal is the binary's: the command line (`clap`), progress bars (`indicatif`) and
//!   signal handling (`ctrlc`) are dependencies of the root package only;
//! - problems are named in their own folders and in the list of problems, hardly anywhere
//!   else: at most [`FILES_NAMING_MOST_PROBLEMS`] files outside the problems' folders (code,
//!   tests, scripts, data: everything but Markdown) name four or more problems.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use solutions::problem_files::Home;

use crate::util::problem_ids;

/// `crate::NAME` references of every `.rs` file below `dir`, by top-level module.
fn references(dir: &Path, prefix: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            if path.is_dir() {
                continue;
            }
            let relative = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let module = relative.split('/').next().unwrap().trim_end_matches(".rs");
            if module == "lib" || module == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for (i, _) in text.match_indices(prefix) {
                let name: String = text[i + prefix.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit())
                    .collect();
                if !name.is_empty() && name != module {
                    graph.entry(module.to_string()).or_default().insert(name);
                }
            }
        }
    }
    graph
}

/// A cycle through `start`, if there is one.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        start: &str,
    ) -> bool {
        let last = path.last().unwrap().clone();
        for next in graph.get(&last).into_iter().flatten() {
            if next == start {
                path.push(next.clone());
                return true;
            }
            if !path.contains(next) {
                path.push(next.clone());
                if walk(graph, path, start) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, &mut path, start).then_some(path)
}

/// Every crate of the workspace: (package name, its folder below the root, its sources).
const CRATES: [(&str, &str, &str); 8] = [
    ("boardjudge", ".", "judge"),
    ("judge-package", "judge/package", "judge/package/src"),
    (
        "package-format",
        "judge/package-format",
        "judge/package-format/src",
    ),
    ("judge-report", "judge/report", "judge/report/src"),
    ("judge-core", "judge/core", "judge/core/src"),
    ("sandbox", "judge/sandbox", "judge/sandbox/src"),
    ("generators", "generators", "generators/src"),
    ("solutions", "solutions", "solutions/src"),
];

/// Which workspace crates each crate may depend on (its lower layers).
fn allowed(name: &str) -> &'static [&'static str] {
    match name {
        "boardjudge" => &[
            "judge-package",
            "judge-report",
            "judge-core",
            "package-format",
            "sandbox",
            "generators",
            "solutions",
        ],
        "judge-package" | "judge-report" => &[
            "judge-core",
            "package-format",
            "sandbox",
            "generators",
            "solutions",
        ],
        "judge-core" => &["package-format", "sandbox", "generators", "solutions"],
        "generators" => &["solutions"],
        _ => &[],
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn crates_depend_on_lower_layers_only() {
    let members: Vec<&str> = CRATES.iter().map(|c| c.0).collect();
    for (name, folder, _) in CRATES {
        let path = root().join(folder).join("Cargo.toml");
        let manifest: toml::Table = std::fs::read_to_string(&path).unwrap().parse().unwrap();
        let dependencies = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .cloned()
            .unwrap_or_default();
        for dependency in dependencies.keys() {
            if members.contains(&dependency.as_str()) {
                assert!(
                    allowed(name).contains(&dependency.as_str()),
                    "{name} depends on {dependency}: against the layers"
                );
            }
        }
        if name != "boardjudge" {
            for terminal in ["clap", "indicatif", "ctrlc"] {
                assert!(
                    !dependencies.contains_key(terminal),
                    "{name} depends on {terminal}: the terminal is the binary's (judge/)"
                );
            }
        }
        if name == "solutions" {
            assert!(
                dependencies.is_empty(),
                "solutions must use the standard library only, found {:?}",
                dependencies.keys().collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn modules_have_no_cycles_in_any_crate() {
    for (name, _, sources) in CRATES {
        let graph = references(&root().join(sources), "crate::");
        for module in graph.keys() {
            if let Some(cycle) = cycle_from(&graph, module) {
                panic!("{name}: module cycle: {}", cycle.join(" -> "));
            }
        }
    }
    // The scan sees the modules (a scan that found nothing would pass vacuously).
    let core = references(&root().join("judge/core/src"), "crate::");
    assert!(core.contains_key("runner"), "{core:?}");
}

#[test]
fn commands_do_not_import_each_other() {
    let graph = references(&root().join("judge/commands"), "crate::commands::");
    assert!(graph.is_empty(), "commands importing commands: {graph:?}");
}

#[test]
fn only_the_sandbox_and_the_simd_kernels_use_unsafe() {
    for (name, _, sources) in CRATES {
        let lib = ["lib.rs", "main.rs"]
            .iter()
            .map(|f| root().join(sources).join(f))
            .find(|p| p.exists())
            .unwrap();
        let text = std::fs::read_to_string(&lib).unwrap();
        let forbids = text.contains("#![forbid(unsafe_code)]");
        match name {
            // The sandbox is made of system calls; the solvers keep `unsafe` to the SIMD
            // kernels of their fast solvers, each block with a `// SAFETY:` comment (clippy).
            "sandbox" | "solutions" => {}
            _ => assert!(forbids, "{name}: {} must forbid unsafe code", lib.display()),
        }
    }
}

#[test]
fn the_scan_finds_a_planted_cycle() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycle_from(&graph, "a").unwrap(), ["a", "b", "a"]);
}

/// How many files outside the problems' folders may name four or more problems: the list of
/// problems (`solutions/src/lib.rs`) and one more. Everything else that needs every problem
/// expands `solutions::for_each_problem!`, asks `judge problems`, or reads the problems' data.
const FILES_NAMING_MOST_PROBLEMS: usize = 2;

/// Does `text` name `name` as a whole word (not inside a longer identifier: `omok` is not
/// named by `gomoku`), ignoring case?
fn names(text: &str, name: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    text.match_indices(name).any(|(i, _)| {
        !is_word(text[..i].chars().next_back()) && !is_word(text[i + name.len()..].chars().next())
    })
}

/// The ways a file may name problem `id`: its id, its module, and its module without `_`
/// (its type's name, lowercased, and its package folder's name).
fn spellings(id: &str) -> [String; 3] {
    [id.to_string(), id.replace('-', "_"), id.replace('-', "")]
}

/// Every file below `dir` but those git ignores (the build's `target/`, fuzzing's corpora and
/// reports: the names a `.gitignore` lists without wildcards, at any depth below it) and `.git`.
fn repository_files(dir: &Path, ignored: &BTreeSet<String>, out: &mut Vec<PathBuf>) {
    let mut ignored = ignored.clone();
    if let Ok(text) = std::fs::read_to_string(dir.join(".gitignore")) {
        ignored.extend(
            text.lines()
                .map(|l| l.trim().trim_matches('/'))
                .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.contains('*'))
                .map(str::to_string),
        );
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == ".git" || ignored.contains(&name) {
            continue;
        }
        if path.is_dir() {
            repository_files(&path, &ignored, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn few_files_outside_the_problems_folders_name_most_problems() {
    let ids = problem_ids();
    let folders: Vec<PathBuf> = ids
        .iter()
        .flat_map(|id| Home::ALL.map(|home| root().join(home.folder(id))))
        .collect();
    let mut files = Vec::new();
    repository_files(root(), &BTreeSet::new(), &mut files);
    let mut naming_most = Vec::new();
    for file in &files {
        if folders.iter().any(|f| file.starts_with(f))
            || file.extension().is_some_and(|e| e == "md")
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(file) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let named: Vec<&str> = ids
            .iter()
            .filter(|id| spellings(id).iter().any(|s| names(&text, s)))
            .copied()
            .collect();
        if named.len() >= 4 {
            let relative = file.strip_prefix(root()).unwrap();
            naming_most.push(format!("{} ({})", relative.display(), named.join(", ")));
        }
    }
    // The scan sees the list itself (a scan that found nothing would pass vacuously).
    assert!(
        naming_most
            .iter()
            .any(|f| f.starts_with("solutions/src/lib.rs ")),
        "{naming_most:?}"
    );
    assert!(
        naming_most.len() <= FILES_NAMING_MOST_PROBLEMS,
        "{} files outside the problems' folders name four or more problems (at most \
         {FILES_NAMING_MOST_PROBLEMS}: expand solutions::for_each_problem!, ask `judge problems` \
         or put what differs per problem into its folder):\n  {}",
        naming_most.len(),
        naming_most.join("\n  ")
    );
}

#[test]
fn a_name_counts_only_as_a_whole_word() {
    assert!(names("judge stress omok --seed 1", "omok"));
    assert!(names("solutions::Omok", "omok"));
    assert!(names("\"omok--row-col-swapped\"", "omok"));
    assert!(!names("a gomoku board", "omok"));
    assert!(!names("omok_like", "omok"));
    assert!(names(
        "mod gomoku_checker;",
        &spellings("gomoku-checker")[1]
    ));
    assert!(names("GomokuChecker", &spellings("gomoku-checker")[2]));
}

/// The fast tier (`cargo test-fast`, `.cargo/config.toml`) names every test file of the
/// crates' `tests/` folders but the integration tests of the binary: a test file it forgot
/// would run only in the full suite.
#[test]
fn the_fast_tier_lists_every_test_file() {
    let config = std::fs::read_to_string(root().join(".cargo/config.toml")).unwrap();
    let alias = config
        .split("test-fast = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("a test-fast alias in .cargo/config.toml");
    let words: Vec<&str> = alias
        .split(',')
        .map(|w| w.trim().trim_matches('"'))
        .filter(|w| !w.is_empty())
        .collect();
    let listed: BTreeSet<&str> = words
        .windows(2)
        .filter(|pair| pair[0] == "--test")
        .map(|pair| pair[1])
        .collect();
    let mut files = BTreeSet::new();
    for (name, folder, _) in CRATES {
        if name == "boardjudge" {
            continue;
        }
        let tests = root().join(folder).join("tests");
        let Ok(entries) = std::fs::read_dir(&tests) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "rs") {
                files.insert(path.file_stem().unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let files: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    assert!(!files.is_empty());
    assert_eq!(
        listed, files,
        "the test files and the fast tier's --test list differ"
    );
    assert!(words.contains(&"--lib") && words.contains(&"--workspace"));
}
