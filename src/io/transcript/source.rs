//! The summary that replaced a checkpoint's conversation: the one PostCompact
//! recorded into it (`post_compact.compact_summary`), else the transcript's
//! summary record after the compaction boundary that followed the checkpoint.

use std::path::{Path, PathBuf};

use super::after_checkpoint::compact_summaries_after;
use super::summaries::transcript_of;
use crate::core::dropped::summary::{Origin, choose, recorded};
use crate::core::model::Checkpoint;
use crate::io::env::Env;

#[derive(Debug, Clone, PartialEq)]
pub enum SummarySource {
    /// `post_compact.compact_summary` in the checkpoint.
    Recorded,
    /// The `isCompactSummary` record of this transcript.
    Transcript(PathBuf),
}

impl SummarySource {
    /// `post_compact` or `transcript`, as `--json` names it.
    pub fn label(&self) -> &'static str {
        match self {
            SummarySource::Recorded => "post_compact",
            SummarySource::Transcript(_) => "transcript",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct FoundSummary {
    pub source: SummarySource,
    pub text: String,
}

/// Where to look for a checkpoint's summary.
pub struct Lookup<'a> {
    pub env: &'a Env,
    pub root: &'a Path,
    /// A transcript named by the caller (the hook's `transcript_path`); else the
    /// one Claude Code keeps for the checkpoint's session.
    pub transcript: Option<&'a Path>,
    pub max_bytes: u64,
}

/// The summary, or why there is none (for the operator: which places were tried).
pub fn summary_for(checkpoint: &Checkpoint, lookup: &Lookup) -> Result<FoundSummary, String> {
    if let Some(text) = recorded(checkpoint) {
        return Ok(FoundSummary {
            source: SummarySource::Recorded,
            text: text.to_string(),
        });
    }
    let path = match lookup.transcript {
        Some(path) => path.to_path_buf(),
        None => {
            let session = checkpoint.session_id.as_deref().ok_or(
                "no post_compact summary recorded, and no session_id to find the transcript by",
            )?;
            transcript_of(lookup.env, lookup.root, session).ok_or_else(|| {
                format!(
                    "no post_compact summary recorded, and no transcript of session {session} found"
                )
            })?
        }
    };
    let all =
        compact_summaries_after(&path, lookup.max_bytes, checkpoint.created_at).map_err(|e| {
            format!(
                "no post_compact summary recorded; transcript {}: {e}",
                path.display()
            )
        })?;
    match choose(checkpoint, Some(&all)) {
        Some((Origin::Transcript, text)) => Ok(FoundSummary {
            text: text.to_string(),
            source: SummarySource::Transcript(path),
        }),
        _ => Err(format!(
            "no post_compact summary recorded, and transcript {} has no compaction summary after {}",
            path.display(),
            checkpoint
                .created_at_raw
                .as_deref()
                .unwrap_or("the checkpoint")
        )),
    }
}
