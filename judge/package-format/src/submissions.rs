//! Jury submissions (`submissions/<folder>/<program>`) and what each is expected to get.
//!
//! Expectations come from three places, all of which apply:
//!
//! 1. The folder. Legacy (legacy spec, "Example submissions"): `accepted` (AC on every test),
//!    `partially_accepted` (final verdict AC, a score below the maximum: scoring problems),
//!    `wrong_answer` (some WA, never too slow or crashing: AC/WA only), `time_limit_exceeded`
//!    (some TLE, no crash: AC/WA/TLE), `run_time_error` (some crash). 2023-07 and 2025-09: the
//!    spec's "Default directories" (`accepted`, `rejected`, `wrong_answer`,
//!    `time_limit_exceeded`, `run_time_error`, `brute_force`), which `submissions.yaml` may
//!    override key by key under the folder's exact name.
//! 2. `submissions/submissions.yaml` (2023-07, 2025-09): every entry whose glob matches the
//!    submission's path under `submissions/` (or a parent folder of it) adds a rule for all
//!    tests, plus one per test-case glob inside it; `language` and `entrypoint` are kept.
//! 3. An `@EXPECTED_RESULTS@:` line in one of the submission's files (DOMjudge): the final
//!    verdict must be one of the listed results and every test must be accepted or get one of
//!    them. As DOMjudge and BAPCtools do, the line is ignored (with a warning) in the four
//!    standard folders `accepted`, `wrong_answer`, `time_limit_exceeded`, `run_time_error`.
//!
//! A submission that none of these covers (a folder of its own, no line, no entry) gets an
//! empty expectation, which any run satisfies, and a warning. Names ending in `.disabled` are
//! skipped with a warning (BAPCtools' convention for submissions kept out of runs).

use std::path::Path;

use crate::error::{Location, PackageError, Warnings};
use crate::expectation::{Expectation, Rule, RuleOrigin, TimeLimitUse};
use crate::fields::Fields;
use crate::fsutil::Root;
use crate::glob::Glob;
use crate::language::{self, Language};
use crate::program::{self, Program, ProgramKind};
use crate::verdict::{DomjudgeResult, SpecClass, Verdict, VerdictSet, parse_domjudge_result};
use crate::version::FormatVersion;
use crate::yaml::{self, Node, Value};

/// The folders whose `@EXPECTED_RESULTS@` lines DOMjudge ignores.
const STANDARD_FOLDERS: [&str; 4] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
];
/// Largest source file searched for `@EXPECTED_RESULTS@`.
const MAX_SCANNED_BYTES: u64 = 1 << 20;

/// One jury submission.
#[derive(Clone, Debug, PartialEq)]
pub struct Submission {
    /// The path under `submissions/`: `accepted/hello.py`.
    pub name: String,
    /// The folder it is in: `accepted`.
    pub folder: String,
    /// The program (file or folder) and its guessed language.
    pub program: Program,
    /// `language` from `submissions.yaml`, overriding the guess.
    pub language: Option<Language>,
    /// `entrypoint` from `submissions.yaml`.
    pub entrypoint: Option<String>,
    /// `model_solution` from `submissions.yaml`.
    pub model_solution: bool,
    /// What it is expected to get.
    pub expectation: Expectation,
}

impl Submission {
    /// The language: `submissions.yaml`'s, else the one its files show.
    pub fn effective_language(&self) -> Option<Language> {
        self.language.or(match &self.program.kind {
            ProgramKind::Source { language, .. } => Some(*language),
            _ => None,
        })
    }
}

fn classes(list: &[SpecClass]) -> VerdictSet {
    VerdictSet::of_classes(list)
}

/// The folder rule of a version, if the folder has one.
fn folder_rule(version: FormatVersion, folder: &str) -> Option<Rule> {
    use SpecClass::*;
    let mut rule = Rule::new(RuleOrigin::Folder(folder.to_string()));
    // problemtools judges `partially_accepted/` in every version it reads, 2023-07 included
    // (its oddecho example is a 2023-07 package with one).
    let legacy_folders = version.is_legacy()
        || (version == FormatVersion::V2023_07 && folder == "partially_accepted");
    let (permitted, required): (&[SpecClass], &[SpecClass]) = if legacy_folders {
        match folder {
            "accepted" => (&[Ac], &[]),
            // "Overall verdict must be Accepted. Overall score must not be max": the overall
            // verdict is the grader's (it may accept a group with failed tests), so only the
            // score is checked here.
            "partially_accepted" => {
                rule.below_max_score = true;
                (&[], &[])
            }
            "wrong_answer" => (&[Ac, Wa], &[Wa]),
            "time_limit_exceeded" => (&[Ac, Wa, Tle], &[Tle]),
            "run_time_error" => (&[], &[Rte]),
            _ => return None,
        }
    } else {
        match folder {
            "accepted" => (&[Ac], &[]),
            "rejected" => (&[], &[Rte, Tle, Wa]),
            "wrong_answer" => (&[Ac, Wa], &[Wa]),
            "time_limit_exceeded" => (&[Ac, Tle], &[Tle]),
            "run_time_error" => (&[Ac, Rte], &[Rte]),
            "brute_force" => (&[Ac, Rte, Tle], &[Rte, Tle]),
            _ => return None,
        }
    };
    if !permitted.is_empty() {
        rule.permitted = classes(permitted);
    }
    if !required.is_empty() {
        rule.required = classes(required);
    }
    Some(rule)
}

