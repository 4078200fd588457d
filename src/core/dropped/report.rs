//! The text `resume-tui dropped` prints, and the dashboard copies (`D`): a
//! header, where the summary came from, then the dropped items (most urgent
//! first) and the kept ones, each with the reason.

use super::{Comparison, Verdict};

/// `header` (`<project> · checkpoint <id> (<age>)`), then either the summary's
/// `source` and what `comparison` found, or why there is no summary to compare.
/// The `source` line of a summary the PostCompact hook recorded.
pub const RECORDED_SOURCE: &str = "post_compact (recorded by the PostCompact hook)";

/// The `source` line of a summary read from a session's transcript.
pub fn transcript_source(path: &str) -> String {
    format!("transcript {path}")
}

pub fn as_text(header: &str, compared: Result<(&str, &Comparison), &str>) -> String {
    let mut text = format!("{header}\n");
    let (source, comparison) = match compared {
        Ok(compared) => compared,
        Err(why) => {
            text.push_str(&format!("No summary to compare with: {why}.\n"));
            return text;
        }
    };
    text.push_str(&format!("Summary: {source}\n"));
    let dropped = comparison.dropped_by_urgency();
    let kept: Vec<&Verdict> = comparison.kept().collect();
    section(&mut text, "Dropped", &dropped);
    section(&mut text, "Kept", &kept);
    text
}

fn section(text: &mut String, title: &str, verdicts: &[&Verdict]) {
    text.push_str(&format!("\n{title} ({}):\n", verdicts.len()));
    if verdicts.is_empty() {
        text.push_str("  (none)\n");
    }
    for v in verdicts {
        let id = v
            .item
            .id
            .as_deref()
            .filter(|i| !v.item.text.contains(i))
            .map(|i| format!(" {i}"))
            .unwrap_or_default();
        text.push_str(&format!(
            "  {}{id}: {}\n      {}\n",
            v.item.kind.label(),
            crate::core::text::one_line(&v.item.text),
            v.reason
        ));
    }
}
