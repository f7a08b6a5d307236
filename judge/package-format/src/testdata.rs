//! Test data: `data/sample`, `data/secret` (and the validation folders), their test cases in
//! order, and the configuration each test inherits.
//!
//! - A test case is a `NAME.in`; its name is the path under `data/` without `.in`
//!   (`secret/group1/03`). In `sample` and `secret` its `NAME.ans` must exist (2025-09 "Test
//!   cases"; problemtools refuses the package too); `.out`, `.interaction`, `.files/` and (from
//!   2023-07) `NAME.yaml` are picked up when present.
//! - Order: by name, bytewise (2025-09 and legacy: "lexicographical order on test case or test
//!   data group name"), so `sample` comes before `secret` and groups interleave with cases as
//!   their names do. Zero-pad numbers: `10` sorts before `9`.
//! - Configuration (`testdata.yaml` in legacy; `test_group.yaml` in 2025-09; either in 2023-07)
//!   is inherited down the folders from `data/` itself, a folder's keys replacing its parent's
//!   (legacy spec; BAPCtools does the same for 2025-09), then a test's own `NAME.yaml`.
//!   Constants `{{name}}` are substituted in 2025-09 configuration files first.
//! - Groups: in legacy every folder is a test data group; in 2023-07/2025-09 a folder of
//!   `secret` is a group when it has a `test_group.yaml`, else its tests belong to `secret`.
//! - Validator arguments: legacy `input_validator_flags` / `output_validator_flags` are
//!   strings split at whitespace (`input_validator_flags` may be a map `{name, flags}`);
//!   2025-09 `input_validator_args` is a list for all validators or a map validator name → list,
//!   `output_validator_args` a list. Legacy `validator_flags` from `problem.yaml` come first in
//!   the output validator's arguments (as problemtools passes them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{Location, PackageError, Warnings};
use crate::fields::string_list;
use crate::fsutil::{Kind, Root};
use crate::metadata::substitute_constants;
use crate::version::FormatVersion;
use crate::yaml::{self, Node, Value};

/// Deepest folder nesting under `data/` that is read.
const MAX_DATA_DEPTH: usize = 16;

/// The top-level folders of `data/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// `data/sample`: shown to contestants, judged.
    Sample,
    /// `data/secret`: judged.
    Secret,
    /// `data/invalid_input`: every input validator must reject these (2025-09).
    InvalidInput,
    /// `data/invalid_answer`: the answer validators must reject these answers (BAPCtools).
    InvalidAnswer,
    /// `data/invalid_output`: the output validator must reject `.out` (2025-09).
    InvalidOutput,
    /// `data/valid_output`: the output validator must accept `.out` (2025-09).
    ValidOutput,
}

impl Category {
    /// The folder name under `data/`.
    pub fn folder(self) -> &'static str {
        match self {
            Category::Sample => "sample",
            Category::Secret => "secret",
            Category::InvalidInput => "invalid_input",
            Category::InvalidAnswer => "invalid_answer",
            Category::InvalidOutput => "invalid_output",
            Category::ValidOutput => "valid_output",
        }
    }

    const ALL: [Category; 6] = [
        Category::Sample,
        Category::Secret,
        Category::InvalidInput,
        Category::InvalidAnswer,
        Category::InvalidOutput,
        Category::ValidOutput,
    ];
}

/// Arguments for input (or answer) validators: the same for all, or per validator name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValidatorArgs {
    /// The same arguments for every validator.
    All(Vec<String>),
    /// Arguments by validator name (its file or folder name); others get none.
    PerValidator(BTreeMap<String, Vec<String>>),
}

impl Default for ValidatorArgs {
    fn default() -> Self {
        ValidatorArgs::All(Vec::new())
    }
}

impl ValidatorArgs {
    /// The arguments for the validator named `name` (file name with extension, or folder
    /// name; a map key without the extension matches too, as validator names in legacy maps
    /// are often written that way).
    pub fn for_validator(&self, name: &str) -> &[String] {
        match self {
            ValidatorArgs::All(args) => args,
            ValidatorArgs::PerValidator(map) => {
                let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
                map.get(name)
                    .or_else(|| map.get(stem))
                    .map_or(&[], Vec::as_slice)
            }
        }
    }
}

