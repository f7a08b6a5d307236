//! Finding the tests of a test set: `DIR/*.in` (plain) or `DIR/data/**/*.in` (Kattis), each
//! with its `.ans`.

use std::path::{Path, PathBuf};

use crate::error::JudgeError;

#[derive(Clone, Debug)]
pub struct Test {
    /// The name in reports: the path below the test set folder, without `.in`.
    pub name: String,
    pub input: PathBuf,
    pub answer: PathBuf,
}

fn collect(dir: &Path, base: &Path, out: &mut Vec<Test>) -> Result<(), JudgeError> {
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
        if path.is_dir() {
            collect(&path, base, out)?;
        } else if path.extension().is_some_and(|e| e == "in") {
            let answer = path.with_extension("ans");
            if !answer.is_file() {
                return Err(JudgeError::Other(format!(
                    "{}: no matching .ans file",
                    path.display()
                )));
            }
            let name = path
                .strip_prefix(base)
                .unwrap_or(&path)
                .with_extension("")
                .display()
                .to_string();
            out.push(Test {
                name,
                input: path,
                answer,
            });
        }
    }
    Ok(())
}

/// The tests of a test set folder in either layout, sorted by name.
pub fn discover(dir: &Path) -> Result<Vec<Test>, JudgeError> {
    if !dir.is_dir() {
        return Err(JudgeError::Usage(format!(
            "{}: not a folder",
            dir.display()
        )));
    }
    let data = dir.join("data");
    let mut tests = Vec::new();
    if data.is_dir() {
        collect(&data, &data, &mut tests)?;
    } else {
        let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
        for entry in entries {
            let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
            if path.is_file() && path.extension().is_some_and(|e| e == "in") {
                let answer = path.with_extension("ans");
                if !answer.is_file() {
                    return Err(JudgeError::Other(format!(
                        "{}: no matching .ans file",
                        path.display()
                    )));
                }
                let name = path
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                tests.push(Test {
                    name,
                    input: path,
                    answer,
                });
            }
        }
    }
    if tests.is_empty() {
        return Err(JudgeError::Usage(format!(
            "{}: no tests (NAME.in + NAME.ans, or data/sample and data/secret)",
            dir.display()
        )));
    }
    tests.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tests)
}
