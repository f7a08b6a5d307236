//! `problem.yaml`: the problem's name, type and limits.
//!
//! Differences by version, as implemented:
//!
//! | | legacy / legacy-icpc | 2023-07, 2025-09 |
//! |---|---|---|
//! | type | `type: pass-fail\|scoring` (not in legacy-icpc) and `validation: default\|custom [interactive] [score]` | `type:` a string or list of `pass-fail scoring multi-pass interactive submit-answer` |
//! | output validator flags | `validator_flags` (one string, split at whitespace) | none here (`output_validator_args` per test group) |
//! | time limit | none: the judging system derives it (`time_multiplier` default 5, `time_safety_margin` default 2) | `time_limit` if given; `time_multipliers.ac_to_time_limit` (2.0) and `time_limit_to_tle` (1.5); `time_resolution` (1.0) |
//! | name | a string (or the statement's `\problemname`) | a string (English) or a map language → name |
//!
//! Where `problem.yaml` gives no time limit, a `.timelimit` file in the package folder (the
//! BAPCtools/DOMjudge convention: one number of seconds) gives it.
//!
//! Limits not given take the "typical system default" of the spec: memory 2048 MiB, output
//! 8 MiB, code 128 KiB, compilation 60 s / 2048 MiB, validation 60 s / 2048 MiB / 8 MiB,
//! 2 passes for multi-pass problems.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::{Location, PackageError, Warnings};
use crate::fields::Fields;
use crate::version::FormatVersion;
use crate::yaml::{Node, Value};

/// What kind of problem this is (2025-09 "Type"; legacy `type` + `validation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProblemType {
    /// Accepted submissions also get a score (`scoring`; else `pass-fail`).
    pub scoring: bool,
    /// The output validator runs together with the submission (`interactive`).
    pub interactive: bool,
    /// The submission runs several times, the output validator writing the next input
    /// (`multi-pass`).
    pub multi_pass: bool,
    /// Submissions are answer files, not programs (`submit-answer`).
    pub submit_answer: bool,
}

/// The limits of `limits:` (and `.timelimit`), with the defaults filled in.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The time limit in seconds, when the package gives one (`limits.time_limit`, or a
    /// `.timelimit` file). `None`: derive it from the submissions with the multipliers.
    pub time_limit: Option<f64>,
    /// Where `time_limit` came from.
    pub time_limit_source: TimeLimitSource,
    /// `time_multipliers.ac_to_time_limit` (legacy: `time_multiplier`): the time limit is at
    /// least the slowest accepted run times this.
    pub ac_to_time_limit: f64,
    /// `time_multipliers.time_limit_to_tle` (legacy: `time_safety_margin`): a too-slow
    /// submission must run at least the time limit times this.
    pub time_limit_to_tle: f64,
    /// `time_resolution` in seconds: a derived time limit is a multiple of it.
    pub time_resolution: f64,
    /// `memory`, MiB.
    pub memory_mib: u64,
    /// `output`, MiB.
    pub output_mib: u64,
    /// `code`, KiB.
    pub code_kib: u64,
    /// `compilation_time`, seconds.
    pub compilation_time_s: u64,
    /// `compilation_memory`, MiB.
    pub compilation_memory_mib: u64,
    /// `validation_time`, seconds.
    pub validation_time_s: u64,
    /// `validation_memory`, MiB.
    pub validation_memory_mib: u64,
    /// `validation_output`, MiB.
    pub validation_output_mib: u64,
    /// `validation_passes`: most passes of a multi-pass problem.
    pub validation_passes: u64,
}

