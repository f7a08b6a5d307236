//! Listing the package's folders as the format sees them, safely.
//!
//! - Names starting with `.` are skipped silently (`.git`, `.gitkeep`: the format says to
//!   behave as if they were not there); other names that do not match the format's file-name
//!   rule are skipped with a warning.
//! - A symbolic link is followed only if its final target (all links resolved) lies inside the
//!   package folder, or inside a folder the user named as trusted ([`ReadOptions`]); one that
//!   points anywhere else is an error, never read through. A link that points nowhere is an
//!   error too.
//! - Only regular files and folders are listed: a FIFO or device is skipped with a warning,
//!   since opening one could block the reader or touch hardware.

use std::fs;
use std::path::{Path, PathBuf};

use crate::error::{Location, PackageError, Warnings};
use crate::version::FormatVersion;

/// Whether `name` is a valid file or folder name for the version: `legacy`, `2023-07`,
/// `2025-09`: `^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}$`; `legacy-icpc`:
/// `^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,253}[a-zA-Z0-9]$`.
pub fn valid_name(name: &str, version: FormatVersion) -> bool {
    let b = name.as_bytes();
    let inner = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'.' || c == b'-';
    match version {
        FormatVersion::LegacyIcpc => {
            (2..=255).contains(&b.len())
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter().all(|c| inner(*c))
        }
        _ => {
            (1..=255).contains(&b.len())
                && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
                && b.iter().all(|c| inner(*c))
        }
    }
}

/// What an entry is, after following an allowed symlink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
}

/// One entry of a listed folder.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// The file name.
    pub name: String,
    /// Relative to the package folder.
    pub relative: PathBuf,
    pub kind: Kind,
}

/// The package folder, resolved, to check links against.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    /// As given (paths handed out are under it).
    pub given: PathBuf,
    /// With every symlink resolved.
    canonical: PathBuf,
    /// Folders outside the package that links may lead into (resolved): the user's consent.
    link_roots: Vec<PathBuf>,
    pub version: FormatVersion,
}

/// How a package is read: what the user allows beyond the format's rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Folders outside the package that its symbolic links may point into (BAPCtools' test
    /// packages link their validators' `validation.h` to a folder of BAPCtools). Empty: a link
    /// must stay inside the package, as the format says. A folder that does not exist allows
    /// nothing.
    pub follow_links_into: Vec<PathBuf>,
}

impl Root {
    pub(crate) fn new(
        dir: &Path,
        version: FormatVersion,
        options: &ReadOptions,
    ) -> Result<Root, PackageError> {
        let canonical = fs::canonicalize(dir).map_err(|e| PackageError::io(dir, e))?;
        Ok(Root {
            given: dir.to_path_buf(),
            canonical,
            link_roots: options
                .follow_links_into
                .iter()
                .filter_map(|d| fs::canonicalize(d).ok())
                .collect(),
            version,
        })
    }

    /// Whether a link's resolved target may be read: inside the package or a trusted folder.
    fn may_follow(&self, resolved: &Path) -> bool {
        resolved.starts_with(&self.canonical)
            || self.link_roots.iter().any(|r| resolved.starts_with(r))
    }

    /// The path of `relative` as handed to users (under the folder they gave).
    pub(crate) fn path(&self, relative: &Path) -> PathBuf {
        self.given.join(relative)
    }

