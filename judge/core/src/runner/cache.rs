//! The build cache: each distinct source is built once, then its artefact is served from
//! disk. An entry is keyed by the SHA-256 of everything the artefact depends on: the exact
//! bytes of every source file and its name in the box, the language, the full build command
//! (with the compiler's resolved path), its environment, what is taken out of the box, and
//! the toolchain's identity (the compiler's version output and the size, times and inode of
//! its executable). It holds only what the box left (the artefact the judge took out), is
//! written by the judge as a whole under a temporary name and renamed into place (a killed
//! judge leaves no half entry; its temporary folder is removed by the next judge), and is
//! served only if its stored key text is exactly the key text asked for and every file's hash
//! matches. Only successful builds are cached.
//!
//! Its size is capped ([`max_bytes`]: 2 GiB, `$BOARDJUDGE_BUILD_CACHE_MAX_MB`): after each
//! new entry the least recently used entries (by the time of their last use, kept as the
//! modification time of their `key` file) are removed until the cache fits.
//!
//! Where: `$BOARDJUDGE_BUILD_CACHE` (`off` turns it off), else
//! `$XDG_CACHE_HOME/boardjudge/builds`, else `~/.cache/boardjudge/builds`. Clear it with
//! `rm -rf` of that folder.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use sandbox::BoxFile;

/// The first line of every key text: a new format of entries changes it.
const FORMAT: &str = "boardjudge build cache 1";

/// Lower-case hex of the SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The key of one build: the text of everything the artefact depends on, and its hash.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub text: String,
    pub hash: String,
}

impl Key {
    pub fn new(material: &str) -> Key {
        let text = format!("{FORMAT}\n{material}");
        let hash = sha256_hex(text.as_bytes());
        Key { text, hash }
    }
}

/// The cache folder, or `None` when it is off or there is nowhere to put it.
pub fn location() -> Option<PathBuf> {
    match std::env::var_os("BOARDJUDGE_BUILD_CACHE") {
        Some(v) if v == "off" || v == "0" || v.is_empty() => return None,
        Some(v) => return Some(PathBuf::from(v)),
        None => {}
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .filter(|p| p.is_absolute())
                .map(|h| h.join(".cache"))
        })?;
    Some(base.join("boardjudge").join("builds"))
}

/// The default cap on the cache's size.
pub const MAX_BYTES: u64 = 2 << 30;

/// The cache's size cap: `$BOARDJUDGE_BUILD_CACHE_MAX_MB` MiB if set to a whole number, else
/// [`MAX_BYTES`].
pub fn max_bytes() -> u64 {
    std::env::var("BOARDJUDGE_BUILD_CACHE_MAX_MB")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(MAX_BYTES, |mb| mb.saturating_mul(1 << 20))
}

/// An open cache folder.
#[derive(Debug)]
pub struct Cache {
    root: PathBuf,
    /// The most its entries may hold in all ([`max_bytes`]).
    max_bytes: u64,
}

static TEMPORARY: AtomicU64 = AtomicU64::new(0);

const TEMPORARY_PREFIX: &str = ".tmp-";

