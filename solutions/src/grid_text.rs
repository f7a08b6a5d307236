//! Reading and writing the board layouts the problems share.
//!
//! Each row is first checked as a whole against a byte table (the fast path: a canonical
//! 19×19 board parses in a few hundred nanoseconds); only a row that fails is read again byte
//! by byte, to say exactly where and what was expected.

use crate::error::ParseError;
use crate::scan::Scanner;

/// A 256-entry membership table for an alphabet.
fn table(alphabet: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    for &b in alphabet {
        t[b as usize] = true;
    }
    t
}

/// Reads `rows` lines of `cols` characters from `alphabet`, each ended by `\n`, and returns
/// the characters row by row. `expected` names the alphabet in error messages.
pub fn read_char_grid(
    sc: &mut Scanner<'_>,
    rows: usize,
    cols: usize,
    alphabet: &[u8],
    expected: &str,
) -> Result<Vec<u8>, ParseError> {
    let allowed = table(alphabet);
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        if let Some(line) = sc.peek_bytes(cols + 1) {
            if line[cols] == b'\n' && line[..cols].iter().all(|&b| allowed[b as usize]) {
                cells.extend_from_slice(&line[..cols]);
                sc.skip_line(cols + 1);
                continue;
            }
        }
        if sc.peek().is_none() {
            return Err(sc.expected(&format!("row {} of {rows}", r + 1)));
        }
        let cell_expected = format!("{expected} ({cols} per row)");
        for _ in 0..cols {
            cells.push(sc.one_of(alphabet, &cell_expected)?);
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
    let allowed = table(alphabet);
    let width = 2 * cols;
    let mut cells = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        if let Some(line) = sc.peek_bytes(width) {
            let fine = line[width - 1] == b'\n'
                && (0..cols).all(|c| allowed[line[2 * c] as usize])
                && (0..cols - 1).all(|c| line[2 * c + 1] == b' ');
            if fine {
                cells.extend((0..cols).map(|c| line[2 * c]));
                sc.skip_line(width);
                continue;
            }
        }
        if sc.peek().is_none() {
            return Err(sc.expected(&format!("row {} of {rows}", r + 1)));
        }
        let cell_expected = format!("{expected} ({cols} per row)");
        for c in 0..cols {
            if c > 0 {
                sc.byte(b' ', "a single space between numbers")?;
            }
            cells.push(sc.one_of(alphabet, &cell_expected)?);
        }
        sc.byte(b'\n', &format!("end of line ('\\n') after {cols} numbers"))?;
    }
    Ok(cells)
}

/// Row bit masks of the cells equal to `symbol` (bit `c` of row `r`).
pub fn masks<const N: usize>(cells: &[u8], symbol: u8) -> [u32; N] {
    let mut rows = [0u32; N];
    for (r, row) in rows.iter_mut().enumerate() {
        for (c, &b) in cells[r * N..(r + 1) * N].iter().enumerate() {
            *row |= u32::from(b == symbol) << c;
        }
    }
    rows
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
