//! The engine's modules depend on each other in one direction only (no cycles), and the
//! judge's commands never import each other: checked on the sources, so a new `use` that
//! closes a loop fails here, naming it.

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

#[test]
fn engine_modules_have_no_cycles() {
    let graph = references(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/core/src"),
        "crate::",
    );
    assert!(graph.contains_key("runner"), "the scan found the modules");
    for module in graph.keys() {
        if let Some(cycle) = cycle_from(&graph, module) {
            panic!("module cycle: {}", cycle.join(" -> "));
        }
    }
}

#[test]
fn commands_do_not_import_each_other() {
    let commands = Path::new(env!("CARGO_MANIFEST_DIR")).join("judge/commands");
    let graph = references(&commands, "crate::commands::");
    assert!(graph.is_empty(), "commands importing commands: {graph:?}");
}

#[test]
fn the_scan_finds_a_planted_cycle() {
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(cycle_from(&graph, "a").unwrap(), ["a", "b", "a"]);
}
