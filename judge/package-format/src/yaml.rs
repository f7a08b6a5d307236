//! A small YAML tree with positions, built from `saphyr-parser`'s events.
//!
//! Why not a ready-made tree: every value here keeps its line and column (for errors that say
//! where), its raw text (a constant's `10.0` stays `10.0`), and the build is bounded for hostile
//! files: nesting deeper than [`MAX_DEPTH`] and alias expansion beyond [`MAX_ALIAS_NODES`] are
//! errors, not a stack overflow or a "billion laughs" memory blow-up. Plain scalars are typed by
//! the YAML 1.2 core schema; duplicate keys are errors (the YAML spec requires unique keys).

use std::collections::HashMap;
use std::path::Path;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use crate::error::{Location, PackageError};

/// Deepest nesting of sequences and maps accepted. Package YAML files nest three or four
/// levels; the bound keeps recursion in the reader (and in `Drop`) shallow.
pub(crate) const MAX_DEPTH: usize = 64;
/// Most nodes that aliases may add by copying anchored values.
pub(crate) const MAX_ALIAS_NODES: usize = 10_000;
/// Largest YAML file read, in bytes. Configuration files are a few KiB.
pub(crate) const MAX_FILE_BYTES: u64 = 4 << 20;

/// One YAML value and where it starts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Node {
    pub value: Value,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
}

/// A YAML value. Scalars keep their text as written (`raw`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Bool(bool, String),
    Int(i64, String),
    Float(f64, String),
    Str(String),
    Seq(Vec<Node>),
    /// Entries in file order; keys are scalars, kept as their text.
    Map(Vec<(Key, Node)>),
}

/// A map key: its text and where it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Key {
    pub text: String,
    pub line: usize,
    pub column: usize,
}

impl Node {
    /// The location of this node in `file`.
    pub fn location(&self, file: &Path) -> Location {
        Location::at(file, self.line, self.column)
    }

    /// A short description of what was found, for "expected …, found …" messages.
    pub fn describe(&self) -> String {
        match &self.value {
            Value::Null => "nothing (null)".to_string(),
            Value::Bool(_, raw) | Value::Int(_, raw) | Value::Float(_, raw) => {
                format!("`{}`", shorten(raw))
            }
            Value::Str(s) => format!("the string {:?}", shorten(s)),
            Value::Seq(_) => "a list".to_string(),
            Value::Map(_) => "a map".to_string(),
        }
    }

    /// The text of a scalar (a string, or a number or boolean as written); `None` for null,
    /// lists and maps.
    pub fn scalar_text(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            Value::Bool(_, raw) | Value::Int(_, raw) | Value::Float(_, raw) => Some(raw),
            Value::Null | Value::Seq(_) | Value::Map(_) => None,
        }
    }

    /// The entries if this is a map.
    pub fn as_map(&self) -> Option<&[(Key, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// A number (integer or float).
    pub fn as_f64(&self) -> Option<f64> {
        match &self.value {
            Value::Int(i, _) => Some(*i as f64),
            Value::Float(f, _) => Some(*f),
            _ => None,
        }
    }

    /// A boolean. PyYAML (which problemtools and BAPCtools use) reads YAML 1.1, where `yes`,
    /// `no`, `on`, `off` are booleans too; a key that wants a boolean takes them as well.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(b, _) => Some(*b),
            Value::Str(s) => match s.as_str() {
                "yes" | "Yes" | "YES" | "on" | "On" | "ON" => Some(true),
                "no" | "No" | "NO" | "off" | "Off" | "OFF" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

fn shorten(text: &str) -> String {
    const LIMIT: usize = 40;
    if text.chars().count() <= LIMIT {
        text.to_string()
    } else {
        let cut: String = text.chars().take(LIMIT).collect();
        format!("{cut}…")
    }
}

/// The text of a configuration file: UTF-8 (the format requires it), a byte-order mark refused
/// with a clear message.
pub(crate) fn decode<'a>(bytes: &'a [u8], relative: &Path) -> Result<&'a str, PackageError> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(PackageError::invalid(
            Location::at(relative, 1, 1),
            "starts with a byte-order mark; the format requires UTF-8 without one",
        ));
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|b| **b == b'\n').count() + 1;
        let column = before.len()
            - before
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        PackageError::invalid(
            Location::at(relative, line, column),
            "not UTF-8 text; the format requires UTF-8",
        )
    })
}

