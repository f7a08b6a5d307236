//! A byte scanner for canonical inputs: it accepts exactly one spelling of each input and
//! reports the first deviation with its line, column and what was expected there.

use crate::error::ParseError;

/// Inputs longer than this are rejected without reading further. Every canonical input of
/// every problem is far shorter (the largest, omok, is 722 bytes), so the first error of an
/// over-long input always lies inside the part that was read.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

pub struct Scanner<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
}

/// How a byte (or the end of input) is named in an error message.
pub fn describe(byte: Option<u8>) -> String {
    match byte {
        None => "end of input".to_string(),
        Some(b'\n') => "end of line".to_string(),
        Some(b'\r') => "a carriage return '\\r'".to_string(),
        Some(b' ') => "a space".to_string(),
        Some(b'\t') => "a tab".to_string(),
        Some(b) if b.is_ascii_graphic() => format!("'{}'", b as char),
        Some(b) => format!("byte 0x{b:02X}"),
    }
}

impl<'a> Scanner<'a> {
    pub fn new(src: &'a [u8]) -> Scanner<'a> {
        Scanner {
            src,
            pos: 0,
            line: 1,
            col: 1,
        }
    }

    pub fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    /// The next `n` bytes, if there are that many.
    pub fn peek_bytes(&self, n: usize) -> Option<&'a [u8]> {
        self.src.get(self.pos..self.pos + n)
    }

    /// Skips `n` bytes known to hold no line end but the last, which must be `\n`: the fast
    /// path for a row that was checked as a whole.
    pub fn skip_line(&mut self, n: usize) {
        debug_assert_eq!(self.src[self.pos + n - 1], b'\n');
        self.pos += n;
        self.line += 1;
        self.col = 1;
    }

    pub fn line(&self) -> u32 {
        self.line
    }

    pub fn col(&self) -> u32 {
        self.col
    }

    fn bump(&mut self) {
        if self.src[self.pos] == b'\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        self.pos += 1;
    }

    /// An error at the current position: "expected {expected}, found {what is here}".
    pub fn expected(&self, expected: &str) -> ParseError {
        ParseError::at(
            self.line,
            self.col,
            format!("expected {expected}, found {}", describe(self.peek())),
        )
    }

    /// Consumes the next byte if it is one of `allowed`, else reports `expected`.
    pub fn one_of(&mut self, allowed: &[u8], expected: &str) -> Result<u8, ParseError> {
        match self.peek() {
            Some(b) if allowed.contains(&b) => {
                self.bump();
                Ok(b)
            }
            _ => Err(self.expected(expected)),
        }
    }

    pub fn byte(&mut self, want: u8, expected: &str) -> Result<(), ParseError> {
        self.one_of(&[want], expected).map(|_| ())
    }

    pub fn newline(&mut self) -> Result<(), ParseError> {
        self.byte(b'\n', "end of line ('\\n')")
    }

    /// Succeeds at the end of the input; `expected` says what ends there ("end of input after
    /// 19 rows").
    pub fn end(&self, expected: &str) -> Result<(), ParseError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.expected(expected)),
        }
    }

    /// A decimal number in `min..=max` written canonically: digits only, no sign, no leading
    /// zero. Reported at the number's first character.
    pub fn number(&mut self, min: u32, max: u32, what: &str) -> Result<u32, ParseError> {
        let (line, col) = (self.line, self.col);
        // Worded only on an error: numbers are read in hot loops.
        let expected = || format!("{what} (a number from {min} to {max})");
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.expected(&expected()));
        }
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(b) = self.peek().filter(u8::is_ascii_digit) {
            value = (value * 10 + u64::from(b - b'0')).min(u64::from(u32::MAX));
            self.bump();
        }
        let digits = &self.src[start..self.pos];
        if digits.len() > 1 && digits[0] == b'0' {
            let text = String::from_utf8_lossy(digits);
            return Err(ParseError::at(
                line,
                col,
                format!(
                    "expected {} without leading zeros, found '{text}'",
                    expected()
                ),
            ));
        }
        if value < u64::from(min) || value > u64::from(max) {
            let text = String::from_utf8_lossy(digits);
            return Err(ParseError::at(
                line,
                col,
                format!("expected {}, found {text}", expected()),
            ));
        }
        Ok(value as u32)
    }
}
