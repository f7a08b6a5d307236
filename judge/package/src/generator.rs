//! The generator an exported package carries (issue 32.3), in the `generators/` convention
//! BAPCtools reads: `generators/random.py` and `generators/generators.yaml`.
//!
//! boardjudge's generator families are Rust code of its own library (with its planner), not
//! single files a contest tool can build, so the exported generator carries inputs those
//! families made instead of the families themselves: the package's own inputs, in `data/`'s
//! order, then more from every family. It is a plain Python 3 file:
//!
//! - `random.py SEED`: one valid input chosen by SEED (SHA-256 of its text), the same bytes for
//!   the same seed: what `judge stress PKG` runs when no `--generator` is given (the package
//!   names it `random` in `generators.yaml`; see `package_format::generators`);
//! - `random.py pick K`: valid input K (the first ones are the package's tests), and
//!   `random.py invalid K`: invalid input K, written to `testcase.in` (BAPCtools reads a
//!   generator's standard output as UTF-8; an invalid input may be any bytes, and a
//!   generator that writes `testcase.in` is taken at that): `generators.yaml` makes every file of `data/`
//!   with these, so `bt generate` writes the same data again (answers from the reference
//!   submission, as `solution:` says).

use std::fmt::Write as _;

/// One test of the package as `generators.yaml` lists it.
pub struct Listed {
    /// Its group below `data/`: `sample`, `secret/corpus`, `invalid_input`.
    pub group: String,
    /// Its name in the group (the file name without `.in`).
    pub name: String,
    /// The command after the generator's name: `pick 3`, `invalid 0`.
    pub command: String,
}

/// `generators/random.py`: `valid` (the package's inputs first, then more of the families')
/// and `invalid` as Python string literals, and the three ways to call it.
pub fn random_py(id: &str, header: &str, valid: &[String], invalid: &[Vec<u8>]) -> String {
    let mut text = format!(
        "#!/usr/bin/env python3\n\
         \"\"\"{id}: random valid inputs for stress tests, and this package's test data.\n\n\
         {header}\n\n\
         Usage:\n  random.py SEED       one valid input chosen by SEED (the same bytes for the same seed)\n  \
         random.py pick K     valid input K (0 <= K < {valid_count}; the package's tests come first)\n  \
         random.py invalid K  invalid input K (0 <= K < {invalid_count}) into the file testcase.in\n\
         \"\"\"\n\n\
         import hashlib\nimport sys\n\n",
        valid_count = valid.len(),
        invalid_count = invalid.len(),
    );
    text.push_str("VALID = [\n");
    for input in valid {
        let _ = writeln!(text, "    {},", python_bytes(input.as_bytes()));
    }
    text.push_str("]\n\nINVALID = [\n");
    for input in invalid {
        let _ = writeln!(text, "    {},", python_bytes(input));
    }
    text.push_str(
        r#"]


def usage():
    sys.stderr.write(__doc__)
    sys.exit(2)


def index(word, count):
    if not word.isdigit() or int(word) >= count:
        usage()
    return int(word)


def main():
    args = sys.argv[1:]
    if len(args) == 1:
        # Any text is a seed; its SHA-256 picks the input, so nearby seeds spread out.
        digest = hashlib.sha256(args[0].encode("utf-8")).digest()
        chosen = VALID[int.from_bytes(digest[:8], "big") % len(VALID)]
    elif len(args) == 2 and args[0] == "pick":
        chosen = VALID[index(args[1], len(VALID))]
    elif len(args) == 2 and args[0] == "invalid":
        # An invalid input may be any bytes, and BAPCtools reads a generator's standard
        # output as UTF-8: written to testcase.in instead, which it takes in its place.
        with open("testcase.in", "wb") as f:
            f.write(INVALID[index(args[1], len(INVALID))])
        return
    else:
        usage()
    sys.stdout.buffer.write(chosen)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
"#,
    );
    text
}