/// A configuration value kept as written (grading and scoring keys are read, not used here).
#[derive(Clone, Debug, PartialEq)]
pub enum RawValue {
    /// `null` or empty.
    Null,
    /// A scalar, as written (`100`, `sum`, `true`).
    Scalar(String),
    /// A list.
    List(Vec<RawValue>),
    /// A map, in file order.
    Map(Vec<(String, RawValue)>),
}

impl RawValue {
    fn from_node(node: &Node) -> RawValue {
        match &node.value {
            Value::Null => RawValue::Null,
            Value::Seq(items) => RawValue::List(items.iter().map(RawValue::from_node).collect()),
            Value::Map(entries) => RawValue::Map(
                entries
                    .iter()
                    .map(|(k, v)| (k.text.clone(), RawValue::from_node(v)))
                    .collect(),
            ),
            _ => RawValue::Scalar(node.scalar_text().unwrap_or_default().to_string()),
        }
    }

    /// The text of a scalar.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            RawValue::Scalar(s) => Some(s),
            _ => None,
        }
    }
}

/// The configuration in force for a folder or test: every key of the configuration files
/// from `data/` down, the nearest winning, with where each came from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// key → (value, the file it came from, relative to the package).
    pub values: BTreeMap<String, (RawValue, PathBuf)>,
    /// The parsed nodes, to read typed values with positions.
    nodes: BTreeMap<String, (Node, PathBuf)>,
}

impl Config {
    fn overlay(&mut self, node: &Node, file: &Path) {
        if let Some(entries) = node.as_map() {
            for (key, value) in entries {
                self.values.insert(
                    key.text.clone(),
                    (RawValue::from_node(value), file.to_path_buf()),
                );
                self.nodes
                    .insert(key.text.clone(), (value.clone(), file.to_path_buf()));
            }
        }
    }

    /// The raw value of a key.
    pub fn get(&self, key: &str) -> Option<&RawValue> {
        self.values.get(key).map(|(v, _)| v)
    }
}

/// One test case.
#[derive(Clone, Debug, PartialEq)]
pub struct TestCase {
    /// Path under `data/` without extension: `secret/group1/03`.
    pub name: String,
    /// Which top-level folder.
    pub category: Category,
    /// The test data group it belongs to (see the module doc): `secret/group1`, `secret`,
    /// `sample`.
    pub group: String,
    /// The `.in` file.
    pub input: PathBuf,
    /// The `.ans` file (always there in `sample` and `secret`).
    pub answer: Option<PathBuf>,
    /// The `.out` file: a sample's shown output, or the output of a `valid_output` /
    /// `invalid_output` case.
    pub output: Option<PathBuf>,
    /// The `.interaction` file (samples of interactive and multi-pass problems).
    pub interaction: Option<PathBuf>,
    /// The `.files/` folder: files for the submission's working directory.
    pub files: Option<PathBuf>,
    /// The test's own `.yaml`, if any.
    pub config_file: Option<PathBuf>,
    /// Command-line arguments for the submission (`args`, 2025-09).
    pub args: Vec<String>,
    /// Arguments for the input validators.
    pub input_validator_args: ValidatorArgs,
    /// Arguments for the answer validators (BAPCtools' `answer_validator_args`).
    pub answer_validator_args: ValidatorArgs,
    /// Arguments for the output validator (legacy `validator_flags` first).
    pub output_validator_args: Vec<String>,
    /// Everything configured for this test, inherited (grading, scoring, feedback keys …).
    pub config: Config,
}

/// A folder that is a test data group, with its configuration in force.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGroup {
    /// Path under `data/`: `secret/group1`.
    pub name: String,
    /// Its configuration file, if it has one.
    pub config_file: Option<PathBuf>,
    /// The configuration in force for it.
    pub config: Config,
}

/// All test data of a package.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TestData {
    /// `sample` then `secret` test cases, in judging order.
    pub tests: Vec<TestCase>,
    /// The validation cases (`invalid_input`, `invalid_answer`, `invalid_output`,
    /// `valid_output`), each folder in name order.
    pub validation_cases: Vec<TestCase>,
    /// The test data groups, in name order.
    pub groups: Vec<TestGroup>,
    /// `.interaction` files with no test case (legacy: "additional sample interaction
    /// protocols"), to show, not to judge.
    pub interaction_only: Vec<PathBuf>,
}