enum Frame {
    Seq {
        items: Vec<Node>,
        line: usize,
        column: usize,
        anchor: usize,
    },
    Map {
        entries: Vec<(Key, Node)>,
        pending_key: Option<Key>,
        line: usize,
        column: usize,
        anchor: usize,
    },
}

/// Parse YAML text. An empty document is `None`; more than one document is an error.
pub(crate) fn parse(text: &str, relative: &Path) -> Result<Option<Node>, PackageError> {
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut alias_budget = MAX_ALIAS_NODES;
    let mut root: Option<Node> = None;
    let mut documents = 0usize;
    let at = |span: &Span| (span.start.line(), span.start.col() + 1);

    for event in Parser::new_from_str(text) {
        let (event, span) = event.map_err(|e| PackageError::Yaml {
            location: Location::at(relative, e.marker().line(), e.marker().col() + 1),
            message: e.info().to_string(),
        })?;
        let (line, column) = at(&span);
        let complete: Option<(Node, usize)> = match event {
            Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentEnd => None,
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err(PackageError::invalid(
                        Location::at(relative, line, column),
                        "a second YAML document; the file must hold one",
                    ));
                }
                None
            }
            Event::SequenceStart(anchor, _) => {
                check_depth(stack.len(), relative, line, column)?;
                stack.push(Frame::Seq {
                    items: Vec::new(),
                    line,
                    column,
                    anchor,
                });
                None
            }
            Event::MappingStart(anchor, _) => {
                check_depth(stack.len(), relative, line, column)?;
                stack.push(Frame::Map {
                    entries: Vec::new(),
                    pending_key: None,
                    line,
                    column,
                    anchor,
                });
                None
            }
            Event::SequenceEnd | Event::MappingEnd => match stack.pop() {
                Some(Frame::Seq {
                    items,
                    line,
                    column,
                    anchor,
                }) => Some((
                    Node {
                        value: Value::Seq(items),
                        line,
                        column,
                    },
                    anchor,
                )),
                Some(Frame::Map {
                    entries,
                    line,
                    column,
                    anchor,
                    ..
                }) => Some((
                    Node {
                        value: Value::Map(entries),
                        line,
                        column,
                    },
                    anchor,
                )),
                None => None,
            },
            Event::Scalar(text, style, anchor, tag) => {
                let forced_string = tag
                    .as_ref()
                    .is_some_and(|t| t.is_yaml_core_schema() && t.suffix == "str");
                let value = if style == ScalarStyle::Plain && !forced_string {
                    resolve_plain(&text)
                } else {
                    Value::Str(text.into_owned())
                };
                Some((
                    Node {
                        value,
                        line,
                        column,
                    },
                    anchor,
                ))
            }
            Event::Alias(id) => {
                let Some(target) = anchors.get(&id) else {
                    return Err(PackageError::invalid(
                        Location::at(relative, line, column),
                        "alias of an unknown anchor",
                    ));
                };
                let size = count_nodes(target);
                if size > alias_budget {
                    return Err(PackageError::invalid(
                        Location::at(relative, line, column),
                        format!(
                            "aliases expand to more than {MAX_ALIAS_NODES} values (a \"billion laughs\" file?)"
                        ),
                    ));
                }
                alias_budget -= size;
                let mut copy = target.clone();
                copy.line = line;
                copy.column = column;
                Some((copy, 0))
            }
        };
        let Some((node, anchor)) = complete else {
            continue;
        };
        if anchor > 0 {
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                pending_key,
                ..
            }) => match pending_key.take() {
                None => {
                    let Some(text) = node
                        .scalar_text()
                        .map(str::to_string)
                        .or_else(|| matches!(node.value, Value::Null).then(String::new))
                    else {
                        return Err(PackageError::invalid(
                            node.location(relative),
                            format!("a map key must be a plain value, found {}", node.describe()),
                        ));
                    };
                    if let Some((first, _)) = entries.iter().find(|(k, _)| k.text == text) {
                        return Err(PackageError::invalid(
                            node.location(relative),
                            format!(
                                "duplicate key `{text}` (first at line {}); YAML keys must be unique",
                                first.line
                            ),
                        ));
                    }
                    *pending_key = Some(Key {
                        text,
                        line: node.line,
                        column: node.column,
                    });
                }
                Some(key) => entries.push((key, node)),
            },
        }
    }
    Ok(root.filter(|n| !matches!(n.value, Value::Null)))
}

