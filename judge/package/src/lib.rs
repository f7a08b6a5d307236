//! `judge package`: a complete contest problem package that BAPCtools (`bt`, ICPC format
//! 2025-09) or problemtools (`verifyproblem`, the legacy format) checks and uses as it is,
//! needing nothing from this repository.
//!
//! ```text
//! NAME/                       NAME = the id without '-' (`gomoku-checker` → `gomokuchecker`)
//!   problem.yaml              name, uuid, credits, license, limits
//!   README.md                 how the package was made (command, seed, version, time limit)
//!   statement/problem.en.tex  (legacy: problem_statement/problem.en.tex)
//!   data/sample/              the spec's samples
//!   data/secret/GROUP/        one test group per origin: `corpus` (hand-made cases),
//!                             `boundary` (boundary obligations), one per generator family
//!   data/invalid_input/       inputs the validator must reject (2025-09 only)
//!   generators/random.py      the package's inputs and more of every family, by seed
//!   generators/generators.yaml   `random`, and every test of data/ as a command of it
//!                                (2025-09 only)
//!   input_validators/validate/   build + run + validate.rs (the strict parser)
//!   answer_validators/validate/  build + run + validate.rs (2025-09 only)
//!   submissions/accepted/     reference.rs, fast.rs
//!   submissions/wrong_answer/ one .rs per known-wrong solution, its bug in its first lines
//! ```

// Only the sandbox crate and the solvers' SIMD kernels may use `unsafe`.
#![forbid(unsafe_code)]

pub mod generator;
pub mod programs;
pub mod single_file;
pub mod solution_programs;

use std::collections::HashSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use judge_core::cancel::Cancel;
use judge_core::error::{JudgeError, JuryError};
use judge_core::progress::Meter;
use judge_core::registry::ProblemEntry;
use judge_core::runner::submission::{Builder, from_source};
use judge_core::runner::{AnswerFile, Judging, default_limits, run_all};
use judge_core::verdict::Verdict;
use programs::{CONTEST_RUSTC, Program};

/// The package formats (the command line's `icpc` and `legacy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// ICPC problem package format 2025-09 (BAPCtools, DOMjudge).
    Icpc,
    /// The legacy Kattis format (problemtools' `verifyproblem`, Kattis).
    Legacy,
}

/// How many inputs of the generator families, besides the package's own, `generators/random.py`
/// carries: what a stress test of the exported package draws from.
const EXTRA_GENERATED: u64 = 120;
/// How many inputs of each invalid family go into `data/invalid_input`.
const INVALID_PER_FAMILY: u64 = 2;
/// The spec's default ratio between the time limit and the slowest accepted run
/// (`time_multipliers.ac_to_time_limit` in 2025-09).
const AC_TO_TIME_LIMIT: f64 = 2.0;
/// The smallest time limit written: contest systems measure whole runs, process start
/// included, and a limit under a second buys nothing for a problem this small.
const MIN_TIME_LIMIT: f64 = 1.0;
/// Memory limit in MiB: far above what the solutions use (a few MiB), and enough for the
/// JVM submissions contestants bring.
const MEMORY_LIMIT_MB: u64 = 1024;

/// The package folder name: the id with everything but `[a-z0-9]` removed.
pub fn package_name(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        .collect()
}

/// What [`write`] made, for the summary line.
pub struct Written {
    pub dir: PathBuf,
    pub tests: usize,
    pub invalid: usize,
    pub wrong: usize,
    /// The time limit written in `problem.yaml`; `None` in the legacy format, which has none
    /// (the judging system sets it from the slowest accepted submission).
    pub time_limit: Option<f64>,
    pub slowest_ms: Option<u64>,
    /// 2025-09: whether `OUT/languages.yaml` (see [`LANGUAGES_YAML`]) is this package's own —
    /// written now, or there already with the same text — (`true`) or another one that was
    /// left alone (`false`).
    pub languages_yaml: Option<bool>,
}

