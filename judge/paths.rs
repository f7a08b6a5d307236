//! The paths a command writes to or reads from, checked before the command does any work: a
//! report, a tests run or a stress campaign that ran for an hour must not end with "cannot
//! write the report". Every check is a usage error (exit 2), and a path that does not exist is
//! said one way across every command: `PATH: no such file or folder`.

use std::path::{Path, PathBuf};

use judge_core::JudgeError;

/// The one wording for a path given on the command line that does not exist.
pub fn no_such(path: &Path) -> JudgeError {
    JudgeError::Usage(format!("{}: no such file or folder", path.display()))
}

/// A file or folder the command reads: it must exist.
pub fn existing(path: &Path) -> Result<(), JudgeError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(no_such(path)),
        // Anything else (permissions, …) is said where the file is read, with its cause.
        _ => Ok(()),
    }
}

/// The report extensions every command knows (`judge_report::Format`): the command-line
/// contract makes any other one a usage error rather than a CSV file under another name.
const REPORT_EXTENSIONS: [&str; 5] = ["csv", "json", "xml", "html", "htm"];

/// `--report FILE`: a known extension, not a folder, in a folder that exists and that the
/// judge can write into.
pub fn report(path: &Path) -> Result<(), JudgeError> {
    if path.is_dir() || path.as_os_str().to_string_lossy().ends_with('/') {
        return Err(JudgeError::Usage(format!(
            "--report {}: a folder; give a file name, e.g. {}",
            path.display(),
            path.join("report.html").display()
        )));
    }
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if !extension
        .as_deref()
        .is_some_and(|e| REPORT_EXTENSIONS.contains(&e))
    {
        return Err(JudgeError::Usage(format!(
            "--report {}: the format follows the extension: .csv, .json, .xml (JUnit) or .html",
            path.display()
        )));
    }
    writable_folder("--report", path, &parent(path))
}

/// `--save DIR`, `--out DIR`: a folder the command creates if missing (with its parents),
/// so a path that exists must be a folder, and the nearest existing one must be writable.
pub fn output_folder(option: &str, path: &Path) -> Result<(), JudgeError> {
    if path.exists() {
        if !path.is_dir() {
            return Err(JudgeError::Usage(format!(
                "{option} {}: exists and is not a folder",
                path.display()
            )));
        }
        return writable_folder(option, path, path);
    }
    // The nearest ancestor that exists is where the folders will be created.
    let mut ancestor = parent(path);
    while !ancestor.exists() {
        match ancestor.parent() {
            Some(up) if !up.as_os_str().is_empty() => ancestor = up.to_path_buf(),
            _ => {
                ancestor = PathBuf::from(".");
                break;
            }
        }
    }
    if !ancestor.is_dir() {
        return Err(JudgeError::Usage(format!(
            "{option} {}: {} is not a folder",
            path.display(),
            ancestor.display()
        )));
    }
    writable_folder(option, path, &ancestor)
}

/// The folder `path` lies in (`.` for a bare name).
fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Can a file be created in `folder` (where `path`, given to `option`, goes)? Tried, not
/// guessed from permission bits: root, read-only mounts and ACLs all answer for themselves.
fn writable_folder(option: &str, path: &Path, folder: &Path) -> Result<(), JudgeError> {
    if !folder.exists() {
        return Err(JudgeError::Usage(format!(
            "{option} {}: {}: no such file or folder",
            path.display(),
            folder.display()
        )));
    }
    if !folder.is_dir() {
        return Err(JudgeError::Usage(format!(
            "{option} {}: {} is not a folder",
            path.display(),
            folder.display()
        )));
    }
    let probe = folder.join(format!(".judge-write-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            // Best effort: the probe is empty and hidden; failing to remove it is harmless.
            let _ = std::fs::remove_file(&probe);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(JudgeError::Usage(format!(
            "{option} {}: cannot write into {}: {}",
            path.display(),
            folder.display(),
            plain_io(&e)
        ))),
    }
}

/// An I/O error without Rust's "(os error N)".
fn plain_io(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}
