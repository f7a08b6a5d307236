//! A slot's files on the host, without a private root: the scratch directories and the box
//! folder the runs see at their host paths.

use std::io;
use std::path::{Path, PathBuf};

use crate::error::{SandboxError, Stage};
use crate::remove;
use crate::rootfs;
use crate::types::{BOX, BoxFile};

/// `word` with a leading `/box` replaced by `outside` (the box's folder on the host, without a
/// private root).
pub(super) fn rebase(word: &str, outside: Option<&Path>) -> String {
    match (outside, word.strip_prefix(BOX)) {
        (Some(dir), Some(rest)) if rest.is_empty() || rest.starts_with('/') => {
            format!("{}{rest}", dir.display())
        }
        _ => word.to_string(),
    }
}

/// Writes `files` under `dir` (an ordinary folder: without a private root), owned by `owner`
/// when given, read-only unless `writable`.
pub(super) fn write_box_files(
    dir: &Path,
    files: &[BoxFile],
    dirs: &[String],
    owner: Option<u32>,
    writable: bool,
) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let make_dir = |path: &Path| -> io::Result<()> {
        std::fs::create_dir_all(path)?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))?;
        if let Some(uid) = owner {
            std::os::unix::fs::chown(path, Some(uid), Some(uid))?;
        }
        Ok(())
    };
    for sub in dirs {
        if !rootfs::safe_box_path(sub) {
            return Err(SandboxError::not_a_box_path(sub).into());
        }
        make_dir(&dir.join(sub))?;
    }
    for file in files {
        if !rootfs::safe_box_path(&file.path) {
            return Err(SandboxError::not_a_box_path(&file.path).into());
        }
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            make_dir(parent)?;
        }
        std::fs::write(&path, &file.contents)?;
        let mode = match (file.executable, writable) {
            (true, false) => 0o555,
            (false, false) => 0o444,
            (true, true) => 0o755,
            (false, true) => 0o644,
        };
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))?;
        if let Some(uid) = owner {
            std::os::unix::fs::chown(&path, Some(uid), Some(uid))?;
        }
    }
    Ok(())
}

/// A fresh directory for this sandbox's slots.
pub(super) fn scratch_root() -> io::Result<PathBuf> {
    let base = std::env::temp_dir();
    for attempt in 0..1000u32 {
        let dir = base.join(format!(
            "boardjudge-sandbox-{}-{attempt}",
            std::process::id()
        ));
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                use std::os::unix::fs::PermissionsExt;
                // Traversable by the sandbox users, listable by nobody else.
                std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))?;
                return Ok(dir);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(SandboxError::new(Stage::Scratch, "no free scratch directory name").into())
}

/// Empties (or creates) a slot's scratch directory, owned by the slot's user, private to it.
/// The directory itself is kept: the slot's Landlock rule refers to this very inode.
pub(super) fn reset_dir(dir: &Path, uid: Option<u32>) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if dir.exists() {
        // Without recursion: the submission may have left a tree of any depth.
        remove::empty_dir(dir)?;
    } else {
        std::fs::create_dir(dir)?;
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    if let Some(uid) = uid {
        std::os::unix::fs::chown(dir, Some(uid), Some(uid))?;
    }
    Ok(())
}