/// What the walk needs to know.
pub(crate) struct Context<'a> {
    pub root: &'a Root,
    pub version: FormatVersion,
    pub constants: &'a BTreeMap<String, String>,
    pub legacy_validator_flags: &'a [String],
}

/// Read `data/`.
pub(crate) fn read(cx: &Context, warnings: &mut Warnings) -> Result<TestData, PackageError> {
    let data = Path::new("data");
    let mut out = TestData::default();
    // The format requires data/secret; without it there is nothing to judge, but the rest of
    // the package can still be read (BAPCtools reads such packages too), so it is a warning
    // and the caller decides whether no tests is an error.
    if !cx.root.is_dir(data)? {
        warnings.push(
            Location::file(data),
            "no test data folder: the format requires data/secret",
        );
        return Ok(out);
    }
    let mut root_config = Config::default();
    read_config(cx, data, &mut root_config, warnings)?;
    for entry in cx.root.list(data, warnings)? {
        let known = Category::ALL.iter().any(|c| c.folder() == entry.name);
        let config_name = cx
            .version
            .group_config_files()
            .contains(&entry.name.as_str())
            || entry.name == "testdata.yaml"
            || entry.name == "test_group.yaml";
        if !known && !config_name {
            warnings.push(
                Location::file(&entry.relative),
                "ignored: not a folder the format defines under data/ (sample, secret, invalid_input, invalid_output, valid_output)",
            );
        }
    }
    if !cx.root.is_dir(&data.join("secret"))? {
        warnings.push(
            Location::file(data.join("secret")),
            "no data/secret: the format requires the secret test data",
        );
    }
    for category in Category::ALL {
        let folder = data.join(category.folder());
        if !cx.root.is_dir(&folder)? {
            continue;
        }
        if cx.version.is_legacy() && !matches!(category, Category::Sample | Category::Secret) {
            warnings.push(
                Location::file(&folder),
                format!(
                    "data/{} is not part of the legacy format (listed anyway)",
                    category.folder()
                ),
            );
        }
        let mut walk = Walk {
            cx,
            category,
            tests: Vec::new(),
            groups: Vec::new(),
            interaction_only: Vec::new(),
            ancestors: Vec::new(),
        };
        walk.folder(&folder, category.folder(), &root_config, 0, warnings)?;
        let Walk {
            mut tests,
            groups,
            interaction_only,
            ..
        } = walk;
        out.interaction_only.extend(interaction_only);
        tests.sort_by(|a, b| a.name.cmp(&b.name));
        if matches!(category, Category::Sample | Category::Secret) {
            out.tests.extend(tests);
            out.groups.extend(groups);
        } else {
            out.validation_cases.extend(tests);
        }
    }
    out.groups.sort_by(|a, b| a.name.cmp(&b.name));
    check_group_structure(cx, &out, warnings)?;
    Ok(out)
}

/// 2025-09: `secret` holds groups or test cases, not both; groups hold no further groups.
fn check_group_structure(
    cx: &Context,
    data: &TestData,
    warnings: &mut Warnings,
) -> Result<(), PackageError> {
    if cx.version.is_legacy() {
        return Ok(());
    }
    let groups: Vec<&TestGroup> = data
        .groups
        .iter()
        .filter(|g| g.name.starts_with("secret/"))
        .collect();
    if groups.is_empty() {
        return Ok(());
    }
    if let Some(loose) = data
        .tests
        .iter()
        .find(|t| t.category == Category::Secret && t.group == "secret")
    {
        warnings.push(
            Location::file(&loose.input),
            "data/secret has test data groups, so every test must be in one (2025-09)",
        );
    }
    for g in &groups {
        if g.name.matches('/').count() > 1 {
            warnings.push(
                Location::file(Path::new("data").join(&g.name)),
                "a test data group inside another; 2025-09 allows groups only directly in data/secret (read as a group anyway)",
            );
        }
    }
    Ok(())
}