fn check_depth(
    depth: usize,
    relative: &Path,
    line: usize,
    column: usize,
) -> Result<(), PackageError> {
    if depth >= MAX_DEPTH {
        return Err(PackageError::invalid(
            Location::at(relative, line, column),
            format!("nested more than {MAX_DEPTH} levels deep"),
        ));
    }
    Ok(())
}

fn count_nodes(node: &Node) -> usize {
    // Depth is bounded by MAX_DEPTH, so this recursion is shallow.
    1 + match &node.value {
        Value::Seq(items) => items.iter().map(count_nodes).sum(),
        Value::Map(entries) => entries.iter().map(|(_, v)| 1 + count_nodes(v)).sum(),
        _ => 0,
    }
}

/// Type a plain scalar by the YAML 1.2 core schema (section 10.3.2 of the YAML spec).
fn resolve_plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Value::Null,
        "true" | "True" | "TRUE" => return Value::Bool(true, text.to_string()),
        "false" | "False" | "FALSE" => return Value::Bool(false, text.to_string()),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Value::Float(f64::INFINITY, text.to_string());
        }
        "-.inf" | "-.Inf" | "-.INF" => return Value::Float(f64::NEG_INFINITY, text.to_string()),
        ".nan" | ".NaN" | ".NAN" => return Value::Float(f64::NAN, text.to_string()),
        _ => {}
    }
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !unsigned.is_empty() && unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return match text.parse::<i64>() {
            Ok(i) => Value::Int(i, text.to_string()),
            // Too large for 64 bits: still a number.
            Err(_) => Value::Float(text.parse().unwrap_or(f64::NAN), text.to_string()),
        };
    }
    if let Some(octal) = text.strip_prefix("0o")
        && let Ok(i) = i64::from_str_radix(octal, 8)
    {
        return Value::Int(i, text.to_string());
    }
    if let Some(hex) = text.strip_prefix("0x")
        && let Ok(i) = i64::from_str_radix(hex, 16)
    {
        return Value::Int(i, text.to_string());
    }
    if is_core_float(text)
        && let Ok(f) = text.parse::<f64>()
    {
        return Value::Float(f, text.to_string());
    }
    Value::Str(text.to_string())
}

