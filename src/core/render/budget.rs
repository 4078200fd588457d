//! The token estimate (characters / 4, as the seeds measure) and Claude Code's
//! 10,000-character injection limit. Every renderer ends in `finish`.

use serde::Serialize;

/// Claude Code drops injected context beyond this many characters.
pub const INJECTION_LIMIT_CHARS: usize = 10_000;

/// A rendered text and what it cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendered {
    pub text: String,
    pub tokens_estimate: usize,
    /// True when any part was shortened or cut (always said in the text too).
    pub truncated: bool,
    /// Files the text was built from, relative to the workspace root.
    pub sources: Vec<String>,
}

/// Characters / 4, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// Cleans the text (control and invisible characters stripped, secrets redacted: every rendered
/// text is injected into Claude's context or copied for a new session), applies
/// the injection limit and measures the result. `shortened` says a renderer
/// already abbreviated some part (and said so).
pub fn finish(text: &str, sources: Vec<String>, shortened: bool) -> Rendered {
    let clean = crate::core::redact::scrub(text);
    let (text, cut) = limit(&clean, INJECTION_LIMIT_CHARS);
    Rendered {
        tokens_estimate: estimate_tokens(&text),
        text,
        truncated: shortened || cut,
        sources,
    }
}

/// Cuts `text` to at most `max` characters, at a line end when one is near,
/// ending with a visible marker that says how much was left out.
pub fn limit(text: &str, max: usize) -> (String, bool) {
    let total = text.chars().count();
    if total <= max {
        return (text.to_string(), false);
    }
    // The marker's length depends on the number in it; reserve for the widest.
    let reserve = marker(total).chars().count() + 1;
    let keep_chars = max.saturating_sub(reserve);
    let byte_end = text
        .char_indices()
        .nth(keep_chars)
        .map_or(text.len(), |(i, _)| i);
    let head = text.get(..byte_end).unwrap_or("");
    let head = match head.rfind('\n') {
        Some(nl) if nl * 5 >= byte_end * 4 => head.get(..nl).unwrap_or(head),
        _ => head,
    };
    let omitted = total - head.chars().count();
    (format!("{head}\n{}", marker(omitted)), true)
}

fn marker(omitted: usize) -> String {
    format!("[… truncated by resume-tui: {omitted} characters omitted …]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_is_characters_over_four_rounded_up() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("ééé"), 1, "characters, not bytes");
    }

    #[test]
    fn secrets_are_redacted_from_every_rendered_text() {
        let r = finish(
            "Next: deploy with GITHUB_TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a\n",
            vec![],
            false,
        );
        assert_eq!(r.text, "Next: deploy with GITHUB_TOKEN=[REDACTED]\n");
    }

    #[test]
    fn short_text_is_untouched() {
        let r = finish("hello\n", vec!["a".into()], false);
        assert_eq!(r.text, "hello\n");
        assert!(!r.truncated);
        assert_eq!(r.tokens_estimate, 2);
    }

    #[test]
    fn long_text_is_cut_visibly_within_the_limit() {
        let line = "x".repeat(99);
        let text = format!("{line}\n").repeat(300);
        let r = finish(&text, vec![], false);
        assert!(r.truncated);
        assert!(r.text.chars().count() <= INJECTION_LIMIT_CHARS);
        let last = r.text.lines().last().unwrap();
        let kept = r.text.chars().count() - last.chars().count() - 1;
        assert_eq!(
            last,
            format!(
                "[… truncated by resume-tui: {} characters omitted …]",
                30_000 - kept
            )
        );
        assert!(
            r.text.lines().rev().nth(1).unwrap() == line,
            "cut at a line end"
        );
    }

    #[test]
    fn a_single_huge_line_is_cut_mid_line() {
        let text = "é".repeat(20_000);
        let (cut, was_cut) = limit(&text, 100);
        assert!(was_cut);
        assert!(cut.chars().count() <= 100);
        assert!(cut.ends_with("characters omitted …]"));
    }
}