/// The licences both package formats name (`license` in `problem.yaml`).
pub const LICENSES: [&str; 7] = [
    "unknown",
    "public domain",
    "cc0",
    "cc by",
    "cc by-sa",
    "educational",
    "permission",
];

/// Who made the problem and under what terms: `problem.yaml`'s `credits`, `source`,
/// `license` and `rights_owner`.
#[derive(Clone, Debug)]
pub struct Credits {
    /// `credits` (2025-09: the authors; the legacy format has no such key and writes
    /// `author`).
    pub credits: String,
    pub source: String,
    /// One of [`LICENSES`].
    pub license: String,
    pub rights_owner: String,
}

/// `OUT/languages.yaml`, which BAPCtools reads from the folder above the problem: it runs
/// Python 3 as `pypy3` (its `languages.yaml`) and, when `pypy3` is not installed, every `bt`
/// command warns "Did not find required language python3" and exits 1 — even for this
/// package, which holds no Python. This makes `python3` (CPython) its Python 3, as on a
/// machine with what the README's recipe installs. Delete it to judge Python with PyPy.
pub const LANGUAGES_YAML: &str = r#"# Written by `judge package`: BAPCtools runs Python 3 with pypy3 unless told otherwise,
# and without pypy3 installed every `bt` command fails ("Did not find required language
# python3"). With this file it runs CPython's python3. Delete it to use pypy3.
python3:
    name: 'Python 3 (CPython)'
    compile: 'python3 -m py_compile {files}'
    run: 'python3 "{mainfile}"'
"#;

