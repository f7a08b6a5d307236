use crate::util::*;

#[test]
fn problems_lists_every_problem_of_the_list_in_order() {
    let out = judge().arg("problems").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let ids: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(ids, problem_ids());
}

#[test]
fn unknown_problem_is_a_usage_error() {
    let out = run_with_stdin(&["solve", "chess"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("unknown problem 'chess'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn missing_input_file_exits_2_naming_the_file() {
    let out = run_with_stdin(&["validate", "omok", "/nonexistent/board.in"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/nonexistent/board.in"));
}

#[test]
fn solve_reads_a_file_argument() {
    let dir = std::env::temp_dir().join(format!("boardjudge-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("empty.in");
    std::fs::write(&path, "R\nB\nW\nG\n").unwrap();
    let out = judge()
        .args(["solve", "attack25"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "R,13\nB,13\nW,13\nG,13\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_error_names_file_line_and_column() {
    let dir = std::env::temp_dir().join(format!("boardjudge-err-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.in");
    std::fs::write(&path, "R\nB,13\nW,13\nG\n").unwrap();
    let out = judge()
        .args(["solve", "attack25"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{}:3:3:", path.display())),
        "{stderr}"
    );
    assert!(
        stderr.contains("panel 13 is already listed for B"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
