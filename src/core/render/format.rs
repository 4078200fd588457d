//! How the renderers write prose and numbers: one-line folding, abbreviation, word
//! wrap, percentages, scores, thousands, phase and gate names.

use super::budget::INJECTION_LIMIT_CHARS;
use crate::core::text::cut;

/// Width the renderers wrap prose at (the seeds' examples wrap near 90).
pub const WRAP_WIDTH: usize = 90;

/// Longest text [`one_line`] folds whole: more than any renderer keeps
/// (`INJECTION_LIMIT_CHARS` characters of up to 4 bytes), and more than
/// [`abbreviate`] and [`wrap`] hand it (their cut plus the redaction margin).
const ONE_LINE_MAX_BYTES: usize = INJECTION_LIMIT_CHARS * 4 + 2 * cut::REDACTION_MARGIN;

/// Collapses all runs of whitespace (newlines included) into single spaces.
///
/// A text longer than [`ONE_LINE_MAX_BYTES`] is folded only that far and ends in
/// ` …`: the rendered text it goes into is cut to `INJECTION_LIMIT_CHARS` anyway,
/// and folding a 10 MB value whole, several times per prompt, made the dashboard's
/// Prompt tab take most of a second per key (docs/performance.md). The cut falls
/// on a space when one is near (within the redaction margin), so no word is left
/// half there: the redaction of the finished text (`budget::finish`) sees whole
/// words only, and a secret is never cut down to a part it would not recognise.
pub fn one_line(text: &str) -> String {
    let head = cut::prefix(text, ONE_LINE_MAX_BYTES);
    if head.len() == text.len() {
        return text.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    let floor = head.len().saturating_sub(cut::REDACTION_MARGIN);
    let head = match head.rfind(char::is_whitespace) {
        Some(space) if space >= floor => head.get(..space).unwrap_or(head),
        _ => head,
    };
    let mut out = head.split_whitespace().collect::<Vec<_>>().join(" ");
    out.push_str(" …");
    out
}

/// `text` on one line, cut to `max` characters with a trailing `…` when longer.
/// Secrets are redacted first: a cut through one would leave part of it that
/// no longer looks like a secret. Only the part that can be kept is redacted and
/// folded (`core::text::cut::scrubbed_head`: `max` characters of up to 4 bytes, plus a
/// margin for a secret straddling the cut), so a 10 MB value costs what a short
/// one does.
pub fn abbreviate(text: &str, max: usize) -> String {
    let (clean, precut) = cut::scrubbed_head(text, max.saturating_mul(4));
    let line = one_line(&clean);
    if !precut && line.chars().count() <= max {
        return line;
    }
    let mut cut: String = line.chars().take(max.saturating_sub(1)).collect();
    if let Some(space) = cut.rfind(' ').filter(|i| *i * 3 >= cut.len() * 2) {
        cut.truncate(space);
    }
    format!("{}…", cut.trim_end())
}

/// Greedy word wrap of `text` (collapsed to one line) after `first`, continuing
/// lines with `indent` spaces. Words longer than the width stay whole. Secrets
/// are redacted first: a line break between `Basic` and its credential, or
/// between `secret:` and its value, would hide them from the redaction of the
/// finished text.
///
/// Every rendered text ends in `budget::finish`, which keeps at most
/// `INJECTION_LIMIT_CHARS` characters, so no more than that is wrapped: a longer
/// `text` is cut first (with a margin for redaction, `core::text::cut`) and ends
/// in `…`, and the budget's own marker then says how much was left out.
pub fn wrap(first: &str, indent: usize, text: &str) -> String {
    let (mut text, precut) = cut::scrubbed_head(text, INJECTION_LIMIT_CHARS * 4);
    if precut {
        text.to_mut().push_str(" …");
    }
    let pad = " ".repeat(indent);
    let mut out = String::from(first);
    let mut width = first.chars().count();
    let mut line_has_word = !first.trim().is_empty() && !first.ends_with(' ');
    for word in text.split_whitespace() {
        let len = word.chars().count();
        if line_has_word && width + 1 + len > WRAP_WIDTH {
            out.push('\n');
            out.push_str(&pad);
            width = indent;
        } else if line_has_word {
            out.push(' ');
            width += 1;
        } else if width > indent && width + len > WRAP_WIDTH && indent + len <= WRAP_WIDTH {
            // The prefix leaves no room for a word that fits on a line of its own.
            out.truncate(out.trim_end().len());
            out.push('\n');
            out.push_str(&pad);
            width = indent;
        }
        out.push_str(word);
        width += len;
        line_has_word = true;
    }
    out
}

/// A 0–1 fraction as a percentage with one decimal: `0.886` → `88.6%`.
pub fn percent(fill: f64) -> String {
    format!("{:.1}%", fill * 100.0)
}

/// A score with at least three decimals, more when the file wrote more:
/// `0.96` → `0.960`, `0.9505` → `0.9505`.
pub fn score(value: f64) -> String {
    for decimals in 3..=6 {
        let shown = format!("{value:.decimals$}");
        if shown
            .parse::<f64>()
            .is_ok_and(|back| (back - value).abs() < 1e-9)
        {
            return shown;
        }
    }
    format!("{value:.6}")
}

/// `146400` → `146,400`.
pub fn thousands(value: i64) -> String {
    let digits = value.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if value < 0 { format!("-{out}") } else { out }
}

/// `[3]` → `Phase 3`, `[3, 4]` → `Phases 3, 4`, `[]` → `None`.
pub fn phases(list: &[i64]) -> Option<String> {
    let joined = list
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    match list.len() {
        0 => None,
        1 => Some(format!("Phase {joined}")),
        _ => Some(format!("Phases {joined}")),
    }
}

/// Ends a sentence with a full stop unless it already ends with punctuation.
pub fn sentence(text: &str) -> String {
    let text = one_line(text);
    match text.chars().last() {
        Some('.' | '!' | '?' | ':' | ';' | '…') | None => text,
        Some(_) => format!("{text}."),
    }
}

/// `qg-2` → `QG-2`, `qg-final` → `QG-Final`.
pub fn gate_title(gate: &str) -> String {
    let Some(rest) = gate
        .strip_prefix("qg-")
        .or_else(|| gate.strip_prefix("QG-"))
    else {
        return gate.to_string();
    };
    let mut chars = rest.chars();
    let head: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("QG-{head}{}", chars.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_with_a_hanging_indent() {
        let text = "word ".repeat(40);
        let wrapped = wrap("- agent: ", 2, &text);
        let lines: Vec<&str> = wrapped.lines().collect();
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.chars().count() <= WRAP_WIDTH));
        assert!(lines[0].starts_with("- agent: word"));
        assert!(lines[1].starts_with("  word"));
        assert_eq!(one_line(&wrapped), one_line(&format!("- agent: {text}")));
    }

    #[test]
    fn long_words_stay_whole() {
        let path = "a/".repeat(60);
        assert_eq!(wrap("File: ", 3, &path), format!("File: {path}"));
    }

    #[test]
    fn numbers_are_formatted_like_the_seeds() {
        assert_eq!(percent(0.886), "88.6%");
        assert_eq!(score(0.96), "0.960");
        assert_eq!(score(0.9505), "0.9505");
        assert_eq!(score(1.0), "1.000");
        assert_eq!(thousands(146_400), "146,400");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(phases(&[3]).as_deref(), Some("Phase 3"));
        assert_eq!(phases(&[3, 4]).as_deref(), Some("Phases 3, 4"));
        assert_eq!(gate_title("qg-final"), "QG-Final");
        assert_eq!(gate_title("qg-2"), "QG-2");
        assert_eq!(gate_title("barrier-1"), "barrier-1");
    }

    #[test]
    fn abbreviates_on_a_word_boundary() {
        assert_eq!(abbreviate("short", 10), "short");
        let cut = abbreviate("alpha beta gamma delta epsilon", 20);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(cut.chars().count() <= 20, "{cut}");
        assert_eq!(cut, "alpha beta gamma…");
    }

    #[test]
    fn a_huge_text_is_cut_before_it_is_redacted_and_folded() {
        let huge = "lorem ipsum ".repeat(1_000_000);
        let cut = abbreviate(&huge, 100);
        assert!(cut.ends_with('…') && cut.chars().count() <= 100, "{cut}");
        assert!(cut.starts_with("lorem ipsum lorem"), "{cut}");
        let folded = one_line(&huge);
        assert!(folded.len() <= ONE_LINE_MAX_BYTES + 4, "{}", folded.len());
        assert!(folded.ends_with("ipsum …"), "cut on a space");
        let wrapped = wrap("- ", 2, &huge);
        assert!(
            wrapped.len() < INJECTION_LIMIT_CHARS * 4 + 2 * cut::REDACTION_MARGIN,
            "{}",
            wrapped.len()
        );
        assert!(wrapped.ends_with('…'));
        // Whitespace folds away: a long text that is mostly spaces is still cut
        // visibly.
        let sparse = format!("a{}b", " ".repeat(10_000_000));
        assert_eq!(abbreviate(&sparse, 100), "a…");
    }

    #[test]
    fn a_secret_straddling_the_cut_is_still_redacted() {
        // The key block starts before the cut and ends far past the margin.
        let key = format!(
            "-----BEGIN PRIVATE KEY-----\n{}-----END PRIVATE KEY-----",
            "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n".repeat(10_000)
        );
        let text = format!("{} {key} after", "word ".repeat(15));
        let cut = abbreviate(&text, 100);
        assert!(!cut.contains("MIIE") && !cut.contains("BEGIN"), "{cut}");
        let wrapped = wrap("", 0, &format!("{}{key}", "w ".repeat(19_990)));
        assert!(
            !wrapped.contains("MIIE"),
            "{}",
            &wrapped[wrapped.len() - 100..]
        );
        // A token right at the cut.
        let token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
        let text = format!("{} {token} {}", "a".repeat(97), "b ".repeat(100_000));
        assert!(!abbreviate(&text, 100).contains("ghp_"));
    }

    #[test]
    fn sentences_end_once() {
        assert_eq!(sentence("Done"), "Done.");
        assert_eq!(sentence("Done."), "Done.");
    }
}