/// Writes `problem`'s package into `out/NAME`, which must not exist or be empty. Measuring
/// the accepted solutions shows on `meter` and stops when `cancel` is cancelled.
pub fn write(
    problem: &dyn ProblemEntry,
    out: &Path,
    format: Format,
    seed: u64,
    credits: &Credits,
    meter: &dyn Meter,
    cancel: &Cancel,
) -> Result<Written, JudgeError> {
    if !LICENSES.contains(&credits.license.as_str()) {
        return Err(JudgeError::Usage(format!(
            "--license '{}': the package formats know {}",
            credits.license,
            LICENSES.join(", ")
        )));
    }
    let name = package_name(problem.id());
    let dir = out.join(&name);
    if std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(JudgeError::Usage(format!(
            "{}: already exists and is not empty; remove it or choose another --out",
            dir.display()
        )));
    }
    let statement = programs::statement(problem).ok_or_else(|| {
        JudgeError::from(JuryError::Problem {
            problem: problem.id().to_string(),
            why: format!("no statement.en.tex in tests/data/{}/", problem.id()),
        })
    })?;
    let title = problem_name(statement).ok_or_else(|| {
        JudgeError::from(JuryError::Problem {
            problem: problem.id().to_string(),
            why: format!(
                "tests/data/{}/statement.en.tex: no \\problemname{{…}} on its first line",
                problem.id()
            ),
        })
    })?;

    // Test data, grouped by origin; no input twice (tools warn about duplicates).
    let cases = problem.testset_cases(seed)?;
    let mut seen = HashSet::new();
    let mut tests = 0;
    // What generators/generators.yaml lists, and the inputs generators/random.py carries.
    let mut listed = Vec::new();
    let mut valid = Vec::new();
    let mut invalid_inputs = Vec::new();
    for case in &cases {
        if !seen.insert(case.text.clone()) {
            continue;
        }
        // Named by what made them.
        let group = match (case.sample, case.row.source) {
            (true, _) => "sample".to_string(),
            (false, "generated") => format!("secret/{}", case.row.family),
            (false, "boundary") => "secret/boundary".to_string(),
            (false, _) => "secret/corpus".to_string(),
        };
        let folder = dir.join("data").join(&group);
        create_dir(&folder)?;
        write_file(&folder.join(format!("{}.in", case.row.test)), &case.text)?;
        write_file(&folder.join(format!("{}.ans", case.row.test)), &case.answer)?;
        listed.push(generator::Listed {
            group,
            name: case.row.test.clone(),
            command: format!("pick {}", valid.len()),
        });
        valid.push(case.text.clone());
        tests += 1;
    }
    let mut invalid = 0;
    if format == Format::Icpc {
        let folder = dir.join("data/invalid_input");
        create_dir(&folder)?;
        for (n, (label, bytes)) in problem
            .invalid_inputs(seed, INVALID_PER_FAMILY)
            .into_iter()
            .enumerate()
        {
            if problem.validate(&bytes).is_ok() {
                return Err(JuryError::Problem {
                    problem: problem.id().to_string(),
                    why: format!("the invalid input {label} is accepted by the validator"),
                }
                .into());
            }
            if !seen.insert(String::from_utf8_lossy(&bytes).into_owned()) {
                continue;
            }
            let name = format!("{:03}-{label}", n + 1);
            let path = folder.join(format!("{name}.in"));
            std::fs::write(&path, &bytes).map_err(|e| JudgeError::io(&path, e))?;
            listed.push(generator::Listed {
                group: "invalid_input".to_string(),
                name,
                command: format!("invalid {}", invalid_inputs.len()),
            });
            invalid_inputs.push(bytes);
            invalid += 1;
        }
    }

    // The generator (2025-09 only: problemtools warns about a `generators` folder in a
    // legacy package): the package's inputs, then more of every family (round robin, each
    // family's own stream under the same seed), no input twice.
    if format == Format::Icpc {
        let families = problem.families();
        for index in 0..EXTRA_GENERATED {
            let Some(family) = families.get((index % families.len().max(1) as u64) as usize) else {
                break;
            };
            let nth = index / families.len() as u64;
            if let Some((input, _)) = problem.family_case(family.0, nth, seed)
                && seen.insert(input.clone())
            {
                valid.push(input);
            }
        }
        write_generator(
            problem,
            &dir.join("generators"),
            seed,
            &valid,
            &invalid_inputs,
            &listed,
        )?;
    }

    // Statement.
    let statement_dir = dir.join(match format {
        Format::Icpc => "statement",
        Format::Legacy => "problem_statement",
    });
    create_dir(&statement_dir)?;
    write_file(&statement_dir.join("problem.en.tex"), statement)?;

    // Validators: a folder with `build` and `run` scripts, which both tools accept.
    write_validator(
        problem,
        &dir.join("input_validators/validate"),
        Program::InputValidator,
    )?;
    if format == Format::Icpc {
        write_validator(
            problem,
            &dir.join("answer_validators/validate"),
            Program::AnswerValidator,
        )?;
    }

    // Submissions: the correct solvers, and every known-wrong one a test rejects.
    let (correct, wrong) = problem.solver_names();
    let accepted = dir.join("submissions/accepted");
    create_dir(&accepted)?;
    for solver in &correct {
        let text = programs::source(problem, Program::Correct(solver))?;
        write_file(&accepted.join(format!("{solver}.rs")), &text)?;
    }
    let wrong_dir = dir.join("submissions/wrong_answer");
    create_dir(&wrong_dir)?;
    let mut wrong_written = 0;
    // The board-access models (issue 13: 100+ derived solvers of ~50 KB each) stay out of the
    // package, which would take the contest tools many minutes to build and run; `judge
    // solutions` and `judge strength` have them.
    let models: Vec<&str> = solutions::access::models().iter().map(|m| m.name).collect();
    for solver in wrong.iter().filter(|s| !models.contains(s)) {
        let rejected = cases.iter().any(|case| {
            problem
                .solve_named(case.text.as_bytes(), solver)
                .is_some_and(|got| {
                    got.map_or(true, |got| {
                        problem.check(&case.answer, got.as_bytes()).is_err()
                    })
                })
        });
        if !rejected {
            judge_core::say!(
                "warning: no test of this seed rejects the known-wrong solution {solver}; it is \
                 left out of submissions/wrong_answer (the tools would fail it). \
                 `judge strength` tells which families would catch it."
            );
            continue;
        }
        let text = programs::source(problem, Program::Wrong(solver))?;
        write_file(&wrong_dir.join(format!("{solver}.rs")), &text)?;
        wrong_written += 1;
    }

    // Limits from the accepted submissions, built and run as a contest system would.
    let slowest_ms = measure_accepted(problem, &dir, &correct, meter, cancel)?;
    let time_limit = time_limit_for(slowest_ms);
    write_file(
        &dir.join("problem.yaml"),
        &problem_yaml(problem, &title, format, time_limit, credits),
    )?;
    write_file(
        &dir.join("README.md"),
        &readme(problem, &title, format, seed, time_limit, slowest_ms),
    )?;
    // BAPCtools reads languages.yaml from the folder above the problem (2025-09 only).
    let languages_yaml = (format == Format::Icpc)
        .then(|| {
            let path = out.join("languages.yaml");
            if path.exists() {
                return Ok(std::fs::read_to_string(&path).is_ok_and(|t| t == LANGUAGES_YAML));
            }
            write_file(&path, LANGUAGES_YAML).map(|()| true)
        })
        .transpose()?;
    Ok(Written {
        dir,
        tests,
        invalid,
        wrong: wrong_written,
        time_limit: (format == Format::Icpc).then_some(time_limit),
        slowest_ms,
        languages_yaml,
    })
}