impl Limits {
    /// The time limit by the format's rule ("Problem timing", 2025-09; problemtools applies
    /// the same to legacy with `time_multiplier`/`time_safety_margin`): the given limit if
    /// there is one, else the smallest positive multiple of `time_resolution` that is at least
    /// `slowest_accepted × ac_to_time_limit` (problemtools: at least one step). The result
    /// must also satisfy `time_limit × time_limit_to_tle ≤ fastest_too_slow` (the fastest run
    /// of a submission that must time out, `None` when there is none); `Err` says why not.
    pub fn derive_time_limit(
        &self,
        slowest_accepted: f64,
        fastest_too_slow: Option<f64>,
    ) -> Result<f64, String> {
        let limit = match self.time_limit {
            Some(t) => t,
            None => {
                let exact = slowest_accepted * self.ac_to_time_limit;
                // A hair below the next step counts as that step (floating-point products).
                let steps = ((exact / self.time_resolution) - 1e-9).ceil().max(1.0);
                // 7 × 0.1 is 0.7000000000000001 in binary: report 0.7.
                (steps * self.time_resolution * 1e9).round() / 1e9
            }
        };
        if slowest_accepted * self.ac_to_time_limit > limit + 1e-9 {
            return Err(format!(
                "the slowest accepted run {slowest_accepted:.3} s × {} exceeds the time limit {limit} s",
                self.ac_to_time_limit
            ));
        }
        if let Some(too_slow) = fastest_too_slow
            && limit * self.time_limit_to_tle > too_slow + 1e-9
        {
            return Err(format!(
                "the time limit {limit} s × {} exceeds the fastest too-slow run {too_slow:.3} s",
                self.time_limit_to_tle
            ));
        }
        Ok(limit)
    }
}

/// Where the time limit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLimitSource {
    /// `limits.time_limit` in `problem.yaml`.
    ProblemYaml,
    /// A `.timelimit` file in the package folder.
    TimelimitFile,
    /// Nowhere: to be derived from the submissions.
    None,
}

impl Limits {
    fn defaults(version: FormatVersion) -> Limits {
        let (ac, tle) = if version.is_legacy() {
            (5.0, 2.0)
        } else {
            (2.0, 1.5)
        };
        Limits {
            time_limit: None,
            time_limit_source: TimeLimitSource::None,
            ac_to_time_limit: ac,
            time_limit_to_tle: tle,
            time_resolution: 1.0,
            memory_mib: 2048,
            output_mib: 8,
            code_kib: 128,
            compilation_time_s: 60,
            compilation_memory_mib: 2048,
            validation_time_s: 60,
            validation_memory_mib: 2048,
            validation_output_mib: 8,
            validation_passes: 2,
        }
    }
}

/// What `problem.yaml` says.
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    /// `problem_format_version`.
    pub version: FormatVersion,
    /// The problem's name: English if given, else the first language's.
    pub name: String,
    /// Every (language, name) given, in file order.
    pub names: Vec<(String, String)>,
    /// The type.
    pub problem_type: ProblemType,
    /// Legacy `validation: custom …`: the package says it has a custom output validator.
    /// `None` for 2023-07/2025-09, where the presence of `output_validator/` decides.
    pub legacy_custom_validation: Option<bool>,
    /// Legacy `validator_flags`, split at whitespace: arguments for the output validator on
    /// every test (before the test group's own).
    pub legacy_validator_flags: Vec<String>,
    /// The limits.
    pub limits: Limits,
    /// `uuid`.
    pub uuid: Option<String>,
    /// `license`.
    pub license: Option<String>,
    /// `source` (its name; for a list or map, the first name).
    pub source: Option<String>,
    /// `keywords` (legacy: one string split at whitespace).
    pub keywords: Vec<String>,
    /// `allow_file_writing` (2025-09), default false.
    pub allow_file_writing: bool,
    /// `constants` (2025-09): `name` and `name.variant` → text, for `{{name}}` substitution.
    pub constants: BTreeMap<String, String>,
}

const FILE: &str = "problem.yaml";

