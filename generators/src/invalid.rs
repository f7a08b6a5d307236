//! Invalid inputs made by mutating the text of a valid one: the format-level families every
//! problem shares. Each mutation is invalid by construction for all five formats (they are
//! line-oriented, fixed-alphabet, with no blank lines and `\n` endings); the tests check that
//! the validator rejects every one.

use solutions::scan::MAX_INPUT_BYTES;

use crate::{Generate, InvalidFamily, Rng, valid_text};

/// Byte offsets of the line starts of `text`.
fn line_starts(text: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            text.iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .filter(|&i| i < text.len())
        .collect()
}

fn truncated<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let text = valid_text::<P>(rng).into_bytes();
    let cut = rng.index(text.len());
    (text[..cut].to_vec(), format!("cut at byte {cut}"))
}

fn crlf<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let text = valid_text::<P>(rng);
    (
        text.replace('\n', "\r\n").into_bytes(),
        "every \\n as \\r\\n".to_string(),
    )
}

fn one_cr<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    let ends: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    let at = rng.pick(&ends);
    text.insert(at, b'\r');
    (text, format!("\\r before the \\n at byte {at}"))
}

fn no_final_newline<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    text.pop();
    (text, "last \\n removed".to_string())
}

fn extra_line<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    let starts = line_starts(&text);
    let line = rng.pick(&starts);
    let end = line + text[line..].iter().position(|&b| b == b'\n').unwrap_or(0) + 1;
    let copy = text[line..end].to_vec();
    text.extend_from_slice(&copy);
    (
        text,
        format!("line starting at byte {line} repeated at the end"),
    )
}

fn blank_line<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    let starts = line_starts(&text);
    let at = rng.pick(&starts);
    text.insert(at, b'\n');
    (text, format!("blank line at byte {at}"))
}

fn foreign_byte<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    let at = rng.index(text.len());
    // None of these is in any problem's alphabet.
    let byte = rng.pick(b"#?\t\0\x7f\xc3Zz-+");
    text[at] = byte;
    (text, format!("byte {at} set to 0x{byte:02X}"))
}

fn inserted_space<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    // Before a line's first character a space is never valid; nor twice in a row, nor at a
    // line's end.
    let starts = line_starts(&text);
    let at = match rng.below(3) {
        0 => rng.pick(&starts),
        1 => {
            let ends: Vec<usize> = text
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i)
                .collect();
            rng.pick(&ends)
        }
        _ => {
            let spaces: Vec<usize> = text
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b' ')
                .map(|(i, _)| i)
                .collect();
            if spaces.is_empty() {
                rng.pick(&starts)
            } else {
                rng.pick(&spaces)
            }
        }
    };
    text.insert(at, b' ');
    (text, format!("space inserted at byte {at}"))
}

fn empty(_: &mut Rng) -> (Vec<u8>, String) {
    (Vec::new(), "empty".to_string())
}

fn huge<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let text = valid_text::<P>(rng).into_bytes();
    let mut out = Vec::with_capacity(MAX_INPUT_BYTES * 2);
    while out.len() <= MAX_INPUT_BYTES * 2 {
        out.extend_from_slice(&text);
    }
    let len = out.len();
    (out, format!("the input repeated to {len} bytes"))
}

fn deleted_byte<P: Generate>(rng: &mut Rng) -> (Vec<u8>, String) {
    let mut text = valid_text::<P>(rng).into_bytes();
    // Deleting a grid cell shortens its row; deleting a '\n' joins two lines. Both break the
    // fixed layout of every format except where a number loses a digit, so only cells and line
    // ends are chosen, never digits.
    let candidates: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|&(_, &b)| !b.is_ascii_digit() && b != b',' && b != b' ')
        .map(|(i, _)| i)
        .collect();
    let at = rng.pick(&candidates);
    text.remove(at);
    (text, format!("byte {at} deleted"))
}

/// The format-level invalid families, for problem `P`.
pub fn format_families<P: Generate>() -> Vec<InvalidFamily> {
    vec![
        InvalidFamily {
            name: "truncated",
            targets: "a strict prefix of a valid input",
            make: truncated::<P>,
        },
        InvalidFamily {
            name: "crlf",
            targets: "Windows line ends",
            make: crlf::<P>,
        },
        InvalidFamily {
            name: "stray-cr",
            targets: "one \\r before a line end",
            make: one_cr::<P>,
        },
        InvalidFamily {
            name: "no-final-newline",
            targets: "the last line not ended",
            make: no_final_newline::<P>,
        },
        InvalidFamily {
            name: "extra-line",
            targets: "a line too many",
            make: extra_line::<P>,
        },
        InvalidFamily {
            name: "blank-line",
            targets: "an empty line inserted",
            make: blank_line::<P>,
        },
        InvalidFamily {
            name: "foreign-byte",
            targets: "a byte outside the alphabet",
            make: foreign_byte::<P>,
        },
        InvalidFamily {
            name: "space",
            targets: "a space at a line start or end, or doubled",
            make: inserted_space::<P>,
        },
        InvalidFamily {
            name: "deleted-byte",
            targets: "a row one cell short, or two lines joined",
            make: deleted_byte::<P>,
        },
        InvalidFamily {
            name: "empty",
            targets: "no input at all",
            make: empty,
        },
        InvalidFamily {
            name: "huge",
            targets: "far more input than any valid one",
            make: huge::<P>,
        },
    ]
}