/// An entry of `submissions.yaml`.
struct Entry {
    glob: Glob,
    /// The key, trailing `/` removed: compared with folder names for overrides.
    key: String,
    language: Option<(String, Location)>,
    entrypoint: Option<String>,
    model_solution: bool,
    /// Root keys given (`permitted` … `use_for_time_limit`), for key-wise overrides.
    root: PartialRule,
    /// (test glob, its keys).
    per_test: Vec<(Glob, PartialRule)>,
}

#[derive(Default, Clone)]
struct PartialRule {
    permitted: Option<VerdictSet>,
    required: Option<VerdictSet>,
    score: Option<(f64, f64)>,
    message: Option<String>,
    use_for_time_limit: Option<TimeLimitUse>,
}

impl PartialRule {
    fn is_empty(&self) -> bool {
        self.permitted.is_none()
            && self.required.is_none()
            && self.score.is_none()
            && self.message.is_none()
            && self.use_for_time_limit.is_none()
    }

    fn apply(&self, rule: &mut Rule) {
        if let Some(p) = self.permitted {
            rule.permitted = p;
        }
        if let Some(r) = self.required {
            rule.required = r;
        }
        if self.score.is_some() {
            rule.score = self.score;
        }
        if self.message.is_some() {
            rule.message = self.message.clone();
        }
        if let Some(u) = self.use_for_time_limit {
            rule.use_for_time_limit = u;
        }
    }
}

const FILE: &str = "submissions/submissions.yaml";

fn read_partial(fields: &mut Fields, file: &Path) -> Result<PartialRule, PackageError> {
    let mut rule = PartialRule::default();
    for key in ["permitted", "required"] {
        if let Some(node) = fields.take(key) {
            let words = crate::fields::string_list(node, file, &fields.path_of(key), true)?;
            let mut set = VerdictSet::EMPTY;
            for word in &words {
                let class = SpecClass::from_name(word).ok_or_else(|| {
                    PackageError::invalid(
                        node.location(file),
                        format!(
                            "{}: `{word}` is not one of AC, WA, TLE, RTE",
                            fields.path_of(key)
                        ),
                    )
                })?;
                set = set.union(class.verdicts());
            }
            if key == "permitted" {
                rule.permitted = Some(set);
            } else {
                rule.required = Some(set);
            }
        }
    }
    if let Some(node) = fields.take("score") {
        let range = match &node.value {
            Value::Seq(items) if items.len() == 2 => items[0].as_f64().zip(items[1].as_f64()),
            _ => node.as_f64().map(|s| (s, s)),
        };
        rule.score = Some(range.filter(|(a, b)| a <= b).ok_or_else(|| {
            PackageError::invalid(
                node.location(file),
                format!(
                    "{}: expected a number or [low, high], found {}",
                    fields.path_of("score"),
                    node.describe()
                ),
            )
        })?);
    }
    rule.message = fields.text("message")?;
    if let Some(node) = fields.take("use_for_time_limit") {
        rule.use_for_time_limit = Some(match (node.as_bool(), node.scalar_text()) {
            (Some(true), _) => TimeLimitUse::Default,
            (Some(false), _) => TimeLimitUse::No,
            (_, Some("lower")) => TimeLimitUse::Lower,
            (_, Some("upper")) => TimeLimitUse::Upper,
            _ => {
                return Err(PackageError::invalid(
                    node.location(file),
                    format!(
                        "{}: expected true, false, lower or upper, found {}",
                        fields.path_of("use_for_time_limit"),
                        node.describe()
                    ),
                ));
            }
        });
    }
    Ok(rule)
}

