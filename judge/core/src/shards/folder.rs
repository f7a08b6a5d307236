//! The shard folders of a `--save DIR` that many shards share, possibly on a network file
//! system:
//!
//! - `DIR/shard-K-of-N/`: shard K's complete result (`summary.json` and its files);
//! - `DIR/shard-K-of-N.interrupted/`: what an interrupted shard (Ctrl-C, SIGTERM: a Slurm time
//!   limit, `scancel`, a pod's eviction) had done — never taken for a complete result;
//! - `DIR/.shard-K-of-N.tmp-HOST-PID-NANOS/`: a shard writing its result. Everything is
//!   written there first and the folder is renamed into place at the end (one `rename`, atomic
//!   on a local and on a network file system), so a shard that dies while writing leaves only
//!   a temporary folder, and no two shards (nor two attempts of one shard on two machines)
//!   ever write the same file.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::Shard;
use crate::error::JudgeError;

/// The machine-readable summary in every shard folder.
pub const SUMMARY: &str = "summary.json";

/// The folder of a complete shard: `shard-K-of-N`.
pub fn complete_name(shard: Shard) -> String {
    format!("shard-{}-of-{}", shard.k, shard.n)
}

/// The folder of an interrupted shard: `shard-K-of-N.interrupted`.
pub fn interrupted_name(shard: Shard) -> String {
    format!("{}.interrupted", complete_name(shard))
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| {
            !h.is_empty()
                && h.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        })
        .unwrap_or_else(|| "host".to_string())
}

/// Fails (a usage error) when `DIR/shard-K-of-N` exists: that shard is done, and a second
/// result for it would be ambiguous. Checked before the work starts, and again at the end.
pub fn check_free(dir: &Path, shard: Shard) -> Result<(), JudgeError> {
    let done = dir.join(complete_name(shard));
    if done.exists() {
        return Err(JudgeError::Usage(format!(
            "{}: shard {shard} of this folder is already done; remove it to run the shard again, or save into another folder",
            done.display()
        )));
    }
    Ok(())
}

/// A shard's result being written: a temporary folder in `DIR`, renamed into place by
/// [`Pending::publish`], removed if dropped unpublished.
pub struct Pending {
    dir: PathBuf,
    shard: Shard,
    path: PathBuf,
    published: bool,
}

impl Pending {
    pub fn create(dir: &Path, shard: Shard) -> Result<Pending, JudgeError> {
        std::fs::create_dir_all(dir).map_err(|e| JudgeError::io(dir, e))?;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = dir.join(format!(
            ".{}.tmp-{}-{}-{nanos}",
            complete_name(shard),
            host(),
            std::process::id()
        ));
        std::fs::create_dir(&path).map_err(|e| JudgeError::io(&path, e))?;
        Ok(Pending {
            dir: dir.to_path_buf(),
            shard,
            path,
            published: false,
        })
    }

    /// The temporary folder: write the shard's files here.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// [`Pending::publish`] with `record` as `summary.json`: pretty JSON with a final
    /// newline, the one shape every command's shard summary has.
    pub fn publish_record(
        self,
        record: &impl serde::Serialize,
        complete: bool,
    ) -> Result<PathBuf, JudgeError> {
        let mut json = serde_json::to_vec_pretty(record)
            .map_err(|e| JudgeError::report(self.path.join(SUMMARY), e))?;
        json.push(b'\n');
        self.publish(&json, complete)
    }