/// Read the configuration file of `folder` (if any) onto `config`. Returns the file.
fn read_config(
    cx: &Context,
    folder: &Path,
    config: &mut Config,
    warnings: &mut Warnings,
) -> Result<Option<PathBuf>, PackageError> {
    let mut found: Option<PathBuf> = None;
    for name in ["test_group.yaml", "testdata.yaml"] {
        let file = folder.join(name);
        if !cx.root.is_file(&file)? {
            continue;
        }
        if !cx.version.group_config_files().contains(&name) {
            warnings.push(
                Location::file(&file),
                format!(
                    "ignored: {name} is not the {} name for test group configuration",
                    cx.version.name()
                ),
            );
            continue;
        }
        if cx.version == FormatVersion::LegacyIcpc {
            warnings.push(
                Location::file(&file),
                "testdata.yaml is not part of legacy-icpc (read as in legacy)",
            );
        }
        if let Some(first) = &found {
            warnings.push(
                Location::file(&file),
                format!("ignored: {} is used", first.display()),
            );
            continue;
        }
        let node = read_yaml_config(cx, &file)?;
        if let Some(node) = &node {
            if node.as_map().is_none() {
                return Err(PackageError::invalid(
                    node.location(&file),
                    format!(
                        "expected a map of keys to values, found {}",
                        node.describe()
                    ),
                ));
            }
            config.overlay(node, &file);
        }
        found = Some(file);
    }
    Ok(found)
}

fn read_yaml_config(cx: &Context, file: &Path) -> Result<Option<Node>, PackageError> {
    let bytes = cx.root.read(file, yaml::MAX_FILE_BYTES)?;
    let text = yaml::decode(&bytes, file)?;
    if cx.version.is_legacy() {
        yaml::parse(text, file)
    } else {
        yaml::parse(&substitute_constants(text, cx.constants), file)
    }
}

struct Walk<'a, 'b> {
    cx: &'b Context<'a>,
    category: Category,
    tests: Vec<TestCase>,
    groups: Vec<TestGroup>,
    interaction_only: Vec<PathBuf>,
    /// Canonical paths of the folders being walked, to stop symlink cycles.
    ancestors: Vec<PathBuf>,
}