fn read_yaml(node: Option<&Node>, warnings: &mut Warnings) -> Result<Vec<Entry>, PackageError> {
    let file = Path::new(FILE);
    let Some(node) = node else {
        return Ok(Vec::new());
    };
    let entries = node.as_map().ok_or_else(|| {
        PackageError::invalid(
            node.location(file),
            format!(
                "expected a map of submission globs to settings, found {}",
                node.describe()
            ),
        )
    })?;
    let mut out = Vec::new();
    for (key, value) in entries {
        let location = Location::at(file, key.line, key.column);
        let glob = Glob::new(&key.text)
            .map_err(|e| PackageError::invalid(location.clone(), e.to_string()))?;
        let mut fields = Fields::new(Some(value), file, &key.text)?;
        let language = fields
            .text("language")?
            .map(|l| (l, fields.location_of(None)));
        let entrypoint = fields.text("entrypoint")?;
        let model_solution = fields.boolean("model_solution")?.unwrap_or(false);
        fields.take("authors");
        let root = read_partial(&mut fields, file)?;
        let mut per_test = Vec::new();
        for (test_key, test_value) in fields.take_rest() {
            let test_location = Location::at(file, test_key.line, test_key.column);
            let test_glob = Glob::new(&test_key.text)
                .map_err(|e| PackageError::invalid(test_location.clone(), e.to_string()))?;
            let starts_well = ["sample", "secret", "*"]
                .iter()
                .any(|p| test_key.text == *p || test_key.text.starts_with(&format!("{p}/")));
            if !starts_well {
                warnings.push(
                    test_location,
                    format!(
                        "`{}` is read as a test case glob, but does not start with sample, secret or *",
                        test_key.text
                    ),
                );
            }
            let prefix = format!("{}.{}", key.text, test_key.text);
            let mut test_fields = Fields::new(Some(test_value), file, &prefix)?;
            let partial = read_partial(&mut test_fields, file)?;
            test_fields.warn_unknown("2025-09", warnings);
            per_test.push((test_glob, partial));
        }
        out.push(Entry {
            glob,
            key: key.text.trim_end_matches('/').to_string(),
            language,
            entrypoint,
            model_solution,
            root,
            per_test,
        });
    }
    Ok(out)
}

/// The `@EXPECTED_RESULTS@:` results of a program (first file that has the line).
fn expected_results(
    root: &Root,
    program: &Program,
    name: &str,
    warnings: &mut Warnings,
) -> Result<Option<(VerdictSet, String)>, PackageError> {
    const KEY: &[u8] = b"@EXPECTED_RESULTS@:";
    for path in &program.files {
        let relative = path.strip_prefix(&root.given).unwrap_or(path);
        let Ok(bytes) = root.read(relative, MAX_SCANNED_BYTES) else {
            continue;
        };
        let Some(at) = bytes
            .windows(KEY.len())
            .position(|w| w.eq_ignore_ascii_case(KEY))
        else {
            continue;
        };
        let rest = &bytes[at + KEY.len()..];
        let line = &rest[..rest.iter().position(|b| *b == b'\n').unwrap_or(rest.len())];
        let line = String::from_utf8_lossy(line);
        let file_name = relative
            .strip_prefix("submissions")
            .unwrap_or(relative)
            .display()
            .to_string();
        let mut set = VerdictSet::EMPTY;
        for word in line.split([',', ' ', '\t', '\r']).filter(|w| !w.is_empty()) {
            // Comment closers after the list (`*/`) are not results.
            if word.chars().all(|c| !c.is_ascii_alphanumeric()) {
                continue;
            }
            match parse_domjudge_result(word) {
                Some(DomjudgeResult::Verdict(v)) => set.insert(v),
                Some(DomjudgeResult::CheckManually) => warnings.push(
                    Location::file(relative),
                    format!(
                        "@EXPECTED_RESULTS@ of {name}: CHECK-MANUALLY is not checked automatically"
                    ),
                ),
                None => warnings.push(
                    Location::file(relative),
                    format!("@EXPECTED_RESULTS@ of {name}: `{word}` is not a result (ignored)"),
                ),
            }
        }
        if set.is_empty() {
            return Ok(None);
        }
        return Ok(Some((set, file_name)));
    }
    Ok(None)
}

