//! Showing text a submission wrote without letting it control the reader's terminal or break
//! a report's format.

/// `bytes` as printable text: printable ASCII and printable non-ASCII characters of valid
/// UTF-8 as they are; a backslash as `\\`; newline, tab and carriage return as `\n`, `\t`, `\r`;
/// other control characters (escape sequences included) and invalid UTF-8 as `\xNN` (bytes) or
/// `\u{NNNN}` (characters such as U+009B, the one-character CSI, or bidirectional overrides).
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\t' => out.push_str("\\t"),
                '\r' => out.push_str("\\r"),
                c if (c as u32) < 0x80 && !c.is_ascii_control() => out.push(c),
                c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
                c if c.is_control() || is_invisible_format(c) => {
                    out.push_str(&format!("\\u{{{:04x}}}", c as u32))
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Like [`escape`], but newlines stay line breaks (for showing a whole output).
pub fn escape_lines(bytes: &[u8]) -> String {
    bytes
        .split(|&b| b == b'\n')
        .map(escape)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Characters that reorder or hide what follows them on a terminal (bidirectional controls,
/// zero-width characters, the byte-order mark, line and paragraph separators).
fn is_invisible_format(c: char) -> bool {
    matches!(c as u32, 0x200b..=0x200f | 0x2028..=0x202e | 0x2060..=0x2069 | 0xfeff)
}

#[cfg(test)]
mod tests {
    use super::{escape, escape_lines};

    #[test]
    fn escape_sequences_and_invalid_bytes_are_shown_not_sent() {
        assert_eq!(escape(b"ok 12"), "ok 12");
        assert_eq!(
            escape(b"\x1b[2J\x1b]0;pwned\x07"),
            "\\x1b[2J\\x1b]0;pwned\\x07"
        );
        assert_eq!(escape(b"a\nb\tc\rd\\"), "a\\nb\\tc\\rd\\\\");
        assert_eq!(
            escape("é\u{9b}31m\u{202e}x".as_bytes()),
            "é\\u{009b}31m\\u{202e}x"
        );
        assert_eq!(escape(b"\xff\xfe,\""), "\\xff\\xfe,\"");
        assert_eq!(escape_lines(b"1 2\n\x1b[0m3\n"), "1 2\n\\x1b[0m3\n");
    }
}
