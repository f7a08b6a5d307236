//! A problem package folder as a problem: its tests (sample then secret, groups in the
//! package's order), its limits, its jury programs (input validators, output validator, built
//! once and run in jury boxes) and its checker. `judge run PKG`, `judge validate PKG` and
//! `judge verify PKG` work through this.

pub mod checker;
pub mod generator;
pub mod jury;
pub mod score;
pub mod strength;
pub mod timelimit;
pub mod verify;

/// The package reader, for the commands (the binary reaches it through the core).
pub use package_format as format;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use package_format::{Package, ProblemType};

use crate::error::{JudgeError, JuryError};
use crate::runner::Loaded;
use crate::runner::tests::Test;

/// The folders outside a package its symbolic links may lead into (`--allow-links-into`):
/// set once, before any package is read, by the command line; none by default.
static LINKS_ALLOWED_INTO: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();

/// Allows the symbolic links of every package read from now on to lead into `folders` (the
/// user's consent, `--allow-links-into`); their targets are read as the package's own files.
/// The first call counts (the command line is read once).
pub fn allow_links_into(folders: Vec<PathBuf>) {
    let _ = LINKS_ALLOWED_INTO.set(folders);
}

fn links_allowed_into() -> Vec<PathBuf> {
    LINKS_ALLOWED_INTO.get().cloned().unwrap_or_default()
}

/// Tells the builder what this package's programs need when their sources are read: the
/// constants and where the format substitutes them (validators, generators, example
/// submissions: 2025-09 "Constants"; included code is not used yet), the folder submissions'
/// entry points, and the folders its links may lead into.
fn register_sources(package: &Package) {
    let Ok(root) = package.dir.canonicalize() else {
        return;
    };
    let substituted = [
        "input_validators",
        "input_format_validators",
        "output_validator",
        "output_validators",
        "answer_validators",
        "generators",
        "submissions",
    ]
    .iter()
    .filter_map(|d| root.join(d).canonicalize().ok())
    .collect();
    let entry_points = package
        .submissions
        .iter()
        .filter(|s| s.program.is_dir)
        .filter_map(|s| Some((s.program.path.canonicalize().ok()?, s.entrypoint.clone()?)))
        .collect();
    crate::runner::submission::register_package_sources(
        crate::runner::submission::PackageSources {
            root,
            link_roots: package
                .options
                .follow_links_into
                .iter()
                .filter_map(|d| d.canonicalize().ok())
                .collect(),
            constants: package.metadata.constants.clone(),
            substituted,
            entry_points,
        },
    );
}

/// The script at `path` with the package's `{{constants}}` substituted, for a jury program the
/// judge converts before building (a checktestdata script): a copy written to `copy` when
/// there is something to replace, else `path` itself. The package is not touched.
pub(crate) fn with_constants(
    package: &Package,
    path: &Path,
    copy: &Path,
) -> Result<PathBuf, JudgeError> {
    let constants = &package.metadata.constants;
    if constants.is_empty() {
        return Ok(path.to_path_buf());
    }
    let text = std::fs::read_to_string(path).map_err(|e| JudgeError::io(path, e))?;
    let replaced = package_format::metadata::substitute_constants(&text, constants);
    if replaced == text {
        return Ok(path.to_path_buf());
    }
    std::fs::write(copy, replaced).map_err(|e| JudgeError::io(copy, e))?;
    Ok(copy.to_path_buf())
}

/// A package, read: the folder as given and what `package-format` made of it.
#[derive(Debug)]
pub struct PackageProblem {
    /// The folder as given on the command line.
    pub dir: PathBuf,
    pub package: Package,
    /// The name reports give it: `problem.yaml`'s name, else the folder's.
    name: String,
}

