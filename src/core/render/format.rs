//! How the renderers write prose and numbers: one-line folding, abbreviation, word
//! wrap, percentages, scores, thousands, phase and gate names.

/// Width the renderers wrap prose at (the seeds' examples wrap near 90).
pub const WRAP_WIDTH: usize = 90;

/// Collapses all runs of whitespace (newlines included) into single spaces.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` on one line, cut to `max` characters with a trailing `…` when longer.
/// Secrets are redacted first: a cut through one would leave part of it that
/// no longer looks like a secret.
pub fn abbreviate(text: &str, max: usize) -> String {
    let line = one_line(&crate::core::redact::scrub(text));
    if line.chars().count() <= max {
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
pub fn wrap(first: &str, indent: usize, text: &str) -> String {
    let text = crate::core::redact::scrub(text);
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
    fn sentences_end_once() {
        assert_eq!(sentence("Done"), "Done.");
        assert_eq!(sentence("Done."), "Done.");
    }
}