/// A Python `bytes` literal of `bytes`: printable ASCII as it is, everything else escaped.
fn python_bytes(bytes: &[u8]) -> String {
    let mut literal = String::from("b\"");
    for &b in bytes {
        match b {
            b'\\' => literal.push_str("\\\\"),
            b'"' => literal.push_str("\\\""),
            b'\n' => literal.push_str("\\n"),
            b'\r' => literal.push_str("\\r"),
            b'\t' => literal.push_str("\\t"),
            0x20..=0x7e => literal.push(char::from(b)),
            other => {
                let _ = write!(literal, "\\x{other:02x}");
            }
        }
    }
    literal.push('"');
    literal
}

/// `generators/generators.yaml`: the `random` generator, the reference solution for the
/// answers, and every test of `data/` as a command of it, group by group in `listed`'s order.
pub fn generators_yaml(header: &str, solution: &str, listed: &[Listed]) -> String {
    let mut text = String::new();
    for line in header.lines() {
        let _ = writeln!(text, "# {line}");
    }
    let _ = write!(
        text,
        "solution: {solution}\n\
         generators:\n  random:\n    - random.py\n\
         data:\n"
    );
    // Groups nest as folders do (`secret/corpus` is `corpus` inside `secret`), and a YAML map
    // must not name a group twice: the tests are listed group by group (each group, and each
    // group inside it, where it first appears; its tests in order), so each group opens once.
    let mut first_seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (k, test) in listed.iter().enumerate() {
        for (end, _) in test
            .group
            .match_indices('/')
            .chain([(test.group.len(), "")])
        {
            first_seen.entry(&test.group[..end]).or_insert(k);
        }
    }
    let mut ordered: Vec<&Listed> = listed.iter().collect();
    ordered.sort_by_key(|test| {
        test.group
            .match_indices('/')
            .chain([(test.group.len(), "")])
            .map(|(end, _)| first_seen[&test.group[..end]])
            .collect::<Vec<usize>>()
    });
    let mut open: Vec<&str> = Vec::new();
    for test in ordered {
        let path: Vec<&str> = test.group.split('/').collect();
        let shared = open.iter().zip(&path).take_while(|(a, b)| a == b).count();
        open.truncate(shared);
        for part in &path[shared..] {
            let depth = open.len();
            let _ = writeln!(
                text,
                "{}{}:\n{}data:",
                "  ".repeat(2 * depth + 1),
                yaml_key(part),
                "  ".repeat(2 * depth + 2)
            );
            open.push(part);
        }
        let _ = writeln!(
            text,
            "{}{}: random {}",
            "  ".repeat(2 * open.len() + 1),
            yaml_key(&test.name),
            test.command
        );
    }
    text
}

/// A YAML key, always double-quoted (test names such as `001` or `yes` stay strings).
fn yaml_key(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_literals_escape_what_python_would_misread() {
        assert_eq!(
            python_bytes(b"a \"b\"\\\n\x01\xff"),
            r#"b"a \"b\"\\\n\x01\xff""#
        );
    }

    #[test]
    fn groups_nest_and_open_once() {
        let listed = [
            ("sample", "1", "pick 0"),
            ("secret/corpus", "01", "pick 1"),
            ("secret/corpus", "02", "pick 2"),
            ("secret/boundary", "07", "pick 3"),
            // Back to a group seen before: listed with it, not opened twice.
            ("secret/corpus", "03", "pick 4"),
            ("invalid_input", "001-x", "invalid 0"),
        ]
        .map(|(group, name, command)| Listed {
            group: group.to_string(),
            name: name.to_string(),
            command: command.to_string(),
        });
        let yaml = generators_yaml("made here", "/submissions/accepted/reference.rs", &listed);
        assert_eq!(
            yaml,
            "# made here\n\
             solution: /submissions/accepted/reference.rs\n\
             generators:\n  random:\n    - random.py\n\
             data:\n\
             \x20 \"sample\":\n    data:\n      \"1\": random pick 0\n\
             \x20 \"secret\":\n    data:\n\
             \x20     \"corpus\":\n        data:\n          \"01\": random pick 1\n          \"02\": random pick 2\n          \"03\": random pick 4\n\
             \x20     \"boundary\":\n        data:\n          \"07\": random pick 3\n\
             \x20 \"invalid_input\":\n    data:\n      \"001-x\": random invalid 0\n"
        );
    }
}
