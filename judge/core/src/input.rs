//! Reading one input from a file or standard input, bounded in size.

use std::io::Read;
use std::path::Path;

use solutions::scan::MAX_INPUT_BYTES;

use crate::error::JudgeError;

/// An input's bytes and the name to use for it in messages (`<stdin>` or the path).
pub struct Input {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Reads at most `MAX_INPUT_BYTES + 1` bytes: every canonical input is far shorter, so an input
/// cut there is still rejected, at the same place, and a huge or endless one costs nothing.
pub fn read(path: Option<&Path>) -> Result<Input, JudgeError> {
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    match path {
        None => {
            std::io::stdin()
                .lock()
                .take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| JudgeError::io("<stdin>", e))?;
            Ok(Input {
                name: "<stdin>".to_string(),
                bytes,
            })
        }
        Some(path) => {
            let file = std::fs::File::open(path).map_err(|e| JudgeError::io(path, e))?;
            file.take(limit)
                .read_to_end(&mut bytes)
                .map_err(|e| JudgeError::io(path, e))?;
            Ok(Input {
                // Shown in messages only: on one line, as every name.
                name: crate::escape::path(path),
                bytes,
            })
        }
    }
}
