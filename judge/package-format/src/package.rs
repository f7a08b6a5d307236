//! A whole package folder, read.

use std::path::{Path, PathBuf};

use crate::default_output_validator::{Flags, FlagsError};
use crate::error::{Location, PackageError, Warning, Warnings};
use crate::fsutil::{Kind, ReadOptions, Root};
use crate::metadata::{self, Metadata};
use crate::program::{self, Program};
use crate::submissions::{self, Submission};
use crate::testdata::{self, Category, TestCase, TestData};
use crate::version::FormatVersion;
use crate::yaml;

/// A problem package, read: what it says, its tests in order, its programs, and the
/// warnings met on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Package {
    /// The package folder, as given.
    pub dir: PathBuf,
    /// `problem.yaml` (and `.timelimit`).
    pub metadata: Metadata,
    /// The test data.
    pub test_data: TestData,
    /// `input_validators/` (legacy also `input_format_validators/`): every program there.
    pub input_validators: Vec<Program>,
    /// `answer_validators/` (BAPCtools): programs that check `.ans` files.
    pub answer_validators: Vec<Program>,
    /// The custom output validator; `None`: the default output validator judges.
    pub output_validator: Option<Program>,
    /// The jury submissions, by folder then name.
    pub submissions: Vec<Submission>,
    /// What was off but did not stop reading.
    pub warnings: Vec<Warning>,
    /// How it was read (the folders its links may lead into).
    pub options: ReadOptions,
}

impl Package {
    /// Read the package folder `dir`. Hostile input gives an error, never a panic: a symlink
    /// that leaves the folder, a YAML file nested too deep, a name the format forbids (warned
    /// and skipped).
    pub fn read(dir: impl AsRef<Path>) -> Result<Package, PackageError> {
        Package::read_with(dir, &ReadOptions::default())
    }

    /// [`Package::read`] with `options`: links may also lead into the folders the user trusts.
    pub fn read_with(
        dir: impl AsRef<Path>,
        options: &ReadOptions,
    ) -> Result<Package, PackageError> {
        let dir = dir.as_ref();
        let mut warnings = Warnings::default();
        let problem_yaml = Path::new("problem.yaml");
        // The version decides the file-name rule, so read problem.yaml before listing.
        let probe = Root::new(dir, FormatVersion::V2025_09, options)?;
        if !probe.is_file(problem_yaml)? {
            return Err(PackageError::Missing {
                location: Location::file(problem_yaml),
                what: "problem.yaml, the problem's metadata (is this a problem package folder?)"
                    .to_string(),
            });
        }
        let bytes = probe.read(problem_yaml, yaml::MAX_FILE_BYTES)?;
        let node = yaml::parse(yaml::decode(&bytes, problem_yaml)?, problem_yaml)?;
        let timelimit_file = Path::new(".timelimit");
        let timelimit = if probe.is_file(timelimit_file)? {
            let bytes = probe.read(timelimit_file, 1024)?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        } else {
            None
        };
        let mut metadata = metadata::read(node.as_ref(), timelimit.as_deref(), &mut warnings)?;
        let version = metadata.version;
        let root = Root::new(dir, version, options)?;

        if metadata.names.is_empty() {
            if version.is_legacy() {
                if let Some((lang, name)) = name_from_statement(&root, &mut warnings)? {
                    metadata.name = name.clone();
                    metadata.names.push((lang, name));
                }
            } else {
                warnings.push(
                    Location::file(problem_yaml),
                    "no `name`; the format requires one",
                );
            }
        }
        if !root.is_dir(Path::new(version.statement_dir()))? {
            let other = if version.is_legacy() {
                "statement"
            } else {
                "problem_statement"
            };
            let hint = if root.is_dir(Path::new(other))? {
                format!(" ({other}/ is the folder of another version)")
            } else {
                String::new()
            };
            warnings.push(
                Location::file(version.statement_dir()),
                format!("no problem statement folder{hint}"),
            );
        }

        let test_data = testdata::read(
            &testdata::Context {
                root: &root,
                version,
                constants: &metadata.constants,
                legacy_validator_flags: &metadata.legacy_validator_flags,
            },
            &mut warnings,
        )?;
        let input_validators = read_input_validators(&root, &mut warnings)?;
        let answer_validators = programs_in(&root, Path::new("answer_validators"), &mut warnings)?;
        for (singular, plural) in [
            ("input_validator", "input_validators"),
            ("answer_validator", "answer_validators"),
        ] {
            if root.is_dir(Path::new(singular))? {
                warnings.push(
                    Location::file(singular),
                    format!("ignored: the format's folder is {plural}/"),
                );
            }
        }
        let output_validator = read_output_validator(&root, &metadata, &mut warnings)?;
        let submissions = submissions::read(&root, version, &mut warnings)?;

        Ok(Package {
            dir: dir.to_path_buf(),
            metadata,
            test_data,
            input_validators,
            answer_validators,
            output_validator,
            submissions,
            warnings: warnings.0,
            options: options.clone(),
        })
    }

