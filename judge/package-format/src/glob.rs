//! The glob patterns of `submissions.yaml` (2025-09 "Glob patterns").
//!
//! - `*` matches any run of characters within one name (never `/`).
//! - `{a,b}` is brace expansion (nested braces too; BAPCtools also trims spaces around the
//!   alternatives, `{ 4 }`, which names cannot contain anyway, so this does too).
//! - `**` and `[xyz]` are not supported by the spec: their characters match literally.
//! - A path is matched if the pattern matches it or one of its parent folders
//!   (`accepted` matches `accepted/a.py`; `secret/g1` matches `secret/g1/01`), and a trailing
//!   `/` in the pattern is ignored.

use std::fmt;

/// Most alternatives one pattern may expand to (a hostile `{a,b}{a,b}…` would be exponential).
const MAX_ALTERNATIVES: usize = 4096;
/// Most `{` in one pattern.
const MAX_BRACE_GROUPS: usize = 64;

/// A compiled glob pattern.
#[derive(Clone, PartialEq, Eq)]
pub struct Glob {
    raw: String,
    /// Every brace expansion, each split at `/`.
    alternatives: Vec<Vec<String>>,
}

/// A pattern that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("glob `{pattern}`: {message}")]
pub struct GlobError {
    /// The pattern.
    pub pattern: String,
    /// What is wrong.
    pub message: String,
}

impl Glob {
    /// Compile a pattern.
    pub fn new(raw: &str) -> Result<Glob, GlobError> {
        let error = |message: &str| GlobError {
            pattern: raw.to_string(),
            message: message.to_string(),
        };
        // Each brace group is one level of recursion in `expand`: keep it shallow.
        if raw.matches('{').count() > MAX_BRACE_GROUPS {
            return Err(error(&format!("more than {MAX_BRACE_GROUPS} brace groups")));
        }
        let trimmed = raw.trim_end_matches('/');
        let expanded = expand(trimmed).map_err(|m| error(&m))?;
        let alternatives = expanded
            .into_iter()
            .map(|a| a.split('/').map(str::to_string).collect())
            .collect();
        Ok(Glob {
            raw: raw.to_string(),
            alternatives,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.raw
    }

    /// Whether the pattern matches `path` (`/`-separated) or one of its parent folders.
    pub fn matches(&self, path: &str) -> bool {
        let parts: Vec<&str> = path.split('/').collect();
        self.alternatives.iter().any(|segments| {
            segments.len() <= parts.len()
                && segments
                    .iter()
                    .zip(&parts)
                    .all(|(pattern, name)| wildcard(pattern.as_bytes(), name.as_bytes()))
        })
    }
}

impl fmt::Debug for Glob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Glob({:?})", self.raw)
    }
}

/// `*` matches any run of bytes (the callers keep `/` out); everything else literally.
fn wildcard(pattern: &[u8], name: &[u8]) -> bool {
    // Iterative matching with one backtrack point: linear-ish, no recursion.
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, n));
            p += 1;
        } else if p < pattern.len() && pattern[p] == name[n] {
            p += 1;
            n += 1;
        } else if let Some((sp, sn)) = star {
            p = sp + 1;
            n = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|c| *c == b'*')
}

/// Brace expansion, left to right, nested braces allowed.
fn expand(pattern: &str) -> Result<Vec<String>, String> {
    let Some(open) = pattern.find('{') else {
        if pattern.contains('}') {
            return Err("`}` without `{`".to_string());
        }
        return Ok(vec![pattern.to_string()]);
    };
    // Find the matching close brace and the top-level commas.
    let bytes = pattern.as_bytes();
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut close = None;
    for (i, b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            b',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let close = close.ok_or_else(|| "`{` without `}`".to_string())?;
    let prefix = &pattern[..open];
    if prefix.contains('}') {
        return Err("`}` without `{`".to_string());
    }
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    let suffixes = expand(&pattern[close + 1..])?;
    let mut out = Vec::new();
    for pair in bounds.windows(2) {
        let choice = pattern[pair[0] + 1..pair[1]].trim();
        for middle in expand(choice)? {
            for suffix in &suffixes {
                if out.len() >= MAX_ALTERNATIVES {
                    return Err(format!("expands to more than {MAX_ALTERNATIVES} patterns"));
                }
                out.push(format!("{prefix}{middle}{suffix}"));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(p: &str) -> Glob {
        Glob::new(p).unwrap()
    }

    #[test]
    fn folders_match_their_contents() {
        assert!(g("accepted").matches("accepted/a.py"));
        assert!(g("accepted/").matches("accepted/a.py"));
        assert!(g("accepted/*").matches("accepted/a.py"));
        assert!(!g("accepted").matches("accepted_slow/a.py"));
        assert!(g("secret/group1").matches("secret/group1/01"));
        assert!(g("secret").matches("secret"));
        assert!(!g("secret/group1/01").matches("secret/group1"));
    }

    #[test]
    fn stars_stay_within_a_name() {
        assert!(g("wa/ac*").matches("wa/ac.py"));
        assert!(!g("*/nested_wa.py").matches("match/nested"));
        assert!(!g("*/nested_wa.py").matches("match/nested/x"));
        assert!(g("*").matches("anything/at/all"));
        assert!(g("secret/*-easy").matches("secret/03-easy"));
        assert!(!g("secret/*-easy").matches("secret/03-hard"));
        assert!(
            !g("match/match_wa").matches("match/match_wa.py"),
            "whole names only"
        );
        assert!(
            !g("match_wa.py").matches("match/match_wa.py"),
            "from the top only"
        );
    }

    #[test]
    fn brace_expansion() {
        let e = g("expansion/ac.{py,cpp}");
        assert!(e.matches("expansion/ac.py") && e.matches("expansion/ac.cpp"));
        assert!(!e.matches("expansion/ac.java"));
        let odd = g("secret/*{1,3,5,7,9}");
        assert!(odd.matches("secret/13") && odd.matches("secret/5"));
        assert!(!odd.matches("secret/12"));
        let even = g("secret/*{,0,1,2,3,4,5,6,7,8,9}{0,2,4,6,8}");
        assert!(even.matches("secret/12") && even.matches("secret/2") && even.matches("secret/42"));
        assert!(!even.matches("secret/13"));
        assert!(g("secret/*{ 4 }{ 2 }").matches("secret/42"));
        let nested = g("{a,b{1,2}}.py");
        for ok in ["a.py", "b1.py", "b2.py"] {
            assert!(nested.matches(ok), "{ok}");
        }
        assert!(!nested.matches("b.py"));
        assert!(g("{,x}y").matches("y"));
    }

    #[test]
    fn bad_patterns() {
        assert!(Glob::new("a{b").is_err());
        assert!(Glob::new("a}b").is_err());
        let bomb = "{a,b}".repeat(20);
        assert!(Glob::new(&bomb).unwrap_err().message.contains("more than"));
    }

    #[test]
    fn unsupported_syntax_is_literal() {
        assert!(g("a[xy]").matches("a[xy]"));
        assert!(!g("a[xy]").matches("ax"));
        assert!(
            g("a/**").matches("a/b"),
            "`**` is two stars within one name"
        );
        assert!(!g("a/**").matches("a"));
    }
}
