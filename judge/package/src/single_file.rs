//! One problem's Rust sources as a single self-contained file: the modules of the `solutions`
//! crate that a solver or validator needs, inlined (`mod x;` becomes `mod x { … }`), with a
//! `main` of its own. Contest tools build a submission or a validator from one file with a
//! plain `rustc` command (BAPCtools and problemtools: `rustc -O --crate-type bin
//! --edition=2018`), so this is what `judge package` and `judge solutions` write.
//!
//! The `solutions` crate uses the standard library only (a layering test keeps it so), so
//! every module a problem uses can go into the file as it is; only test code is left out.

use std::collections::{BTreeMap, BTreeSet};

/// Why a problem's sources do not make a single file.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("module `{0}` has no source file in the solutions crate")]
    NoModule(String),
    #[error("{file}: module `{module}` has no source file")]
    NoChild { file: String, module: String },
    #[error("no source file {0}")]
    NoFile(String),
}

/// The source files of the `solutions` crate, by path relative to its `src/` (`lib.rs`,
/// `board.rs`, `omok/mod.rs` …).
pub struct SourceTree<'a> {
    files: BTreeMap<&'a str, &'a str>,
}

impl<'a> SourceTree<'a> {
    pub fn new(files: &[(&'a str, &'a str)]) -> SourceTree<'a> {
        SourceTree {
            files: files.iter().copied().collect(),
        }
    }

    pub fn get(&self, path: &str) -> Option<&'a str> {
        self.files.get(path).copied()
    }

    /// The file of module `name` declared in folder `dir` (`""` for the crate root), and the
    /// folder of its own submodules.
    fn module_file(&self, dir: &str, name: &str) -> Option<(String, String)> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let flat = format!("{prefix}{name}.rs");
        let nested = format!("{prefix}{name}/mod.rs");
        [flat, nested]
            .into_iter()
            .find(|f| self.files.contains_key(f.as_str()))
            .map(|f| (f, format!("{prefix}{name}")))
    }

    /// The top-level module behind `crate::ident`: the module itself, or the module the
    /// crate root re-exports the item from (`pub use error::{AnswerError, ParseError};`).
    fn top_module_of(&self, ident: &str) -> Option<String> {
        if self.module_file("", ident).is_some() {
            return Some(ident.to_string());
        }
        self.get("lib.rs")?.lines().find_map(|line| {
            let rest = line.trim().strip_prefix("pub use ")?;
            let (module, items) = rest.split_once("::")?;
            let items = items.trim_end_matches(';');
            let items = items.trim_matches(|c| c == '{' || c == '}');
            items
                .split(',')
                .any(|n| n.trim() == ident)
                .then(|| module.to_string())
        })
    }

    /// A single Rust file: `header` (comment lines), the top-level module `problem_module`
    /// (e.g. `omok`) and every top-level module it uses, transitively, each as
    /// `pub mod NAME { … }`, the crate root's re-exports of them, then `main_body`.
    pub fn single_file(
        &self,
        problem_module: &str,
        header: &str,
        main_body: &str,
    ) -> Result<String, ExportError> {
        let mut texts: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = vec![problem_module.to_string()];
        while let Some(name) = queue.pop() {
            if texts.contains_key(&name) {
                continue;
            }
            let (file, dir) = self
                .module_file("", &name)
                .ok_or_else(|| ExportError::NoModule(name.clone()))?;
            let text = self.expand(&file, &dir)?;
            queue.extend(
                crate_paths_used(&text)
                    .iter()
                    .filter_map(|ident| self.top_module_of(ident)),
            );
            texts.insert(name, text);
        }

        let mut out = String::new();
        out.push_str(header);
        out.push_str("#![allow(warnings)]\n\n");
        for line in self.get("lib.rs").unwrap_or("").lines() {
            let t = line.trim();
            if let Some(rest) = t.strip_prefix("pub use ") {
                let module = rest.split("::").next().unwrap_or("");
                if texts.contains_key(module) {
                    out.push_str(&format!("{t}\n"));
                }
            }
        }
        out.push('\n');
        for (name, text) in &texts {
            out.push_str(&format!("pub mod {name} {{\n{text}}}\n\n"));
        }
        out.push_str(main_body);
        Ok(out)
    }

    /// The text of `file` with every `mod x;` replaced by the inlined module, test code left
    /// out, and `include_str!(…)` (the corpus) replaced by an empty string.
    fn expand(&self, file: &str, dir: &str) -> Result<String, ExportError> {
        let text = self
            .get(file)
            .ok_or_else(|| ExportError::NoFile(file.to_string()))?;
        let lines: Vec<&str> = text.lines().collect();
        let mut out = String::new();
        let mut i = 0;
        while i < lines.len() {
            let line = lines[i];
            let trimmed = line.trim();
            if trimmed == "#[cfg(test)]" {
                i = skip_item(&lines, i + 1);
                continue;
            }
            if let Some((visibility, name)) = mod_declaration(trimmed) {
                let (child_file, child_dir) =
                    self.module_file(dir, name)
                        .ok_or_else(|| ExportError::NoChild {
                            file: file.to_string(),
                            module: name.to_string(),
                        })?;
                let child = self.expand(&child_file, &child_dir)?;
                out.push_str(&format!("{visibility}mod {name} {{\n{child}}}\n"));
                i += 1;
                continue;
            }
            out.push_str(&replace_include_str(line));
            out.push('\n');
            i += 1;
        }
        Ok(out)
    }
}

