//! How each language is built and run: the toolchains by source extension, their
//! overrides from the environment, and the flags `--sanitize` adds.

use std::path::Path;

/// How one language is built and run.
#[derive(Clone, Copy, Debug)]
pub struct Toolchain {
    /// The extension of its sources.
    pub ext: &'static str,
    /// The extensions compiled together in a folder submission whose entry point has `ext`.
    pub family: &'static [&'static str],
    /// The build command ("" for an interpreted language).
    pub build: &'static str,
    pub run: &'static str,
    /// The build's environment besides `PATH`, `LANG`, `HOME` and `TMPDIR` (box paths).
    pub build_env: &'static [(&'static str, &'static str)],
}

/// Where a Go build keeps its cache in the box.
pub(super) const GO_CACHE: &str = "/box/tmp/go-cache";

const GO_ENV: &[(&str, &str)] = &[
    ("GOCACHE", GO_CACHE),
    ("GOPATH", "/box/tmp/go"),
    ("GOPROXY", "off"),
];

/// How each source extension is built and run. C, C++, Java, Kotlin and Rust as BAPCtools'
/// `languages.yaml` builds them (C++ at gnu++20, which Debian 12's g++ knows fully); Go with
/// the `go` tool (BAPCtools names gccgo); Python with `python3` (contests often run `pypy3`:
/// `BOARDJUDGE_RUN_PY='pypy3 {src}'`).
pub const TOOLCHAINS: [Toolchain; 11] = [
    Toolchain {
        ext: "c",
        family: &["c"],
        build: "gcc -O2 -std=gnu11 -o {out} {src} -lm",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "cpp",
        family: &["cpp", "cc"],
        build: "g++ -O2 -std=gnu++20 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "cc",
        family: &["cpp", "cc"],
        build: "g++ -O2 -std=gnu++20 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "py",
        family: &["py"],
        build: "",
        run: "python3 {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "java",
        family: &["java"],
        build: "javac -encoding UTF-8 -d {dir} {src}",
        run: "java -Dfile.encoding=UTF-8 -XX:+UseSerialGC -XX:-UsePerfData -cp {dir} {class}",
        build_env: &[],
    },
    Toolchain {
        ext: "kt",
        family: &["kt"],
        build: "kotlinc -d {dir} {src}",
        run: "kotlin -Dfile.encoding=UTF-8 -J-XX:+UseSerialGC -J-XX:-UsePerfData -cp {dir} {Class}Kt",
        build_env: &[],
    },
    Toolchain {
        ext: "go",
        family: &["go"],
        build: "go build -o {out} {src}",
        run: "{out}",
        build_env: GO_ENV,
    },
    Toolchain {
        ext: "rs",
        family: &["rs"],
        build: "rustc -O --crate-type bin --edition=2018 -o {out} {src}",
        run: "{out}",
        build_env: &[],
    },
    Toolchain {
        ext: "rb",
        family: &["rb"],
        build: "",
        run: "ruby {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "js",
        family: &["js"],
        build: "",
        run: "node {src}",
        build_env: &[],
    },
    Toolchain {
        ext: "sh",
        family: &["sh"],
        build: "",
        run: "sh {src}",
        build_env: &[],
    },
];

/// The build and run commands for a source file's extension, with overrides from the
/// environment.
pub fn toolchain(extension: &str) -> Option<(String, String)> {
    let tool = TOOLCHAINS.iter().find(|t| t.ext == extension)?;
    let key = extension.to_ascii_uppercase();
    let build =
        std::env::var(format!("BOARDJUDGE_BUILD_{key}")).unwrap_or_else(|_| tool.build.to_string());
    let run =
        std::env::var(format!("BOARDJUDGE_RUN_{key}")).unwrap_or_else(|_| tool.run.to_string());
    Some((build, run))
}

/// Is `path` a source file the judge knows how to build or run?
pub fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| toolchain(e).is_some())
}

/// The flags a sanitized build (`--sanitize`) adds to the C and C++ build commands, right
/// after the compiler: AddressSanitizer and UndefinedBehaviorSanitizer, recovering after a
/// report (so the program runs on and its output can still be right; the runtime options are
/// `sandbox::SANITIZER_OPTIONS`), frame pointers and line tables for the report's first frame.
pub const SANITIZE_FLAGS: [&str; 4] = [
    "-fsanitize=address,undefined",
    "-fsanitize-recover=address",
    "-fno-omit-frame-pointer",
    "-g",
];

/// The extensions whose builds `--sanitize` instruments.
pub const SANITIZED: [&str; 3] = ["c", "cpp", "cc"];
