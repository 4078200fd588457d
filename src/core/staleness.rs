//! Staleness of a project's resumption state (seed 004, "Staleness Detection").
//! The rules are implemented in `assess`; the clock is a parameter.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Default)]
#[serde(rename_all = "UPPERCASE")]
pub enum StalenessLevel {
    Fresh,
    Stale,
    Critical,
    #[default]
    Unknown,
}

impl StalenessLevel {
    pub fn label(self) -> &'static str {
        match self {
            StalenessLevel::Fresh => "FRESH",
            StalenessLevel::Stale => "STALE",
            StalenessLevel::Critical => "CRITICAL",
            StalenessLevel::Unknown => "UNKNOWN",
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Staleness {
    pub level: StalenessLevel,
    /// Why the level was chosen, one sentence each.
    pub reasons: Vec<String>,
    /// Seconds between the last update and `now`, when both are known.
    pub age_seconds: Option<i64>,
    /// `files_to_read` / `files_to_load` entries that do not exist.
    pub missing_files: Vec<String>,
    pub unacknowledged_checkpoints: usize,
}