/// The index of the line after the item starting at `lines[start]`: one line, or a braced
/// block that ends at a `}` line indented like its first line.
fn skip_item(lines: &[&str], start: usize) -> usize {
    let Some(first) = lines.get(start) else {
        return start;
    };
    if !first.trim_end().ends_with('{') {
        return start + 1;
    }
    let indent = first.len() - first.trim_start().len();
    let mut i = start + 1;
    while i < lines.len() {
        let l = lines[i];
        i += 1;
        if l.trim() == "}" && l.len() - l.trim_start().len() == indent {
            break;
        }
    }
    i
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// `pub mod x;` → `("pub ", "x")`.
fn mod_declaration(line: &str) -> Option<(&str, &str)> {
    let body = line.strip_suffix(';')?;
    let (visibility, rest) = if let Some(r) = body.strip_prefix("pub(crate) ") {
        ("pub(crate) ", r)
    } else if let Some(r) = body.strip_prefix("pub ") {
        ("pub ", r)
    } else {
        ("", body)
    };
    let name = rest.strip_prefix("mod ")?.trim();
    is_identifier(name).then_some((visibility, name))
}

fn replace_include_str(line: &str) -> String {
    let Some(start) = line.find("include_str!(") else {
        return line.to_string();
    };
    let Some(len) = line[start..].find(')') else {
        return line.to_string();
    };
    format!("{}\"\"{}", &line[..start], &line[start + len + 1..])
}

/// The code of a text, line by line, without `//` comments (doc comments included).
fn code(text: &str) -> impl Iterator<Item = &str> {
    text.lines().map(|l| match l.find("//") {
        Some(i) => &l[..i],
        None => l,
    })
}

/// The first segments of the paths a text names through `crate::x` or `crate::{x::…, y}`.
fn crate_paths_used(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let joined: Vec<&str> = code(text).collect();
    let joined = joined.join("\n");
    let mut rest = joined.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            // The first segment of each item at the group's top level; a nested group
            // belongs to a segment already taken.
            let mut depth = 0;
            let mut item_start = true;
            let mut ident = String::new();
            for ch in group[..end].chars() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        item_start = true;
                        continue;
                    }
                    _ => {}
                }
                if item_start {
                    if ch.is_alphanumeric() || ch == '_' {
                        ident.push(ch);
                    } else if !ident.is_empty() {
                        used.insert(std::mem::take(&mut ident));
                        item_start = false;
                    }
                }
            }
            if !ident.is_empty() {
                used.insert(ident);
            }
        } else {
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !ident.is_empty() {
                used.insert(ident);
            }
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: &[(&str, &str)] = &[
        (
            "lib.rs",
            "pub use error::Oops;\npub mod helper;\npub mod unused;\n",
        ),
        ("error.rs", "pub struct Oops;\n"),
        (
            "helper.rs",
            "//! names crate::unused only in a comment\npub fn one() -> u8 { 1 }\n",
        ),
        ("unused.rs", "pub fn two() -> u8 { 2 }\n"),
        (
            "toy/mod.rs",
            "mod fast;\nuse crate::{helper::one, Oops};\npub struct Toy;\nconst C: &str = include_str!(\"corpus.toml\");\n#[cfg(test)]\nmod tests {\n    fn t() {}\n}\n",
        ),
        (
            "toy/fast.rs",
            "pub fn go() -> u8 { crate::helper::one() }\n",
        ),
    ];

    #[test]
    fn inlines_what_the_problem_uses_and_leaves_out_the_rest() {
        let tree = SourceTree::new(FILES);
        let file = tree
            .single_file("toy", "// head\n", "fn main() {}\n")
            .unwrap();
        assert!(file.starts_with("// head\n#![allow(warnings)]\n"));
        assert!(file.contains("pub use error::Oops;\n"));
        assert!(file.contains("pub mod error {\npub struct Oops;\n}"));
        assert!(file.contains("pub mod helper {"));
        assert!(file.contains("mod fast {\npub fn go()"));
        // `unused` is named in a comment only: not a use, so not inlined.
        assert!(!file.contains("mod unused"), "{file}");
        assert!(!file.contains("mod tests"), "{file}");
        assert!(file.contains("const C: &str = \"\";"));
        assert!(file.ends_with("fn main() {}\n"));
    }

    #[test]
    fn a_module_without_a_file_is_an_error() {
        let tree = SourceTree::new(FILES);
        let err = tree.single_file("nowhere", "", "").unwrap_err();
        assert!(
            matches!(err, ExportError::NoModule(ref m) if m == "nowhere"),
            "{err}"
        );
    }
}