/// Read `problem.yaml`'s tree. `timelimit_file` is the content of `.timelimit` if there is one.
pub(crate) fn read(
    root_node: Option<&Node>,
    timelimit_file: Option<&str>,
    warnings: &mut Warnings,
) -> Result<Metadata, PackageError> {
    let file = Path::new(FILE);
    let mut fields = Fields::new(root_node, file, "")?;
    let version_node = fields.take("problem_format_version");
    let version_text = match version_node {
        None => None,
        Some(n) => Some(n.scalar_text().ok_or_else(|| {
            PackageError::invalid(
                n.location(file),
                format!(
                    "problem_format_version: expected a version, found {}",
                    n.describe()
                ),
            )
        })?),
    };
    let version = FormatVersion::parse(version_text).ok_or_else(|| {
        PackageError::invalid(
            fields.location_of(version_node),
            format!(
                "problem_format_version: `{}` is not a version this reader knows (legacy, legacy-icpc, 2023-07, 2025-09)",
                version_text.unwrap_or_default()
            ),
        )
    })?;

    let names = read_names(&mut fields, version)?;
    let name = names
        .iter()
        .find(|(lang, _)| lang == "en")
        .or(names.first())
        .map(|(_, n)| n.clone())
        .unwrap_or_default();

    let (problem_type, legacy_custom_validation, legacy_validator_flags) = if version.is_legacy() {
        read_legacy_type(&mut fields, version, warnings)?
    } else {
        if fields.has("validation") || fields.has("validator_flags") {
            for key in ["validation", "validator_flags"] {
                if let Some(n) = fields.take(key) {
                    warnings.push(
                        n.location(file),
                        format!(
                            "ignored: `{key}` is legacy; {} uses `type` and the test groups' `output_validator_args`",
                            version.name()
                        ),
                    );
                }
            }
        }
        (read_type(&mut fields, warnings)?, None, Vec::new())
    };

    let limits_node = fields.take("limits");
    let mut limits_fields = Fields::new(limits_node, file, "limits")?;
    let mut limits = read_limits(&mut limits_fields, version, problem_type, warnings)?;
    limits_fields.warn_unknown(version.name(), warnings);
    if limits.time_limit.is_none()
        && let Some(text) = timelimit_file
    {
        let seconds: f64 = text.trim().parse().map_err(|_| {
            PackageError::invalid(
                Location::at(".timelimit", 1, 1),
                format!("expected a number of seconds, found {:?}", text.trim()),
            )
        })?;
        if !(seconds.is_finite() && seconds > 0.0) {
            return Err(PackageError::invalid(
                Location::at(".timelimit", 1, 1),
                format!("expected a number of seconds > 0, found {seconds}"),
            ));
        }
        limits.time_limit = Some(seconds);
        limits.time_limit_source = TimeLimitSource::TimelimitFile;
    }

    let uuid = fields.text("uuid")?;
    let license = fields.text("license")?;
    let source = read_source(&mut fields)?;
    let keywords = match fields.take("keywords") {
        None => Vec::new(),
        Some(n) => match (&n.value, n.scalar_text()) {
            (Value::Seq(_), _) => crate::fields::string_list(n, file, "keywords", false)?,
            (_, Some(text)) => text.split_whitespace().map(str::to_string).collect(),
            _ => {
                return Err(PackageError::invalid(
                    n.location(file),
                    format!(
                        "keywords: expected a list of strings, found {}",
                        n.describe()
                    ),
                ));
            }
        },
    };
    let allow_file_writing = fields.boolean("allow_file_writing")?.unwrap_or(false);
    let constants = read_constants(fields.take("constants"), warnings)?;

    // Keys the versions define that this reader keeps no value of: read loosely, no warning.
    let known: &[&str] = if version.is_legacy() {
        &[
            "author",
            "source_url",
            "rights_owner",
            "grading",
            "libraries",
            "languages",
        ]
    } else {
        &[
            "version",
            "credits",
            "rights_owner",
            "embargo_until",
            "languages",
        ]
    };
    for key in known {
        fields.take(key);
    }
    fields.warn_unknown(version.name(), warnings);

    Ok(Metadata {
        version,
        name,
        names,
        problem_type,
        legacy_custom_validation,
        legacy_validator_flags,
        limits,
        uuid,
        license,
        source,
        keywords,
        allow_file_writing,
        constants,
    })
}

fn read_names(
    fields: &mut Fields,
    version: FormatVersion,
) -> Result<Vec<(String, String)>, PackageError> {
    let file = fields.file.clone();
    let Some(node) = fields.take("name") else {
        return Ok(Vec::new());
    };
    if let Some(text) = node.scalar_text() {
        return Ok(vec![("en".to_string(), text.to_string())]);
    }
    match node.as_map() {
        Some(entries) if !version.is_legacy() => entries
            .iter()
            .map(|(k, v)| match v.scalar_text() {
                Some(text) => Ok((k.text.clone(), text.to_string())),
                None => Err(PackageError::invalid(
                    v.location(&file),
                    format!("name.{}: expected a string, found {}", k.text, v.describe()),
                )),
            })
            .collect(),
        _ => Err(PackageError::invalid(
            node.location(&file),
            format!(
                "name: expected {}, found {}",
                if version.is_legacy() {
                    "a string"
                } else {
                    "a string or a map of language codes to names"
                },
                node.describe()
            ),
        )),
    }
}