impl Cache {
    /// Opens (making it, private to this user) the cache folder `root`, and removes the
    /// temporary folders of judges that died writing an entry.
    pub fn open(root: &Path) -> std::io::Result<Cache> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(root)?;
        if let Ok(entries) = std::fs::read_dir(root) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(pid) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix(TEMPORARY_PREFIX))
                    .and_then(|rest| rest.split('-').next())
                    .and_then(|pid| pid.parse::<u32>().ok())
                else {
                    continue;
                };
                if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
                    let _ = std::fs::remove_dir_all(entry.path());
                }
            }
        }
        Ok(Cache {
            root: root.to_path_buf(),
            max_bytes: max_bytes(),
        })
    }

    /// This cache with a size cap of `max_bytes`.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Cache {
        self.max_bytes = max_bytes;
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn entry(&self, key: &Key) -> PathBuf {
        self.root.join(&key.hash)
    }

    /// The artefact stored under `key`, if there is an entry whose key text is `key`'s and
    /// whose files are intact (a damaged entry is removed).
    pub fn get(&self, key: &Key) -> Option<Vec<BoxFile>> {
        let dir = self.entry(key);
        let stored = std::fs::read_to_string(dir.join("key")).ok()?;
        if stored != key.text {
            return None;
        }
        match read_entry(&dir) {
            Some(files) => {
                // Used now: the last to go when the cache is over its size.
                let _ = std::fs::File::open(dir.join("key")).and_then(|f| {
                    f.set_times(std::fs::FileTimes::new().set_modified(SystemTime::now()))
                });
                Some(files)
            }
            None => {
                let _ = std::fs::remove_dir_all(&dir);
                None
            }
        }
    }

    /// Stores `files` under `key` (an entry already there, made by another judge meanwhile,
    /// stays), then removes the least recently used entries until the cache fits its cap. An
    /// artefact larger than the whole cap is not stored.
    pub fn put(&self, key: &Key, files: &[BoxFile]) -> std::io::Result<()> {
        let size: u64 = files.iter().map(|f| f.contents.len() as u64).sum();
        if size > self.max_bytes {
            return Ok(());
        }
        self.store(key, files)?;
        self.evict(&key.hash);
        Ok(())
    }

    /// The entries (hash, bytes, last used), least recently used first.
    fn entries(&self) -> Vec<(String, u64, SystemTime)> {
        let Ok(listing) = std::fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut entries = Vec::new();
        for entry in listing.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.len() != 64 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            let dir = entry.path();
            let Ok(used) = std::fs::metadata(dir.join("key")).and_then(|m| m.modified()) else {
                continue;
            };
            let bytes: u64 = std::fs::read_dir(dir.join("files"))
                .map(|files| {
                    files
                        .flatten()
                        .filter_map(|f| f.metadata().ok())
                        .map(|m| m.len())
                        .sum()
                })
                .unwrap_or(0);
            entries.push((name, bytes, used));
        }
        entries.sort_by(|a, b| (a.2, &a.0).cmp(&(b.2, &b.0)));
        entries
    }

    /// Removes the least recently used entries (never `keep`, the one just stored) until the
    /// cache holds at most its cap. An entry goes by one rename (a judge reading it meanwhile
    /// finds it damaged or gone, and builds again), then is deleted.
    fn evict(&self, keep: &str) {
        let entries = self.entries();
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        for (hash, bytes, _) in entries {
            if total <= self.max_bytes {
                break;
            }
            if hash == keep {
                continue;
            }
            let doomed = self.root.join(format!(
                "{TEMPORARY_PREFIX}{}-{}",
                std::process::id(),
                TEMPORARY.fetch_add(1, Ordering::Relaxed)
            ));
            if std::fs::rename(self.root.join(&hash), &doomed).is_ok() {
                let _ = std::fs::remove_dir_all(&doomed);
                total = total.saturating_sub(bytes);
            }
        }
    }

    fn store(&self, key: &Key, files: &[BoxFile]) -> std::io::Result<()> {
        let temporary = self.root.join(format!(
            "{TEMPORARY_PREFIX}{}-{}",
            std::process::id(),
            TEMPORARY.fetch_add(1, Ordering::Relaxed)
        ));
        let written = write_entry(&temporary, key, files);
        let result = written.and_then(|()| std::fs::rename(&temporary, self.entry(key)));
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&temporary);
        }
        match result {
            Err(e) if e.raw_os_error() == Some(libc::ENOTEMPTY) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
            other => other,
        }
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::File::options()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

fn write_entry(dir: &Path, key: &Key, files: &[BoxFile]) -> std::io::Result<()> {
    let builder = {
        let mut b = std::fs::DirBuilder::new();
        b.mode(0o700).recursive(true);
        b
    };
    builder.create(dir.join("files"))?;
    let mut index = String::new();
    for (k, file) in files.iter().enumerate() {
        // Stored under a number: the box path is only in the index (no name of the build's
        // choosing becomes a path on the host).
        write_file(&dir.join("files").join(k.to_string()), &file.contents)?;
        index.push_str(&format!(
            "{} {} {} {}\n",
            u8::from(file.executable),
            file.contents.len(),
            sha256_hex(&file.contents),
            file.path
        ));
    }
    write_file(&dir.join("index"), index.as_bytes())?;
    write_file(&dir.join("key"), key.text.as_bytes())
}

