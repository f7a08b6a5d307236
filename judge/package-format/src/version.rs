//! The format versions and what differs between them.
//!
//! - `legacy` (no `problem_format_version`, or `legacy`): `problem_statement/`,
//!   `output_validators/`, `testdata.yaml` with `*_flags` strings, `validation:` and
//!   `validator_flags` in `problem.yaml`, `time_multiplier`/`time_safety_margin`.
//! - `legacy-icpc`: the ICPC subset of legacy: no `type`, `grading`, graders, `testdata.yaml`
//!   or `include/`; `validation` is `default` or `custom [interactive]`.
//! - `2023-07` / `2023-07-draft`: the draft that became 2025-09 (its spec page now redirects
//!   there). problemtools reads it as "2023-07-draft" with `statement/` and `output_validator/`;
//!   over the draft's life `testdata.yaml` was renamed `test_group.yaml` and the `*_flags`
//!   strings became `*_args` lists, so both spellings are read.
//! - `2025-09` (also `2025-09-draft`, `draft`): `type`, `limits.time_limit`,
//!   `time_multipliers`, `test_group.yaml` with `*_args` lists, `submissions.yaml`,
//!   `output_validator/`, `data/invalid_*`/`valid_output`.

use std::fmt;

/// A version of the problem package format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormatVersion {
    /// The Kattis format before versions were named (`legacy`, or the key absent).
    Legacy,
    /// The ICPC subset of legacy (`legacy-icpc`).
    LegacyIcpc,
    /// The 2023-07 draft (`2023-07`, `2023-07-draft`).
    V2023_07,
    /// The current version (`2025-09`, `2025-09-draft`, `draft`).
    V2025_09,
}

impl FormatVersion {
    /// The version named by `problem_format_version` (absent: `legacy`).
    pub fn parse(value: Option<&str>) -> Option<FormatVersion> {
        match value {
            None | Some("legacy") => Some(FormatVersion::Legacy),
            Some("legacy-icpc") => Some(FormatVersion::LegacyIcpc),
            Some("2023-07" | "2023-07-draft") => Some(FormatVersion::V2023_07),
            Some("2025-09" | "2025-09-draft" | "draft") => Some(FormatVersion::V2025_09),
            Some(_) => None,
        }
    }

    /// Whether this is `legacy` or `legacy-icpc`.
    pub fn is_legacy(self) -> bool {
        matches!(self, FormatVersion::Legacy | FormatVersion::LegacyIcpc)
    }

    /// The canonical name.
    pub fn name(self) -> &'static str {
        match self {
            FormatVersion::Legacy => "legacy",
            FormatVersion::LegacyIcpc => "legacy-icpc",
            FormatVersion::V2023_07 => "2023-07",
            FormatVersion::V2025_09 => "2025-09",
        }
    }

    /// The folder of the problem statements.
    pub fn statement_dir(self) -> &'static str {
        if self.is_legacy() {
            "problem_statement"
        } else {
            "statement"
        }
    }

    /// The folder of the custom output validator.
    pub fn output_validator_dir(self) -> &'static str {
        if self.is_legacy() {
            "output_validators"
        } else {
            "output_validator"
        }
    }

    /// The names of a test group's configuration file, the preferred one first.
    pub fn group_config_files(self) -> &'static [&'static str] {
        match self {
            FormatVersion::Legacy | FormatVersion::LegacyIcpc => &["testdata.yaml"],
            FormatVersion::V2023_07 => &["test_group.yaml", "testdata.yaml"],
            FormatVersion::V2025_09 => &["test_group.yaml"],
        }
    }
}

impl fmt::Display for FormatVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_the_spec_names() {
        use FormatVersion::*;
        let cases = [
            (None, Legacy),
            (Some("legacy"), Legacy),
            (Some("legacy-icpc"), LegacyIcpc),
            (Some("2023-07"), V2023_07),
            (Some("2023-07-draft"), V2023_07),
            (Some("2025-09"), V2025_09),
            (Some("2025-09-draft"), V2025_09),
            (Some("draft"), V2025_09),
        ];
        for (text, want) in cases {
            assert_eq!(FormatVersion::parse(text), Some(want), "{text:?}");
        }
        assert_eq!(FormatVersion::parse(Some("2024-01")), None);
        assert_eq!(FormatVersion::parse(Some("Legacy")), None);
    }

    #[test]
    fn folders_by_version() {
        assert_eq!(
            FormatVersion::Legacy.output_validator_dir(),
            "output_validators"
        );
        assert_eq!(
            FormatVersion::V2025_09.output_validator_dir(),
            "output_validator"
        );
        assert_eq!(
            FormatVersion::LegacyIcpc.statement_dir(),
            "problem_statement"
        );
        assert_eq!(
            FormatVersion::V2023_07.group_config_files()[1],
            "testdata.yaml"
        );
    }
}
