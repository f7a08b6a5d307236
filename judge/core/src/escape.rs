//! The one place that makes what a submission wrote, and what it is called, safe to show. A
//! submission's words (verdict messages, outputs, compiler messages, findings) and its
//! file or folder name are kept as they were written; every writer escapes them here, by one
//! rule per output:
//!
//! | output | rule |
//! |---|---|
//! | terminal, a block of lines (compiler output, an error) | [`terminal`] |
//! | terminal, one line or a cell of a table (a name, a path, a failing test's line, a progress message) | [`line`]; names in a table also [`name`] (long names cut) |
//! | CSV | every text cell [`csv`]: [`line`], and a cell a spreadsheet would read as a formula prefixed with `'` (the csv writer quotes it when it holds a quote, a comma or a line break) |
//! | JSON | [`terminal`], then JSON's own escaping (every control character, `"` and `\`) |
//! | HTML, SVG | [`html`] |
//! | JUnit XML | [`xml`] |
//!
//! An escape sequence must not drive the judge's terminal, a bidirectional override must not
//! reorder what follows, a newline in a name must not start a line that reads as the judge's
//! own (a forged row of the table), a cell must not run as a spreadsheet formula, and XML 1.0
//! forbids most control characters outright.

use std::fmt::Write;

/// A control character (other than tab and newline) as visible text: `\x1b`, `\r`, `\u{85}`.
fn visible(ch: char, out: &mut String) {
    match ch {
        '\r' => out.push_str("\\r"),
        '\0'..='\x1f' | '\x7f' => {
            let _ = write!(out, "\\x{:02x}", ch as u32);
        }
        _ => {
            let _ = write!(out, "\\u{{{:x}}}", ch as u32);
        }
    }
}

/// Is `ch` a character a terminal or an XML parser must not see raw? Tab and newline are fine.
/// Control characters, the XML non-characters, and characters that reorder or hide what
/// follows them on a terminal (bidirectional controls, zero-width characters, the byte-order
/// mark, line and paragraph separators).
fn is_control(ch: char) -> bool {
    ch != '\t'
        && ch != '\n'
        && (ch.is_control()
            || matches!(ch as u32, 0xfffe | 0xffff | 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x2069 | 0xfeff))
}

/// Text for HTML or SVG element content and (double-quoted) attribute values: `& < > " '`
/// escaped, control characters shown as `\x1b`.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if is_control(c) => visible(c, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// XML text and attribute values: the same rules as [`html`] (XML 1.0 has no way to write
/// most control characters at all, so they are shown as `\x..`).
pub fn xml(text: &str) -> String {
    html(text)
}

/// Text for a terminal: control characters (escape sequences, carriage returns, bells)
/// shown as `\x1b`, `\r` …; tabs and newlines kept.
pub fn terminal(text: &str) -> String {
    if !text.chars().any(is_control) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if is_control(ch) {
            visible(ch, &mut out);
        } else {
            out.push(ch);
        }
    }
    out
}

/// Text on one line of a terminal (a name, a path, a line of a table): as [`terminal`], and
/// newlines and tabs shown as `\n`, `\t` too, so that nothing in it starts a line of its
/// own or moves a column.
pub fn line(text: &str) -> String {
    if !text
        .chars()
        .any(|c| c == '\n' || c == '\t' || is_control(c))
    {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        match ch {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if is_control(c) => visible(c, &mut out),
            c => out.push(c),
        }
    }
    out
}

/// A path on one line of a terminal or in a message: [`line`] of how it displays.
pub fn path(path: &std::path::Path) -> String {
    line(&path.display().to_string())
}

/// The most characters of a name a terminal table shows.
pub const NAME_CHARS: usize = 60;

/// A submission's name in a terminal table: [`line`], cut in the middle to [`NAME_CHARS`]
/// characters (`first-part…end.cpp`), so that a long name cannot push the table apart. The
/// reports keep the whole name.
pub fn name(text: &str) -> String {
    let shown = line(text);
    let count = shown.chars().count();
    if count <= NAME_CHARS {
        return shown;
    }
    let tail = NAME_CHARS / 3;
    let head = NAME_CHARS - tail - 1;
    let mut out: String = shown.chars().take(head).collect();
    out.push('…');
    out.extend(shown.chars().skip(count - tail));
    out
}

/// A text cell of a CSV report: [`line`] (a report is often read with `cat`), and a cell
/// starting with `=`, `+`, `-` or `@` — what a spreadsheet would evaluate as a formula
/// (OWASP's "CSV injection") — prefixed with `'`, which makes it text. The csv writer quotes
/// a cell holding a quote, a comma or a line break, so no cell spills into the next.
pub fn csv(text: &str) -> String {
    let shown = line(text);
    if shown.starts_with(['=', '+', '-', '@']) {
        format!("'{shown}")
    } else {
        shown
    }
}