fn read_entry(dir: &Path) -> Option<Vec<BoxFile>> {
    let index = std::fs::read_to_string(dir.join("index")).ok()?;
    let mut files = Vec::new();
    for (k, line) in index.lines().enumerate() {
        let mut fields = line.splitn(4, ' ');
        let executable = fields.next()? == "1";
        let size: usize = fields.next()?.parse().ok()?;
        let hash = fields.next()?;
        let path = fields.next()?;
        if !sandbox::rootfs::safe_box_path(path) {
            return None;
        }
        let contents = std::fs::read(dir.join("files").join(k.to_string())).ok()?;
        if contents.len() != size || sha256_hex(&contents) != hash {
            return None;
        }
        files.push(BoxFile {
            path: path.to_string(),
            contents: Arc::from(contents),
            executable,
        });
    }
    Some(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, bytes: &[u8]) -> BoxFile {
        BoxFile {
            path: path.to_string(),
            contents: Arc::from(bytes.to_vec()),
            executable: true,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cache-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn an_entry_is_served_only_for_its_own_key_text_and_intact_files() {
        let dir = scratch("keys");
        let cache = Cache::open(&dir).unwrap();
        let key = Key::new("source a.c 1234\n");
        let other = Key::new("source a.c 5678\n");
        assert!(cache.get(&key).is_none());
        cache.put(&key, &[file("sol", b"program")]).unwrap();
        let got = cache.get(&key).unwrap();
        assert_eq!(&got[0].contents[..], b"program");
        assert_eq!(got[0].path, "sol");
        assert!(cache.get(&other).is_none());
        // An entry whose stored key text differs (a different source under the same name)
        // is not served.
        let forged = Key {
            text: other.text.clone(),
            hash: key.hash.clone(),
        };
        assert!(cache.get(&forged).is_none());
        // A damaged file: not served, and the entry is gone.
        std::fs::write(dir.join(&key.hash).join("files/0"), b"tampered").unwrap();
        assert!(cache.get(&key).is_none());
        assert!(!dir.join(&key.hash).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_dead_judges_temporary_entry_is_removed_and_a_second_put_keeps_the_first() {
        let dir = scratch("temporary");
        std::fs::create_dir_all(dir.join(".tmp-999999999-0/files")).unwrap();
        let cache = Cache::open(&dir).unwrap();
        assert!(!dir.join(".tmp-999999999-0").exists());
        let key = Key::new("x");
        cache.put(&key, &[file("sol", b"one")]).unwrap();
        cache.put(&key, &[file("sol", b"two")]).unwrap();
        assert_eq!(&cache.get(&key).unwrap()[0].contents[..], b"one");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn over_its_cap_the_cache_lets_the_least_recently_used_entries_go() {
        let dir = scratch("evict");
        // Room for two entries of 100 bytes.
        let cache = Cache::open(&dir).unwrap().with_max_bytes(250);
        let keys: Vec<Key> = (0..4).map(|i| Key::new(&format!("entry {i}"))).collect();
        let program = vec![7u8; 100];
        let past = |seconds: u64| SystemTime::now() - std::time::Duration::from_secs(seconds);
        let age = |key: &Key, seconds: u64| {
            let f = std::fs::File::open(dir.join(&key.hash).join("key")).unwrap();
            f.set_times(std::fs::FileTimes::new().set_modified(past(seconds)))
                .unwrap();
        };
        cache.put(&keys[0], &[file("sol", &program)]).unwrap();
        age(&keys[0], 300);
        cache.put(&keys[1], &[file("sol", &program)]).unwrap();
        age(&keys[1], 200);
        // Entry 0 is used now: entry 1 is the least recently used when entry 2 comes.
        assert!(cache.get(&keys[0]).is_some());
        cache.put(&keys[2], &[file("sol", &program)]).unwrap();
        assert!(
            cache.get(&keys[1]).is_none(),
            "the least recently used entry stays"
        );
        assert!(cache.get(&keys[0]).is_some() && cache.get(&keys[2]).is_some());
        // Larger than the whole cache: not stored, nothing else evicted for it.
        cache.put(&keys[3], &[file("sol", &[0; 300])]).unwrap();
        assert!(cache.get(&keys[3]).is_none());
        assert!(cache.get(&keys[0]).is_some() && cache.get(&keys[2]).is_some());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