impl Walk<'_, '_> {
    fn folder(
        &mut self,
        folder: &Path,
        name: &str,
        inherited: &Config,
        depth: usize,
        warnings: &mut Warnings,
    ) -> Result<(), PackageError> {
        let cx = self.cx;
        if depth > MAX_DATA_DEPTH {
            return Err(PackageError::invalid(
                Location::file(folder),
                format!("test data nested more than {MAX_DATA_DEPTH} folders deep"),
            ));
        }
        let canonical = cx.root.canonical(folder)?;
        if self.ancestors.contains(&canonical) {
            return Err(PackageError::invalid(
                Location::file(folder),
                "a symlink loop: this folder contains itself",
            ));
        }
        self.ancestors.push(canonical);
        let mut config = inherited.clone();
        let config_file = read_config(cx, folder, &mut config, warnings)?;
        let is_group = depth == 0 || cx.version.is_legacy() || config_file.is_some();
        if is_group && matches!(self.category, Category::Sample | Category::Secret) {
            if self.category == Category::Sample && depth > 0 && !cx.version.is_legacy() {
                warnings.push(
                    Location::file(config_file.as_deref().unwrap_or(folder)),
                    "data/sample must not contain test data groups (2025-09)",
                );
            }
            self.groups.push(TestGroup {
                name: name.to_string(),
                config_file: config_file.clone(),
                config: config.clone(),
            });
        }
        let entries = cx.root.list(folder, warnings)?;
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        let has = |n: &str| names.contains(&n);
        for entry in &entries {
            if entry.kind == Kind::Dir {
                if entry.name.ends_with(".files") {
                    let base = entry.name.trim_end_matches(".files");
                    if !has(&format!("{base}.in")) {
                        warnings.push(
                            Location::file(&entry.relative),
                            format!("ignored: no test case {base}.in for this .files folder"),
                        );
                    }
                    continue;
                }
                if has(&format!("{}.in", entry.name)) && !cx.version.is_legacy() {
                    warnings.push(
                        Location::file(&entry.relative),
                        format!(
                            "a folder named like the test case {}.in next to it (2025-09 forbids)",
                            entry.name
                        ),
                    );
                }
                let child_name = format!("{name}/{}", entry.name);
                self.folder(&entry.relative, &child_name, &config, depth + 1, warnings)?;
                continue;
            }
            if let Some(base) = entry.name.strip_suffix(".interaction")
                && !has(&format!("{base}.in"))
            {
                self.interaction_only.push(cx.root.path(&entry.relative));
                continue;
            }
            let Some(base) = entry.name.strip_suffix(".in") else {
                if let Some(base) = entry.name.strip_suffix(".ans")
                    && !has(&format!("{base}.in"))
                {
                    warnings.push(
                        Location::file(&entry.relative),
                        format!("ignored: no {base}.in for this answer"),
                    );
                }
                continue;
            };
            if base.is_empty() {
                continue;
            }
            if base == "test_group" || base == "testdata" {
                warnings.push(
                    Location::file(&entry.relative),
                    "ignored: a test case must not be named like the group configuration file",
                );
                continue;
            }
            let file_of = |ext: &str| {
                let n = format!("{base}{ext}");
                has(&n).then(|| folder.join(n))
            };
            let sibling_kind = |ext: &str| -> Option<Kind> {
                let n = format!("{base}{ext}");
                entries.iter().find(|e| e.name == n).map(|e| e.kind)
            };
            let answer = (sibling_kind(".ans") == Some(Kind::File))
                .then(|| folder.join(format!("{base}.ans")));
            let output = (sibling_kind(".out") == Some(Kind::File))
                .then(|| folder.join(format!("{base}.out")));
            match self.category {
                Category::Sample | Category::Secret | Category::InvalidAnswer
                    if answer.is_none() =>
                {
                    return Err(PackageError::Missing {
                        location: Location::file(&entry.relative),
                        what: format!("{base}.ans, the answer file of this test case"),
                    });
                }
                Category::InvalidOutput | Category::ValidOutput
                    if answer.is_none() || output.is_none() =>
                {
                    return Err(PackageError::Missing {
                        location: Location::file(&entry.relative),
                        what: format!("{base}.ans and {base}.out of this output validation case"),
                    });
                }
                _ => {}
            }
            let mut test_config = config.clone();
            let own_yaml = if cx.version.is_legacy() {
                None
            } else {
                file_of(".yaml")
            };
            if let Some(file) = &own_yaml
                && let Some(node) = read_yaml_config(cx, file)?
            {
                if node.as_map().is_none() {
                    return Err(PackageError::invalid(
                        node.location(file),
                        format!(
                            "expected a map of keys to values, found {}",
                            node.describe()
                        ),
                    ));
                }
                test_config.overlay(&node, file);
            }
            let group = if is_group {
                name.to_string()
            } else {
                self.enclosing_group(name)
            };
            let test_name = format!("{name}/{base}");
            let (args, input_validator_args, answer_validator_args, output_validator_args) =
                arguments(cx, &test_config)?;
            self.tests.push(TestCase {
                name: test_name,
                category: self.category,
                group,
                input: cx.root.path(&entry.relative),
                answer: answer.map(|p| cx.root.path(&p)),
                output: output.map(|p| cx.root.path(&p)),
                interaction: (sibling_kind(".interaction") == Some(Kind::File))
                    .then(|| cx.root.path(&folder.join(format!("{base}.interaction")))),
                files: (sibling_kind(".files") == Some(Kind::Dir))
                    .then(|| cx.root.path(&folder.join(format!("{base}.files")))),
                config_file: own_yaml.map(|p| cx.root.path(&p)),
                args,
                input_validator_args,
                answer_validator_args,
                output_validator_args,
                config: test_config,
            });
        }
        self.ancestors.pop();
        Ok(())
    }

    /// The nearest group above a folder that is not one (2025-09: `secret/g` or `secret`).
    fn enclosing_group(&self, folder_name: &str) -> String {
        self.groups
            .iter()
            .filter(|g| folder_name == g.name || folder_name.starts_with(&format!("{}/", g.name)))
            .max_by_key(|g| g.name.len())
            .map_or_else(|| self.category.folder().to_string(), |g| g.name.clone())
    }
}

type Arguments = (Vec<String>, ValidatorArgs, ValidatorArgs, Vec<String>);

