//! The report of a migration run: one entry per file, as text or JSON.

use serde::Serialize;
use serde_json::{Value, json};

/// Version of the `--json` layout (docs/migration.md).
pub const MIGRATE_FORMAT: &str = "resume-tui.migrate.v1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Changed (or, in a dry run, would change).
    Changed,
    Unchanged,
    /// Left as it is, for the reason given.
    Skipped,
    /// A write (or rename, or backup) failed; the file is as it was.
    Failed,
}

impl Status {
    fn label(self) -> &'static str {
        match self {
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
            Status::Skipped => "skipped",
            Status::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FileReport {
    /// Relative to the workspace root.
    pub path: String,
    /// The new name of a renamed legacy manifest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed_to: Option<String>,
    pub status: Status,
    /// Why a file was skipped or failed, or why it needed nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub changes: Vec<String>,
    /// What could not be derived or decided.
    pub unresolved: Vec<String>,
    /// The backup written beside the file (`--backup`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
    /// The unified diff (`--dry-run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
}

impl FileReport {
    pub fn new(path: impl Into<String>, status: Status) -> FileReport {
        FileReport {
            path: path.into(),
            renamed_to: None,
            status,
            reason: None,
            changes: Vec::new(),
            unresolved: Vec::new(),
            backup: None,
            diff: None,
        }
    }

    pub fn with_reason(mut self, reason: impl Into<String>) -> FileReport {
        self.reason = Some(reason.into());
        self
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// `nexus` or `resumption`.
    pub command: &'static str,
    pub dry_run: bool,
    pub files: Vec<FileReport>,
}

impl Report {
    pub fn count(&self, status: Status) -> usize {
        self.files.iter().filter(|f| f.status == status).count()
    }

    pub fn failed(&self) -> bool {
        self.count(Status::Failed) > 0
    }

    pub fn to_json(&self) -> Value {
        json!({
            "format": MIGRATE_FORMAT,
            "command": self.command,
            "dry_run": self.dry_run,
            "counts": {
                "changed": self.count(Status::Changed),
                "unchanged": self.count(Status::Unchanged),
                "skipped": self.count(Status::Skipped),
                "failed": self.count(Status::Failed),
            },
            "files": self.files,
        })
    }

    /// Diffs first (dry run), then one block per file, then the counts.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for diff in self.files.iter().filter_map(|f| f.diff.as_deref()) {
            out.push_str(diff);
            if !diff.ends_with('\n') {
                out.push('\n');
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        for file in &self.files {
            let label = match (file.status, self.dry_run) {
                (Status::Changed, true) => "would change",
                (status, _) => status.label(),
            };
            let name = match &file.renamed_to {
                Some(to) => format!("{} → {to}", file.path),
                None => file.path.clone(),
            };
            match &file.reason {
                Some(reason) => out.push_str(&format!("{label:<12} {name}: {reason}\n")),
                None => out.push_str(&format!("{label:<12} {name}\n")),
            }
            for change in &file.changes {
                out.push_str(&format!("{:<12}   - {change}\n", ""));
            }
            for open in &file.unresolved {
                out.push_str(&format!("{:<12}   ! {open}\n", ""));
            }
            if let Some(backup) = &file.backup {
                out.push_str(&format!("{:<12}   backup: {backup}\n", ""));
            }
        }
        let changed = if self.dry_run { "to change" } else { "changed" };
        out.push_str(&format!(
            "\nmigrate {}{}: {} {changed}, {} unchanged, {} skipped, {} failed\n",
            self.command,
            if self.dry_run {
                " (dry run: nothing written)"
            } else {
                ""
            },
            self.count(Status::Changed),
            self.count(Status::Unchanged),
            self.count(Status::Skipped),
            self.count(Status::Failed),
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(dry_run: bool) -> Report {
        let mut changed = FileReport::new("a/_resume.md", Status::Changed);
        changed.renamed_to = Some("a/resume-context.md".into());
        changed.changes.push("added project_id".into());
        changed
            .unresolved
            .push("next_action: could not be derived".into());
        changed.diff = dry_run.then(|| "--- a/x\n+++ b/x\n".to_string());
        Report {
            command: "nexus",
            dry_run,
            files: vec![
                changed,
                FileReport::new("b/resume-context.md", Status::Unchanged)
                    .with_reason("already nexus-1.0"),
                FileReport::new("c/_resume.md", Status::Skipped).with_reason("both exist"),
            ],
        }
    }

    #[test]
    fn text_lists_every_file_and_the_counts() {
        let text = report(false).to_text();
        assert!(
            text.starts_with("changed      a/_resume.md → a/resume-context.md\n"),
            "{text}"
        );
        assert!(text.contains("  - added project_id\n"));
        assert!(text.contains("  ! next_action: could not be derived\n"));
        assert!(text.contains("unchanged    b/resume-context.md: already nexus-1.0\n"));
        assert!(text.contains("skipped      c/_resume.md: both exist\n"));
        assert!(text.ends_with("migrate nexus: 1 changed, 1 unchanged, 1 skipped, 0 failed\n"));
    }

    #[test]
    fn dry_run_text_starts_with_the_diffs() {
        let text = report(true).to_text();
        assert!(
            text.starts_with("--- a/x\n+++ b/x\n\nwould change"),
            "{text}"
        );
        assert!(text.contains("(dry run: nothing written): 1 to change"));
    }

    #[test]
    fn json_has_counts_and_files() {
        let json = report(true).to_json();
        assert_eq!(json["format"], MIGRATE_FORMAT);
        assert_eq!(json["counts"]["skipped"], 1);
        assert_eq!(json["files"][0]["renamed_to"], "a/resume-context.md");
        assert_eq!(json["files"][0]["status"], "changed");
        assert!(json["files"][1].get("diff").is_none());
    }
}
