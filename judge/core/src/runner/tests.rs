//! Finding the tests of a test set: `DIR/*.in` (plain) or `DIR/data/{sample,secret}/**/*.in`
//! (a Kattis / ICPC problem package, test groups included), each with its `.ans`.

use std::path::{Path, PathBuf};

use crate::error::{JudgeError, JuryError};

#[derive(Clone, Debug)]
pub struct Test {
    /// The name in reports: the path below the test set folder, without `.in`.
    pub name: String,
    pub input: PathBuf,
    pub answer: PathBuf,
}

/// The test of an input file, if it is one (`NAME.in`, which must have its `NAME.ans`).
fn test_of(path: &Path, base: &Path) -> Result<Option<Test>, JudgeError> {
    if !path.is_file() || path.extension().is_none_or(|e| e != "in") {
        return Ok(None);
    }
    let answer = path.with_extension("ans");
    if !answer.is_file() {
        return Err(JuryError::MissingAnswer {
            answer,
            input: path.to_path_buf(),
        }
        .into());
    }
    let name = path
        .strip_prefix(base)
        .unwrap_or(path)
        .with_extension("")
        .display()
        .to_string();
    Ok(Some(Test {
        name,
        input: path.to_path_buf(),
        answer,
    }))
}

/// The tests in `dir` (and, with `recurse`, below it), named relative to `base`.
fn collect(dir: &Path, base: &Path, recurse: bool, out: &mut Vec<Test>) -> Result<(), JudgeError> {
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
        if recurse && path.is_dir() {
            collect(&path, base, recurse, out)?;
        } else if let Some(test) = test_of(&path, base)? {
            out.push(test);
        }
    }
    Ok(())
}

/// The inputs a setter validates in a folder, sorted by path: in a problem package (a `data/`
/// folder) every `.in` below `data/sample` and `data/secret`, the tests `judge run` judges
/// (`data/invalid_input` holds inputs meant to be rejected); otherwise every `.in` in the
/// folder and below it. No answer files are needed.
pub fn inputs_in(dir: &Path) -> Result<Vec<PathBuf>, JudgeError> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), JudgeError> {
        let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
        for entry in entries {
            let path = entry.map_err(|e| JudgeError::io(dir, e))?.path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.is_file() && path.extension().is_some_and(|e| e == "in") {
                out.push(path);
            }
        }
        Ok(())
    }
    let data = dir.join("data");
    let mut inputs = Vec::new();
    if data.is_dir() {
        for group in ["sample", "secret"] {
            let folder = data.join(group);
            if folder.is_dir() {
                walk(&folder, &mut inputs)?;
            }
        }
    } else {
        walk(dir, &mut inputs)?;
    }
    if inputs.is_empty() {
        return Err(JudgeError::Usage(format!(
            "{}: no .in files{}",
            dir.display(),
            if data.is_dir() {
                " in data/sample or data/secret"
            } else {
                ""
            }
        )));
    }
    inputs.sort();
    Ok(inputs)
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
        // A problem package: judged on its samples and secret tests; `invalid_input`,
        // `invalid_answer` and any other folder of `data/` are not tests of a submission.
        for group in ["sample", "secret"] {
            let folder = data.join(group);
            if folder.is_dir() {
                collect(&folder, &data, true, &mut tests)?;
            }
        }
    } else {
        collect(dir, dir, false, &mut tests)?;
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