    /// The format version.
    pub fn version(&self) -> FormatVersion {
        self.metadata.version
    }

    /// The `sample` and `secret` tests, in judging order.
    pub fn tests(&self) -> &[TestCase] {
        &self.test_data.tests
    }

    /// The validation cases of one folder (`invalid_input`, …).
    pub fn validation_cases(&self, category: Category) -> impl Iterator<Item = &TestCase> {
        self.test_data
            .validation_cases
            .iter()
            .filter(move |t| t.category == category)
    }

    /// Whether the default output validator judges (no custom one).
    pub fn uses_default_output_validator(&self) -> bool {
        self.output_validator.is_none()
    }

    /// The default output validator's flags for a test: its output validator arguments, read
    /// strictly for 2025-09, as problemtools does for legacy and 2023-07 (see
    /// [`Flags::parse_lenient`]).
    pub fn default_validator_flags(&self, test: &TestCase) -> Result<Flags, FlagsError> {
        if self.version() == FormatVersion::V2025_09 {
            Flags::parse(&test.output_validator_args)
        } else {
            Flags::parse_lenient(&test.output_validator_args)
        }
    }
}

fn programs_in(
    root: &Root,
    dir: &Path,
    warnings: &mut Warnings,
) -> Result<Vec<Program>, PackageError> {
    let legacy = root.version.is_legacy();
    root.list(dir, warnings)?
        .iter()
        .map(|entry| program::program(root, entry, legacy, warnings))
        .collect()
}

fn read_input_validators(
    root: &Root,
    warnings: &mut Warnings,
) -> Result<Vec<Program>, PackageError> {
    let current = Path::new("input_validators");
    let old = Path::new("input_format_validators");
    if root.is_dir(current)? {
        return programs_in(root, current, warnings);
    }
    if root.is_dir(old)? {
        if root.version.is_legacy() {
            warnings.push(
                Location::file(old),
                "input_format_validators/ is deprecated; the folder is input_validators/",
            );
            return programs_in(root, old, warnings);
        }
        warnings.push(
            Location::file(old),
            "ignored: input_format_validators/ is the deprecated legacy folder; use input_validators/",
        );
    }
    warnings.push(
        Location::file(current),
        "no input validators; the format requires some",
    );
    Ok(Vec::new())
}

