//! A jury box's folders around each run: the per-run files written into `/box/case` and an
//! empty `/box/feedback` readied before it, the feedback read back after it, and both emptied.
//!
//! The judge works through the descriptors it keeps of the two folders' mounts (as root), or
//! in the slot's scratch folder (without root), and never follows what a run left there: the
//! feedback is read entry by entry (`openat` with `O_NOFOLLOW | O_NONBLOCK`, then `fstat`),
//! regular files only, within the box's bytes and count. A link (to `/proc/…`, say), a named
//! pipe, a socket or a folder is named among the skipped, never opened as what it points to.

use std::ffi::CString;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;

use crate::beneath::{fstat, kind, open_beneath};
use crate::error::{SandboxError, Stage};
use crate::remove;
use crate::rootfs::{jury_folder, safe_box_path};
use crate::types::{CASE_DIR, FeedbackFile, JuryBox};

use super::host::{reset_dir, write_box_files};
use super::{Sandbox, Slot};

impl Sandbox {
    /// Readies slot `slot`'s box for a run: its case folder holding exactly `files`, its
    /// feedback folder holding exactly `seed` (a multi-pass validator's files of the pass
    /// before: empty for any other run), writable by the run only if it gets `feedback`.
    pub(super) fn prepare_jury_box(
        &self,
        slot: &Slot,
        files: &[(&str, &[u8])],
        feedback: bool,
        seed: &[FeedbackFile],
    ) -> io::Result<()> {
        let files = files
            .iter()
            .map(|&(path, bytes)| Ok((case_path(path)?, bytes)))
            .collect::<io::Result<Vec<_>>>()?;
        if !seed.is_empty() && !feedback {
            return Err(SandboxError::new(
                Stage::BoxPath,
                "files for a feedback folder the run does not get",
            )
            .into());
        }
        for file in seed {
            feedback_name(&file.name)?;
        }
        let uid = slot.uid.as_ref().map_or(0, |l| l.uid);
        match &slot.namespaces {
            Some(ns) => {
                let (Some(case), Some(feedback_dir)) = (&ns.case_dir, &ns.feedback_dir) else {
                    return Err(no_jury_folders());
                };
                remove::empty_dir_fd(case)?;
                let case_root = remove::open_dir_at(case.as_raw_fd(), c".")?;
                set_owner_and_mode(&case_root, 0, 0o755)?;
                for (path, bytes) in &files {
                    write_at(case.as_raw_fd(), path, bytes)?;
                }
                remove::empty_dir_fd(feedback_dir)?;
                let root = remove::open_dir_at(feedback_dir.as_raw_fd(), c".")?;
                if feedback {
                    set_owner_and_mode(&root, uid, 0o700)?;
                    write_feedback(&root, seed, uid)
                } else {
                    set_owner_and_mode(&root, 0, 0o555)
                }
            }
            None => {
                // Without root: the slot's scratch folder afresh, `/box` in it.
                let owner = slot.uid.as_ref().map(|l| l.uid);
                reset_dir(&slot.workdir, owner)?;
                let dir = slot.workdir.join("box");
                std::fs::create_dir(&dir)?;
                if self.command.files.iter().any(|f| jury_folder(&f.path)) {
                    return Err(SandboxError::new(
                        Stage::BoxPath,
                        "a jury program's file in the case or feedback folder",
                    )
                    .into());
                }
                // The judge's, as without root a submission's box is; only the feedback
                // folder is the run's user's.
                write_box_files(
                    &dir,
                    &self.command.files,
                    &["case".to_string()],
                    None,
                    false,
                )?;
                if feedback {
                    write_box_files(&dir, &[], &["feedback".to_string()], owner, false)?;
                    let feedback_dir = open_path(&dir.join("feedback"))?;
                    let feedback_dir = remove::open_dir_at(feedback_dir.as_raw_fd(), c".")?;
                    write_feedback(&feedback_dir, seed, owner.unwrap_or(0))?;
                }
                let case = open_path(&dir.join("case"))?;
                for (path, bytes) in &files {
                    write_at(case.as_raw_fd(), path, bytes)?;
                }
                Ok(())
            }
        }
    }

