//! Reading and writing the board layouts the problems share.

use crate::error::ParseError;
use crate::scan::Scanner;

/// Reads `rows` lines of `cols` characters from `alphabet`, each ended by `\n`, and returns
/// the characters row by row. `expected` names the alphabet in error messages.
pub fn read_char_grid(
    sc: &mut Scanner<'_>,
    rows: usize,
    cols: usize,
    alphabet: &[u8],
    expected: &str,
) -> Result<Vec<u8>, ParseError> {
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        if sc.peek().is_none() {
            return Err(sc.expected(&format!("row {} of {rows}", r + 1)));
        }
        for _ in 0..cols {
            cells.push(sc.one_of(alphabet, &format!("{expected} ({cols} per row)"))?);
        }
        sc.byte(b'\n', &format!("end of line ('\\n') after {cols} cells"))?;
    }
    Ok(cells)
}

/// Reads `rows` lines of `cols` single-digit cells from `alphabet` separated by single spaces.
pub fn read_spaced_grid(
    sc: &mut Scanner<'_>,
    rows: usize,
    cols: usize,
    alphabet: &[u8],
    expected: &str,
) -> Result<Vec<u8>, ParseError> {
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        if sc.peek().is_none() {
            return Err(sc.expected(&format!("row {} of {rows}", r + 1)));
        }
        for c in 0..cols {
            if c > 0 {
                sc.byte(b' ', "a single space between numbers")?;
            }
            cells.push(sc.one_of(alphabet, &format!("{expected} ({cols} per row)"))?);
        }
        sc.byte(b'\n', &format!("end of line ('\\n') after {cols} numbers"))?;
    }
    Ok(cells)
}

/// Writes a grid of characters, one row per line.
pub fn write_char_grid(rows: usize, cols: usize, cell: impl Fn(usize, usize) -> u8) -> String {
    let mut out = String::with_capacity(rows * (cols + 1));
    for r in 0..rows {
        for c in 0..cols {
            out.push(cell(r, c) as char);
        }
        out.push('\n');
    }
    out
}