fn read_output_validator(
    root: &Root,
    metadata: &Metadata,
    warnings: &mut Warnings,
) -> Result<Option<Program>, PackageError> {
    let version = metadata.version;
    let folder = Path::new(version.output_validator_dir());
    let needs_custom = metadata.problem_type.interactive || metadata.problem_type.multi_pass;
    let found = if version.is_legacy() {
        let mut programs = programs_in(root, folder, warnings)?;
        if programs.len() > 1 {
            warnings.push(
                Location::file(folder),
                format!(
                    "{} output validators; legacy runs all of them, this reader keeps the first ({})",
                    programs.len(),
                    programs[0].name
                ),
            );
        }
        let first = (!programs.is_empty()).then(|| programs.swap_remove(0));
        match (metadata.legacy_custom_validation, first) {
            (Some(true), None) => {
                return Err(PackageError::Missing {
                    location: Location::file(folder),
                    what: "the output validator that `validation: custom` asks for".to_string(),
                });
            }
            (Some(false), Some(p)) => {
                warnings.push(
                    Location::file(&p.relative),
                    "ignored: problem.yaml says `validation: default` (problemtools calls this an error)",
                );
                None
            }
            (_, found) => found,
        }
    } else {
        if root.is_dir(Path::new("output_validators"))? {
            warnings.push(
                Location::file("output_validators"),
                format!(
                    "ignored: output_validators/ is legacy; {} uses output_validator/",
                    version.name()
                ),
            );
        }
        match root.kind(folder)? {
            Some(Kind::Dir) => {
                let mut entry = crate::fsutil::Entry {
                    name: version.output_validator_dir().to_string(),
                    relative: folder.to_path_buf(),
                    kind: Kind::Dir,
                };
                // A folder holding nothing but one program folder
                // (`output_validator/guess_validator/validate.cc`, problemtools' own 2023-07
                // `guess` example, which problemtools judges): that folder is the program,
                // as in legacy `output_validators/`.
                if let [only] = root.list(folder, warnings)?.as_slice()
                    && only.kind == Kind::Dir
                {
                    entry = only.clone();
                }
                let program = program::program(root, &entry, false, warnings)?;
                if program.files.is_empty() {
                    warnings.push(
                        Location::file(folder),
                        "an empty output_validator/ folder: the default output validator is used",
                    );
                    None
                } else {
                    Some(program)
                }
            }
            _ => None,
        }
    };
    if needs_custom && found.is_none() {
        return Err(PackageError::Missing {
            location: Location::file(folder),
            what: "the output validator an interactive or multi-pass problem needs".to_string(),
        });
    }
    Ok(found)
}

/// Legacy packages may leave `name` out: the statement's `\problemname{…}` names the problem
/// (problemtools reads it so). English first, then `problem.tex`, then the first language.
fn name_from_statement(
    root: &Root,
    warnings: &mut Warnings,
) -> Result<Option<(String, String)>, PackageError> {
    let dir = Path::new("problem_statement");
    let mut candidates: Vec<(String, PathBuf)> = Vec::new();
    for entry in root.list(dir, warnings)? {
        let Some(rest) = entry.name.strip_prefix("problem.") else {
            continue;
        };
        let Some(lang) = rest.strip_suffix(".tex") else {
            continue;
        };
        let lang = if lang.is_empty() { "en" } else { lang };
        candidates.push((lang.to_string(), entry.relative));
    }
    candidates.sort_by_key(|(lang, _)| lang != "en");
    for (lang, file) in candidates {
        let bytes = root.read(&file, 1 << 20)?;
        let text = String::from_utf8_lossy(&bytes);
        if let Some(name) = problemname(&text) {
            return Ok(Some((lang, name)));
        }
    }
    Ok(None)
}

fn problemname(tex: &str) -> Option<String> {
    let start = tex.find("\\problemname{")? + "\\problemname{".len();
    let mut depth = 1;
    for (i, c) in tex[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    let name = tex[start..start + i].trim();
                    return (!name.is_empty()).then(|| name.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problemname_of_a_statement() {
        assert_eq!(
            problemname("\\problemname{Hello World!}\nx"),
            Some("Hello World!".into())
        );
        assert_eq!(
            problemname("\\problemname{$x^{2}$ sums}"),
            Some("$x^{2}$ sums".into())
        );
        assert_eq!(problemname("\\problemname{}"), None);
        assert_eq!(problemname("\\problemname{open"), None);
    }
}