    /// The regular files the run left in slot `slot`'s feedback folder, and what else it left
    /// there, in words.
    pub(super) fn collect_feedback(
        &self,
        slot: &Slot,
    ) -> io::Result<(Vec<FeedbackFile>, Vec<String>)> {
        let jury = self.jury.clone().unwrap_or_default();
        let dir = match &slot.namespaces {
            Some(ns) => {
                let Some(feedback) = &ns.feedback_dir else {
                    return Err(no_jury_folders());
                };
                remove::open_dir_at(feedback.as_raw_fd(), c".")?
            }
            None => {
                // The run could have replaced any of it with a link: opened beneath the slot's
                // folder, following none.
                let workdir = open_path(&slot.workdir)?;
                match open_beneath(
                    workdir.as_raw_fd(),
                    "box/feedback",
                    libc::O_RDONLY | libc::O_DIRECTORY,
                ) {
                    Ok(dir) => dir,
                    Err(e) => {
                        let why = format!("{}: {e}", crate::types::FEEDBACK_DIR);
                        return Ok((Vec::new(), vec![why]));
                    }
                }
            }
        };
        read_feedback(&dir, &jury)
    }

    /// Empties slot `slot`'s case and feedback folders (without root: its scratch folder).
    pub(super) fn clear_jury_box(&self, slot: &Slot) -> io::Result<()> {
        match &slot.namespaces {
            Some(ns) => {
                for dir in [&ns.case_dir, &ns.feedback_dir].into_iter().flatten() {
                    remove::empty_dir_fd(dir)?;
                }
                Ok(())
            }
            None => reset_dir(&slot.workdir, slot.uid.as_ref().map(|l| l.uid)),
        }
    }
}

fn no_jury_folders() -> io::Error {
    SandboxError::new(
        Stage::Slot,
        "a jury box without its case and feedback folders",
    )
    .into()
}

/// `path` (a box path under [`CASE_DIR`]) relative to that folder, if it is a safe one.
fn case_path(path: &str) -> io::Result<&str> {
    path.strip_prefix(CASE_DIR)
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| safe_box_path(rest))
        .ok_or_else(|| {
            SandboxError::new(
                Stage::BoxPath,
                format!("{path}: not a path in the jury box's {CASE_DIR}"),
            )
            .into()
        })
}

/// `name`, if it names a file directly in the feedback folder (one component, not `.`/`..`).
fn feedback_name(name: &str) -> io::Result<CString> {
    let bad = name.is_empty() || name == "." || name == ".." || name.contains('/');
    match CString::new(name) {
        Ok(c) if !bad => Ok(c),
        _ => Err(SandboxError::new(
            Stage::BoxPath,
            format!("{name:?}: not a file name in the jury box's feedback folder"),
        )
        .into()),
    }
}

/// Writes `seed`'s files into the feedback folder `dir` (just emptied, open for reading), each
/// the run's user's (`uid`) as if the run had written it: a multi-pass validator may read,
/// append to and remove what it left in the pass before.
fn write_feedback(dir: &OwnedFd, seed: &[FeedbackFile], uid: u32) -> io::Result<()> {
    for file in seed {
        let name = feedback_name(&file.name)?;
        // SAFETY: a valid C string (one name) below a directory we hold open; a new file, no
        // link followed.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                name.as_ptr(),
                libc::O_CREAT | libc::O_EXCL | libc::O_WRONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                0o600,
            )
        };
        if fd < 0 {
            let e = io::Error::last_os_error();
            return Err(SandboxError::because(
                Stage::BoxPath,
                format!("{}/{}", crate::types::FEEDBACK_DIR, file.name),
                e,
            )
            .into());
        }
        // SAFETY: just opened.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // SAFETY: changing a file we hold open.
        if unsafe { libc::fchown(fd.as_raw_fd(), uid, uid) } != 0 {
            return Err(io::Error::last_os_error());
        }
        std::fs::File::from(fd).write_all(&file.contents)?;
    }
    Ok(())
}