    /// Writes `summary` as `summary.json` (last, flushed to the disk) and renames the folder
    /// to `shard-K-of-N` (complete) or `shard-K-of-N.interrupted`. Returns the final folder.
    pub fn publish(mut self, summary: &[u8], complete: bool) -> Result<PathBuf, JudgeError> {
        let file = self.path.join(SUMMARY);
        let mut out = std::fs::File::create(&file).map_err(|e| JudgeError::io(&file, e))?;
        out.write_all(summary)
            .and_then(|()| out.sync_all())
            .map_err(|e| JudgeError::io(&file, e))?;
        drop(out);
        let interrupted = self.dir.join(interrupted_name(self.shard));
        let target = if complete {
            self.dir.join(complete_name(self.shard))
        } else {
            interrupted.clone()
        };
        if !complete && target.exists() {
            // An earlier attempt's partial result: ours replaces it (moved aside first, as
            // a folder cannot be renamed over a non-empty one).
            let aside = self.dir.join(format!(
                ".aside-{}-{}",
                complete_name(self.shard),
                std::process::id()
            ));
            let _ = std::fs::rename(&target, &aside);
            let _ = std::fs::remove_dir_all(&aside);
        }
        if complete && target.exists() {
            return Err(JudgeError::Usage(format!(
                "{}: another run of shard {} finished first; this run's result is discarded",
                target.display(),
                self.shard
            )));
        }
        std::fs::rename(&self.path, &target).map_err(|e| JudgeError::io(&target, e))?;
        self.published = true;
        if complete {
            // A partial result of an earlier attempt is superseded.
            let _ = std::fs::remove_dir_all(&interrupted);
        }
        Ok(target)
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// The bytes of the regular file `file`, at most `cap` of them: a link is not followed, and a
/// named pipe, a socket or a device is refused without waiting on it.
pub fn read_regular(file: &Path, cap: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let shown = crate::escape::path(file);
    let before = std::fs::symlink_metadata(file).map_err(|e| format!("{shown}: {e}"))?;
    if !before.file_type().is_file() {
        return Err(format!("{shown}: {}, not a regular file", kind(&before)));
    }
    // O_NONBLOCK: were it swapped for a named pipe meanwhile, the open would not wait for a
    // writer; O_NOFOLLOW: nor for a link. The descriptor is checked again below.
    let opened = std::fs::File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(file)
        .map_err(|e| format!("{shown}: {e}"))?;
    let meta = opened.metadata().map_err(|e| format!("{shown}: {e}"))?;
    if !meta.file_type().is_file() || meta.ino() != before.ino() || meta.dev() != before.dev() {
        return Err(format!("{shown}: replaced while read, not a regular file"));
    }
    if meta.len() > cap {
        return Err(format!(
            "{shown}: {} MiB, more than the {} MiB a shard's summary may be",
            meta.len() >> 20,
            cap >> 20
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    opened
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("{shown}: grew past {} MiB while read", cap >> 20));
    }
    Ok(bytes)
}

/// What a file that is not a regular file is, in words.
pub fn kind(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// What a shard folder says about its shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    Complete,
    Interrupted,
    /// Only a temporary folder: the shard died while writing its result (or is writing now).
    Died,
}

/// A shard folder found in `DIR`.
#[derive(Clone, Debug)]
pub struct Found {
    pub shard: Shard,
    pub state: State,
    pub path: PathBuf,
}

/// `shard-K-of-N` → the shard.
fn parse_name(name: &str) -> Option<Shard> {
    let rest = name.strip_prefix("shard-")?;
    let (k, n) = rest.split_once("-of-")?;
    format!("{k}/{n}").parse().ok()
}

/// Every shard folder in `dir` (complete, interrupted, temporary), sorted by shard. An entry
/// named as a shard's folder that is not a folder (a symbolic link — possibly out of `dir` —,
/// a file, a named pipe, a device) is an error naming each: it is not what a shard writes.
pub fn scan(dir: &Path) -> Result<Vec<Found>, JudgeError> {
    let entries = std::fs::read_dir(dir).map_err(|e| JudgeError::io(dir, e))?;
    let mut found = Vec::new();
    let mut not_folders = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| JudgeError::io(dir, e))?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Not followed: a link is what it is.
        let meta = std::fs::symlink_metadata(&path).map_err(|e| JudgeError::io(&path, e))?;
        if !meta.is_dir() {
            let base = name.strip_suffix(".interrupted").unwrap_or(&name);
            if parse_name(base).is_some() {
                not_folders.push(format!(
                    "{}: {}, not a shard's folder",
                    crate::escape::line(&name),
                    kind(&meta)
                ));
            }
            continue;
        }
        let (shard, state) = if let Some(temp) = name.strip_prefix('.') {
            let Some((base, _)) = temp.split_once(".tmp-") else {
                continue;
            };
            (parse_name(base), State::Died)
        } else if let Some(base) = name.strip_suffix(".interrupted") {
            (parse_name(base), State::Interrupted)
        } else {
            (parse_name(&name), State::Complete)
        };
        if let Some(shard) = shard {
            found.push(Found { shard, state, path });
        }
    }
    if !not_folders.is_empty() {
        not_folders.sort();
        return Err(crate::error::MergeError::Inconsistent {
            dir: dir.to_path_buf(),
            lines: not_folders,
        }
        .into());
    }
    found.sort_by(|a, b| {
        (a.shard.n, a.shard.k, state_rank(&a.state), &a.path).cmp(&(
            b.shard.n,
            b.shard.k,
            state_rank(&b.state),
            &b.path,
        ))
    });
    Ok(found)
}

fn state_rank(state: &State) -> u8 {
    match state {
        State::Complete => 0,
        State::Interrupted => 1,
        State::Died => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("boardjudge-folder-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_shard_appears_only_when_published() {
        let dir = scratch("publish");
        let shard = Shard { k: 2, n: 4 };
        let pending = Pending::create(&dir, shard).unwrap();
        std::fs::write(pending.path().join("shrunk.in"), "x").unwrap();
        // While it is written, only a temporary folder exists: it looks like a dead shard.
        let found = scan(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].state, State::Died);
        assert!(!dir.join("shard-2-of-4").exists());
        let done = pending.publish(b"{}", true).unwrap();
        assert_eq!(done, dir.join("shard-2-of-4"));
        assert!(done.join(SUMMARY).is_file() && done.join("shrunk.in").is_file());
        let found = scan(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].state, State::Complete);
        assert!(check_free(&dir, shard).is_err());
        assert!(check_free(&dir, Shard { k: 3, n: 4 }).is_ok());
        // A second complete result for the same shard is refused, and leaves nothing behind.
        let again = Pending::create(&dir, shard).unwrap();
        assert!(again.publish(b"{}", true).is_err());
        assert_eq!(scan(&dir).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_interrupted_result_is_kept_apart_and_superseded() {
        let dir = scratch("interrupted");
        let shard = Shard { k: 1, n: 2 };
        let first = Pending::create(&dir, shard).unwrap();
        first.publish(b"{\"attempt\":1}", false).unwrap();
        let second = Pending::create(&dir, shard).unwrap();
        second.publish(b"{\"attempt\":2}", false).unwrap();
        let partial = dir.join("shard-1-of-2.interrupted");
        assert_eq!(
            std::fs::read_to_string(partial.join(SUMMARY)).unwrap(),
            "{\"attempt\":2}"
        );
        let found = scan(&dir).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].state, State::Interrupted);
        // The shard run again to the end replaces the partial result.
        Pending::create(&dir, shard)
            .unwrap()
            .publish(b"{}", true)
            .unwrap();
        assert!(!partial.exists());
        assert_eq!(scan(&dir).unwrap()[0].state, State::Complete);
        // A dropped (unpublished) shard removes its temporary folder.
        drop(Pending::create(&dir, Shard { k: 2, n: 2 }).unwrap());
        assert_eq!(scan(&dir).unwrap().len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn names_parse_back() {
        assert_eq!(parse_name("shard-3-of-16"), Some(Shard { k: 3, n: 16 }));
        assert_eq!(parse_name("shard-17-of-16"), None);
        assert_eq!(parse_name("shard-x-of-16"), None);
        assert_eq!(parse_name("results"), None);
    }
}
