//! Which summary a checkpoint is compared with — the one rule the `dropped` and
//! `timeline` commands, the SessionStart hook and the dashboard share:
//! `post_compact.compact_summary` recorded into the checkpoint by PostCompact,
//! else the transcript's compaction summary (the `isCompactSummary` record after
//! the main-chain `compact_boundary` that followed the checkpoint; reference
//! claude-code-hooks.md §5.3). Reading the transcript is the caller's (`io`).

use crate::core::model::Checkpoint;
use crate::core::time::Timestamp;

/// One compaction as the transcript records it.
#[derive(Debug, Clone, PartialEq)]
pub struct CompactSummary {
    /// The boundary's time (the summary's when the boundary was not read).
    pub timestamp: Option<Timestamp>,
    pub trigger: Option<String>,
    pub pre_tokens: Option<u64>,
    /// `None` when the boundary has no summary record after it (yet).
    pub text: Option<String>,
}

/// Where the summary a checkpoint is compared with came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// `post_compact.compact_summary` in the checkpoint.
    Recorded,
    /// The compaction summary record of the session's transcript.
    Transcript,
}

impl Origin {
    /// `post_compact` or `transcript`, as `--json` names it.
    pub fn label(self) -> &'static str {
        match self {
            Origin::Recorded => "post_compact",
            Origin::Transcript => "transcript",
        }
    }
}

/// The summary PostCompact recorded into the checkpoint, if any (blank is none).
pub fn recorded(checkpoint: &Checkpoint) -> Option<&str> {
    checkpoint
        .post_compact
        .as_ref()
        .and_then(|p| p.compact_summary.as_deref())
        .filter(|s| !s.trim().is_empty())
}

/// The part of a compaction summary the model goes on with. Claude Code asks the
/// summariser for an `<analysis>` block, then a `<summary>` block, and keeps only
/// the summary: PostCompact's `compact_summary` holds both, the transcript's
/// record the summary alone. Without tags, the whole text; an `<analysis>` block
/// left without a summary after it is dropped all the same.
pub fn seen_by_model(text: &str) -> &str {
    const OPEN: &str = "<summary>";
    const CLOSE: &str = "</summary>";
    if let Some(start) = text.find(OPEN) {
        let body = &text[start + OPEN.len()..];
        return body.find(CLOSE).map_or(body, |end| &body[..end]);
    }
    match (text.find("<analysis>"), text.find("</analysis>")) {
        (Some(open), Some(close)) if open < close => {
            let after = &text[close + "</analysis>".len()..];
            if after.trim().is_empty() { "" } else { after }
        }
        (Some(open), None) => &text[..open],
        _ => text,
    }
}

/// How long before a checkpoint's time the compaction it led to may be stamped.
pub const CHECKPOINT_SLACK_SECONDS: i64 = 60;

/// The compaction a checkpoint written at `written` led to: the first one at
/// most a minute before it or later (the boundary is written after the summary
/// is made, PreCompact before); the newest when the time is unknown.
pub fn after_checkpoint(
    summaries: &[CompactSummary],
    written: Option<Timestamp>,
) -> Option<&CompactSummary> {
    let Some(written) = written else {
        return summaries.last();
    };
    summaries.iter().find(|s| {
        s.timestamp
            .is_some_and(|t| t.seconds_since(written) >= -CHECKPOINT_SLACK_SECONDS)
    })
}

/// The summary to compare `checkpoint` with: the recorded one, else the
/// transcript's for the compaction after it (`transcript`: every compaction the
/// session's transcript holds, oldest first, when it was read).
pub fn choose<'a>(
    checkpoint: &'a Checkpoint,
    transcript: Option<&'a [CompactSummary]>,
) -> Option<(Origin, &'a str)> {
    if let Some(text) = recorded(checkpoint) {
        return Some((Origin::Recorded, text));
    }
    after_checkpoint(transcript?, checkpoint.created_at)
        .and_then(|s| s.text.as_deref())
        .filter(|s| !s.trim().is_empty())
        .map(|text| (Origin::Transcript, text))
}

/// The summary known with the checkpoint as loaded: the recorded one, else the
/// transcript's the loader attached (`Checkpoint::transcript_summary`; the
/// dashboard's loader reads transcripts, the commands read them themselves).
pub fn known(checkpoint: &Checkpoint) -> Option<(Origin, &str)> {
    if let Some(text) = recorded(checkpoint) {
        return Some((Origin::Recorded, text));
    }
    checkpoint
        .transcript_summary
        .as_ref()
        .map(|t| (Origin::Transcript, t.text.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{PostCompactRecord, TranscriptSummary};
    use crate::core::normalize::checkpoint::normalize_checkpoint;

    fn checkpoint(recorded: Option<&str>) -> Checkpoint {
        let text = r#"{"checkpoint_id":"cx-001","created_at":"2026-05-01T10:00:00Z"}"#;
        let mut cp = normalize_checkpoint(".jerry/checkpoints/cx-001.json", text, false).unwrap();
        cp.post_compact = recorded.map(|s| PostCompactRecord {
            compact_summary: Some(s.to_string()),
            ..PostCompactRecord::default()
        });
        cp
    }

    fn compaction(at: &str, text: Option<&str>) -> CompactSummary {
        CompactSummary {
            timestamp: Timestamp::parse(at),
            trigger: None,
            pre_tokens: None,
            text: text.map(str::to_string),
        }
    }

    #[test]
    fn the_recorded_summary_wins_then_the_transcripts_after_the_checkpoint() {
        let transcript = [
            compaction("2026-05-01T09:00:00Z", Some("before it")),
            compaction("2026-05-01T10:00:40Z", Some("its own")),
            compaction("2026-05-01T12:00:00Z", Some("a later one")),
        ];
        let recorded = checkpoint(Some("recorded"));
        assert_eq!(
            choose(&recorded, Some(&transcript)),
            Some((Origin::Recorded, "recorded"))
        );
        let bare = checkpoint(Some("  "));
        assert_eq!(
            choose(&bare, Some(&transcript)),
            Some((Origin::Transcript, "its own"))
        );
        assert_eq!(choose(&bare, None), None);
        let unfinished = [compaction("2026-05-01T10:00:40Z", None)];
        assert_eq!(choose(&bare, Some(&unfinished)), None);
    }

    #[test]
    fn the_model_sees_the_summary_part_only() {
        let both = "<analysis>\nRD-009 was discussed at length\n</analysis>\n\n<summary>\n1. Primary Request: payouts\n</summary>";
        assert_eq!(seen_by_model(both), "\n1. Primary Request: payouts\n");
        assert_eq!(seen_by_model("Summary:\n1. plain"), "Summary:\n1. plain");
        assert_eq!(seen_by_model("<summary>cut short"), "cut short");
        assert_eq!(seen_by_model("<analysis>only RD-009</analysis>"), "");
        assert_eq!(
            seen_by_model("<analysis>RD-009</analysis>\nkept RD-001"),
            "\nkept RD-001"
        );
        assert_eq!(
            seen_by_model("before <analysis>RD-009 unterminated"),
            "before "
        );
    }

    #[test]
    fn known_uses_the_summary_the_loader_attached() {
        let mut cp = checkpoint(None);
        assert_eq!(known(&cp), None);
        cp.transcript_summary = Some(TranscriptSummary {
            path: "t.jsonl".into(),
            text: "from the transcript".into(),
        });
        assert_eq!(
            known(&cp),
            Some((Origin::Transcript, "from the transcript"))
        );
        cp.post_compact = checkpoint(Some("recorded")).post_compact;
        assert_eq!(known(&cp), Some((Origin::Recorded, "recorded")));
    }
}
