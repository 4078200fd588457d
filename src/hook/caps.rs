//! How much of each text the hooks copy into a checkpoint. A value in a state
//! file can be megabytes long; copied whole, it made a checkpoint larger than the
//! 4 MB the hooks themselves read (`checkpoints::MAX_CHECKPOINT_BYTES`), so the
//! next events skipped it: no `post_compact` record, no compaction alert, and a
//! second PreCompact of the same session wrote another checkpoint.
//!
//! Each text is cut to its cap at a character boundary, after redaction of the
//! part kept (and a margin, `core::text::cut`), and ends with a marker saying how
//! much was left out and where the whole text is. Lists are cut to a number of
//! entries. `build::checkpoint` tries [`Caps::STEPS`] in turn until the
//! checkpoint, pretty-printed, is under [`CHECKPOINT_BUDGET`].

use crate::core::text::cut::{self, size};

/// The cap of a text copied from the workflow's state file (next step, decision,
/// agent summary, …) when the checkpoint fits with it; identifiers and paths
/// (the workflow id, the state file's path, the phase, the gate) always keep
/// this much.
pub const MAX_FIELD_BYTES: usize = 16 * 1024;
/// The cap of PostCompact's `compact_summary` (`post_compact.compact_summary`).
pub const MAX_SUMMARY_BYTES: usize = 64 * 1024;
/// What a checkpoint PreCompact builds may take, pretty-printed, before its caps
/// are tightened. A quarter of the read limit: PostCompact adds its summary
/// later, and a pretty-printed JSON string can take six bytes per byte of text
/// (`\u0001`).
pub const CHECKPOINT_BUDGET: usize = 1024 * 1024;

/// Caps on the texts and lists copied from a workflow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Bytes of one text.
    pub text: usize,
    /// Entries of one list.
    pub items: usize,
}

impl Caps {
    /// Tried in turn until the checkpoint fits [`CHECKPOINT_BUDGET`]. The last one
    /// always fits: what it leaves (ids and paths at [`MAX_FIELD_BYTES`], four
    /// entries per list at 256 bytes) is under 1 MB even at six bytes a byte.
    pub const STEPS: [Caps; 4] = [
        Caps {
            text: MAX_FIELD_BYTES,
            items: 32,
        },
        Caps {
            text: 4 * 1024,
            items: 16,
        },
        Caps {
            text: 1024,
            items: 8,
        },
        Caps {
            text: 256,
            items: 4,
        },
    ];

    /// `text` redacted and cut to [`Caps::text`] bytes, marked when cut.
    pub fn text(&self, text: &str) -> String {
        field(text, self.text)
    }
}

/// `text` redacted and cut to `max` bytes, ending with a marker saying how much
/// was left out when it was cut.
pub fn field(text: &str, max: usize) -> String {
    marked(text, max, "the full text is in the workflow's state file")
}

/// PostCompact's `compact_summary` as a checkpoint records it: redacted, cut to
/// [`MAX_SUMMARY_BYTES`].
pub fn compact_summary(summary: &str) -> String {
    marked(
        summary,
        MAX_SUMMARY_BYTES,
        "the whole summary is in the session's transcript",
    )
}

fn marked(text: &str, max: usize, whole_is: &str) -> String {
    let (mut kept, omitted) = cut::scrubbed(text, max);
    if omitted > 0 {
        kept.push_str(&format!(
            " [… cut by resume-tui: {} more; {whole_is}]",
            size(omitted)
        ));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_at_its_cap_with_a_marker() {
        let text = "lorem ipsum ".repeat(1_000_000);
        let kept = field(&text, MAX_FIELD_BYTES);
        let (head, marker) = kept.split_at(MAX_FIELD_BYTES);
        assert!(text.starts_with(head));
        assert_eq!(
            marker,
            " [… cut by resume-tui: 11.4 MB more; the full text is in the workflow's state file]"
        );
        assert_eq!(field("short", MAX_FIELD_BYTES), "short");
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        let kept = field(&"日本語".repeat(10_000), 1_000);
        assert!(kept.starts_with(&"日本語".repeat(111)), "{kept}");
        assert!(kept.contains("[… cut by resume-tui: "));
    }

    #[test]
    fn summaries_are_cut_at_their_own_cap_and_redacted() {
        let summary = format!("token=abc123secret {}", "summary text ".repeat(100_000));
        let kept = compact_summary(&summary);
        assert!(
            kept.starts_with("token=[REDACTED] summary text"),
            "{}",
            &kept[..40]
        );
        assert!(kept.len() < MAX_SUMMARY_BYTES + 200);
        assert!(kept.ends_with("the whole summary is in the session's transcript]"));
        assert_eq!(compact_summary("short"), "short");
    }

    #[test]
    fn a_secret_straddling_the_cap_is_redacted() {
        let text = format!(
            "{}-----BEGIN OPENSSH PRIVATE KEY-----\n{}",
            "a".repeat(1_000),
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n".repeat(5_000)
        );
        let kept = field(&text, 1_024);
        assert!(!kept.contains("b3Bl"), "{kept}");
        assert!(kept.contains("[… cut by resume-tui"), "{kept}");
    }
}