/// The arguments of a test from its configuration, by version.
fn arguments(cx: &Context, config: &Config) -> Result<Arguments, PackageError> {
    let node = |key: &str| {
        config
            .nodes
            .get(key)
            .filter(|(n, _)| !matches!(n.value, Value::Null))
    };
    let list = |key: &str| -> Result<Option<Vec<String>>, PackageError> {
        match node(key) {
            None => Ok(None),
            Some((n, file)) => Ok(Some(string_list(n, file, key, false)?)),
        }
    };
    let words = |key: &str| -> Result<Option<Vec<String>>, PackageError> {
        match node(key) {
            None => Ok(None),
            Some((n, file)) => match n.scalar_text() {
                Some(text) => Ok(Some(text.split_whitespace().map(str::to_string).collect())),
                None => Err(PackageError::invalid(
                    n.location(file),
                    format!(
                        "{key}: expected a string of arguments, found {}",
                        n.describe()
                    ),
                )),
            },
        }
    };
    let legacy = cx.version.is_legacy();
    let modern = !legacy;
    let flags_too = cx.version != FormatVersion::V2025_09;

    let args = if modern {
        list("args")?.unwrap_or_default()
    } else {
        Vec::new()
    };

    let mut input = ValidatorArgs::default();
    if flags_too && let Some((n, file)) = node("input_validator_flags") {
        input = legacy_validator_flags(n, file, "input_validator_flags")?;
    }
    if modern && let Some((n, file)) = node("input_validator_args") {
        input = modern_validator_args(n, file, "input_validator_args")?;
    }
    let mut answer = ValidatorArgs::default();
    if let Some((n, file)) = node("answer_validator_args") {
        answer = modern_validator_args(n, file, "answer_validator_args")?;
    }

    let mut output: Vec<String> = cx.legacy_validator_flags.to_vec();
    let mut group_output = None;
    if flags_too && let Some((n, file)) = node("output_validator_flags") {
        group_output = Some(match n.as_map() {
            // Legacy also allows `{name: …, flags: …}`; there is one output validator.
            Some(_) => match legacy_validator_flags(n, file, "output_validator_flags")? {
                ValidatorArgs::All(a) => a,
                ValidatorArgs::PerValidator(m) => m.into_values().flatten().collect(),
            },
            None => words("output_validator_flags")?.unwrap_or_default(),
        });
    }
    if modern && let Some(a) = list("output_validator_args")? {
        group_output = Some(a);
    }
    output.extend(group_output.unwrap_or_default());
    Ok((args, input, answer, output))
}

/// Legacy: a string (for every validator) or a map `{name: VALIDATOR, flags: "…"}`.
fn legacy_validator_flags(
    node: &Node,
    file: &Path,
    key: &str,
) -> Result<ValidatorArgs, PackageError> {
    if let Some(text) = node.scalar_text() {
        return Ok(ValidatorArgs::All(
            text.split_whitespace().map(str::to_string).collect(),
        ));
    }
    let wrong = || {
        PackageError::invalid(
            node.location(file),
            format!(
                "{key}: expected a string or a map with `name` and `flags`, found {}",
                node.describe()
            ),
        )
    };
    let entries = node.as_map().ok_or_else(wrong)?;
    let get = |k: &str| {
        entries
            .iter()
            .find(|(key, _)| key.text == k)
            .and_then(|(_, v)| v.scalar_text())
    };
    let name = get("name").ok_or_else(wrong)?;
    let flags = get("flags").unwrap_or("");
    let mut map = BTreeMap::new();
    map.insert(
        name.to_string(),
        flags.split_whitespace().map(str::to_string).collect(),
    );
    Ok(ValidatorArgs::PerValidator(map))
}

/// 2025-09: a list for every validator, or a map validator name → list.
fn modern_validator_args(
    node: &Node,
    file: &Path,
    key: &str,
) -> Result<ValidatorArgs, PackageError> {
    match node.as_map() {
        Some(entries) => {
            let mut map = BTreeMap::new();
            for (name, value) in entries {
                let what = format!("{key}.{}", name.text);
                let args = if matches!(value.value, Value::Null) {
                    Vec::new()
                } else {
                    string_list(value, file, &what, false)?
                };
                map.insert(name.text.clone(), args);
            }
            Ok(ValidatorArgs::PerValidator(map))
        }
        None => Ok(ValidatorArgs::All(string_list(node, file, key, false)?)),
    }
}
