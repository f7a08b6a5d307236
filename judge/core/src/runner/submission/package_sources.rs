//! What the programs of a problem package need when their sources are read for a build, that
//! a plain source file does not: the format's `{{constants}}` (2025-09) substituted, the
//! entry point `submissions.yaml` names, and the symbolic links the package may have (its
//! validators' shared header, a submission linked from another folder) followed.
//!
//! Every change is made to the copy the build box gets (the sources are read into memory
//! before the box is made): nothing is written into the package. A package registers its
//! rules once, when it is read ([`register`]); the builder looks them up by where a program
//! lies, so a file outside every package (a contestant's submission) is read exactly as
//! before.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The rules of one package's sources.
#[derive(Clone, Debug, Default)]
pub struct PackageSources {
    /// The package folder, resolved.
    pub root: PathBuf,
    /// Folders outside the package that its links may lead into (resolved): the user's
    /// consent (`--allow-links-into`).
    pub link_roots: Vec<PathBuf>,
    /// `name` and `name.variant` → value (`problem.yaml`'s `constants`).
    pub constants: BTreeMap<String, String>,
    /// Folders (resolved) whose programs get the constants substituted: the format's
    /// validators, generators and example submissions.
    pub substituted: Vec<PathBuf>,
    /// The entry point of a folder submission (resolved folder → a file of it, or a class
    /// name for a language that runs one).
    pub entry_points: HashMap<PathBuf, String>,
}

impl PackageSources {
    /// Whether a link's resolved target may be read: inside the package or a trusted folder.
    pub(super) fn may_follow(&self, resolved: &Path) -> bool {
        resolved.starts_with(&self.root) || self.link_roots.iter().any(|r| resolved.starts_with(r))
    }

    /// Whether the program at `location` (see [`location`]) gets the constants substituted.
    pub(super) fn substitutes(&self, location: &Path) -> bool {
        !self.constants.is_empty() && self.substituted.iter().any(|d| location.starts_with(d))
    }

    /// The constants substituted into `bytes`, if it is UTF-8 text naming one; `None`: as is
    /// (a binary file, or nothing to replace).
    pub(super) fn substituted(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let text = std::str::from_utf8(bytes).ok()?;
        let replaced = package_format::metadata::substitute_constants(text, &self.constants);
        (replaced != text).then(|| replaced.into_bytes())
    }
}

static REGISTERED: Mutex<Vec<Arc<PackageSources>>> = Mutex::new(Vec::new());

/// Registers a package's rules (each package folder once: a later registration of the same
/// folder replaces the earlier one).
pub fn register(sources: PackageSources) {
    let mut registered = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    registered.retain(|p| p.root != sources.root);
    registered.push(Arc::new(sources));
}

/// Where a program lies, resolved, without following the program itself if it is a link (a
/// submission linked from another folder is still the one its own folder declares): its
/// folder resolved, and its name.
pub(super) fn location(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// The rules of the package `location` lies in, if any (the innermost).
pub(super) fn of(location: &Path) -> Option<Arc<PackageSources>> {
    let registered = REGISTERED.lock().unwrap_or_else(|e| e.into_inner());
    registered
        .iter()
        .filter(|p| location.starts_with(&p.root))
        .max_by_key(|p| p.root.components().count())
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_followed_into_the_package_and_the_trusted_folders_only() {
        let sources = PackageSources {
            root: "/p/pkg".into(),
            link_roots: vec!["/p/headers".into()],
            ..PackageSources::default()
        };
        assert!(sources.may_follow(Path::new("/p/pkg/submissions/a.py")));
        assert!(sources.may_follow(Path::new("/p/headers/validation.h")));
        assert!(!sources.may_follow(Path::new("/p/pkg2/x")));
        assert!(!sources.may_follow(Path::new("/root/.ssh/id_rsa")));
    }

    #[test]
    fn constants_are_substituted_in_the_named_folders_text_only() {
        let sources = PackageSources {
            root: "/p/pkg".into(),
            constants: [("N".to_string(), "5".to_string())].into(),
            substituted: vec!["/p/pkg/input_validators".into()],
            ..PackageSources::default()
        };
        assert!(sources.substitutes(Path::new("/p/pkg/input_validators/v.py")));
        assert!(!sources.substitutes(Path::new("/p/pkg/data/secret/1.in")));
        assert_eq!(
            sources.substituted(b"n <= {{N}} {{M}}"),
            Some(b"n <= 5 {{M}}".to_vec())
        );
        assert_eq!(sources.substituted(b"nothing"), None);
        assert_eq!(sources.substituted(b"\xff{{N}}"), None);
        let none = PackageSources {
            constants: BTreeMap::new(),
            ..sources
        };
        assert!(!none.substitutes(Path::new("/p/pkg/input_validators/v.py")));
    }
}
