//! Makes the one list of problems usable everywhere: `for_each_problem!` and the re-export of
//! every problem's type, from the `pub mod` lines of the list in `src/lib.rs` (a problem's
//! type is its module's name in CamelCase: `gomoku_checker` → `GomokuChecker`). So a problem
//! is added with one line, and the list stays plain `mod` items, which tools that do not
//! expand macros (cargo-mutants) follow.

use std::path::PathBuf;

const BEGIN: &str = "// The list of problems";
const END: &str = "// End of the list of problems.";

fn camel(module: &str) -> String {
    module
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// The minor version of the compiler building this crate (`rustc 1.95.0 (…)` → 95).
fn rustc_minor() -> Option<u32> {
    let rustc = std::env::var_os("RUSTC")?;
    let output = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    (parts.next()? == "1").then_some(())?;
    parts.next()?.parse().ok()
}

fn main() {
    println!("cargo:rerun-if-changed=src/lib.rs");
    // The othello-flips fast solver's AVX-512 kernel uses intrinsics stable from Rust 1.89; the
    // workspace builds with 1.88, where the kernel is left out (see
    // `src/othello_flips/fast.rs`).
    println!("cargo::rustc-check-cfg=cfg(othello_avx512)");
    if rustc_minor().is_some_and(|minor| minor >= 89) {
        println!("cargo::rustc-cfg=othello_avx512");
    }
    let lib = std::fs::read_to_string("src/lib.rs").expect("src/lib.rs");
    let start = lib
        .find(BEGIN)
        .expect("src/lib.rs has the list of problems");
    let end = lib[start..].find(END).expect("the list of problems ends") + start;
    let modules: Vec<&str> = lib[start..end]
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    assert!(!modules.is_empty(), "the list of problems is empty");
    let mut out = String::from(
        "/// Calls the macro `$callback` (an identifier in scope where this is expanded) with\n\
         /// `[EXTRA]` — whatever tokens follow the callback's name — and then every problem of\n\
         /// the list as `module: path::to::ProblemType`, comma-separated, in the list's order\n\
         /// (the order `judge problems` shows). Everything that needs every problem (the\n\
         /// generators' modules, the judge's registry, the tests, the benches, the fuzz\n\
         /// targets) expands this rather than naming problems. Made by `build.rs` from the list\n\
         /// in `src/lib.rs`.\n\
         #[macro_export]\n\
         macro_rules! for_each_problem {\n    \
             ($callback:ident $(, $($extra:tt)*)?) => {\n        \
                 $callback! { [$($($extra)*)?]\n",
    );
    for module in &modules {
        out.push_str(&format!(
            "            {module}: $crate::{module}::{},\n",
            camel(module)
        ));
    }
    out.push_str("        }\n    };\n}\n\n");
    for module in &modules {
        out.push_str(&format!("pub use {module}::{};\n", camel(module)));
    }
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("problem_list.rs");
    std::fs::write(dest, out).expect("writing problem_list.rs");
}
