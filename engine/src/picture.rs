//! Drawing a problem's [`Picture`] in a terminal and as SVG, with the cells where the expected
//! and the received answers differ highlighted.

use std::collections::BTreeSet;
use std::fmt::Write;

use problems::picture::{Ink, Picture};

/// Cells the expected answer names and the received does not (`missing`), and the reverse
/// (`extra`).
pub struct Difference {
    pub missing: BTreeSet<(usize, usize)>,
    pub extra: BTreeSet<(usize, usize)>,
}

impl Difference {
    pub fn between(expected: &[(usize, usize)], got: &[(usize, usize)]) -> Difference {
        let expected: BTreeSet<_> = expected.iter().copied().collect();
        let got: BTreeSet<_> = got.iter().copied().collect();
        Difference {
            missing: expected.difference(&got).copied().collect(),
            extra: got.difference(&expected).copied().collect(),
        }
    }
}

fn glyph(ink: Ink) -> char {
    match ink {
        Ink::Empty => '.',
        Ink::Black => 'X',
        Ink::White => 'O',
        Ink::Red => 'R',
        Ink::Blue => 'B',
        Ink::Green => 'G',
    }
}

/// The board as text: one character per cell (`X` black, `O` white, `R`/`B`/`G` panels, `.`
/// empty, `*` the point to play), with row and column numbers. With `colour`, cells the
/// expected answer names but the output misses have a green background, cells the output
/// names wrongly a red one.
pub fn terminal(picture: &Picture, diff: &Difference, colour: bool) -> String {
    let mut out = String::new();
    let _ = write!(out, "    ");
    for c in 0..picture.cols {
        let _ = write!(out, "{}", (c + 1) % 10);
    }
    out.push('\n');
    for r in 0..picture.rows {
        let _ = write!(out, "{:>3} ", r + 1);
        for c in 0..picture.cols {
            let ch = if picture.point == Some((r, c)) {
                '*'
            } else {
                glyph(picture.ink(r, c))
            };
            let background = if diff.missing.contains(&(r, c)) {
                Some("42")
            } else if diff.extra.contains(&(r, c)) {
                Some("41")
            } else {
                None
            };
            match (colour, background) {
                (true, Some(bg)) => {
                    let _ = write!(out, "\x1b[{bg};30m{ch}\x1b[0m");
                }
                (true, None) if matches!(ch, 'X' | '*') => {
                    let _ = write!(out, "\x1b[1m{ch}\x1b[0m");
                }
                _ => out.push(ch),
            }
        }
        out.push('\n');
    }
    let list = |cells: &BTreeSet<(usize, usize)>| {
        cells
            .iter()
            .map(|(r, c)| format!("{} {}", r + 1, c + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !diff.missing.is_empty() {
        let _ = writeln!(
            out,
            "expected but not in the output (green): {}",
            list(&diff.missing)
        );
    }
    if !diff.extra.is_empty() {
        let _ = writeln!(
            out,
            "in the output but not expected (red): {}",
            list(&diff.extra)
        );
    }
    out
}

/// The board as an SVG picture, the difference highlighted as in [`terminal`].
pub fn svg(picture: &Picture, diff: &Difference, title: &str) -> String {
    const CELL: usize = 28;
    const MARGIN: usize = 24;
    let (w, h) = (
        picture.cols * CELL + 2 * MARGIN,
        picture.rows * CELL + 2 * MARGIN + 24,
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(out, r##"<rect width="{w}" height="{h}" fill="#e8c88a"/>"##);
    let _ = writeln!(
        out,
        r#"<text x="{MARGIN}" y="16" font-family="monospace" font-size="13">{}</text>"#,
        escape(title)
    );
    for r in 0..picture.rows {
        for c in 0..picture.cols {
            let (x, y) = (MARGIN + c * CELL, MARGIN + 12 + r * CELL);
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            let _ = writeln!(
                out,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#7a5c2e" stroke-width="0.6"/>"##
            );
            let fill = match picture.ink(r, c) {
                Ink::Empty => None,
                Ink::Black => Some("#111"),
                Ink::White => Some("#fafafa"),
                Ink::Red => Some("#d33"),
                Ink::Blue => Some("#36c"),
                Ink::Green => Some("#2a2"),
            };
            if let Some(fill) = fill {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="{fill}" stroke="#333"/>"##,
                    CELL / 2 - 3
                );
            }
            if picture.point == Some((r, c)) {
                let _ = writeln!(
                    out,
                    r##"<rect x="{}" y="{}" width="10" height="10" fill="#c0f"/>"##,
                    cx - 5,
                    cy - 5
                );
            }
            let highlight = if diff.missing.contains(&(r, c)) {
                Some("#0a0")
            } else if diff.extra.contains(&(r, c)) {
                Some("#e00")
            } else {
                None
            };
            if let Some(colour) = highlight {
                let _ = writeln!(
                    out,
                    r#"<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="{colour}" stroke-width="3"/>"#,
                    x + 1,
                    y + 1,
                    CELL - 2,
                    CELL - 2
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