fn read_type(fields: &mut Fields, warnings: &mut Warnings) -> Result<ProblemType, PackageError> {
    let file = fields.file.clone();
    let Some(node) = fields.take("type") else {
        return Ok(ProblemType::default());
    };
    let words: Vec<(String, &Node)> = match &node.value {
        Value::Seq(items) if !items.is_empty() => items
            .iter()
            .map(|i| {
                i.scalar_text().map(|t| (t.to_string(), i)).ok_or_else(|| {
                    PackageError::invalid(
                        i.location(&file),
                        format!("type: expected a problem type, found {}", i.describe()),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
        _ => match node.scalar_text() {
            Some(text) => {
                let words: Vec<(String, &Node)> = text
                    .split_whitespace()
                    .map(|w| (w.to_string(), node))
                    .collect();
                if words.len() > 1 {
                    warnings.push(
                        node.location(&file),
                        "type: several types in one string; the spec wants a list (`[interactive, multi-pass]`)",
                    );
                }
                words
            }
            None => {
                return Err(PackageError::invalid(
                    node.location(&file),
                    format!(
                        "type: expected a problem type or a non-empty list of them, found {}",
                        node.describe()
                    ),
                ));
            }
        },
    };
    let mut t = ProblemType::default();
    let mut pass_fail = false;
    let mut seen: Vec<&str> = Vec::new();
    for (word, n) in &words {
        if seen.contains(&word.as_str()) {
            return Err(PackageError::invalid(
                n.location(&file),
                format!("type: `{word}` is given twice"),
            ));
        }
        seen.push(word);
        match word.as_str() {
            "pass-fail" => pass_fail = true,
            "scoring" => t.scoring = true,
            "multi-pass" => t.multi_pass = true,
            "interactive" => t.interactive = true,
            "submit-answer" => t.submit_answer = true,
            other => {
                return Err(PackageError::invalid(
                    n.location(&file),
                    format!(
                        "type: `{other}` is not a problem type (pass-fail, scoring, multi-pass, interactive, submit-answer)"
                    ),
                ));
            }
        }
    }
    let clash = if pass_fail && t.scoring {
        Some("pass-fail and scoring")
    } else if t.submit_answer && t.multi_pass {
        Some("submit-answer and multi-pass")
    } else if t.submit_answer && t.interactive {
        Some("submit-answer and interactive")
    } else {
        None
    };
    if let Some(clash) = clash {
        return Err(PackageError::invalid(
            node.location(&file),
            format!("type: {clash} exclude each other"),
        ));
    }
    Ok(t)
}

fn read_legacy_type(
    fields: &mut Fields,
    version: FormatVersion,
    warnings: &mut Warnings,
) -> Result<(ProblemType, Option<bool>, Vec<String>), PackageError> {
    let file = fields.file.clone();
    let mut t = ProblemType::default();
    if let Some(node) = fields.take("type") {
        match node.scalar_text() {
            Some("pass-fail") => {}
            Some("scoring") => t.scoring = true,
            _ => {
                return Err(PackageError::invalid(
                    node.location(&file),
                    format!(
                        "type: expected pass-fail or scoring, found {}",
                        node.describe()
                    ),
                ));
            }
        }
        if version == FormatVersion::LegacyIcpc {
            warnings.push(
                node.location(&file),
                "`type` is not part of legacy-icpc (read as in legacy)",
            );
        }
    }
    let mut custom = false;
    if let Some(node) = fields.take("validation") {
        let text = node.scalar_text().ok_or_else(|| {
            PackageError::invalid(
                node.location(&file),
                format!(
                    "validation: expected `default` or `custom …`, found {}",
                    node.describe()
                ),
            )
        })?;
        let mut words = text.split_whitespace();
        match words.next() {
            Some("default") => {
                if let Some(extra) = words.next() {
                    return Err(PackageError::invalid(
                        node.location(&file),
                        format!("validation: `default` takes no options, found `{extra}`"),
                    ));
                }
            }
            Some("custom") => {
                custom = true;
                for word in words {
                    match word {
                        "interactive" => t.interactive = true,
                        "score" if version == FormatVersion::Legacy => {}
                        other => {
                            return Err(PackageError::invalid(
                                node.location(&file),
                                format!(
                                    "validation: `{other}` is not an option of `custom` in {} (interactive{})",
                                    version.name(),
                                    if version == FormatVersion::Legacy {
                                        ", score"
                                    } else {
                                        ""
                                    }
                                ),
                            ));
                        }
                    }
                }
            }
            _ => {
                return Err(PackageError::invalid(
                    node.location(&file),
                    format!(
                        "validation: must begin with `default` or `custom`, found {:?}",
                        text
                    ),
                ));
            }
        }
    }
    let flags = match fields.take("validator_flags") {
        None => Vec::new(),
        Some(node) => match node.scalar_text() {
            Some(text) => text.split_whitespace().map(str::to_string).collect(),
            None => {
                return Err(PackageError::invalid(
                    node.location(&file),
                    format!(
                        "validator_flags: expected a string, found {}",
                        node.describe()
                    ),
                ));
            }
        },
    };
    Ok((t, Some(custom), flags))
}

fn read_limits(
    fields: &mut Fields,
    version: FormatVersion,
    problem_type: ProblemType,
    warnings: &mut Warnings,
) -> Result<Limits, PackageError> {
    let mut limits = Limits::defaults(version);
    if version.is_legacy() {
        if let Some(m) = fields.number("time_multiplier", 0.0, false)? {
            limits.ac_to_time_limit = m;
        }
        if let Some(m) = fields.number("time_safety_margin", 0.0, false)? {
            limits.time_limit_to_tle = m;
        }
    } else {
        let node = fields.take("time_multipliers");
        let mut multipliers = Fields::new(node, &fields.file.clone(), "limits.time_multipliers")?;
        if let Some(m) = multipliers.number("ac_to_time_limit", 1.0, true)? {
            limits.ac_to_time_limit = m;
        }
        if let Some(m) = multipliers.number("time_limit_to_tle", 1.0, true)? {
            limits.time_limit_to_tle = m;
        }
        multipliers.warn_unknown(version.name(), warnings);
        if let Some(r) = fields.number("time_resolution", 0.0, false)? {
            limits.time_resolution = r;
        }
        let node = fields.take("time_limit");
        if let Some(n) = node {
            let t = n
                .as_f64()
                .filter(|t| t.is_finite() && *t > 0.0)
                .ok_or_else(|| {
                    PackageError::invalid(
                        n.location(&fields.file),
                        format!(
                            "limits.time_limit: expected a number > 0 (seconds), found {}",
                            n.describe()
                        ),
                    )
                })?;
            let steps = t / limits.time_resolution;
            if (steps - steps.round()).abs() > 1e-6 {
                warnings.push(
                    n.location(&fields.file),
                    format!(
                        "limits.time_limit {t} is not a multiple of time_resolution {}",
                        limits.time_resolution
                    ),
                );
            }
            limits.time_limit = Some(t);
            limits.time_limit_source = TimeLimitSource::ProblemYaml;
        }
        for legacy_key in ["time_multiplier", "time_safety_margin"] {
            if let Some(n) = fields.take(legacy_key) {
                warnings.push(
                    n.location(&fields.file),
                    format!(
                        "ignored: limits.{legacy_key} is legacy; {} uses time_multipliers",
                        version.name()
                    ),
                );
            }
        }
    }
    let integers: [(&str, &mut u64); 8] = [
        ("memory", &mut limits.memory_mib),
        ("output", &mut limits.output_mib),
        ("code", &mut limits.code_kib),
        ("compilation_time", &mut limits.compilation_time_s),
        ("compilation_memory", &mut limits.compilation_memory_mib),
        ("validation_time", &mut limits.validation_time_s),
        ("validation_memory", &mut limits.validation_memory_mib),
        ("validation_output", &mut limits.validation_output_mib),
    ];
    for (key, slot) in integers {
        if let Some(v) = fields.integer(key, 1)? {
            *slot = v;
        }
    }
    if !version.is_legacy() {
        let node = fields.take("validation_passes");
        if let Some(n) = node {
            let passes = match &n.value {
                Value::Int(i, _) if *i >= 2 => *i as u64,
                _ => {
                    return Err(PackageError::invalid(
                        n.location(&fields.file),
                        format!(
                            "limits.validation_passes: expected an integer >= 2, found {}",
                            n.describe()
                        ),
                    ));
                }
            };
            if !problem_type.multi_pass {
                warnings.push(
                    n.location(&fields.file),
                    "limits.validation_passes is only for multi-pass problems",
                );
            }
            limits.validation_passes = passes;
        }
    }
    Ok(limits)
}

fn read_source(fields: &mut Fields) -> Result<Option<String>, PackageError> {
    let Some(node) = fields.take("source") else {
        return Ok(None);
    };
    let first = match &node.value {
        Value::Seq(items) => items.first(),
        _ => Some(node),
    };
    Ok(first.and_then(|n| match n.as_map() {
        Some(entries) => entries
            .iter()
            .find(|(k, _)| k.text == "name")
            .and_then(|(_, v)| v.scalar_text().map(str::to_string)),
        None => n.scalar_text().map(str::to_string),
    }))
}

fn read_constants(
    node: Option<&Node>,
    warnings: &mut Warnings,
) -> Result<BTreeMap<String, String>, PackageError> {
    let file = Path::new(FILE);
    let mut constants = BTreeMap::new();
    let Some(node) = node else {
        return Ok(constants);
    };
    let entries = node.as_map().ok_or_else(|| {
        PackageError::invalid(
            node.location(file),
            format!(
                "constants: expected a map of names to values, found {}",
                node.describe()
            ),
        )
    })?;
    let valid = |name: &str| {
        let b = name.as_bytes();
        !b.is_empty()
            && (b[0].is_ascii_alphabetic() || b[0] == b'_')
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
    };
    for (key, value) in entries {
        if !valid(&key.text) {
            warnings.push(
                Location::at(file, key.line, key.column),
                format!(
                    "ignored: constant name `{}` does not match [a-zA-Z_][a-zA-Z0-9_]*",
                    key.text
                ),
            );
            continue;
        }
        match (&value.value, value.scalar_text()) {
            (Value::Map(variants), _) => {
                let mut has_value = false;
                for (variant, v) in variants {
                    let Some(text) = v.scalar_text() else {
                        warnings.push(
                            v.location(file),
                            format!(
                                "ignored: constants.{}.{} is not a scalar",
                                key.text, variant.text
                            ),
                        );
                        continue;
                    };
                    if variant.text == "value" {
                        has_value = true;
                        constants.insert(key.text.clone(), text.to_string());
                    }
                    constants.insert(format!("{}.{}", key.text, variant.text), text.to_string());
                }
                if !has_value {
                    return Err(PackageError::invalid(
                        value.location(file),
                        format!("constants.{}: a map needs a `value` key", key.text),
                    ));
                }
            }
            (_, Some(text)) => {
                constants.insert(key.text.clone(), text.to_string());
                constants.insert(format!("{}.value", key.text), text.to_string());
            }
            _ => {
                return Err(PackageError::invalid(
                    value.location(file),
                    format!(
                        "constants.{}: expected a number, a string or a map with `value`, found {}",
                        key.text,
                        value.describe()
                    ),
                ));
            }
        }
    }
    Ok(constants)
}

/// Replace `{{name}}` and `{{name.variant}}` by the constants' values (2025-09 "Constants");
/// sequences naming no constant stay as they are.
pub fn substitute_constants(text: &str, constants: &BTreeMap<String, String>) -> String {
    if constants.is_empty() || !text.contains("{{") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find("}}") {
            Some(end) if constants.contains_key(&after[..end]) => {
                out.push_str(&constants[&after[..end]]);
                rest = &after[end + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parse;

    fn read_text(text: &str) -> Result<(Metadata, Vec<String>), PackageError> {
        let node = parse(text, Path::new(FILE))?;
        let mut w = Warnings::default();
        let m = read(node.as_ref(), None, &mut w)?;
        Ok((m, w.0.iter().map(|w| w.to_string()).collect()))
    }

    #[test]
    fn an_empty_file_is_a_legacy_package_with_defaults() {
        let (m, w) = read_text("").unwrap();
        assert_eq!(m.version, FormatVersion::Legacy);
        assert_eq!(m.limits.memory_mib, 2048);
        assert_eq!(m.limits.output_mib, 8);
        assert_eq!(m.limits.ac_to_time_limit, 5.0);
        assert_eq!(m.limits.time_limit_to_tle, 2.0);
        assert_eq!(m.limits.time_limit, None);
        assert_eq!(m.legacy_custom_validation, Some(false));
        assert!(w.is_empty(), "{w:?}");
    }

    #[test]
    fn legacy_validation_and_flags() {
        let (m, _) = read_text(
            "validation: custom interactive score\nvalidator_flags: float_tolerance 1e-6\ntype: scoring\n",
        )
        .unwrap();
        assert!(m.problem_type.interactive && m.problem_type.scoring);
        assert_eq!(m.legacy_custom_validation, Some(true));
        assert_eq!(m.legacy_validator_flags, ["float_tolerance", "1e-6"]);
        let e = read_text("validation: custom multi-pass\n").unwrap_err();
        assert!(
            e.to_string().contains("`multi-pass` is not an option"),
            "{e}"
        );
        let e = read_text("problem_format_version: legacy-icpc\nvalidation: custom score\n")
            .unwrap_err();
        assert!(e.to_string().contains("legacy-icpc"), "{e}");
        assert!(read_text("validation: strict\n").is_err());
    }

    #[test]
    fn types_of_2025_09() {
        let (m, _) =
            read_text("problem_format_version: 2025-09\ntype: [interactive, multi-pass]\n")
                .unwrap();
        assert!(m.problem_type.interactive && m.problem_type.multi_pass && !m.problem_type.scoring);
        let (m, w) =
            read_text("problem_format_version: 2025-09\ntype: interactive multi-pass\n").unwrap();
        assert!(m.problem_type.interactive && m.problem_type.multi_pass);
        assert_eq!(w.len(), 1, "{w:?}");
        for bad in [
            "[pass-fail, scoring]",
            "[submit-answer, interactive]",
            "[]",
            "bogus",
            "[scoring, scoring]",
        ] {
            let text = format!("problem_format_version: 2025-09\ntype: {bad}\n");
            assert!(read_text(&text).is_err(), "{bad}");
        }
    }

    #[test]
    fn limits_of_2025_09() {
        let (m, w) = read_text(
            "problem_format_version: 2025-09\nlimits:\n  time_limit: 2.5\n  time_resolution: 0.5\n  time_multipliers:\n    time_limit_to_tle: 4\n  memory: 512\n  validation_passes: 3\n",
        )
        .unwrap();
        assert_eq!(m.limits.time_limit, Some(2.5));
        assert_eq!(m.limits.time_limit_source, TimeLimitSource::ProblemYaml);
        assert_eq!(m.limits.ac_to_time_limit, 2.0);
        assert_eq!(m.limits.time_limit_to_tle, 4.0);
        assert_eq!(m.limits.memory_mib, 512);
        assert_eq!(m.limits.validation_passes, 3);
        assert_eq!(w.len(), 1, "validation_passes outside multi-pass: {w:?}");
        let e = read_text("problem_format_version: 2025-09\nlimits:\n  memory: -5\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "problem.yaml:3:11: limits.memory: expected an integer >= 1, found `-5`"
        );
        let e = read_text("problem_format_version: 2025-09\nlimits:\n  time_multipliers: {ac_to_time_limit: 0.5}\n")
            .unwrap_err();
        assert!(
            e.to_string()
                .contains("ac_to_time_limit: expected a number >= 1"),
            "{e}"
        );
    }

    #[test]
    fn timelimit_file_only_without_an_explicit_limit() {
        let node = parse("problem_format_version: 2025-09\n", Path::new(FILE)).unwrap();
        let mut w = Warnings::default();
        let m = read(node.as_ref(), Some("3.5\n"), &mut w).unwrap();
        assert_eq!(m.limits.time_limit, Some(3.5));
        assert_eq!(m.limits.time_limit_source, TimeLimitSource::TimelimitFile);
        let node = parse(
            "problem_format_version: 2025-09\nlimits: {time_limit: 1}\n",
            Path::new(FILE),
        )
        .unwrap();
        let m = read(node.as_ref(), Some("3.5\n"), &mut w).unwrap();
        assert_eq!(m.limits.time_limit, Some(1.0));
        assert!(read(None, Some("fast"), &mut w).is_err());
    }

    #[test]
    fn time_limit_by_the_rule() {
        let (m, _) = read_text("problem_format_version: 2025-09\n").unwrap();
        let l = &m.limits;
        assert_eq!(l.derive_time_limit(0.3, None), Ok(1.0), "at least one step");
        assert_eq!(l.derive_time_limit(0.7, None), Ok(2.0), "0.7 × 2 = 1.4 → 2");
        assert_eq!(
            l.derive_time_limit(1.0, Some(3.0)),
            Ok(2.0),
            "2 × 1.5 = 3 ≤ 3"
        );
        assert!(l.derive_time_limit(1.0, Some(2.9)).is_err());
        let (m, _) = read_text(
            "problem_format_version: 2025-09\nlimits: {time_limit: 1, time_resolution: 0.1}\n",
        )
        .unwrap();
        assert_eq!(m.limits.derive_time_limit(0.4, None), Ok(1.0));
        assert!(
            m.limits.derive_time_limit(0.6, None).is_err(),
            "0.6 × 2 > the given 1 s"
        );
        let (m, _) =
            read_text("problem_format_version: 2025-09\nlimits: {time_resolution: 0.1}\n").unwrap();
        assert_eq!(m.limits.derive_time_limit(0.35, None), Ok(0.7));
        let (m, _) = read_text("limits: {time_multiplier: 3}\n").unwrap();
        assert_eq!(
            m.limits.derive_time_limit(0.5, None),
            Ok(2.0),
            "legacy: 0.5 × 3 = 1.5 → 2"
        );
    }

    #[test]
    fn names_pick_english_else_the_first() {
        let (m, _) =
            read_text("problem_format_version: 2025-09\nname:\n  de: Hallo\n  en: Hello\n")
                .unwrap();
        assert_eq!(m.name, "Hello");
        assert_eq!(m.names.len(), 2);
        let (m, _) =
            read_text("problem_format_version: 2025-09\nname:\n  sv: Hej\n  de: Hallo\n").unwrap();
        assert_eq!(m.name, "Hej");
        assert!(
            read_text("name: {en: x}\n").is_err(),
            "legacy names are strings"
        );
    }

    #[test]
    fn unknown_keys_are_warnings() {
        let (_, w) =
            read_text("problem_format_version: 2025-09\nverified: yes\nlimits: {speed: 3}\n")
                .unwrap();
        assert_eq!(w.len(), 2, "{w:?}");
        assert!(w[0].contains("limits.speed"), "{w:?}");
        assert!(w[1].starts_with("problem.yaml:2:1:"), "{w:?}");
    }

    #[test]
    fn unknown_versions_are_errors() {
        let e = read_text("problem_format_version: 2030-01\n").unwrap_err();
        assert!(e.to_string().starts_with("problem.yaml:1:25:"), "{e}");
    }

    #[test]
    fn constants_and_substitution() {
        let (m, _) = read_text(
            "problem_format_version: 2025-09\nconstants:\n  FIVE: {value: 5, WORD: five}\n  TEN: 10.0\n",
        )
        .unwrap();
        assert_eq!(m.constants["FIVE"], "5");
        assert_eq!(m.constants["FIVE.WORD"], "five");
        assert_eq!(m.constants["TEN"], "10.0");
        assert_eq!(
            substitute_constants(
                "a {{FIVE}} {{FIVE.WORD}} {{TEN.value}} {{SIX}} {{",
                &m.constants
            ),
            "a 5 five 10.0 {{SIX}} {{"
        );
    }
}
