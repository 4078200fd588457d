//! What the hooks learn about a session's window from its transcript, kept so it
//! is not forgotten once that part of the transcript lies beyond the tail they
//! read: the model id (a compaction with no response after it names none), more
//! than 200,000 tokens in use, and the `preTokens` of the newest automatic
//! compaction. One small file per session beside the status line's record:
//! `<project>/.jerry/context-window/<session_id>.hooks.json` (docs/hooks.md, "The
//! window rule"). Written by PreCompact and UserPromptSubmit only when they learn
//! something new (once per session and model, and per compaction); read by every
//! measurement of the session.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::statusline_record;
use crate::core::fill::DEFAULT_WINDOW;
use crate::io::write;

/// Records larger than this are not read.
const MAX_RECORD_BYTES: u64 = 16 * 1024;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    pub session_id: String,
    /// The model the figures were seen with: they count for that model only (a
    /// `/model` switch changes the window).
    pub model: Option<String>,
    /// The first figure above 200,000 tokens seen in use (a response's input or
    /// a compaction's `preTokens`).
    pub tokens_above_200k: Option<u64>,
    /// `preTokens` of the newest automatic compaction seen.
    pub auto_compaction_at: Option<u64>,
    pub updated_at: String,
}

impl Evidence {
    /// Whether this evidence is about the session running `model` (a record or a
    /// measurement without a model id is about any).
    pub fn applies_to(&self, model: Option<&str>) -> bool {
        match (self.model.as_deref(), model) {
            (Some(seen), Some(now)) => seen == now,
            _ => true,
        }
    }
}

/// The record's path, or `None` for a session id that is not a plain file name.
pub fn path(project_dir: &Path, session_id: &str) -> Option<PathBuf> {
    let record = statusline_record::path(project_dir, session_id)?;
    Some(record.with_file_name(format!("{session_id}.hooks.json")))
}

pub fn read(project_dir: &Path, session_id: &str) -> Option<Evidence> {
    let snapshot =
        write::read_snapshot_capped(&path(project_dir, session_id)?, MAX_RECORD_BYTES).ok()?;
    let evidence: Evidence = serde_json::from_slice(&snapshot.bytes).ok()?;
    (evidence.session_id == session_id).then_some(evidence)
}

/// What one measurement saw.
#[derive(Debug, Clone, Copy, Default)]
pub struct Seen<'a> {
    pub model: Option<&'a str>,
    /// The largest figure in use: the response's input, a boundary's `preTokens`.
    pub tokens: u64,
    /// `preTokens` of the newest automatic compaction in the tail read.
    pub auto_compaction_at: Option<u64>,
}

/// The record to write after a measurement, or `None` when it taught nothing new.
/// `updated_at` is left for the caller, who has the clock.
pub fn learn(old: Option<&Evidence>, session_id: &str, seen: &Seen<'_>) -> Option<Evidence> {
    let base = old
        .filter(|o| o.applies_to(seen.model))
        .cloned()
        .unwrap_or_default();
    let mut new = Evidence {
        session_id: session_id.to_string(),
        model: seen.model.map(str::to_string).or(base.model.clone()),
        ..base.clone()
    };
    if seen.tokens > DEFAULT_WINDOW && new.tokens_above_200k.is_none() {
        new.tokens_above_200k = Some(seen.tokens);
    }
    if seen.auto_compaction_at.is_some() {
        new.auto_compaction_at = seen.auto_compaction_at;
    }
    let learned = new.model != base.model
        || new.tokens_above_200k != base.tokens_above_200k
        || new.auto_compaction_at != base.auto_compaction_at;
    learned.then_some(new)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(model: &str, tokens: u64, auto: Option<u64>) -> Seen<'_> {
        Seen {
            model: Some(model),
            tokens,
            auto_compaction_at: auto,
        }
    }

    #[test]
    fn learns_once_and_only_what_is_new() {
        let model = learn(None, "s", &seen("m", 150_000, None)).unwrap();
        assert_eq!(model.model.as_deref(), Some("m"));
        assert_eq!(learn(Some(&model), "s", &seen("m", 160_000, None)), None);
        let first = learn(Some(&model), "s", &seen("m", 250_000, None)).unwrap();
        assert_eq!(first.tokens_above_200k, Some(250_000));
        assert_eq!(first.model.as_deref(), Some("m"));
        // More of the same is not news: no rewrite on every prompt.
        assert_eq!(learn(Some(&first), "s", &seen("m", 300_000, None)), None);
        let compacted = learn(Some(&first), "s", &seen("m", 20_000, Some(310_000))).unwrap();
        assert_eq!(compacted.tokens_above_200k, Some(250_000));
        assert_eq!(compacted.auto_compaction_at, Some(310_000));
        assert_eq!(
            learn(Some(&compacted), "s", &seen("m", 20_000, Some(310_000))),
            None
        );
    }

    #[test]
    fn evidence_counts_for_its_model_only() {
        let old = learn(None, "s", &seen("opus", 400_000, None)).unwrap();
        assert!(old.applies_to(Some("opus")) && old.applies_to(None));
        assert!(!old.applies_to(Some("haiku")));
        let other = learn(Some(&old), "s", &seen("haiku", 10_000, Some(150_000))).unwrap();
        assert_eq!(other.model.as_deref(), Some("haiku"));
        assert_eq!(other.tokens_above_200k, None);
        assert_eq!(other.auto_compaction_at, Some(150_000));
    }

    #[test]
    fn the_path_sits_beside_the_status_line_record() {
        let dir = Path::new("/w");
        assert_eq!(
            path(dir, "abc-1").unwrap(),
            Path::new("/w/.jerry/context-window/abc-1.hooks.json")
        );
        assert!(path(dir, "../x").is_none());
    }
}
