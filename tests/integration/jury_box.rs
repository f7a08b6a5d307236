//! Jury boxes and interactive pairs (issues 31/32, the sandbox's part): a jury program (a
//! validator) gets per-run files it can read and not change, a feedback folder whose regular
//! files come back (never a link, a pipe or a folder followed, within its size and count), and
//! nothing of one run is left for the next; a submission and a validator run at once, connected
//! by two pipes, and however either behaves both end, soon, with what each did.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sandbox::{
    BoxFile, Command, Exit, Finished, JuryBox, Limits, Options, Ran, RunIo, Sandbox, SandboxError,
    Side, Stage, Stdin, Stdout, ValidatorIo,
};

use crate::generation::scratch;
use crate::util::skipped;

fn file(path: &str, contents: &[u8], executable: bool) -> BoxFile {
    BoxFile {
        path: path.to_string(),
        contents: Arc::from(contents),
        executable,
    }
}

/// A shell script of the box run with `args`.
fn script(source: &str, args: &[&str]) -> Command {
    let mut words = vec!["/box/run.sh".to_string()];
    words.extend(args.iter().map(|a| a.to_string()));
    Command {
        program: "/bin/sh".into(),
        args: words,
        files: vec![file("run.sh", source.as_bytes(), false)],
        ..Command::default()
    }
}

/// `source` (C) built on the host, as the box's `/box/NAME`.
fn compiled(dir: &Path, name: &str, source: &str, args: &[&str]) -> Command {
    std::fs::create_dir_all(dir).unwrap();
    let c = dir.join(format!("{name}.c"));
    std::fs::write(&c, source).unwrap();
    let binary = dir.join(name);
    let built = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&c)
        .status()
        .unwrap();
    assert!(built.success(), "{name} does not build");
    Command {
        program: PathBuf::from("/box").join(name),
        args: args.iter().map(|a| a.to_string()).collect(),
        files: vec![file(name, &std::fs::read(&binary).unwrap(), true)],
        ..Command::default()
    }
}

fn jury_box(command: Command, jury: JuryBox) -> Sandbox {
    Sandbox::with(
        command,
        1,
        &Options {
            jury: Some(jury),
            ..Options::default()
        },
    )
    .unwrap()
}

/// The arguments of a validator: input, answer, feedback folder.
const VALIDATOR_ARGS: [&str; 3] = [
    "/box/case/input.in",
    "/box/case/answer.ans",
    "/box/feedback/",
];

fn limits(cpu_ms: u64, wall_ms: u64) -> Limits {
    Limits {
        wall: Duration::from_millis(wall_ms),
        ..Limits::new(Duration::from_millis(cpu_ms), 256)
    }
}

fn run_io(
    sandbox: &Sandbox,
    stdin: &[u8],
    files: &[(&str, &[u8])],
    feedback: bool,
) -> std::io::Result<Ran> {
    let limits = limits(5000, 10_000);
    sandbox.run_io(
        0,
        RunIo {
            stdin: Stdin::Bytes(stdin),
            stdout: Stdout::Capture,
            files,
            feedback,
            limits: &limits,
            stop: &AtomicBool::new(false),
        },
    )
}