/// The time limit for a slowest accepted run of `slowest_ms` (CPU time of one test): the
/// spec's `ac_to_time_limit` (2) times it, rounded up to a tenth of a second, at least
/// [`MIN_TIME_LIMIT`]. Unmeasured: the minimum.
pub fn time_limit_for(slowest_ms: Option<u64>) -> f64 {
    let scaled = slowest_ms.map_or(0.0, |ms| ms as f64 / 1000.0 * AC_TO_TIME_LIMIT);
    ((scaled * 10.0).ceil() / 10.0).max(MIN_TIME_LIMIT)
}

/// The name in `\problemname{…}`.
fn problem_name(statement: &str) -> Option<String> {
    let rest = statement.split("\\problemname{").nth(1)?;
    let name = rest.split('}').next()?.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A uuid (version 4 layout) derived from the problem id and format, so the same command
/// writes the same bytes, and the two formats of one problem can live side by side.
fn uuid(id: &str, format: Format) -> String {
    let mut rng = generators::stream(id, &format!("package-{format:?}"), 0, 0);
    let mut bytes = [0u8; 16];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&rng.u64().to_le_bytes());
    }
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// A YAML scalar: plain when that reads back as the same string, else double-quoted.
fn yaml_string(text: &str) -> String {
    let plain = !text.is_empty()
        && text.trim() == text
        && text.chars().all(|c| {
            c.is_alphanumeric() || " .,_-()/@'".contains(c) || (!c.is_ascii() && !c.is_control())
        })
        && !text.starts_with(['-', '\'', '@'])
        && !["true", "false", "yes", "no", "null", "~", "on", "off"]
            .contains(&text.to_ascii_lowercase().as_str())
        && text.parse::<f64>().is_err();
    if plain {
        return text.to_string();
    }
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            c if c.is_control() => quoted.push_str(&format!("\\u{:04x}", c as u32)),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

fn problem_yaml(
    problem: &dyn ProblemEntry,
    title: &str,
    format: Format,
    time_limit: f64,
    credits: &Credits,
) -> String {
    let uuid = uuid(problem.id(), format);
    let (who, source, license, owner) = (
        yaml_string(&credits.credits),
        yaml_string(&credits.source),
        &credits.license,
        yaml_string(&credits.rights_owner),
    );
    match format {
        Format::Icpc => format!(
            "problem_format_version: 2025-09\n\
             type: pass-fail\n\
             name:\n  en: {title}\n\
             uuid: {uuid}\n\
             credits: {who}\n\
             source: {source}\n\
             license: {license}\n\
             rights_owner: {owner}\n\
             limits:\n  time_limit: {time_limit:.1}\n  memory: {MEMORY_LIMIT_MB}\n"
        ),
        // The legacy format has no absolute time limit: the judging system sets it from the
        // slowest accepted submission (times `time_multiplier`, default 5).
        Format::Legacy => format!(
            "name: {title}\n\
             author: {who}\n\
             source: {source}\n\
             license: {license}\n\
             rights_owner: {owner}\n\
             uuid: {uuid}\n\
             limits:\n  memory: {MEMORY_LIMIT_MB}\n"
        ),
    }
}

fn readme(
    problem: &dyn ProblemEntry,
    title: &str,
    format: Format,
    seed: u64,
    time_limit: f64,
    slowest_ms: Option<u64>,
) -> String {
    let format_name = match format {
        Format::Icpc => "icpc",
        Format::Legacy => "legacy",
    };
    let version = env!("CARGO_PKG_VERSION");
    let measured = match slowest_ms {
        Some(ms) => format!(
            "The slowest accepted submission took {ms} ms of CPU time on one test (built with \
             `{CONTEST_RUSTC}` and run in boardjudge's sandbox when the package was written)"
        ),
        None => "The accepted submissions could not be built here (no `rustc`), so nothing was \
                 measured"
            .to_string(),
    };
    let limits = match format {
        Format::Icpc => format!(
            "{measured}; `limits.time_limit` is {time_limit:.1} s: the format's \
             `ac_to_time_limit` (2) times that, rounded up to 0.1 s, and at least 1 s."
        ),
        Format::Legacy => format!(
            "{measured}. The legacy format has no absolute time limit: the judging system sets \
             it from the slowest accepted submission (`time_multiplier`, default 5)."
        ),
    };
    let generators = match format {
        Format::Icpc => {
            " `generators/generators.yaml` makes every file of `data/` again (`bt generate`) \
             with `generators/random.py`, which carries the inputs boardjudge's generator \
             families made (they are its Rust library, not single files): the package's own, \
             then more of every family. `random.py SEED` prints one of them chosen by the seed, \
             the same bytes for the same seed: the package's `random` generator, which `judge \
             stress PKG` runs when no `--generator` is given."
        }
        Format::Legacy => {
            // As before issue 32.3, byte for byte.
            " The data cannot be regenerated from this folder (the generators are \
             boardjudge's Rust library, not single files), so there is no \
             `generators/generators.yaml`: rerun the command above instead."
        }
    };
    format!(
        "# {title} (`{id}`)\n\n\
         Written by boardjudge {version}:\n\n\
         ```sh\njudge package {id} --out DIR --format {format_name} --seed {seed}\n```\n\n\
         The same command writes the same bytes.{generators}\n\n\
         - `data/sample`: the samples of the statement; `data/secret/corpus`: hand-made \
         cases, each pinning one rule; `data/secret/boundary`: boundary cases, each meeting \
         a boundary obligation (a run or a read at the board's edge); \
         `data/secret/FAMILY`: generated tests, one group per generator family (`judge \
         families {id}` says what each targets).\n\
         - Every answer comes from boardjudge's reference solver, checked against its fast \
         solver.\n\
         - Validators and submissions are Rust, one file each; the validators are folders with \
         `build` and `run` scripts (`rustc` must be installed where the package is checked).\n\
         - Output is checked by the default output validator (tokens, whitespace-insensitive).\n\n\
         {limits}\n",
        id = problem.id()
    )
}

/// Writes `generators/random.py` and `generators/generators.yaml` (see [`generator`]).
fn write_generator(
    problem: &dyn ProblemEntry,
    folder: &Path,
    seed: u64,
    valid: &[String],
    invalid: &[Vec<u8>],
    listed: &[generator::Listed],
) -> Result<(), JudgeError> {
    let id = problem.id();
    let header = format!(
        "Written by boardjudge {} (`judge package {id} --format icpc --seed {seed}`).\n\
         boardjudge's generator families are Rust code of its library, not single files, so\n\
         this carries {} inputs they made: the package's {} tests first, then more of every\n\
         family.",
        env!("CARGO_PKG_VERSION"),
        valid.len(),
        listed.len() - invalid.len(),
    );
    create_dir(folder)?;
    write_script(
        &folder.join("random.py"),
        &generator::random_py(id, &header, valid, invalid),
    )?;
    let (correct, _) = problem.solver_names();
    let solution = format!(
        "/submissions/accepted/{}.rs",
        correct.first().copied().unwrap_or("reference")
    );
    write_file(
        &folder.join("generators.yaml"),
        &generator::generators_yaml(&header, &solution, listed),
    )
}

/// Writes a validator folder: `validate.rs`, and `build`/`run` scripts.
fn write_validator(
    problem: &dyn ProblemEntry,
    folder: &Path,
    program: Program,
) -> Result<(), JudgeError> {
    create_dir(folder)?;
    write_file(
        &folder.join("validate.rs"),
        &programs::source(problem, program)?,
    )?;
    write_script(
        &folder.join("build"),
        &format!("#!/bin/sh\nset -e\n{CONTEST_RUSTC} -o validate validate.rs\n"),
    )?;
    write_script(
        &folder.join("run"),
        "#!/bin/sh\nexec \"$(dirname \"$0\")/validate\" \"$@\"\n",
    )
}

/// Builds every accepted submission of the package as a contest system would and runs it on
/// every test in the sandbox; every test must be AC. Returns the slowest test's CPU time, or
/// `None` when `rustc` is not installed.
fn measure_accepted(
    problem: &dyn ProblemEntry,
    dir: &Path,
    correct: &[&str],
    meter: &dyn Meter,
    cancel: &Cancel,
) -> Result<Option<u64>, JudgeError> {
    if std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .is_err()
    {
        judge_core::say!("warning: rustc not found: the time limit is not measured");
        return Ok(None);
    }
    // Absolute: the sources are built from the package folder, whatever `--out` was.
    let dir = &std::fs::canonicalize(dir).map_err(|e| JudgeError::io(dir, e))?;
    let tests =
        judge_core::runner::load(problem, judge_core::runner::tests::discover(dir)?, false)?;
    let limits = default_limits(10.0, MEMORY_LIMIT_MB);
    let mut slowest = 0;
    // The jury's own solutions, built in the box like any submission's.
    let builder = Builder::new(None, &[], cancel);
    for solver in correct {
        let src = dir.join(format!("submissions/accepted/{solver}.rs"));
        let command = from_source(&src, dir, &builder)?;
        let sandbox =
            sandbox::Sandbox::new(command, 1).map_err(|e| JudgeError::sandbox("setting up", e))?;
        let progress = meter.start(&format!("tests of {solver}.rs"), Some(tests.len() as u64));
        let judging = Judging {
            runs: &sandbox,
            checker: &AnswerFile(problem),
            limits: &limits,
            progress: progress.as_ref(),
            cancel,
        };
        let rows = run_all(&judging, &tests);
        drop(progress);
        let rows = rows?;
        if rows.len() != tests.len() {
            return Err(JudgeError::Interrupted(format!(
                "measuring {solver}.rs: {} of {} tests finished",
                rows.len(),
                tests.len()
            )));
        }
        if let Some(row) = rows.iter().find(|r| r.verdict != Verdict::AC) {
            return Err(JuryError::Problem {
                problem: problem.id().to_string(),
                why: format!(
                    "the exported {solver}.rs gets {} on {} ({}); please report it",
                    row.verdict, row.test, row.message
                ),
            }
            .into());
        }
        slowest = rows
            .iter()
            .map(|r| r.cpu_ms)
            .max()
            .unwrap_or(0)
            .max(slowest);
    }
    Ok(Some(slowest))
}

fn create_dir(path: &Path) -> Result<(), JudgeError> {
    judge_core::testgen::create_dir(path)
}

fn write_file(path: &Path, text: &str) -> Result<(), JudgeError> {
    std::fs::write(path, text).map_err(|e| JudgeError::io(path, e))
}

fn write_script(path: &Path, text: &str) -> Result<(), JudgeError> {
    write_file(path, text)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| JudgeError::io(path, e))
}
