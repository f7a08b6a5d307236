//! Applies the recorded mutation population of every problem (`tests/data/<id>/mutants.txt`,
//! written by `solutions/mutants.sh --fast --record`) to copies of the mutated files, so the
//! never-weaker check (`tests/never_weaker.rs`) can run every mutant in process on the kept
//! test sets: `OUT_DIR/mutants.rs`, one module per problem folder with `MUTANTS` (each
//! mutant's name, cargo-mutants' outcome and its `solve`) and `STALE` (mutants whose file
//! changed since the run: the text at their place is not the text they were recorded
//! against; the check fails naming them until the population is recorded again).
//!
//! Only that test includes the file; nothing else compiles the copies.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// Where each problem's files are: the one module that builds their paths (a build script
// cannot use the `solutions` crate without building it a second time). Most of it is for the
// crates' tests.
#[allow(dead_code)]
#[path = "../solutions/src/problem_files.rs"]
mod problem_files;

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The byte offset of 1-based (line, character column) in `text`.
fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let rest = text.get(start..)?;
    let within = rest
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(rest.len()))
        .nth(column - 1)?;
    Some(start + within)
}

fn position(text: &str) -> Option<(usize, usize)> {
    let (line, column) = text.split_once(':')?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

/// `crate::` becomes `solutions::` (the copy lives in another crate); test modules are left
/// out (they reach private items of the solver's crate).
fn transplant(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        out.push_str(&rest[..i]);
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '(') {
            out.push_str("crate::");
        } else {
            out.push_str("solutions::");
        }
        rest = &rest[i + "crate::".len()..];
    }
    out.push_str(rest);
    out.replace("#[cfg(test)]", "#[cfg(any())]")
}

fn camel(module: &str) -> String {
    module
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

fn main() {
    let root = problem_files::repository();
    println!(
        "cargo:rerun-if-changed={}",
        root.join("solutions/src/problem_files.rs").display()
    );
    let problems = root.join("solutions/src");
    println!("cargo:rerun-if-changed={}", problems.display());
    let mut folders: Vec<PathBuf> = std::fs::read_dir(&problems)
        .expect("solutions/src")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("reference.rs").is_file())
        .collect();
    folders.sort();
    let mut out = String::from(
        "/// A mutant of a solver: cargo-mutants' name for it, its outcome in the recorded run, and\n\
         /// the mutated solver.\n\
         pub struct Mutant<I: 'static, A: 'static> {\n    \
             pub name: &'static str,\n    \
             pub outcome: &'static str,\n    \
             pub solve: fn(&I) -> A,\n\
         }\n\n",
    );
    for folder in folders {
        let module = folder.file_name().unwrap().to_string_lossy().into_owned();
        let id = problem_files::id(&module);
        let list = problem_files::MUTANTS.path(&id);
        println!("cargo:rerun-if-changed={}", list.display());
        for file in ["reference.rs", "fast.rs", "mod.rs"] {
            println!("cargo:rerun-if-changed={}", folder.join(file).display());
        }
        let text = std::fs::read_to_string(&list).unwrap_or_default();
        let (mut mutants, mut stale) = (Vec::new(), Vec::new());
        writeln!(out, "pub mod {module} {{").unwrap();
        for (k, line) in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .enumerate()
        {
            let fields: Vec<&str> = line.split('\t').collect();
            let [file, span, hash, replacement, outcome, name] = fields[..] else {
                stale.push(format!(
                    "{}: a malformed line: {line}",
                    problem_files::MUTANTS.relative(&id).display()
                ));
                continue;
            };
            let source = std::fs::read_to_string(root.join(file)).unwrap_or_default();
            let found = span.split_once('-').and_then(|(a, b)| {
                let (l1, c1) = position(a)?;
                let (l2, c2) = position(b)?;
                Some((offset(&source, l1, c1)?, offset(&source, l2, c2)?))
            });
            let Some((start, end)) = found.filter(|&(s, e)| fnv(&source[s..e]) == hash) else {
                stale.push(name.to_string());
                continue;
            };
            let mutated = format!(
                "{}{} /* ~ mutant ~ */{}",
                &source[..start],
                unescape(replacement),
                &source[end..]
            );
            writeln!(
                out,
                "    #[allow(warnings, arithmetic_overflow, unconditional_panic, unsafe_op_in_unsafe_fn, \
                 clippy::all, clippy::pedantic, clippy::nursery, clippy::undocumented_unsafe_blocks)]\n    \
                 pub mod m{k} {{\n        pub use solutions::{module}::*;\n        pub mod file {{\n{}\n        }}\n    }}",
                transplant(&mutated)
            )
            .unwrap();
            mutants.push(format!(
                "        super::Mutant {{ name: {name:?}, outcome: {outcome:?}, solve: m{k}::file::solve }},"
            ));
        }
        writeln!(
            out,
            "    pub const MUTANTS: &[super::Mutant<solutions::{module}::Input, solutions::{module}::Answer>] = &[\n{}\n    ];",
            mutants.join("\n")
        )
        .unwrap();
        writeln!(out, "    pub const STALE: &[&str] = &{stale:?};").unwrap();
        writeln!(out, "    pub type Problem = solutions::{};", camel(&module)).unwrap();
        writeln!(out, "}}").unwrap();
    }
    let dest =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("mutants.rs");
    std::fs::write(dest, out).expect("writing mutants.rs");
}
