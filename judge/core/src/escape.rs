//! The one place that makes what a submission wrote safe to show: in a terminal (an escape
//! sequence in a submission's output must not drive the judge's terminal, a bidirectional
//! override must not reorder what follows), in CSV cells, in HTML and SVG, and in XML
//! attributes and text (XML 1.0 forbids most control characters outright). The judge keeps
//! a submission's words as they were written (verdict messages, outputs, findings) and every
//! writer escapes them here, for its format.

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
}
