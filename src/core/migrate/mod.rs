//! Migrations of old file layouts, as pure text transformations (docs/migration.md):
//!
//! - [`resumption::migrate_resumption`]: a v1 (or v2-flat) `resumption:` section of
//!   an ORCHESTRATION.yaml → the v2 nested layout of seed 004; every byte outside the
//!   section is kept, entries move with their comments.
//! - [`nexus::migrate_manifest`]: a Nexus manifest's frontmatter → the documented
//!   schema (`resume_schema_version`, derived required fields); the body is kept.
//!
//! Each returns an [`Outcome`]; the result is re-parsed and compared with the input
//! before it is offered, so a migration never changes what a file says.
//! `io::migrate` applies outcomes (renames, backups, atomic writes).

pub mod check;
pub mod nexus;
mod nexus_fields;
mod prose;
pub mod report;
pub mod resumption;
pub mod section;
mod trajectory;

pub use prose::{ProseFacts, read_state};

/// The text of a migrated file and what was done to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Migration {
    pub text: String,
    /// One line per change, for the report.
    pub changes: Vec<String>,
    /// What could not be derived or decided, for the report.
    pub unresolved: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Changed(Migration),
    /// Nothing to do; `note` says why.
    Unchanged {
        note: String,
        unresolved: Vec<String>,
    },
    /// The file cannot be migrated as it is; `reason` says why and what to do.
    Skipped {
        reason: String,
    },
}

impl Outcome {
    pub fn skipped(reason: impl Into<String>) -> Outcome {
        Outcome::Skipped {
            reason: reason.into(),
        }
    }

    pub fn unchanged(note: impl Into<String>) -> Outcome {
        Outcome::Unchanged {
            note: note.into(),
            unresolved: Vec::new(),
        }
    }
}

/// The line ending a text uses (`\r\n` when its first line ends so).
pub fn newline(text: &str) -> &'static str {
    match text.find('\n') {
        Some(i) if i > 0 && text.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
        _ => "\n",
    }
}