/// Read `submissions/`.
pub(crate) fn read(
    root: &Root,
    version: FormatVersion,
    warnings: &mut Warnings,
) -> Result<Vec<Submission>, PackageError> {
    let dir = Path::new("submissions");
    let yaml_file = dir.join("submissions.yaml");
    let entries = if root.is_file(&yaml_file)? {
        if version.is_legacy() {
            warnings.push(
                Location::file(&yaml_file),
                "ignored: submissions.yaml is not part of the legacy format",
            );
            Vec::new()
        } else {
            let bytes = root.read(&yaml_file, yaml::MAX_FILE_BYTES)?;
            let node = yaml::parse(yaml::decode(&bytes, &yaml_file)?, &yaml_file)?;
            read_yaml(node.as_ref(), warnings)?
        }
    } else {
        Vec::new()
    };
    let mut used = vec![false; entries.len()];
    let mut submissions = Vec::new();
    for folder in root.list(dir, warnings)? {
        if folder.kind != crate::fsutil::Kind::Dir {
            if folder.name != "submissions.yaml" {
                warnings.push(
                    Location::file(&folder.relative),
                    "ignored: submissions must be inside a folder of submissions/",
                );
            }
            continue;
        }
        for entry in root.list(&folder.relative, warnings)? {
            if entry.name.ends_with(".disabled") {
                warnings.push(
                    Location::file(&entry.relative),
                    "skipped: a `.disabled` submission (BAPCtools' convention)",
                );
                continue;
            }
            let name = format!("{}/{}", folder.name, entry.name);
            let program = program::program(root, &entry, version.is_legacy(), warnings)?;
            let mut rules = Vec::new();
            let mut default_rule = folder_rule(version, &folder.name);
            let (mut language, mut entrypoint, mut model_solution) = (None, None, false);
            let mut extra_rules = Vec::new();
            for (i, e) in entries.iter().enumerate() {
                let overrides_default = default_rule.is_some() && e.key == folder.name;
                if !overrides_default && !e.glob.matches(&name) {
                    continue;
                }
                used[i] = true;
                if let Some((code, location)) = &e.language {
                    match language::by_code(code) {
                        Some(l) if language.is_none() => language = Some(l),
                        Some(l) if language != Some(l) => warnings.push(
                            location.clone(),
                            format!("{name}: a second language `{code}` (the first is kept)"),
                        ),
                        Some(_) => {}
                        None => warnings.push(
                            location.clone(),
                            format!("`{code}` is not a language code of the format's table"),
                        ),
                    }
                }
                if entrypoint.is_none() {
                    entrypoint = e.entrypoint.clone();
                }
                model_solution |= e.model_solution;
                let origin = RuleOrigin::SubmissionsYaml(e.glob.as_str().to_string());
                if overrides_default {
                    if let Some(rule) = default_rule.as_mut() {
                        e.root.apply(rule);
                    }
                } else if !e.root.is_empty() {
                    let mut rule = Rule::new(origin.clone());
                    e.root.apply(&mut rule);
                    extra_rules.push(rule);
                }
                for (test_glob, partial) in &e.per_test {
                    let mut rule = Rule::new(origin.clone());
                    rule.tests = Some(test_glob.clone());
                    partial.apply(&mut rule);
                    extra_rules.push(rule);
                }
            }
            if let Some(rule) = default_rule.take() {
                rules.push(rule);
            }
            rules.extend(extra_rules);
            if let Some((set, file)) = expected_results(root, &program, &name, warnings)? {
                if STANDARD_FOLDERS.contains(&folder.name.as_str()) {
                    warnings.push(
                        Location::file(&entry.relative),
                        format!(
                            "@EXPECTED_RESULTS@ ignored in {}/ (DOMjudge ignores it in the standard folders)",
                            folder.name
                        ),
                    );
                } else {
                    let mut rule = Rule::new(RuleOrigin::ExpectedResults(file));
                    let mut permitted = set;
                    permitted.insert(Verdict::Ac);
                    rule.permitted = permitted;
                    rule.final_verdicts = Some(set);
                    rules.push(rule);
                }
            }
            if rules.is_empty() {
                warnings.push(
                    Location::file(&entry.relative),
                    format!(
                        "{name}: nothing says what it should get (folder {}/ has no default, no submissions.yaml entry, no @EXPECTED_RESULTS@): any run is accepted",
                        folder.name
                    ),
                );
            }
            submissions.push(Submission {
                name,
                folder: folder.name.clone(),
                program,
                language,
                entrypoint,
                model_solution,
                expectation: Expectation { rules },
            });
        }
    }
    for (e, used) in entries.iter().zip(used) {
        if !used {
            warnings.push(
                Location::file(&yaml_file),
                format!(
                    "submissions.yaml: `{}` matches no submission",
                    e.glob.as_str()
                ),
            );
        }
    }
    if !submissions.iter().any(|s| s.expectation.is_accepted()) {
        warnings.push(
            Location::file(dir),
            "no accepted submission; the format requires at least one",
        );
    }
    Ok(submissions)
}
