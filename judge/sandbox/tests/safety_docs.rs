//! Every `unsafe fn` of the crate says, in a `# Safety` section of its documentation, what its
//! caller must guarantee (clippy checks the `// SAFETY:` comment of every `unsafe` block; this
//! checks the other half, for private functions too).

use std::path::{Path, PathBuf};

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The `unsafe fn`s of `text` (declarations, not pointer types) without a `# Safety` section
/// in the documentation right above them: their line numbers.
fn undocumented(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut missing = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let Some(at) = code.find("unsafe fn ") else {
            continue;
        };
        // `unsafe fn(&mut A)` is a pointer type; `unsafe fn name` a declaration.
        if !code[at + "unsafe fn ".len()..].starts_with(|c: char| c.is_alphabetic() || c == '_') {
            continue;
        }
        let documented = lines[..k]
            .iter()
            .rev()
            .map(|l| l.trim_start())
            .take_while(|l| l.starts_with("///") || l.starts_with("#["))
            .any(|l| l == "/// # Safety");
        if !documented {
            missing.push(k + 1);
        }
    }
    missing
}

#[test]
fn every_unsafe_fn_has_a_safety_section() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let mut missing = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in undocumented(&text) {
            missing.push(format!(
                "{}:{line}",
                file.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(
        missing.is_empty(),
        "unsafe fns without a # Safety section: {}",
        missing.join(", ")
    );
}

#[test]
fn the_check_tells_declarations_from_pointer_types() {
    let text = "/// Does x.\n///\n/// # Safety\n///\n/// None.\nunsafe fn x() {}\n\
                /// Does y.\npub(crate) unsafe fn y() {}\n\
                struct S { f: unsafe fn(&mut u8) -> i32 }\n";
    assert_eq!(undocumented(text), vec![8]);
}
