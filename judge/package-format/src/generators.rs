//! The package's random-input generator, in the `generators/` convention (BAPCtools'
//! `generators/generators.yaml`; the 2025-09 format leaves generation to the tools): the
//! program a stress test draws inputs from when no generator is named on the command line.
//!
//! The convention (documented in the judge's `docs/test-strength.md`):
//! 1. `generators/generators.yaml` has a `generators:` map with an entry named `random`: its
//!    files (relative to `generators/`; the first is the entry point, as BAPCtools builds
//!    it) are the program;
//! 2. otherwise a program named `random` in `generators/` (`random.py`, `random.cpp`, a
//!    folder `random/` …).
//!
//! Either is run as `random SEED`: one argument, the seed, and one input on standard output,
//! the same bytes for the same seed. Nothing else of `generators.yaml` is read here.

use std::path::{Path, PathBuf};

use crate::Package;
use crate::error::{Location, PackageError, Warnings};
use crate::fsutil::Root;
use crate::program::{Program, program};
use crate::yaml;

/// The name of the generator the convention looks for.
pub const RANDOM: &str = "random";

/// The generator a package names for random inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomGenerator {
    /// The program: a file or folder below `generators/`.
    pub program: Program,
    /// Every file it needs (for an entry of `generators.yaml`'s `generators:` map, the files
    /// listed there, in order; else the program's own), absolute.
    pub files: Vec<PathBuf>,
    /// Where it was found, in words: `generators/generators.yaml:3:3 (generators: random)`.
    pub origin: String,
}

impl RandomGenerator {
    /// Its arguments for `seed`: the convention's one argument.
    pub fn args(seed: u64) -> Vec<String> {
        vec![seed.to_string()]
    }
}

/// The package's random generator by the convention above; `None` when it names none. A
/// `generators.yaml` that does not read, or whose `random` entry names no file of the
/// package, is an error naming the file, line and column.
pub fn random_generator(package: &Package) -> Result<Option<RandomGenerator>, PackageError> {
    let root = Root::new(&package.dir, package.version(), &package.options)?;
    let folder = Path::new("generators");
    let yaml_file = folder.join("generators.yaml");
    let mut warnings = Warnings::default();
    if root.is_file(&yaml_file)? {
        let bytes = root.read(&yaml_file, yaml::MAX_FILE_BYTES)?;
        let node = yaml::parse(yaml::decode(&bytes, &yaml_file)?, &yaml_file)?;
        let generators = node
            .as_ref()
            .and_then(|n| n.as_map())
            .and_then(|m| m.iter().find(|(k, _)| k.text == "generators"))
            .map(|(_, v)| v);
        if let Some(generators) = generators {
            let entries = generators.as_map().ok_or_else(|| {
                PackageError::invalid(
                    generators.location(&yaml_file),
                    format!(
                        "`generators` must map generator names to lists of files, found {}",
                        generators.describe()
                    ),
                )
            })?;
            if let Some((key, files)) = entries.iter().find(|(k, _)| k.text == RANDOM) {
                let at = Location::at(&yaml_file, key.line, key.column);
                let yaml::Value::Seq(items) = &files.value else {
                    return Err(PackageError::invalid(
                        files.location(&yaml_file),
                        format!(
                            "`generators: {RANDOM}` must list its files, found {}",
                            files.describe()
                        ),
                    ));
                };
                let mut relative = Vec::new();
                for item in items {
                    let name = item.scalar_text().filter(|t| safe_relative(t));
                    let Some(name) = name else {
                        return Err(PackageError::invalid(
                            item.location(&yaml_file),
                            format!(
                                "a file of `generators: {RANDOM}` must be a path below \
                                 generators/, found {}",
                                item.describe()
                            ),
                        ));
                    };
                    let path = folder.join(name);
                    if !root.is_file(&path)? {
                        return Err(PackageError::invalid(
                            item.location(&yaml_file),
                            format!("{}: no such file of the package", path.display()),
                        ));
                    }
                    relative.push(path);
                }
                let Some(first) = relative.first() else {
                    return Err(PackageError::invalid(
                        at,
                        format!("`generators: {RANDOM}` lists no file"),
                    ));
                };
                let entry = crate::fsutil::Entry {
                    name: first
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    relative: first.clone(),
                    kind: crate::fsutil::Kind::File,
                };
                let program = program(&root, &entry, false, &mut warnings)?;
                return Ok(Some(RandomGenerator {
                    program,
                    files: relative.iter().map(|r| root.path(r)).collect(),
                    origin: format!(
                        "{}:{}:{} (generators: {RANDOM})",
                        yaml_file.display(),
                        key.line,
                        key.column
                    ),
                }));
            }
        }
    }
    // A program named `random` in generators/: `random.py`, `random.cpp`, `random/`.
    for entry in root.list(folder, &mut warnings)? {
        let stem = entry.name.split('.').next().unwrap_or_default();
        if stem == RANDOM {
            let program = program(&root, &entry, false, &mut warnings)?;
            let origin = format!("{} (a program named {RANDOM})", entry.relative.display());
            return Ok(Some(RandomGenerator {
                files: program.files.clone(),
                program,
                origin,
            }));
        }
    }
    Ok(None)
}

/// A relative path that stays below its folder: no root, no `..`, not empty.
fn safe_relative(text: &str) -> bool {
    let path = Path::new(text);
    !text.is_empty()
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}