/// An `O_PATH` descriptor of the directory `path`, not followed if it is a link.
fn open_path(path: &std::path::Path) -> io::Result<OwnedFd> {
    let c =
        CString::new(path.as_os_str().as_bytes()).map_err(|_| SandboxError::nul_byte("a path"))?;
    // SAFETY: a valid C string.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: just opened.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn set_owner_and_mode(dir: &OwnedFd, uid: u32, mode: libc::mode_t) -> io::Result<()> {
    // SAFETY: changing a directory we hold open.
    let ok = unsafe {
        libc::fchown(dir.as_raw_fd(), uid, uid) == 0 && libc::fchmod(dir.as_raw_fd(), mode) == 0
    };
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Writes a new file `path` (relative, safe) of `dir` (a folder only the judge writes), its
/// folders made as needed, readable by all and writable by none.
fn write_at(dir: RawFd, path: &str, bytes: &[u8]) -> io::Result<()> {
    let c = |s: &str| CString::new(s).map_err(|_| SandboxError::nul_byte("a path"));
    for (at, _) in path.match_indices('/') {
        let folder = c(&path[..at])?;
        // SAFETY: a valid C string below a directory descriptor we hold.
        if unsafe { libc::mkdirat(dir, folder.as_ptr(), 0o755) } != 0 {
            let e = io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EEXIST) {
                return Err(e);
            }
        }
    }
    let name = c(path)?;
    // SAFETY: a valid C string below a directory descriptor we hold; a new file (O_EXCL: a
    // path named twice is an error), no link followed.
    let fd = unsafe {
        libc::openat(
            dir,
            name.as_ptr(),
            libc::O_CREAT | libc::O_EXCL | libc::O_WRONLY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o444,
        )
    };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return Err(SandboxError::because(Stage::BoxPath, format!("{CASE_DIR}/{path}"), e).into());
    }
    // SAFETY: just opened.
    let mut file = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    file.write_all(bytes)
}

