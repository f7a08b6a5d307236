//! Inputs meant to break a parser: none may make the judge panic or hang, and each gets a
//! clear rejection.

use crate::util::*;

fn rejected(problem: &str, input: &[u8]) -> String {
    let out = run_with_stdin(&["validate", problem], input);
    assert_no_panic(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{problem}: {}",
        text(&out.stderr)
    );
    let out2 = run_with_stdin(&["solve", problem], input);
    assert_no_panic(&out2);
    assert_eq!(out2.status.code(), Some(2), "{problem}");
    text(&out.stderr)
}

#[test]
fn empty_input_is_rejected_at_line_1_column_1() {
    for problem in problem_ids() {
        assert!(
            rejected(problem, b"").starts_with("<stdin>:1:1: "),
            "{problem}"
        );
    }
}

#[test]
fn binary_garbage_is_rejected() {
    // A fixed pseudo-random byte soup (xorshift), the same on every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let garbage: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    for problem in problem_ids() {
        rejected(problem, &garbage);
    }
}

#[test]
fn hundred_megabyte_file_is_rejected_quickly() {
    let dir = std::env::temp_dir().join(format!("boardjudge-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.in");
    // A valid-looking first row that never ends.
    let row = vec![b'.'; 100 * 1024 * 1024];
    std::fs::write(&path, &row).unwrap();
    for problem in problem_ids() {
        let out = judge()
            .args(["validate", problem])
            .arg(&path)
            .output()
            .unwrap();
        assert_no_panic(&out);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains(":1:"), "{}", text(&out.stderr));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn endless_stdin_is_not_read_to_the_end() {
    // 200 MB through a pipe: the judge reads a bounded prefix and answers at once.
    let huge = vec![b'o'; 200 * 1024 * 1024];
    let out = run_with_stdin(&["validate", "gomoku-checker"], &huge);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("<stdin>:1:20: expected end of line"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn utf8_lookalikes_and_nul_are_named_as_bytes() {
    for problem in problem_ids() {
        // A Greek capital nu where a Latin N or a digit would be, and a NUL byte.
        let stderr = rejected(problem, "ΝNNNNNNN\n".as_bytes());
        assert!(stderr.contains("byte 0xCE"), "{problem}: {stderr}");
        let stderr = rejected(problem, b"\0");
        assert!(stderr.contains("byte 0x00"), "{problem}: {stderr}");
    }
}