/// Bytes a submission wrote, on one line: invalid UTF-8 as `\xff`, a newline as `\n`, a
/// backslash as `\\` (so the shown text reads back unambiguously), control characters as
/// in [`terminal`].
pub fn bytes(raw: &[u8]) -> String {
    let mut out = String::with_capacity(raw.len());
    for chunk in raw.utf8_chunks() {
        for ch in chunk.valid().chars() {
            match ch {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                c if is_control(c) => visible(c, &mut out),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

/// Like [`bytes`], but newlines stay line breaks (for showing a whole output).
pub fn lines(raw: &[u8]) -> String {
    raw.split(|&b| b == b'\n')
        .map(bytes)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first `max_lines` lines of `text`, at most `max_chars` characters in all, with a note
/// of what was left out.
pub fn head(text: &str, max_lines: usize, max_chars: usize) -> String {
    let mut out = String::new();
    for (lines, line) in text.split_inclusive('\n').enumerate() {
        if lines == max_lines || out.len() + line.len() > max_chars {
            let rest = text.len() - out.len();
            let _ = writeln!(out, "… ({rest} more bytes)");
            return out;
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_quotes_and_control_characters() {
        assert_eq!(
            html("<script>alert('x')</script> & \"q\" \x1b[31m\r\n"),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot; \\x1b[31m\\r\n"
        );
    }

    #[test]
    fn terminal_shows_escape_sequences_as_text() {
        assert_eq!(terminal("a\x1b]0;owned\x07b\tc"), "a\\x1b]0;owned\\x07b\tc");
        assert_eq!(terminal("plain"), "plain");
        assert_eq!(terminal("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn bytes_show_escape_sequences_and_invalid_bytes_on_one_line() {
        assert_eq!(bytes(b"ok 12"), "ok 12");
        assert_eq!(
            bytes(b"\x1b[2J\x1b]0;pwned\x07"),
            "\\x1b[2J\\x1b]0;pwned\\x07"
        );
        assert_eq!(bytes(b"a\nb\tc\rd\\"), "a\\nb\\tc\\rd\\\\");
        assert_eq!(
            bytes("é\u{9b}31m\u{202e}x".as_bytes()),
            "é\\u{9b}31m\\u{202e}x"
        );
        assert_eq!(bytes(b"\xff\xfe,\""), "\\xff\\xfe,\"");
        assert_eq!(lines(b"1 2\n\x1b[0m3\n"), "1 2\n\\x1b[0m3\n");
    }

    #[test]
    fn terminal_shows_bidirectional_overrides() {
        assert_eq!(terminal("a\u{202e}b\u{200b}"), "a\\u{202e}b\\u{200b}");
    }

    #[test]
    fn head_keeps_the_first_lines_and_says_what_it_cut() {
        assert_eq!(head("a\nb\nc\n", 2, 100), "a\nb\n… (2 more bytes)\n");
        assert_eq!(head("a\nb\n", 5, 100), "a\nb\n");
        assert_eq!(head("abcdef", 5, 3), "… (6 more bytes)\n");
    }

    #[test]
    fn a_line_shows_newlines_and_tabs_so_nothing_starts_a_line_of_its_own() {
        assert_eq!(line("plain name.cpp"), "plain name.cpp");
        assert_eq!(
            line("a\nb.py   0   0\tc\x1b[2J"),
            "a\\nb.py   0   0\\tc\\x1b[2J"
        );
        assert!(!line("x\r\n\u{2028}\u{85}").contains(['\n', '\r', '\u{2028}', '\u{85}']));
    }

    #[test]
    fn a_long_name_is_cut_in_the_middle_and_keeps_its_end() {
        let long = format!("{}.cpp", "x".repeat(250));
        let shown = name(&long);
        assert_eq!(shown.chars().count(), NAME_CHARS);
        assert!(shown.ends_with("x.cpp") && shown.contains('…'), "{shown}");
        assert_eq!(name("short.c"), "short.c");
    }

    #[test]
    fn a_csv_cell_never_reads_as_a_formula() {
        for formula in ["=1+1", "+1", "-2+3", "@SUM(A1)", "=HYPERLINK(\"http://x\")"] {
            assert_eq!(csv(formula), format!("'{formula}"));
        }
        assert_eq!(csv("\t=1"), "\\t=1");
        assert_eq!(csv("a=b"), "a=b");
        assert_eq!(csv("x\ny"), "x\\ny");
    }
}