/// `[-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?`
fn is_core_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let whole = digits(&mut i);
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let fraction = digits(&mut i);
        if whole == 0 && fraction == 0 {
            return false;
        }
    } else if whole == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'-' || b[i] == b'+') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Option<Node>, PackageError> {
        parse(text, Path::new("t.yaml"))
    }

    fn map_of(text: &str) -> Vec<(String, Value)> {
        let node = p(text).unwrap().unwrap();
        node.as_map()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.text.clone(), v.value.clone()))
            .collect()
    }

    #[test]
    fn core_schema_scalars() {
        let m = map_of(
            "a: 5\nb: 1.0\nc: '5'\nd: yes\ne: true\nf: ~\ng: 2025-09\nh: 1e-6\ni: .5\nj: 0x10\nk: !!str 7\nl: 99999999999999999999\n",
        );
        assert_eq!(m[0].1, Value::Int(5, "5".into()));
        assert_eq!(m[1].1, Value::Float(1.0, "1.0".into()));
        assert_eq!(m[2].1, Value::Str("5".into()));
        assert_eq!(m[3].1, Value::Str("yes".into()));
        assert_eq!(m[4].1, Value::Bool(true, "true".into()));
        assert_eq!(m[5].1, Value::Null);
        assert_eq!(m[6].1, Value::Str("2025-09".into()));
        assert_eq!(m[7].1, Value::Float(1e-6, "1e-6".into()));
        assert_eq!(m[8].1, Value::Float(0.5, ".5".into()));
        assert_eq!(m[9].1, Value::Int(16, "0x10".into()));
        assert_eq!(m[10].1, Value::Str("7".into()));
        assert!(matches!(m[11].1, Value::Float(f, _) if f > 9e19));
    }

    #[test]
    fn positions_are_one_based() {
        let node = p("name: x\nlimits:\n  memory: lots\n").unwrap().unwrap();
        let limits = &node.as_map().unwrap()[1];
        assert_eq!((limits.0.line, limits.0.column), (2, 1));
        let memory = &limits.1.as_map().unwrap()[0];
        assert_eq!((memory.1.line, memory.1.column), (3, 11));
        assert_eq!(memory.1.describe(), "the string \"lots\"");
    }

    #[test]
    fn syntax_errors_say_where() {
        let e = p("a: [1, 2\nb: 3\n").unwrap_err();
        assert!(matches!(e, PackageError::Yaml { .. }), "{e}");
        assert!(e.location().line.is_some(), "{e}");
    }

    #[test]
    fn duplicate_keys_are_errors() {
        let e = p("a: 1\nb: 2\na: 3\n").unwrap_err();
        assert_eq!(e.location().line, Some(3), "{e}");
        assert!(e.to_string().contains("duplicate key `a`"), "{e}");
    }

    #[test]
    fn empty_documents_are_none() {
        assert_eq!(p("").unwrap(), None);
        assert_eq!(p("# only a comment\n").unwrap(), None);
        assert_eq!(p("~\n").unwrap(), None);
    }

    #[test]
    fn two_documents_are_an_error() {
        assert!(p("a: 1\n---\nb: 2\n").is_err());
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        // The scanner refuses very deep flow nesting itself (its recursion limit); events
        // arrive only for shallower files, where the tree's own bound applies.
        let deep = "[".repeat(100_000);
        let e = p(&deep).unwrap_err();
        assert!(e.location().line.is_some(), "{e}");
        let block: String = (0..200)
            .map(|i| format!("{}- \n", "  ".repeat(i)))
            .collect();
        let e = p(&block).unwrap_err();
        assert!(e.to_string().contains("nested more than"), "{e}");
        let ok = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(p(&ok).unwrap().is_some());
    }

    #[test]
    fn billion_laughs_is_refused() {
        let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut previous = 'a';
        for name in 'b'..='j' {
            text.push_str(&format!(
                "{name}: &{name} [*{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}, *{previous}]\n"
            ));
            previous = name;
        }
        let e = p(&text).unwrap_err();
        assert!(e.to_string().contains("billion laughs"), "{e}");
    }

    #[test]
    fn small_aliases_are_copies() {
        let m = map_of("base: &b {permitted: [AC]}\nother: *b\n");
        assert_eq!(m[0].1, m[1].1);
    }

    #[test]
    fn bytes_that_are_not_utf8_are_located() {
        let e = decode(b"name: a\nb: \xff\n", Path::new("problem.yaml")).unwrap_err();
        assert_eq!(e.location().line, Some(2));
        assert_eq!(e.location().column, Some(4));
        assert!(decode(b"\xEF\xBB\xBFname: a", Path::new("p")).is_err());
    }

    #[test]
    fn core_float_grammar() {
        for ok in ["1.0", "-1", ".5", "5.", "1e5", "+1.5E-3"] {
            assert!(is_core_float(ok), "{ok}");
        }
        for bad in ["", ".", "e5", "1e", "1.0.0", "0x1p3", "inf"] {
            assert!(!is_core_float(bad), "{bad}");
        }
    }
}