impl PackageProblem {
    /// Reads the package folder `dir`; the error names the file (below `dir`), line and
    /// column, and says what is wrong.
    pub fn read(dir: &Path) -> Result<PackageProblem, String> {
        if !dir.is_dir() {
            return Err(format!(
                "{}: not a folder (a problem package folder holds problem.yaml)",
                dir.display()
            ));
        }
        let options = package_format::ReadOptions {
            follow_links_into: links_allowed_into(),
        };
        let package = Package::read_with(dir, &options).map_err(|e| match e {
            package_format::PackageError::SymlinkEscapes { .. } => {
                let allowed: Vec<String> = options
                    .follow_links_into
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect();
                let hint = if allowed.is_empty() {
                    "if you trust the folder it points into, name it with --allow-links-into DIR"
                        .to_string()
                } else {
                    format!(
                        "nor into the folders --allow-links-into names: {}",
                        allowed.join(", ")
                    )
                };
                format!(
                    "{}/{e} (refused: a package is untrusted; {hint})",
                    dir.display()
                )
            }
            e => format!("{}/{e}", dir.display()),
        })?;
        register_sources(&package);
        let name = if package.metadata.name.trim().is_empty() {
            dir.canonicalize()
                .ok()
                .and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
                .unwrap_or_else(|| dir.display().to_string())
        } else {
            package.metadata.name.clone()
        };
        Ok(PackageProblem {
            dir: dir.to_path_buf(),
            package,
            name,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the judge cannot do for this package yet, in a sentence (a usage error, exit 2,
    /// before anything runs): submit-answer problems.
    pub fn unsupported(&self) -> Option<String> {
        let ProblemType { submit_answer, .. } = self.package.metadata.problem_type;
        if !submit_answer {
            return None;
        }
        Some(format!(
            "{}: a submit-answer problem; boardjudge judges pass-fail, scoring, interactive and \
             multi-pass packages only so far",
            self.dir.display()
        ))
    }

    /// The package's tests, `data/sample` then `data/secret`, in its order, named as under
    /// `data/` (`secret/group1/03`).
    pub fn tests(&self) -> Vec<Test> {
        self.package
            .tests()
            .iter()
            .map(|case| Test {
                name: case.name.clone(),
                input: case.input.clone(),
                // Always there for sample and secret (the reader checks it).
                answer: case.answer.clone().unwrap_or_default(),
            })
            .collect()
    }

    /// Reads every test once; an unreadable file is a jury error naming it. (The inputs are
    /// checked by the package's own input validators: [`jury::Jury::validate_inputs`].)
    pub fn load(&self) -> Result<Vec<Loaded>, JudgeError> {
        self.tests()
            .into_iter()
            .map(|test| {
                let input =
                    std::fs::read(&test.input).map_err(|source| JuryError::UnreadableInput {
                        path: test.input.clone(),
                        source,
                    })?;
                let answer =
                    std::fs::read(&test.answer).map_err(|source| JuryError::UnreadableAnswer {
                        path: test.answer.clone(),
                        source,
                    })?;
                Ok(Loaded {
                    test,
                    input,
                    // Kept as text for reports and digests; the checker reads the bytes.
                    answer: String::from_utf8_lossy(&answer).into_owned(),
                })
            })
            .collect()
    }

    /// The package's time limit, and where it came from in words: `problem.yaml`'s
    /// `limits.time_limit` or `.timelimit`; `None` when it gives none (the format then derives
    /// it from the accepted submissions).
    pub fn given_time_limit(&self) -> Option<(f64, &'static str)> {
        use package_format::metadata::TimeLimitSource;
        let limits = &self.package.metadata.limits;
        let t = limits.time_limit?;
        Some((
            t,
            match limits.time_limit_source {
                TimeLimitSource::TimelimitFile => ".timelimit",
                _ => "problem.yaml",
            },
        ))
    }

    /// The sandbox limits of a submission's run under `time_limit` seconds: the package's
    /// memory (unless `memory_mb` overrides it) and output limits.
    pub fn limits(&self, time_limit: f64, memory_mb: Option<u64>) -> sandbox::Limits {
        let limits = &self.package.metadata.limits;
        let mut run =
            crate::runner::default_limits(time_limit, memory_mb.unwrap_or(limits.memory_mib));
        run.output_bytes =
            usize::try_from(limits.output_mib.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
        run
    }

    /// The warnings `package-format` gave, each on a line naming the file.
    pub fn warnings(&self) -> Vec<String> {
        self.package
            .warnings
            .iter()
            .map(|w| format!("{}/{w}", self.dir.display()))
            .collect()
    }

    /// The test groups' maximum scores of a scoring package, by group name: each group below
    /// `secret` with a configuration file of its own that gives `max_score` (2025-09) or, in a
    /// legacy package, a `range` (its upper bound). Nested groups inherit configuration, so only
    /// a group's own file counts.
    pub fn group_max_scores(&self) -> BTreeMap<String, f64> {
        let legacy = self.package.version().is_legacy();
        self.package
            .test_data
            .groups
            .iter()
            .filter(|g| g.name.starts_with("secret/") && g.config_file.is_some())
            .filter_map(|g| {
                let score = match g.config.get("max_score").and_then(|v| v.as_str()) {
                    Some(text) => text.trim().parse().ok()?,
                    None if legacy => {
                        let range = g.config.get("range")?.as_str()?;
                        range.split_whitespace().nth(1)?.parse().ok()?
                    }
                    None => return None,
                };
                Some((g.name.clone(), score))
            })
            .collect()
    }
}

/// A package made ready to judge: its tests read, its jury programs built, its inputs
/// checked by its input validators, its checker.
pub struct Prepared {
    pub tests: Vec<Loaded>,
    pub checker: checker::PackageChecker,
    /// Jury programs that are not run, and why (warnings: the submissions are judged anyway).
    pub warnings: Vec<String>,
    /// What stays of the jury (its input validators).
    pub jury: jury::Jury,
}

impl PackageProblem {
    /// Readies the package for judging: refuses what is not supported yet (submit-answer), reads its tests (or those of `other_tests`, a test folder for the same
    /// problem), builds its jury programs and runs its input validators on every input before
    /// any submission runs (a rejected input, or a validator that fails, is a jury error).
    pub fn prepare(
        &self,
        other_tests: Option<&Path>,
        builder: &crate::runner::submission::Builder,
        jobs: usize,
        cancel: &crate::cancel::Cancel,
    ) -> Result<Prepared, JudgeError> {
        if let Some(why) = self.unsupported() {
            return Err(JudgeError::Usage(why));
        }
        let (tests, cases): (Vec<Loaded>, Vec<Option<&package_format::TestCase>>) =
            match other_tests {
                None => {
                    let tests = self.load()?;
                    let cases = self.package.tests().iter().map(Some).collect();
                    (tests, cases)
                }
                Some(dir) => {
                    let tests = crate::runner::tests::discover(dir)?;
                    let tests = read_tests(tests)?;
                    let cases = vec![None; tests.len()];
                    (tests, cases)
                }
            };
        // The jury's programs are built from the package's own folders, which the
        // submissions' builder hides (a submission must not see them): their builder hides
        // the test data and the submissions instead (a validator needs neither to be built).
        let mut jury_hidden = vec![self.dir.join("data"), self.dir.join("submissions")];
        jury_hidden.extend(other_tests.map(Path::to_path_buf));
        let jury_builder = builder.for_jury(&jury_hidden);
        let mut jury = jury::Jury::prepare(self, &jury_builder, jobs)?;
        jury.validate_inputs(&tests, &cases, cancel.flag())?;
        let custom = jury.output_validator.take().map(|v| (v, jury.limits));
        let checker = checker::PackageChecker::new(self, &tests, &cases, custom)?;
        Ok(Prepared {
            tests,
            checker,
            warnings: jury.warnings.clone(),
            jury,
        })
    }

    /// The folders a submission must not see: the test data and the jury's programs.
    pub fn hidden(&self) -> Vec<PathBuf> {
        [
            "data",
            "input_validators",
            "input_format_validators",
            "output_validators",
            "output_validator",
            "answer_validators",
        ]
        .iter()
        .map(|d| self.dir.join(d))
        .filter(|d| d.is_dir())
        .collect()
    }
}

/// Reads tests found in a folder, bytes as they are.
fn read_tests(tests: Vec<Test>) -> Result<Vec<Loaded>, JudgeError> {
    tests
        .into_iter()
        .map(|test| {
            let input =
                std::fs::read(&test.input).map_err(|source| JuryError::UnreadableInput {
                    path: test.input.clone(),
                    source,
                })?;
            let answer =
                std::fs::read(&test.answer).map_err(|source| JuryError::UnreadableAnswer {
                    path: test.answer.clone(),
                    source,
                })?;
            Ok(Loaded {
                test,
                input,
                answer: String::from_utf8_lossy(&answer).into_owned(),
            })
        })
        .collect()
}
