//! Typed reading of YAML maps: each getter says what it expected and where, and keys nobody
//! asked for become "unknown key" warnings.

use std::path::{Path, PathBuf};

use crate::error::{Location, PackageError, Warnings};
use crate::yaml::{Key, Node, Value};

/// A YAML map being read; remembers which keys were taken.
pub(crate) struct Fields<'a> {
    pub file: PathBuf,
    /// Dotted path of this map for messages (`limits`), empty at the top.
    pub prefix: String,
    entries: &'a [(Key, Node)],
    taken: Vec<bool>,
    pub line: usize,
    pub column: usize,
}

impl<'a> Fields<'a> {
    /// Read `node` as a map; `None` (an empty file) is an empty map.
    pub fn new(
        node: Option<&'a Node>,
        file: &Path,
        prefix: &str,
    ) -> Result<Fields<'a>, PackageError> {
        let (entries, line, column): (&[(Key, Node)], usize, usize) = match node {
            None => (&[], 1, 1),
            Some(n) => match &n.value {
                Value::Map(entries) => (entries, n.line, n.column),
                Value::Null => (&[], n.line, n.column),
                _ => {
                    return Err(PackageError::invalid(
                        n.location(file),
                        format!(
                            "{}expected a map of keys to values, found {}",
                            label(prefix),
                            n.describe()
                        ),
                    ));
                }
            },
        };
        Ok(Fields {
            file: file.to_path_buf(),
            prefix: prefix.to_string(),
            taken: vec![false; entries.len()],
            entries,
            line,
            column,
        })
    }

    /// `prefix.key` for messages.
    pub fn path_of(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else {
            format!("{}.{key}", self.prefix)
        }
    }

    /// Take a key's value; `null` counts as absent.
    pub fn take(&mut self, key: &str) -> Option<&'a Node> {
        let i = self.entries.iter().position(|(k, _)| k.text == key)?;
        self.taken[i] = true;
        let node = &self.entries[i].1;
        (!matches!(node.value, Value::Null)).then_some(node)
    }

    /// Whether the key is present (even if null).
    pub fn has(&self, key: &str) -> bool {
        self.entries.iter().any(|(k, _)| k.text == key)
    }

    /// The keys not taken yet, with their nodes, taking them.
    pub fn take_rest(&mut self) -> Vec<(&'a Key, &'a Node)> {
        let mut rest = Vec::new();
        for (i, (k, v)) in self.entries.iter().enumerate() {
            if !self.taken[i] {
                self.taken[i] = true;
                rest.push((k, v));
            }
        }
        rest
    }

    /// Warn about every key not taken: the spec calls unknown keys errors, but real packages
    /// carry tool-specific ones (BAPCtools' `verified`, problemtools' old keys), so they are
    /// reported and skipped.
    pub fn warn_unknown(&mut self, version: &str, warnings: &mut Warnings) {
        for (key, _) in self.take_rest() {
            warnings.push(
                Location::at(&self.file, key.line, key.column),
                format!(
                    "ignored: `{}` is not a key the {version} format defines here",
                    self.path_of(&key.text)
                ),
            );
        }
    }

    /// The location of a key's value, or of the map.
    pub fn location_of(&self, node: Option<&Node>) -> Location {
        match node {
            Some(n) => n.location(&self.file),
            None => Location::at(&self.file, self.line, self.column),
        }
    }

    fn wrong(&self, key: &str, node: &Node, expected: &str) -> PackageError {
        PackageError::invalid(
            node.location(&self.file),
            format!(
                "{}: expected {expected}, found {}",
                self.path_of(key),
                node.describe()
            ),
        )
    }

    /// A string (numbers and booleans are taken as written: `name: 2048` is the name "2048").
    pub fn text(&mut self, key: &str) -> Result<Option<String>, PackageError> {
        match self.take(key) {
            None => Ok(None),
            Some(n) => match n.scalar_text() {
                Some(s) => Ok(Some(s.to_string())),
                None => Err(self.wrong(key, n, "a string")),
            },
        }
    }

    /// A number > `above` (or >= when `inclusive`).
    pub fn number(
        &mut self,
        key: &str,
        above: f64,
        inclusive: bool,
    ) -> Result<Option<f64>, PackageError> {
        let Some(n) = self.take(key) else {
            return Ok(None);
        };
        let bound = if inclusive { ">=" } else { ">" };
        let expected = format!("a number {bound} {above}");
        let value = n.as_f64().ok_or_else(|| self.wrong(key, n, &expected))?;
        let ok = value.is_finite()
            && if inclusive {
                value >= above
            } else {
                value > above
            };
        if !ok {
            return Err(self.wrong(key, n, &expected));
        }
        Ok(Some(value))
    }

    /// An integer >= `min`. A float with no fraction (`1024.0`) is taken too.
    pub fn integer(&mut self, key: &str, min: u64) -> Result<Option<u64>, PackageError> {
        let Some(n) = self.take(key) else {
            return Ok(None);
        };
        let expected = format!("an integer >= {min}");
        let value = match &n.value {
            Value::Int(i, _) => u64::try_from(*i).ok(),
            Value::Float(f, _) if f.fract() == 0.0 && *f >= 0.0 && *f < 9.0e15 => Some(*f as u64),
            _ => None,
        };
        match value {
            Some(v) if v >= min => Ok(Some(v)),
            _ => Err(self.wrong(key, n, &expected)),
        }
    }

    /// A boolean.
    pub fn boolean(&mut self, key: &str) -> Result<Option<bool>, PackageError> {
        match self.take(key) {
            None => Ok(None),
            Some(n) => n
                .as_bool()
                .map(Some)
                .ok_or_else(|| self.wrong(key, n, "true or false")),
        }
    }
}

/// A list of strings; a single scalar is a list of one when `single_ok`.
pub(crate) fn string_list(
    node: &Node,
    file: &Path,
    what: &str,
    single_ok: bool,
) -> Result<Vec<String>, PackageError> {
    if let Value::Seq(items) = &node.value {
        return items
            .iter()
            .map(|item| {
                item.scalar_text().map(str::to_string).ok_or_else(|| {
                    PackageError::invalid(
                        item.location(file),
                        format!("{what}: expected a string, found {}", item.describe()),
                    )
                })
            })
            .collect();
    }
    match node.scalar_text() {
        Some(s) if single_ok => Ok(vec![s.to_string()]),
        _ => Err(PackageError::invalid(
            node.location(file),
            format!(
                "{what}: expected a list of strings{}, found {}",
                if single_ok { " or a string" } else { "" },
                node.describe()
            ),
        )),
    }
}

fn label(prefix: &str) -> String {
    if prefix.is_empty() {
        String::new()
    } else {
        format!("{prefix}: ")
    }
}
