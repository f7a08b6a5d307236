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
//!   forbids it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

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
