//! Programming languages by file extension: the format's languages table
//! (`appendix/languages.md` of the specification), plus the extensions BAPCtools accepts for
//! scripts (`.bash`).
//!
//! Extensions the table puts in parentheses (`(.c)` for C with GMP, `(.py)` for Python 2 …)
//! do not decide a language, so each extension below maps to one language. In legacy packages
//! `.py` is Python 2 when the first line is a `python2` shebang (the legacy spec), else
//! Python 3.

/// One language of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Language {
    /// The table's code: `c`, `cpp`, `python3`, `java`, `kotlin`, `rust` …
    pub code: &'static str,
    /// The table's name: `C++`, `Python 3` …
    pub name: &'static str,
    /// The table's default entry point, if it gives one (`Main` for Java, `__main__.py` for
    /// Python).
    pub entry_point: Option<&'static str>,
}

const fn lang(
    code: &'static str,
    name: &'static str,
    entry_point: Option<&'static str>,
) -> Language {
    Language {
        code,
        name,
        entry_point,
    }
}

/// (extension without the dot, language). Case matters: `.C` is C++, `.c` is C.
const BY_EXTENSION: &[(&str, Language)] = &[
    ("adb", lang("ada", "Ada", None)),
    ("ads", lang("ada", "Ada", None)),
    ("a68", lang("algol68", "Algol 68", None)),
    ("apl", lang("apl", "APL", None)),
    ("sh", lang("bash", "Bash", None)),
    ("bash", lang("bash", "Bash", None)),
    ("c", lang("c", "C", None)),
    ("cob", lang("cobol", "COBOL", None)),
    ("cc", lang("cpp", "C++", None)),
    ("cpp", lang("cpp", "C++", None)),
    ("cxx", lang("cpp", "C++", None)),
    ("c++", lang("cpp", "C++", None)),
    ("C", lang("cpp", "C++", None)),
    ("cr", lang("crystal", "Crystal", None)),
    ("cs", lang("csharp", "C#", None)),
    ("d", lang("d", "D", None)),
    ("dart", lang("dart", "Dart", None)),
    ("ex", lang("elixir", "Elixir", None)),
    ("erl", lang("erlang", "Erlang", None)),
    ("fth", lang("forth", "Forth", None)),
    ("4th", lang("forth", "Forth", None)),
    ("forth", lang("forth", "Forth", None)),
    ("frt", lang("forth", "Forth", None)),
    ("f90", lang("fortran", "Fortran", None)),
    ("fs", lang("fsharp", "F#", None)),
    ("ss", lang("gerbil", "Gerbil", None)),
    ("go", lang("go", "Go", None)),
    ("hs", lang("haskell", "Haskell", None)),
    ("java", lang("java", "Java", Some("Main"))),
    ("js", lang("javascript", "JavaScript", Some("main.js"))),
    ("jl", lang("julia", "Julia", None)),
    ("kt", lang("kotlin", "Kotlin", Some("MainKt"))),
    ("lisp", lang("lisp", "Common Lisp", Some("main.lisp"))),
    ("cl", lang("lisp", "Common Lisp", Some("main.lisp"))),
    ("lua", lang("lua", "Lua", None)),
    ("mod", lang("modula2", "Modula-2", None)),
    ("def", lang("modula2", "Modula-2", None)),
    ("nim", lang("nim", "Nim", None)),
    ("m", lang("objectivec", "Objective-C", None)),
    ("ml", lang("ocaml", "OCaml", None)),
    ("odin", lang("odin", "Odin", None)),
    ("pas", lang("pascal", "Pascal", None)),
    ("pm", lang("perl", "Perl", None)),
    ("php", lang("php", "PHP", Some("main.php"))),
    ("pl", lang("prolog", "Prolog", None)),
    ("py2", PYTHON2),
    ("py", PYTHON3),
    ("py3", PYTHON3),
    ("rkt", lang("racket", "Racket", None)),
    ("rb", lang("ruby", "Ruby", None)),
    ("rs", lang("rust", "Rust", None)),
    ("scala", lang("scala", "Scala", None)),
    ("sim", lang("simula", "Simula", None)),
    ("st", lang("smalltalk", "Smalltalk", None)),
    ("sno", lang("snobol", "Snobol", None)),
    ("swift", lang("swift", "Swift", None)),
    ("ts", lang("typescript", "TypeScript", None)),
    ("vb", lang("visualbasic", "Visual Basic", None)),
    ("zig", lang("zig", "Zig", None)),
];

/// Python 2.
pub const PYTHON2: Language = lang("python2", "Python 2", Some("__main__.py"));
/// Python 3.
pub const PYTHON3: Language = lang("python3", "Python 3", Some("__main__.py"));

/// The language of a file name by its extension (the part after the last `.`), if the table
/// knows it. `first_line` decides `.py` in legacy packages (see the module doc).
pub fn by_file_name(name: &str, legacy: bool, first_line: Option<&str>) -> Option<Language> {
    let (stem, extension) = name.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    let language = BY_EXTENSION
        .iter()
        .find(|(e, _)| *e == extension)
        .map(|(_, l)| *l)?;
    if legacy
        && extension == "py"
        && first_line.is_some_and(|l| l.starts_with("#!") && l.contains("python2"))
    {
        return Some(PYTHON2);
    }
    Some(language)
}

/// The language of a code from the table (`submissions.yaml`'s `language`).
pub fn by_code(code: &str) -> Option<Language> {
    BY_EXTENSION
        .iter()
        .map(|(_, l)| *l)
        .find(|l| l.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_of_the_table() {
        let cases = [
            ("a.c", "c"),
            ("a.cc", "cpp"),
            ("a.cpp", "cpp"),
            ("a.cxx", "cpp"),
            ("a.c++", "cpp"),
            ("a.C", "cpp"),
            ("a.py", "python3"),
            ("a.py3", "python3"),
            ("a.py2", "python2"),
            ("A.java", "java"),
            ("a.kt", "kotlin"),
            ("a.go", "go"),
            ("a.rs", "rust"),
            ("a.sh", "bash"),
            ("tle.bad.py", "python3"),
        ];
        for (name, code) in cases {
            assert_eq!(
                by_file_name(name, false, None).map(|l| l.code),
                Some(code),
                "{name}"
            );
        }
        for name in ["Makefile", "a.txt", "a.h", ".py", "a.py.disabled", "build"] {
            assert_eq!(by_file_name(name, false, None), None, "{name}");
        }
    }

    #[test]
    fn legacy_python_two_by_shebang() {
        assert_eq!(
            by_file_name("a.py", true, Some("#!/usr/bin/env python2")),
            Some(PYTHON2)
        );
        assert_eq!(
            by_file_name("a.py", true, Some("#!/usr/bin/env python3")),
            Some(PYTHON3)
        );
        // 2025-09: `.py` is Python 3 whatever the shebang.
        assert_eq!(
            by_file_name("a.py", false, Some("#!/usr/bin/env python2")),
            Some(PYTHON3)
        );
    }

    #[test]
    fn codes() {
        assert_eq!(by_code("cpp").unwrap().name, "C++");
        assert_eq!(by_code("java").unwrap().entry_point, Some("Main"));
        assert_eq!(by_code("cobolxx"), None);
    }
}