/// Reads the feedback folder `dir` (open for reading): its regular files, in name order, within
/// `jury`'s bytes and count; everything else is named, with why, in the second list.
pub(crate) fn read_feedback(
    dir: &OwnedFd,
    jury: &JuryBox,
) -> io::Result<(Vec<FeedbackFile>, Vec<String>)> {
    let mut names = remove::names(dir, jury.feedback_files + 1)?;
    let mut skipped = Vec::new();
    if names.len() > jury.feedback_files {
        names.pop();
        skipped.push(format!(
            "more than {} entries: only {} read",
            jury.feedback_files, jury.feedback_files
        ));
    }
    names.sort();
    let mut budget = jury.feedback_bytes;
    let mut files = Vec::new();
    for name in names {
        let shown = String::from_utf8_lossy(name.to_bytes()).into_owned();
        let Ok(utf8) = name.to_str() else {
            skipped.push(format!("{shown}: a name that is not UTF-8"));
            continue;
        };
        // SAFETY: a valid C string (one name, no `/`) below a directory we hold open; no link
        // followed, no pipe waited on, no terminal made ours.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                name.as_ptr(),
                libc::O_RDONLY
                    | libc::O_NOFOLLOW
                    | libc::O_NONBLOCK
                    | libc::O_NOCTTY
                    | libc::O_CLOEXEC,
            )
        };
        if fd < 0 {
            let e = io::Error::last_os_error();
            skipped.push(match e.raw_os_error() {
                Some(libc::ELOOP) => format!("{shown}: a symbolic link, not followed"),
                Some(libc::ENXIO) => format!("{shown}: a socket"),
                _ => format!("{shown}: {e}"),
            });
            continue;
        }
        // SAFETY: just opened.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let stat = fstat(&fd)?;
        if stat.st_mode & libc::S_IFMT != libc::S_IFREG {
            skipped.push(format!("{shown}: {}, not read", kind(stat.st_mode)));
            continue;
        }
        let mut contents = Vec::new();
        std::fs::File::from(fd)
            .take(budget.saturating_add(1))
            .read_to_end(&mut contents)?;
        let truncated = contents.len() as u64 > budget;
        contents.truncate(budget as usize);
        budget -= contents.len() as u64;
        files.push(FeedbackFile {
            name: utf8.to_string(),
            contents,
            truncated,
        });
    }
    Ok((files, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("feedback-{name}-{}", std::process::id()));
        let _ = remove::remove_dir(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn open_dir(path: &std::path::Path) -> OwnedFd {
        let c = CString::new(path.as_os_str().as_bytes()).unwrap();
        remove::open_dir_at(libc::AT_FDCWD, &c).unwrap()
    }

    #[test]
    fn only_regular_files_come_back_in_name_order_within_the_bytes() {
        let dir = folder("kinds");
        std::fs::write(dir.join("judgemessage.txt"), "wrong at line 3\n").unwrap();
        std::fs::write(dir.join("a-score.txt"), "17").unwrap();
        std::fs::write(dir.join("z-big"), vec![b'x'; 100]).unwrap();
        std::os::unix::fs::symlink("/proc/self/environ", dir.join("link")).unwrap();
        std::os::unix::fs::symlink("judgemessage.txt", dir.join("friendly-link")).unwrap();
        let fifo = CString::new(dir.join("fifo").as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid C string.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o666) }, 0);
        std::fs::create_dir(dir.join("folder")).unwrap();
        std::fs::write(dir.join("folder/inside"), "not read").unwrap();
        let jury = JuryBox {
            feedback_bytes: 16 + 2 + 50,
            feedback_files: 64,
        };
        // A named pipe with no writer: read without waiting (the test would hang otherwise).
        let (files, skipped) = read_feedback(&open_dir(&dir), &jury).unwrap();
        let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["a-score.txt", "judgemessage.txt", "z-big"]);
        assert_eq!(files[0].contents, b"17");
        assert_eq!(files[1].contents, b"wrong at line 3\n");
        assert!(!files[1].truncated);
        assert_eq!(files[2].contents, vec![b'x'; 50]);
        assert!(files[2].truncated);
        let mut skipped = skipped;
        skipped.sort();
        assert_eq!(
            skipped,
            [
                "fifo: a named pipe, not read",
                "folder: a folder, not read",
                "friendly-link: a symbolic link, not followed",
                "link: a symbolic link, not followed",
            ]
        );
        remove::remove_dir(&dir).unwrap();
    }

    #[test]
    fn no_more_entries_than_the_count_are_read() {
        let dir = folder("count");
        for k in 0..10 {
            std::fs::write(dir.join(format!("f{k}")), "x").unwrap();
        }
        let jury = JuryBox {
            feedback_bytes: 1 << 20,
            feedback_files: 4,
        };
        let (files, skipped) = read_feedback(&open_dir(&dir), &jury).unwrap();
        assert_eq!(files.len(), 4);
        assert_eq!(skipped, ["more than 4 entries: only 4 read"]);
        remove::remove_dir(&dir).unwrap();
    }

    #[test]
    fn per_run_files_are_named_under_the_case_folder_only() {
        assert_eq!(case_path("/box/case/input.in").unwrap(), "input.in");
        assert_eq!(
            case_path("/box/case/sub/answer.ans").unwrap(),
            "sub/answer.ans"
        );
        for bad in [
            "/box/input.in",
            "/box/case",
            "/box/case/",
            "/box/case/../x",
            "/box/casex/y",
            "box/case/x",
            "/box/case//x",
        ] {
            let e = case_path(bad).unwrap_err();
            assert_eq!(SandboxError::stage_of(&e), Some(Stage::BoxPath), "{bad}");
        }
    }

    #[test]
    fn a_per_run_file_is_written_read_only_and_once() {
        let dir = folder("write");
        let fd = open_dir(&dir);
        write_at(fd.as_raw_fd(), "sub/deeper/input.in", b"1 2\n").unwrap();
        let path = dir.join("sub/deeper/input.in");
        assert_eq!(std::fs::read(&path).unwrap(), b"1 2\n");
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o444);
        let twice = write_at(fd.as_raw_fd(), "sub/deeper/input.in", b"x").unwrap_err();
        assert_eq!(SandboxError::stage_of(&twice), Some(Stage::BoxPath));
        remove::remove_dir(&dir).unwrap();
    }
}
