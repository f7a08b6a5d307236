//! The documentation says what is true. Every relative link of `README.md` and `docs/*.md`
//! leads to a file that exists, and a `#anchor` to a heading of it (GitHub's rule for heading
//! ids); every transcript — a ```` ```console ```` block of `$ command` lines, each followed
//! by its output — is what the current binary prints; and the README stays a first page: at
//! most 200 lines, with its two commands (the demo and the tests) on its first screen.
//!
//! A transcript's block runs in a fresh temporary folder, each command with `bash -c`, `judge`
//! being this build's binary (first on the `PATH`), standard output and standard error
//! together, as a terminal shows them. The build cache is one of its own under `target/tmp`,
//! kept between runs (the Rust solutions of the transcripts are built once). Before comparing,
//! both sides are masked where a run differs from another: times (`0.01 s`, `1 ms`), sizes
//! (`888 KiB`), rates (`1,234/s`), the `sandbox:` line (what isolates a run depends on the
//! machine and on root), a ` (cached)` after a `build:` line and the order of consecutive
//! `build:` lines (builds run in parallel), and the temporary folder's path (shown as
//! `/tmp/work`). `BOARDJUDGE_BLESS=1` rewrites every block with what was printed
//! (`BOARDJUDGE_BLESS=1 cargo test --release --test integration docs::`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::generation::scratch;
use crate::util::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every Markdown file below docs/.
fn documents() -> Vec<PathBuf> {
    let mut found = vec![root().join("README.md")];
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn shown(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A line that opens or closes a fenced code block: its fence and info string.
fn fence(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start();
    for fence in ["```", "~~~"] {
        if let Some(info) = trimmed.strip_prefix(fence) {
            return Some((
                fence,
                info.trim_start_matches(fence.as_bytes()[0] as char).trim(),
            ));
        }
    }
    None
}

/// The lines of `text` outside fenced code blocks, with their line numbers (1-based).
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut open: Option<&str> = None;
    for (i, line) in text.lines().enumerate() {
        match (open, fence(line)) {
            (None, Some((f, _))) => open = Some(f),
            (Some(f), Some((g, info))) if f == g && info.is_empty() => open = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// `line` without its code spans (a link inside backticks is text, not a link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        match after.find(&"`".repeat(ticks)) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                rest = after;
                out.push_str(&"`".repeat(ticks));
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images of `line`: `[text](target)`, `![alt](target)`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        // Up to the matching parenthesis (targets may hold parentheses in pairs).
        let mut depth = 1;
        let mut end = None;
        for (i, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's id of a heading: its text as shown (no backticks, a link's text only), lower
/// case, every character that is not a letter, digit, space, `-` or `_` left out, spaces as
/// `-`; a repeated id gets `-1`, `-2`, … in order.
fn heading_ids(text: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let title = line[hashes..].trim().trim_end_matches('#').trim();
        // A link in a heading shows its text.
        let mut plain = String::new();
        let mut rest = title;
        while let Some(open) = rest.find('[') {
            plain.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match (after.find("]("), after.find(')')) {
                (Some(close), Some(paren)) if close < paren => {
                    plain.push_str(&after[..close]);
                    rest = &after[paren + 1..];
                }
                _ => {
                    plain.push('[');
                    rest = after;
                }
            }
        }
        plain.push_str(rest);
        let id: String = plain
            .to_lowercase()
            .chars()
            .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(id.clone()).or_insert(0);
        ids.insert(if *n == 0 {
            id.clone()
        } else {
            format!("{id}-{n}")
        });
        *n += 1;
    }
    ids
}

#[test]
fn every_relative_link_of_the_docs_leads_somewhere() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (number, line) in prose(&text) {
            for target in link_targets(line) {
                if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                checked += 1;
                let (file, anchor) = match target.split_once('#') {
                    Some((file, anchor)) => (file, Some(anchor)),
                    None => (target.as_str(), None),
                };
                let path = if file.is_empty() {
                    doc.clone()
                } else {
                    doc.parent().unwrap().join(file)
                };
                let at = format!("{}:{number}: ({target})", shown(&doc));
                if !path.exists() {
                    broken.push(format!("{at}: no file {}", shown(&path)));
                    continue;
                }
                // Leaving the repository is not a link a fresh clone can follow.
                let inside = path
                    .canonicalize()
                    .is_ok_and(|p| p.starts_with(root().canonicalize().unwrap()));
                if !inside {
                    broken.push(format!("{at}: outside the repository"));
                    continue;
                }
                if let Some(anchor) = anchor {
                    let ids = std::fs::read_to_string(&path)
                        .map(|t| heading_ids(&t))
                        .unwrap_or_default();
                    if !ids.contains(anchor) {
                        broken.push(format!(
                            "{at}: no heading #{anchor} in {} (it has: {})",
                            shown(&path),
                            ids.iter().cloned().collect::<Vec<_>>().join(", ")
                        ));
                    }
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 50,
        "only {checked} links found: is the parser right?"
    );
}

#[test]
fn github_heading_ids_follow_its_rule() {
    let ids = heading_ids(
        "# Many machines: Slurm, Kubernetes, `judge merge`\n## The fork server, and the zygote\n\
         ```sh\n# not a heading\n```\n## Tests and CI\n## Tests and CI\n### [Linked](x.md) `a_b`\n",
    );
    let expected: BTreeSet<String> = [
        "many-machines-slurm-kubernetes-judge-merge",
        "the-fork-server-and-the-zygote",
        "tests-and-ci",
        "tests-and-ci-1",
        "linked-a_b",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(ids, expected);
    assert_eq!(
        link_targets("see [a](b.md#c) and `[not](x.md)` and ![img](p.png \"title\")"),
        ["b.md#c", "p.png"]
    );
}

#[test]
fn the_readme_is_a_first_page_with_the_two_commands_on_its_first_screen() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines: it is the first page (at most 200); the rest belongs in docs/"
    );
    let first_screen: Vec<&str> = readme.lines().take(30).collect();
    for command in ["judge/demo.sh", "cargo test --workspace --release --locked"] {
        assert!(
            first_screen
                .iter()
                .any(|l| l.trim_start().starts_with(command)),
            "the README's first screen does not start a line with `{command}`"
        );
    }
}

/// One transcript: where it is, its commands and the text of the block.
struct Transcript {
    doc: PathBuf,
    /// The block's first line of content (1-based), for messages.
    line: usize,
    /// The block's lines, between its fences.
    range: std::ops::Range<usize>,
    /// Each command (continuation lines joined by newlines) and its expected output.
    steps: Vec<(String, String)>,
}

fn transcripts(doc: &Path) -> Vec<Transcript> {
    let text = std::fs::read_to_string(doc).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some((f, info)) = fence(lines[i]) else {
            i += 1;
            continue;
        };
        let start = i + 1;
        let mut end = start;
        while end < lines.len()
            && !fence(lines[end]).is_some_and(|(g, rest)| g == f && rest.is_empty())
        {
            end += 1;
        }
        let body = &lines[start..end.min(lines.len())];
        if info == "console" {
            let mut steps: Vec<(String, String)> = Vec::new();
            let mut k = 0;
            while k < body.len() {
                let command_line = body[k].strip_prefix("$ ").unwrap_or_else(|| {
                    panic!(
                        "{}:{}: a console block starts each command with `$ `",
                        shown(doc),
                        start + k + 1
                    )
                });
                let mut command = command_line.to_string();
                while command.ends_with('\\') && k + 1 < body.len() {
                    k += 1;
                    command.push('\n');
                    command.push_str(body[k]);
                }
                k += 1;
                let mut output = String::new();
                while k < body.len() && !body[k].starts_with("$ ") {
                    output.push_str(body[k]);
                    output.push('\n');
                    k += 1;
                }
                steps.push((command, output));
            }
            found.push(Transcript {
                doc: doc.to_path_buf(),
                line: start + 1,
                range: start..end,
                steps,
            });
        } else {
            // A transcript outside a console block would not be checked.
            for (k, line) in body.iter().enumerate() {
                assert!(
                    !line.starts_with("$ judge"),
                    "{}:{}: a transcript belongs in a ```console block, where a test checks it",
                    shown(doc),
                    start + k + 1
                );
            }
        }
        i = end + 1;
    }
    found
}

/// `line` with what differs from run to run replaced (see the module's comment).
fn masked(line: &str) -> String {
    if line.starts_with("sandbox: ") {
        return "sandbox: (what isolates runs here)".to_string();
    }
    let line = if line.starts_with("build: ") {
        line.strip_suffix(" (cached)").unwrap_or(line)
    } else {
        line
    };
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '-'));
        if !starts_number {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len()
            && (chars[j].is_ascii_digit()
                || (matches!(chars[j], ',' | '.')
                    && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
        {
            j += 1;
        }
        let rest: String = chars[j..].iter().collect();
        let unit = [
            (" ms", "<time>"),
            (" µs", "<time>"),
            (" ns", "<time>"),
            (" s", "<time>"),
            (" KiB", "<size>"),
            (" MiB", "<size>"),
            (" KB", "<size>"),
            ("/s", "<rate>"),
        ]
        .into_iter()
        .find(|(unit, _)| {
            rest.starts_with(unit)
                && !rest[unit.len()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphanumeric)
        });
        match unit {
            Some((unit, mask)) => {
                out.push_str(mask);
                i = j + unit.chars().count();
            }
            None => {
                out.extend(&chars[i..j]);
                i = j;
            }
        }
    }
    out
}

/// Every line masked, and each run of consecutive `build:` lines sorted (builds run in
/// parallel: they start in any order).
fn masked_text(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut builds: Vec<String> = Vec::new();
    for line in text.lines().map(masked) {
        if line.starts_with("build: ") {
            builds.push(line);
            continue;
        }
        builds.sort();
        out.append(&mut builds);
        out.push(line);
    }
    builds.sort();
    out.append(&mut builds);
    out.iter().map(|l| format!("{l}\n")).collect()
}

/// Runs a transcript's commands; the block as the binary prints it now.
fn replay(transcript: &Transcript, number: usize) -> String {
    let name = transcript
        .doc
        .file_stem()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let dir = scratch(&format!("docs-{name}-{number}"));
    std::fs::create_dir_all(&dir).unwrap();
    let judge_dir = Path::new(env!("CARGO_BIN_EXE_judge")).parent().unwrap();
    let path = format!(
        "{}:{}",
        judge_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-build-cache");
    let mut block = String::new();
    for (command, _) in &transcript.steps {
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("exec 2>&1\n{command}"))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("BOARDJUDGE_BUILD_CACHE", &cache)
            .env_remove("CI")
            .output()
            .unwrap();
        block.push_str("$ ");
        block.push_str(command);
        block.push('\n');
        let printed = text(&out.stdout).replace(&dir.display().to_string(), "/tmp/work");
        block.push_str(&printed);
        if !printed.is_empty() && !printed.ends_with('\n') {
            block.push('\n');
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    block
}

#[test]
fn every_transcript_in_the_docs_is_what_the_binary_prints() {
    let bless = std::env::var_os("BOARDJUDGE_BLESS").is_some();
    let docs = documents();
    let all: Vec<Transcript> = docs.iter().flat_map(|d| transcripts(d)).collect();
    assert!(!all.is_empty(), "no ```console transcripts found");
    // Every block at once: most of the time goes to the judge's runs and builds.
    let replayed: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = all
            .iter()
            .enumerate()
            .map(|(n, t)| scope.spawn(move || replay(t, n)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut stale = Vec::new();
    let mut is_stale = Vec::new();
    for (transcript, now) in all.iter().zip(&replayed) {
        let expected: String = transcript
            .steps
            .iter()
            .map(|(command, output)| format!("$ {command}\n{output}"))
            .collect();
        is_stale.push(masked_text(&expected) != masked_text(now));
        if masked_text(&expected) != masked_text(now) {
            stale.push(format!(
                "{}:{}: the transcript differs from what the binary prints (masked lines below; \
                 BOARDJUDGE_BLESS=1 rewrites it)\n--- in the docs\n{}--- printed now\n{}",
                shown(&transcript.doc),
                transcript.line,
                masked_text(&expected),
                masked_text(now)
            ));
        }
    }
    if bless {
        for doc in &docs {
            let text = std::fs::read_to_string(doc).unwrap();
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            // From the last block up, so the earlier ranges stay right; only the stale ones
            // (a block that differs in masked parts only is left as it is).
            for ((transcript, now), stale) in all.iter().zip(&replayed).zip(&is_stale).rev() {
                if &transcript.doc == doc && *stale {
                    lines.splice(transcript.range.clone(), now.lines().map(String::from));
                }
            }
            let mut new = lines.join("\n");
            new.push('\n');
            if new != text {
                std::fs::write(doc, new).unwrap();
            }
        }
        return;
    }
    assert!(stale.is_empty(), "{}", stale.join("\n"));
}

#[test]
fn the_masks_hide_what_changes_between_runs_and_nothing_else() {
    assert_eq!(
        masked("omok: 84 of 84 tests run: AC 84 (max 1 ms CPU, 888 KiB)"),
        "omok: 84 of 84 tests run: AC 84 (max <time> CPU, <size>)"
    );
    assert_eq!(
        masked("found after 2 cases in 0.01 s (shrunk in 0.15 s more)"),
        "found after 2 cases in <time> (shrunk in <time> more)"
    );
    assert_eq!(
        masked("ran 1,000 cases (1,234/s)"),
        "ran 1,000 cases (<rate>)"
    );
    assert_eq!(
        masked("build: rustc -O -o /box/out/sol /box/src/sol.rs (cached)"),
        "build: rustc -O -o /box/out/sol /box/src/sol.rs"
    );
    assert_eq!(
        masked("replay: judge stress omok --seed 1 --cases 2 -- sol/wrong/omok--x2.rs"),
        "replay: judge stress omok --seed 1 --cases 2 -- sol/wrong/omok--x2.rs"
    );
    assert_eq!(masked("5 stones"), "5 stones");
}

/// The contributors' guide says how many files a new problem needs and names each: the list
/// in `solutions::problem_files` is the truth, and the shape test keeps the problems to it.
#[test]
fn adding_a_problem_gives_the_true_count_and_names_every_part() {
    let guide = std::fs::read_to_string(root().join("docs/contributing.md")).unwrap();
    let section = guide
        .split("\n## Adding a problem\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/contributing.md has a section \"Adding a problem\"");
    if let Err(wrong) = solutions::problem_files::check_adding_a_problem(section) {
        panic!("docs/contributing.md, \"Adding a problem\":\n{wrong}");
    }
}
