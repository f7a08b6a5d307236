//! Making text a submission wrote safe to show: in HTML and SVG, in XML attributes and text
//! (XML 1.0 forbids most control characters outright), and in a terminal (an escape sequence
//! in a submission's output must not drive the judge's terminal).

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
fn is_control(ch: char) -> bool {
    ch != '\t' && ch != '\n' && (ch.is_control() || matches!(ch, '\u{fffe}' | '\u{ffff}'))
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
    fn head_keeps_the_first_lines_and_says_what_it_cut() {
        assert_eq!(head("a\nb\nc\n", 2, 100), "a\nb\n… (2 more bytes)\n");
        assert_eq!(head("a\nb\n", 5, 100), "a\nb\n");
        assert_eq!(head("abcdef", 5, 3), "… (6 more bytes)\n");
    }
}