    /// What `relative` is, if it exists: a file or folder inside the package. A symlink
    /// leaving the package, a dangling one, or a special file is an error.
    pub(crate) fn kind(&self, relative: &Path) -> Result<Option<Kind>, PackageError> {
        let path = self.path(relative);
        let meta = match fs::symlink_metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(PackageError::io(relative, e)),
        };
        let meta = if meta.file_type().is_symlink() {
            let target = fs::read_link(&path).map_err(|e| PackageError::io(relative, e))?;
            let resolved = match fs::canonicalize(&path) {
                Ok(p) => p,
                Err(_) => {
                    // Dangling: say whether it would have left the package at all.
                    return Err(if self.lexically_escapes(relative, &target) {
                        PackageError::SymlinkEscapes {
                            location: Location::file(relative),
                            target,
                        }
                    } else {
                        PackageError::Missing {
                            location: Location::file(relative),
                            what: format!("the target {} of this symlink", target.display()),
                        }
                    });
                }
            };
            if !self.may_follow(&resolved) {
                return Err(PackageError::SymlinkEscapes {
                    location: Location::file(relative),
                    target,
                });
            }
            fs::metadata(&resolved).map_err(|e| PackageError::io(relative, e))?
        } else {
            meta
        };
        if meta.is_dir() {
            Ok(Some(Kind::Dir))
        } else if meta.is_file() {
            Ok(Some(Kind::File))
        } else {
            Err(PackageError::invalid(
                Location::file(relative),
                "neither a regular file nor a folder (a FIFO, socket or device?)",
            ))
        }
    }

    fn lexically_escapes(&self, link: &Path, target: &Path) -> bool {
        if target.is_absolute() {
            return !target.starts_with(&self.canonical) && !target.starts_with(&self.given);
        }
        let mut depth: isize = link.components().count() as isize - 1;
        for c in target.components() {
            match c {
                std::path::Component::ParentDir => depth -= 1,
                std::path::Component::Normal(_) => depth += 1,
                _ => {}
            }
            if depth < 0 {
                return true;
            }
        }
        false
    }

    /// Whether `relative` is an existing folder of the package.
    pub(crate) fn is_dir(&self, relative: &Path) -> Result<bool, PackageError> {
        Ok(self.kind(relative)? == Some(Kind::Dir))
    }

    /// Whether `relative` is an existing file of the package.
    pub(crate) fn is_file(&self, relative: &Path) -> Result<bool, PackageError> {
        Ok(self.kind(relative)? == Some(Kind::File))
    }

    /// The entries of folder `relative` the format sees, sorted by name (bytewise). A missing
    /// folder lists nothing.
    pub(crate) fn list(
        &self,
        relative: &Path,
        warnings: &mut Warnings,
    ) -> Result<Vec<Entry>, PackageError> {
        if !self.is_dir(relative)? {
            return Ok(Vec::new());
        }
        let reader =
            fs::read_dir(self.path(relative)).map_err(|e| PackageError::io(relative, e))?;
        let mut entries = Vec::new();
        for item in reader {
            let item = item.map_err(|e| PackageError::io(relative, e))?;
            let os_name = item.file_name();
            let child = relative.join(&os_name);
            let Some(name) = os_name.to_str() else {
                warnings.push(
                    Location::file(&child),
                    "ignored: the name is not UTF-8, so it cannot match the format's file names",
                );
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            if !valid_name(name, self.version) {
                warnings.push(
                    Location::file(&child),
                    format!(
                        "ignored: `{name}` is not a valid {} file name",
                        self.version.name()
                    ),
                );
                continue;
            }
            let kind = match self.kind(&child) {
                Ok(Some(kind)) => kind,
                Ok(None) => continue,
                Err(PackageError::Invalid { location, message }) => {
                    warnings.push(location, format!("ignored: {message}"));
                    continue;
                }
                Err(e) => return Err(e),
            };
            entries.push(Entry {
                name: name.to_string(),
                relative: child,
                kind,
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(entries)
    }

    /// Read a file of the package, at most `limit` bytes (more is an error).
    pub(crate) fn read(&self, relative: &Path, limit: u64) -> Result<Vec<u8>, PackageError> {
        if !self.is_file(relative)? {
            return Err(PackageError::Missing {
                location: Location::file(relative),
                what: "a file".to_string(),
            });
        }
        use std::io::Read;
        let file =
            fs::File::open(self.path(relative)).map_err(|e| PackageError::io(relative, e))?;
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| PackageError::io(relative, e))?;
        if bytes.len() as u64 > limit {
            return Err(PackageError::invalid(
                Location::file(relative),
                format!("larger than the {limit} bytes read here"),
            ));
        }
        Ok(bytes)
    }

    /// The canonical path of a folder, to detect symlink cycles while walking.
    pub(crate) fn canonical(&self, relative: &Path) -> Result<PathBuf, PackageError> {
        fs::canonicalize(self.path(relative)).map_err(|e| PackageError::io(relative, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spec_name_rules() {
        use FormatVersion::*;
        for ok in ["1.in", "_x", "a-b.c", "UPPER", &"a".repeat(255)] {
            assert!(valid_name(ok, V2025_09), "{ok}");
        }
        for bad in ["", ".x", "-x", "a b", "ä", "a/b", &"a".repeat(256)] {
            assert!(!valid_name(bad, V2025_09), "{bad}");
        }
        assert!(!valid_name("_x", LegacyIcpc));
        assert!(!valid_name("x_", LegacyIcpc));
        assert!(!valid_name("x", LegacyIcpc));
        assert!(valid_name("x1", LegacyIcpc));
    }
}