fn feedback(ran: &Ran) -> Vec<(String, String)> {
    ran.feedback
        .iter()
        .map(|f| {
            (
                f.name.clone(),
                String::from_utf8_lossy(&f.contents).into_owned(),
            )
        })
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A validator reads the per-run files it is given and the output on its standard input, and
/// what it writes into its feedback folder comes back, by name.
#[test]
fn a_validator_reads_its_case_files_and_its_feedback_comes_back() {
    let source = r#"
team=$(cat)
if [ "$team" != "$(cat "$2")" ]; then echo "wrong: $team" > "$3/judgemessage.txt"; exit 43; fi
cp "$1" "$3/nextpass.in"
echo 7 > "$3/score.txt"
echo ok > "$3/judgemessage.txt"
exit 42
"#;
    let jury = jury_box(script(source, &VALIDATOR_ARGS), JuryBox::default());
    let files: [(&str, &[u8]); 2] = [
        ("/box/case/input.in", b"6 7\n"),
        ("/box/case/answer.ans", b"42\n"),
    ];
    let ran = run_io(&jury, b"42\n", &files, true).unwrap();
    assert_eq!(ran.finished.exit, Exit::Code(42), "{ran:?}");
    assert_eq!(
        feedback(&ran),
        [
            ("judgemessage.txt".to_string(), "ok\n".to_string()),
            ("nextpass.in".to_string(), "6 7\n".to_string()),
            ("score.txt".to_string(), "7\n".to_string()),
        ]
    );
    assert!(ran.feedback_skipped.is_empty(), "{ran:?}");
    let ran = run_io(&jury, b"41\n", &files, true).unwrap();
    assert_eq!(ran.finished.exit, Exit::Code(43), "{ran:?}");
    assert_eq!(
        feedback(&ran),
        [("judgemessage.txt".to_string(), "wrong: 41\n".to_string())]
    );
}

/// The per-run files are the judge's: a run can neither change nor add to them, nor write
/// anywhere in `/box` but its feedback folder (and only when it has one); and nothing a run
/// leaves (feedback, files in `/tmp`) is there for the next run, which sees only its own files.
#[test]
fn nothing_of_a_jury_run_is_left_for_the_next() {
    let source = r#"
echo "case: $(ls -A /box/case | tr '\n' ' ')"
echo "feedback: $(ls -A /box/feedback | tr '\n' ' ')"
echo "tmp: $(ls -A /tmp | tr '\n' ' ')"
for f in /box/case/*; do echo x > "$f" 2>/dev/null && echo "CHANGED $f"; done
rm -f /box/case/* 2>/dev/null; [ -z "$(ls -A /box/case)" ] && echo "REMOVED CASE FILES"
echo x > /box/case/new 2>/dev/null && echo "ADDED TO CASE"
echo x > /box/new 2>/dev/null && echo "ADDED TO BOX"
chmod 777 /box/case 2>/dev/null && echo "CHMOD CASE"
echo mark > /box/feedback/mark 2>/dev/null && echo "wrote feedback"
mkdir /box/feedback/folder 2>/dev/null && echo deep > /box/feedback/folder/file
echo mark > /tmp/mark
exit 0
"#;
    let jury = jury_box(script(source, &[]), JuryBox::default());
    let first = run_io(&jury, b"", &[("/box/case/first.in", b"1\n")], true).unwrap();
    let said = text(&first.finished.stdout);
    assert!(
        said.starts_with("case: first.in \nfeedback: \ntmp: \n"),
        "{said}"
    );
    for word in ["CHANGED", "REMOVED", "ADDED", "CHMOD"] {
        assert!(!said.contains(word), "{said}");
    }
    assert!(said.contains("wrote feedback"), "{said}");
    assert_eq!(
        feedback(&first),
        [("mark".to_string(), "mark\n".to_string())]
    );
    assert_eq!(first.feedback_skipped, ["folder: a folder, not read"]);

    let second = run_io(&jury, b"", &[("/box/case/second.in", b"2\n")], false).unwrap();
    let said = text(&second.finished.stdout);
    assert!(
        said.starts_with("case: second.in \nfeedback: \ntmp: \n"),
        "{said}"
    );
    // Without feedback, its folder is not writable.
    assert!(!said.contains("wrote feedback"), "{said}");
    assert!(second.feedback.is_empty());

    let third = run_io(&jury, b"", &[], true).unwrap();
    let said = text(&third.finished.stdout);
    assert!(said.starts_with("case: \nfeedback: \ntmp: \n"), "{said}");
}

/// What a hostile validator leaves in its feedback folder is never followed: a named pipe is
/// not waited on, links (to `/proc/self/environ`, to `/etc/passwd`, to a file beside them) are
/// not read, a folder is not entered; and it cannot write more than the folder's size or make
/// more entries than its count.
#[test]
fn feedback_links_pipes_and_folders_are_not_followed_and_sizes_are_capped() {
    let source = r#"
cd /box/feedback
mkfifo fifo
ln -s /proc/self/environ environ
ln -s /etc/passwd passwd
ln -s judgemessage.txt alias
mkdir folder && echo inside > folder/file
echo judged > judgemessage.txt
head -c 200000 /dev/zero > big 2>/dev/null
i=0; while [ $i -lt 100 ]; do touch n$i 2>/dev/null; i=$((i+1)); done
exit 42
"#;
    let jury = jury_box(
        script(source, &[]),
        JuryBox {
            feedback_bytes: 64 << 10,
            feedback_files: 16,
        },
    );
    let started = Instant::now();
    let ran = run_io(&jury, b"", &[], true).unwrap();
    let names: Vec<&str> = ran.feedback.iter().map(|f| f.name.as_str()).collect();
    let said = (&ran.finished.exit, text(&ran.finished.stderr), &names);
    assert!(started.elapsed() < Duration::from_secs(8), "{said:?}");
    assert_eq!(ran.finished.exit, Exit::Code(42), "{said:?}");
    for gone in ["fifo", "environ", "passwd", "alias", "folder", "file"] {
        assert!(!names.contains(&gone), "{names:?}");
    }
    let message = ran.feedback.iter().find(|f| f.name == "judgemessage.txt");
    assert_eq!(message.map(|f| &f.contents[..]), Some(&b"judged\n"[..]));
    let big = ran.feedback.iter().find(|f| f.name == "big").unwrap();
    assert!(big.contents.len() < 64 << 10, "{}", big.contents.len());
    let entries = ran.feedback.len() + ran.feedback_skipped.len();
    assert!(entries <= 16, "{entries}: {said:?}");
    assert!(!names.contains(&"n99"), "{names:?}");
    for said in [
        "fifo: a named pipe, not read",
        "environ: a symbolic link, not followed",
        "passwd: a symbolic link, not followed",
        "alias: a symbolic link, not followed",
        "folder: a folder, not read",
    ] {
        assert!(
            ran.feedback_skipped.iter().any(|s| s == said),
            "{said}: {:?}",
            ran.feedback_skipped
        );
    }
    for f in &ran.feedback {
        assert!(!text(&f.contents).contains("root:"), "{}", f.name);
    }
}

/// A validator that writes a gibibyte into its feedback folder fills the folder's size and no
/// more (the judge's memory is not what bounds it), soon; and the next run finds the folder
/// empty and writable again.
#[test]
fn a_gibibyte_of_feedback_stops_at_the_folders_size() {
    let source = r#"
head -c 1073741824 /dev/zero > /box/feedback/big 2>/dev/null
echo "big: $?"
exit 42
"#;
    let jury = jury_box(script(source, &[]), JuryBox::default());
    let started = Instant::now();
    let ran = run_io(&jury, b"", &[], true).unwrap();
    let took = started.elapsed();
    assert_eq!(ran.finished.exit, Exit::Code(42), "{ran:?}");
    // The write failed (the folder is full), it did not go on for a gibibyte.
    assert_ne!(text(&ran.finished.stdout), "big: 0\n");
    assert!(took < Duration::from_secs(5), "{took:?}");
    let big = ran.feedback.iter().find(|f| f.name == "big").unwrap();
    let cap = JuryBox::default().feedback_bytes as usize;
    assert!(big.contents.len() <= cap, "{}", big.contents.len());
    assert!(big.contents.len() > cap / 2, "{}", big.contents.len());
    assert!(big.contents.iter().all(|&b| b == 0));
    // Nothing of it is left: the next run writes its whole message.
    let jury = jury_box(
        script(
            "ls -A /box/feedback; echo fresh > /box/feedback/judgemessage.txt; exit 42",
            &[],
        ),
        JuryBox::default(),
    );
    let next = run_io(&jury, b"", &[], true).unwrap();
    assert_eq!(text(&next.finished.stdout), "", "{next:?}");
    assert_eq!(
        feedback(&next),
        [("judgemessage.txt".to_string(), "fresh\n".to_string())]
    );
}

/// A validator that tries to make a hundred thousand files (and folders) in its feedback
/// folder makes no more entries than the folder's count, soon, and no more come back.
#[test]
fn a_hundred_thousand_feedback_files_stop_at_the_count() {
    let dir = scratch("jury-many-files");
    let source = r#"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  int made = 0;
  char name[64];
  for (int k = 0; k < 100000; k++) {
    snprintf(name, sizeof name, "/box/feedback/f%d", k);
    int fd = open(name, O_CREAT | O_WRONLY, 0644);
    if (fd >= 0) { made++; close(fd); }
    snprintf(name, sizeof name, "/box/feedback/d%d", k);
    if (mkdir(name, 0755) == 0) made++;
  }
  printf("%d\n", made);
  return 42;
}
"#;
    let jury = jury_box(
        compiled(&dir, "many", source, &[]),
        JuryBox {
            feedback_bytes: 1 << 20,
            feedback_files: 20,
        },
    );
    let started = Instant::now();
    let ran = run_io(&jury, b"", &[], true).unwrap();
    assert!(started.elapsed() < Duration::from_secs(8), "{ran:?}");
    assert_eq!(ran.finished.exit, Exit::Code(42), "{ran:?}");
    let made: usize = text(&ran.finished.stdout).trim().parse().unwrap();
    assert!(made <= 20, "{made} entries made");
    assert!(made >= 10, "{made} entries made");
    assert!(ran.feedback.len() <= 20, "{ran:?}");
    assert_eq!(
        ran.feedback.len() + ran.feedback_skipped.len(),
        made,
        "{ran:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A validator that leaves a process behind to write into its feedback folder later, or that
/// takes its folder's permissions away: the process dies with it (nothing written after the
/// run comes back, nor is there for the next), and the next run's folder is writable again.
#[test]
fn a_validators_leftovers_do_not_reach_the_next_run() {
    // SAFETY: no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        // A judge that is not root reads the feedback with the run's own rights.
        skipped("needs root (a folder the run made unreadable is still read)");
        return;
    }
    let source = r#"
ls -A /box/feedback /tmp
( sleep 0.3; echo late > /box/feedback/late; echo late > /tmp/late ) >/dev/null 2>&1 &
echo now > /box/feedback/now
chmod 000 /box/feedback
exit 42
"#;
    let jury = jury_box(script(source, &[]), JuryBox::default());
    for round in 0..2 {
        let ran = run_io(&jury, b"", &[], true).unwrap();
        assert_eq!(ran.finished.exit, Exit::Code(42), "round {round}: {ran:?}");
        let said = text(&ran.finished.stdout);
        assert_eq!(said, "/box/feedback:\n\n/tmp:\n", "round {round}: {ran:?}");
        assert_eq!(
            feedback(&ran),
            [("now".to_string(), "now\n".to_string())],
            "round {round}"
        );
        std::thread::sleep(Duration::from_millis(600));
    }
}

/// Per-run files and feedback need a jury box, and per-run files go in its case folder only.
#[test]
fn per_run_files_need_a_jury_box_and_its_case_folder() {
    let plain = Sandbox::new(Command::system("/bin/true", &[]), 1).unwrap();
    let e = run_io(&plain, b"", &[("/box/case/input.in", b"1")], false).unwrap_err();
    assert_eq!(SandboxError::stage_of(&e), Some(Stage::Slot), "{e}");
    let e = run_io(&plain, b"", &[], true).unwrap_err();
    assert_eq!(SandboxError::stage_of(&e), Some(Stage::Slot), "{e}");
    let jury = jury_box(Command::system("/bin/true", &[]), JuryBox::default());
    for path in ["/box/input.in", "/box/case/../x", "/tmp/x", "/box/case/"] {
        let e = run_io(&jury, b"", &[(path, b"1")], false).unwrap_err();
        assert_eq!(
            SandboxError::stage_of(&e),
            Some(Stage::BoxPath),
            "{path}: {e}"
        );
    }
    // A file named twice.
    let twice: [(&str, &[u8]); 2] = [("/box/case/a", b"1"), ("/box/case/a", b"2")];
    let e = run_io(&jury, b"", &twice, false).unwrap_err();
    assert_eq!(SandboxError::stage_of(&e), Some(Stage::BoxPath), "{e}");
    // The box still works.
    let ran = run_io(&jury, b"", &[("/box/case/a", b"1")], false).unwrap();
    assert_eq!(ran.finished.exit, Exit::Code(0));
}

fn host_file(path: &Path, write: bool) -> OwnedFd {
    std::fs::File::options()
        .read(!write)
        .write(write)
        .create(write)
        .truncate(write)
        .open(path)
        .unwrap()
        .into()
}

/// A jury program's (a generator's) standard streams may be descriptors of the caller's: its
/// output goes into a file, not into the run's captured output.
#[test]
fn a_jury_programs_streams_may_be_the_callers_files() {
    let dir = scratch("jury-streams");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("seed"), "5\n").unwrap();
    let jury = jury_box(
        script("read n; seq \"$n\"; echo to-stderr >&2", &[]),
        JuryBox::default(),
    );
    let limits = limits(2000, 5000);
    let ran = jury
        .run_io(
            0,
            RunIo {
                stdin: Stdin::Fd(host_file(&dir.join("seed"), false)),
                stdout: Stdout::Fd(host_file(&dir.join("out"), true)),
                files: &[],
                feedback: false,
                limits: &limits,
                stop: &AtomicBool::new(false),
            },
        )
        .unwrap();
    assert_eq!(ran.finished.exit, Exit::Code(0), "{ran:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out")).unwrap(),
        "1\n2\n3\n4\n5\n"
    );
    assert!(ran.finished.stdout.is_empty());
    assert_eq!(text(&ran.finished.stderr), "to-stderr\n");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- Interactive pairs.

/// The validator of "guess the number": the secret is in the input file; it answers each guess
/// with `<` (the guess is below), `>` or `=`, and says in its feedback how it went.
const GUESS_VALIDATOR: &str = r#"
#include <stdio.h>
int main(int argc, char **argv) {
  FILE *in = fopen(argv[1], "r");
  char path[4096];
  snprintf(path, sizeof path, "%s/judgemessage.txt", argv[3]);
  FILE *message = fopen(path, "w");
  int secret;
  if (!in || !message || fscanf(in, "%d", &secret) != 1) return 1;
  for (int guesses = 1; guesses <= 20; guesses++) {
    int guess;
    if (scanf("%d", &guess) != 1) {
      fprintf(message, "no answer after %d guesses\n", guesses - 1);
      return 43;
    }
    printf("%s\n", guess < secret ? "<" : guess > secret ? ">" : "=");
    fflush(stdout);
    if (guess == secret) {
      fprintf(message, "guessed %d in %d\n", secret, guesses);
      return 42;
    }
  }
  fprintf(message, "too many guesses\n");
  return 43;
}
"#;

/// A right submission of "guess the number", by halves of 1..1000.
const GUESS_SUBMISSION: &str = r#"
#include <stdio.h>
int main(void) {
  int low = 1, high = 1000;
  while (low <= high) {
    int middle = (low + high) / 2;
    char reply[8];
    printf("%d\n", middle);
    fflush(stdout);
    if (scanf("%7s", reply) != 1) return 1;
    if (reply[0] == '=') return 0;
    if (reply[0] == '<') low = middle + 1; else high = middle - 1;
  }
  return 2;
}
"#;

const GUESS_SUBMISSION_PY: &str = r#"
low, high = 1, 1000
while low <= high:
    middle = (low + high) // 2
    print(middle, flush=True)
    reply = input()
    if reply == '=':
        break
    if reply == '<':
        low = middle + 1
    else:
        high = middle - 1
"#;

/// A validator that asks and gives up at once.
const ASKS_AND_GIVES_UP: &str =
    "echo 'your guess?'; echo 'gave up' > \"$3/judgemessage.txt\"; exit 43";

struct Pair {
    submission: Sandbox,
    validator: Sandbox,
}

fn guess_validator(dir: &Path) -> Sandbox {
    jury_box(
        compiled(dir, "validator", GUESS_VALIDATOR, &VALIDATOR_ARGS),
        JuryBox::default(),
    )
}

fn pair(submission: Command, validator: Sandbox) -> Pair {
    Pair {
        submission: Sandbox::new(submission, 1).unwrap(),
        validator,
    }
}

/// Runs the pair on a secret, the submission with `limits`, the validator with 5 s of CPU time
/// and `validator_wall_ms` of wall clock; the interaction and how long it took.
fn interact(
    pair: &Pair,
    secret: &str,
    limits: &Limits,
    validator_wall_ms: u64,
    stop: &AtomicBool,
) -> (sandbox::Interaction, Duration) {
    let validator_limits = self::limits(5000, validator_wall_ms);
    let files: [(&str, &[u8]); 2] = [
        ("/box/case/input.in", secret.as_bytes()),
        ("/box/case/answer.ans", b""),
    ];
    let started = Instant::now();
    let interaction = sandbox::interact(
        (&pair.submission, 0, limits),
        (
            &pair.validator,
            0,
            ValidatorIo {
                files: &files,
                feedback: true,
                limits: &validator_limits,
            },
        ),
        stop,
    )
    .unwrap();
    (interaction, started.elapsed())
}

fn message(ran: &Ran) -> String {
    ran.feedback
        .iter()
        .find(|f| f.name == "judgemessage.txt")
        .map(|f| text(&f.contents))
        .unwrap_or_default()
}

fn killed(finished: &Finished) -> bool {
    finished.exit == Exit::Signal(libc::SIGKILL)
}

/// A right submission guesses the number (C, and Python from its zygote, twice each: a slot is
/// used again), the validator accepts with its message, neither is cut off.
#[test]
fn a_correct_interaction_is_accepted() {
    let dir = scratch("interact-correct");
    let c = pair(
        compiled(&dir, "guess", GUESS_SUBMISSION, &[]),
        guess_validator(&dir),
    );
    let python = pair(
        Command {
            program: "/usr/bin/python3".into(),
            args: vec!["/box/guess.py".to_string()],
            files: vec![file("guess.py", GUESS_SUBMISSION_PY.as_bytes(), false)],
            ..Command::default()
        },
        guess_validator(&dir),
    );
    let never = AtomicBool::new(false);
    for (what, pair) in [("C", &c), ("Python", &python)] {
        for secret in ["617\n", "1\n"] {
            let (run, _) = interact(pair, secret, &limits(2000, 5000), 5000, &never);
            assert_eq!(
                run.validator.finished.exit,
                Exit::Code(42),
                "{what}: {run:?}"
            );
            assert_eq!(run.submission.exit, Exit::Code(0), "{what}: {run:?}");
            assert!(!run.submission_cut_off, "{what}: {run:?}");
            let guessed = format!("guessed {}", secret.trim());
            assert!(
                message(&run.validator).starts_with(&guessed),
                "{what}: {run:?}"
            );
        }
    }
    if python.submission.isolation.fork_server.is_ok() {
        assert_eq!(
            python.submission.zygote(),
            Some(Ok(())),
            "{}",
            python.submission.describe()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that never reads: the validator gives up and ends, and the submission is
/// killed after its grace (not at its wall clock, far later).
#[test]
fn a_submission_that_never_reads_is_killed_when_the_validator_ends() {
    let pair = pair(
        script("exec sleep 30", &[]),
        jury_box(
            script(ASKS_AND_GIVES_UP, &VALIDATOR_ARGS),
            JuryBox::default(),
        ),
    );
    let (run, took) = interact(
        &pair,
        "5\n",
        &limits(2000, 20_000),
        20_000,
        &AtomicBool::new(false),
    );
    assert_eq!(run.validator.finished.exit, Exit::Code(43), "{run:?}");
    assert_eq!(message(&run.validator), "gave up\n");
    assert_eq!(run.first, Side::Validator, "{run:?}");
    assert!(run.submission_cut_off, "{run:?}");
    assert!(killed(&run.submission), "{run:?}");
    assert!(!run.submission.wall_exceeded, "{run:?}");
    assert!(took < Duration::from_secs(6), "{took:?}");
}

/// A validator that never reads: the submission asks and waits for an answer that never comes;
/// the wall clocks end both.
#[test]
fn a_validator_that_never_reads_is_ended_by_the_wall_clock() {
    let dir = scratch("interact-deaf-validator");
    let pair = pair(
        compiled(&dir, "guess", GUESS_SUBMISSION, &[]),
        jury_box(script("exec sleep 30", &VALIDATOR_ARGS), JuryBox::default()),
    );
    let (run, took) = interact(
        &pair,
        "5\n",
        &limits(1000, 1500),
        2000,
        &AtomicBool::new(false),
    );
    assert!(run.submission.wall_exceeded, "{run:?}");
    assert!(run.validator.finished.wall_exceeded, "{run:?}");
    assert_eq!(run.first, Side::Submission, "{run:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that closes its standard output and lingers is not over for the validator:
/// the judge holds the pipe's far end until it has seen the submission end (as BAPCtools'
/// relay does), so the validator sees the end of its input only then — the submission runs
/// into its wall clock, then the validator says there was no answer. (Judged TLE, as
/// BAPCtools' `guess` package expects.)
#[test]
fn a_submission_that_closes_its_output_early_runs_into_its_limit() {
    let dir = scratch("interact-closes");
    let pair = pair(
        script("exec >&-; exec sleep 30", &[]),
        guess_validator(&dir),
    );
    let (run, took) = interact(
        &pair,
        "5\n",
        &limits(1000, 2000),
        20_000,
        &AtomicBool::new(false),
    );
    assert!(run.submission.wall_exceeded, "{run:?}");
    assert_eq!(run.first, Side::Submission, "{run:?}");
    assert_eq!(run.validator.finished.exit, Exit::Code(43), "{run:?}");
    assert_eq!(message(&run.validator), "no answer after 0 guesses\n");
    assert!(took < Duration::from_secs(8), "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A submission that floods its output while the validator reads one line and no more: the
/// pipe fills, the submission waits, and its wall clock ends it (it used little CPU time).
#[test]
fn a_flooding_submission_is_ended_by_the_wall_clock_when_the_pipe_is_full() {
    let pair = pair(
        script("exec yes 1", &[]),
        jury_box(
            script("read x; exec sleep 30", &VALIDATOR_ARGS),
            JuryBox::default(),
        ),
    );
    let (run, took) = interact(
        &pair,
        "5\n",
        &limits(1000, 1500),
        2000,
        &AtomicBool::new(false),
    );
    assert!(run.submission.wall_exceeded, "{run:?}");
    assert!(run.submission.cpu < Duration::from_millis(1000), "{run:?}");
    assert!(run.validator.finished.wall_exceeded, "{run:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

/// A submission that exits without answering: the validator reads the end of its input and
/// says so; the submission was not cut off. (Which was over first is not asked: the validator
/// ends a moment after the submission, too close for [`sandbox::Interaction::first`].)
#[test]
fn a_submission_that_exits_without_answering_is_not_cut_off() {
    let dir = scratch("interact-exits");
    let pair = pair(script("exit 0", &[]), guess_validator(&dir));
    let (run, _) = interact(
        &pair,
        "5\n",
        &limits(2000, 5000),
        5000,
        &AtomicBool::new(false),
    );
    assert_eq!(run.submission.exit, Exit::Code(0), "{run:?}");
    assert!(!run.submission_cut_off, "{run:?}");
    assert_eq!(run.validator.finished.exit, Exit::Code(43), "{run:?}");
    assert_eq!(message(&run.validator), "no answer after 0 guesses\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A write to a pipe whose reader is gone kills the writer, on either side (`SIGPIPE` is the
/// default in both boxes, though the judge itself ignores it): a submission that floods a
/// validator that has exited, and a validator that floods a submission that has exited. The
/// flooding `yes` is a child of the run's shell, whose exit status says how it ended. (Without
/// root the run's top process is the first of its PID namespace, which the kernel does not kill
/// with a signal left at its default action: `exec yes` would end with "Broken pipe", exit 1.)
/// (Which side was over first is not asked: the writer ends a moment after the other, too
/// close for [`sandbox::Interaction::first`].)
#[test]
fn a_write_to_a_side_that_is_gone_kills_the_writer() {
    let floods = || script("yes; echo \"yes: $?\" >&2; exit 3", &VALIDATOR_ARGS);
    let floods_exited = pair(
        floods(),
        jury_box(script("exit 43", &VALIDATOR_ARGS), JuryBox::default()),
    );
    let (run, took) = interact(
        &floods_exited,
        "5\n",
        &limits(5000, 10_000),
        10_000,
        &AtomicBool::new(false),
    );
    assert_eq!(run.validator.finished.exit, Exit::Code(43), "{run:?}");
    // 141: 128 + SIGPIPE.
    assert_eq!(text(&run.submission.stderr), "yes: 141\n", "{run:?}");
    assert_eq!(run.submission.exit, Exit::Code(3), "{run:?}");
    assert!(!run.submission_cut_off, "{run:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");

    let exited_floods = pair(
        script("exit 0", &[]),
        jury_box(floods(), JuryBox::default()),
    );
    let (run, took) = interact(
        &exited_floods,
        "5\n",
        &limits(5000, 10_000),
        10_000,
        &AtomicBool::new(false),
    );
    assert_eq!(run.submission.exit, Exit::Code(0), "{run:?}");
    assert_eq!(
        text(&run.validator.finished.stderr),
        "yes: 141\n",
        "{run:?}"
    );
    assert_eq!(run.validator.finished.exit, Exit::Code(3), "{run:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// A validator that says its last line after the submission is over (a flush on exit, as a
/// Python validator's buffered `print` does) is not killed or failed for it: what it writes to
/// the submission that is gone is drained, as Kattis, DOMjudge and BAPCtools let it finish
/// (BAPCtools' `interactivemultipass` package: its validator crashed with a broken pipe on a
/// submission that answered without reading). A flood is still cut off (the test above).
#[test]
fn a_validator_may_write_after_the_submission_is_over() {
    let last_words = pair(
        script("exit 0", &[]),
        jury_box(
            script(
                "cat >/dev/null; echo last words || exit 7; exit 43",
                &VALIDATOR_ARGS,
            ),
            JuryBox::default(),
        ),
    );
    let (run, took) = interact(
        &last_words,
        "5\n",
        &limits(5000, 10_000),
        10_000,
        &AtomicBool::new(false),
    );
    assert_eq!(run.submission.exit, Exit::Code(0), "{run:?}");
    assert_eq!(run.validator.finished.exit, Exit::Code(43), "{run:?}");
    assert_eq!(run.first, Side::Submission, "{run:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// A validator that never exits after the submission is over runs on to its own limits (its
/// wall clock), not the submission's; and a validator that spins ends at its own CPU limit.
#[test]
fn a_validator_that_never_exits_ends_at_its_own_limits() {
    let sleeps = pair(
        script("exit 0", &[]),
        jury_box(script("exec sleep 30", &VALIDATOR_ARGS), JuryBox::default()),
    );
    let (run, took) = interact(
        &sleeps,
        "5\n",
        &limits(1000, 1000),
        2500,
        &AtomicBool::new(false),
    );
    assert_eq!(run.submission.exit, Exit::Code(0), "{run:?}");
    assert_eq!(run.first, Side::Submission, "{run:?}");
    assert!(run.validator.finished.wall_exceeded, "{run:?}");
    assert!(took >= Duration::from_millis(2400), "{took:?}");
    assert!(took < Duration::from_secs(8), "{took:?}");

    let spins = pair(
        script("exit 0", &[]),
        jury_box(
            script("while :; do :; done", &VALIDATOR_ARGS),
            JuryBox::default(),
        ),
    );
    let validator_limits = limits(500, 10_000);
    let files: [(&str, &[u8]); 0] = [];
    let started = Instant::now();
    let run = sandbox::interact(
        (&spins.submission, 0, &limits(1000, 1000)),
        (
            &spins.validator,
            0,
            ValidatorIo {
                files: &files,
                feedback: false,
                limits: &validator_limits,
            },
        ),
        &AtomicBool::new(false),
    )
    .unwrap();
    assert!(run.validator.finished.cpu_exceeded, "{run:?}");
    assert!(started.elapsed() < Duration::from_secs(8), "{run:?}");
}

/// Stopping the judge (Ctrl-C, or another test's failure) ends both at once.
#[test]
fn stop_ends_both_sides_at_once() {
    let pair = pair(
        script("exec sleep 30", &[]),
        jury_box(script("exec sleep 30", &VALIDATOR_ARGS), JuryBox::default()),
    );
    let stop = AtomicBool::new(false);
    let (run, took) = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(500));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        interact(&pair, "5\n", &limits(20_000, 30_000), 30_000, &stop)
    });
    assert!(run.submission.interrupted, "{run:?}");
    assert!(run.validator.finished.interrupted, "{run:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

/// The sleepers of [`both_sides_die_with_the_judge`]: their `sleep` durations mark them.
const SUBMISSION_MARK: &str = "987.654321";
const VALIDATOR_MARK: &str = "987.654322";

/// Processes whose command line holds `mark`.
fn alive(mark: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(mark))
        })
        .count()
}

/// Not a test of its own: the judge that [`both_sides_die_with_the_judge`] kills (this test
/// binary run again, with `BOARDJUDGE_INTERACT_VICTIM` set), in an interaction that would last
/// five minutes.
#[test]
#[ignore]
fn interaction_of_a_judge_about_to_be_killed() {
    if std::env::var_os("BOARDJUDGE_INTERACT_VICTIM").is_none() {
        return;
    }
    let pair = pair(
        Command::system("/bin/sleep", &[SUBMISSION_MARK]),
        jury_box(
            Command::system("/bin/sleep", &[VALIDATOR_MARK]),
            JuryBox::default(),
        ),
    );
    interact(
        &pair,
        "5\n",
        &limits(300_000, 300_000),
        300_000,
        &AtomicBool::new(false),
    );
}

/// When the judge dies (SIGKILL: nothing of its own runs), both sides of its interaction die
/// with it.
#[test]
fn both_sides_die_with_the_judge() {
    let mut victim = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "jury_box::interaction_of_a_judge_about_to_be_killed",
            "--ignored",
            "--nocapture",
        ])
        .env("BOARDJUDGE_INTERACT_VICTIM", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(SUBMISSION_MARK) == 0 || alive(VALIDATOR_MARK) == 0 {
        assert!(Instant::now() < deadline, "the interaction did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    victim.kill().unwrap();
    victim.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(SUBMISSION_MARK) + alive(VALIDATOR_MARK) > 0 {
        assert!(
            Instant::now() < deadline,
            "left running: submission {}, validator {}",
            alive(SUBMISSION_MARK),
            alive(VALIDATOR_MARK)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Not a test of its own: [`without_root_a_jury_box_works_alike`]'s, run as `nobody` (this
/// test binary run again, with `BOARDJUDGE_JURY_NOT_ROOT` set). Without root, `/box` is the
/// slot's scratch folder (its paths come as the program's arguments), written for each run.
#[test]
#[ignore]
fn jury_box_of_a_judge_that_is_not_root() {
    if std::env::var_os("BOARDJUDGE_JURY_NOT_ROOT").is_none() {
        return;
    }
    // SAFETY: no preconditions.
    assert_ne!(unsafe { libc::geteuid() }, 0);
    // $1: the case folder, $2: the feedback folder.
    let source = r#"
echo "case: $(ls -A "$1" | tr '\n' ' ')"
[ -e "$HOME/mark" ] && echo "LEFT: mark"
[ -z "$(ls -A "$2" 2>/dev/null)" ] || echo "LEFT: feedback"
cat "$1/input.in" > "$2/judgemessage.txt"
ln -s /etc/passwd "$2/passwd"
mkfifo "$2/fifo"
echo mark > "$HOME/mark"
exit 42
"#;
    let jury = jury_box(
        script(source, &["/box/case", "/box/feedback"]),
        JuryBox::default(),
    );
    for k in 0..2 {
        let input = format!("run {k}\n");
        let ran = run_io(
            &jury,
            b"",
            &[("/box/case/input.in", input.as_bytes())],
            true,
        )
        .unwrap();
        let said = text(&ran.finished.stdout);
        assert_eq!(ran.finished.exit, Exit::Code(42), "{said}{ran:?}");
        assert_eq!(said, "case: input.in \n", "{}", jury.describe());
        assert_eq!(feedback(&ran), [("judgemessage.txt".to_string(), input)]);
        let mut skipped = ran.feedback_skipped.clone();
        skipped.sort();
        assert_eq!(
            skipped,
            [
                "fifo: a named pipe, not read",
                "passwd: a symbolic link, not followed"
            ]
        );
    }
}

/// A judge that is not root gets jury boxes too: per-run files, feedback read without
/// following links or waiting on pipes, nothing left for the next run. Run as `nobody`
/// through `setpriv` when the tests run as root (as on CI).
#[test]
fn without_root_a_jury_box_works_alike() {
    // SAFETY: no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !root || !Path::new("/usr/bin/setpriv").exists() {
        skipped("needs root (to become nobody) and setpriv");
        return;
    }
    let out = std::process::Command::new("/usr/bin/setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "jury_box::jury_box_of_a_judge_that_is_not_root",
            "--ignored",
        ])
        .env("BOARDJUDGE_JURY_NOT_ROOT", "1")
        .env("TMPDIR", "/tmp")
        .current_dir("/")
        .output()
        .unwrap();
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("1 passed"), "{said}");
}

/// A multi-pass validator's feedback folder starts with the files it left in the pass before
/// (the caller carries them): readable, writable and removable by the run, as if it had
/// written them; names that are not a file directly in the folder are refused; and nothing of
/// them is left for the next run, which starts empty again.
#[test]
fn a_feedback_folder_can_start_with_the_files_of_the_pass_before() {
    let source = r#"
cat "$3/state.txt" > "$3/seen.txt"
echo appended >> "$3/judgemessage.txt"
rm "$3/gone.txt"
ls -n "$3" | awk 'NR > 1 { print $3 }' | sort -u > "$3/owners.txt"
exit 42
"#;
    let sandbox = jury_box(script(source, &VALIDATOR_ARGS), JuryBox::default());
    let limits = limits(5000, 10_000);
    let seed = [
        sandbox::FeedbackFile {
            name: "state.txt".to_string(),
            contents: b"n 5 k 6\n".to_vec(),
            truncated: false,
        },
        sandbox::FeedbackFile {
            name: "judgemessage.txt".to_string(),
            contents: b"pass 1\n".to_vec(),
            truncated: false,
        },
        sandbox::FeedbackFile {
            name: "gone.txt".to_string(),
            contents: b"x".to_vec(),
            truncated: false,
        },
    ];
    let io = |stop| RunIo {
        stdin: Stdin::Bytes(b""),
        stdout: Stdout::Capture,
        files: &[],
        feedback: true,
        limits: &limits,
        stop,
    };
    let stop = AtomicBool::new(false);
    let ran = sandbox.run_io_with_feedback(0, io(&stop), &seed).unwrap();
    assert_eq!(
        ran.finished.exit,
        Exit::Code(42),
        "{}",
        text(&ran.finished.stderr)
    );
    let files = feedback(&ran);
    let get = |name: &str| {
        files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| c.as_str())
            .unwrap_or_else(|| panic!("{name} missing: {files:?}"))
    };
    assert_eq!(get("seen.txt"), "n 5 k 6\n");
    assert_eq!(get("judgemessage.txt"), "pass 1\nappended\n");
    assert!(!files.iter().any(|(n, _)| n == "gone.txt"), "{files:?}");
    // Every file of the folder the run's own user's (one uid, not root's).
    let owners = get("owners.txt");
    assert_eq!(owners.lines().count(), 1, "{owners}");
    assert_ne!(owners.trim(), "0", "{owners}");
    // The next run starts with an empty folder.
    let ran = run_io(
        &jury_box(
            script(r#"ls -A "$3" > "$3/listing.txt"; exit 42"#, &VALIDATOR_ARGS),
            JuryBox::default(),
        ),
        b"",
        &[],
        true,
    )
    .unwrap();
    assert_eq!(
        feedback(&ran),
        [("listing.txt".to_string(), "listing.txt\n".to_string())]
    );
    let again = sandbox.run_io(0, io(&stop)).unwrap();
    assert!(
        !feedback(&again).iter().any(|(n, _)| n == "state.txt"),
        "{:?}",
        feedback(&again)
    );
    // A name that is not one file of the folder: refused before the run.
    for bad in ["../escape", "a/b", "..", ".", ""] {
        let seed = [sandbox::FeedbackFile {
            name: bad.to_string(),
            contents: b"x".to_vec(),
            truncated: false,
        }];
        let e = sandbox
            .run_io_with_feedback(0, io(&stop), &seed)
            .unwrap_err();
        assert_eq!(SandboxError::stage_of(&e), Some(Stage::BoxPath), "{bad:?}");
    }
}
