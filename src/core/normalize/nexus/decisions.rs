//! A Nexus build's `02-resources/decisions.md`, the file Nexus's compaction
//! templates tell an agent to write each decision to ("Made decision? → Write to
//! `02-resources/decisions.md` → Add to list"). It has no schema, so every
//! Markdown way of listing things is read: a table with a "decision" column,
//! top-level list items, or one heading per decision with its text under it.
//! Each becomes a [`Decision`]: a leading `D-001:`/`**DEC-2**` is its id, the
//! first `YYYY-MM-DD` its date, a `[x]`/`[ ]` box its applied flag, indented
//! lines and the text under a heading its rationale.

use crate::core::model::Decision;

/// The most decisions kept, and the longest text kept of each part.
const MAX_DECISIONS: usize = 500;
const MAX_TEXT: usize = 2_000;

/// The folder of a build that holds its decisions file, beside its manifest.
pub const RESOURCES_DIR: &str = "02-resources";
/// The decisions file's path from the build's folder.
pub const DECISIONS_FILE: &str = "02-resources/decisions.md";

pub fn parse_decisions(text: &str) -> Vec<Decision> {
    let lines = content_lines(text);
    let mut out = from_table(&lines);
    if out.is_empty() {
        out = from_lists_and_headings(&lines);
    }
    out.truncate(MAX_DECISIONS);
    out
}

/// The lines outside a frontmatter and outside fenced code.
fn content_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.first().is_some_and(|l| l.trim() == "---")
        && let Some(end) = lines.iter().skip(1).position(|l| l.trim() == "---")
    {
        lines.drain(..end + 2);
    }
    let mut fenced = false;
    lines
        .into_iter()
        .filter(|line| {
            let fence =
                line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
            fenced ^= fence;
            !fence && !fenced
        })
        .collect()
}

fn from_table(lines: &[&str]) -> Vec<Decision> {
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split('|').map(|c| c.trim().to_string()).collect()
    };
    let Some((header_at, header_line)) = lines.iter().enumerate().find(|(_, l)| {
        l.trim_start().starts_with('|')
            && cells(l)
                .iter()
                .any(|c| c.to_lowercase().contains("decision"))
    }) else {
        return Vec::new();
    };
    let header: Vec<String> = cells(header_line)
        .iter()
        .map(|c| c.to_lowercase())
        .collect();
    let column = |names: &[&str]| {
        header
            .iter()
            .position(|h| names.iter().any(|n| h.contains(n)))
    };
    let decision_col = column(&["decision", "title"]);
    let id_col = column(&["id", "#"]).filter(|c| Some(*c) != decision_col);
    let date_col = column(&["date", "when"]);
    let why_col = column(&["rationale", "why", "reason"]);
    let status_col = column(&["status", "applied"]);
    lines
        .iter()
        .skip(header_at + 1)
        .take_while(|l| l.trim_start().starts_with('|'))
        .filter(|l| !l.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t')))
        .filter_map(|l| {
            let row = cells(l);
            let get = |c: Option<usize>| c.and_then(|c| row.get(c)).filter(|v| !v.is_empty());
            let text = get(decision_col)?;
            let mut d = decision_from(text);
            d.id = get(id_col).cloned().or(d.id);
            d.date = get(date_col).and_then(|v| first_date(v)).or(d.date);
            d.rationale = get(why_col).map(|v| cut(v));
            d.applied = get(status_col)
                .and_then(|v| status_applied(v))
                .or(d.applied);
            Some(d)
        })
        .collect()
}

fn from_lists_and_headings(lines: &[&str]) -> Vec<Decision> {
    let mut out: Vec<Decision> = Vec::new();
    // The open heading's decision, kept only if its section lists nothing.
    let mut heading: Option<(Decision, bool)> = None;
    let mut in_item = false;
    let close = |heading: &mut Option<(Decision, bool)>, out: &mut Vec<Decision>| {
        if let Some((d, false)) = heading.take() {
            out.push(d);
        }
    };
    for line in lines {
        let trimmed = line.trim();
        if let Some(title) = heading_text(trimmed) {
            close(&mut heading, &mut out);
            in_item = false;
            heading = title_is_a_decision(title).then(|| (decision_from(title), false));
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some(item) = list_item(trimmed).filter(|_| indent <= 1) {
            if let Some((_, listed)) = &mut heading {
                *listed = true;
            }
            out.push(decision_from(item));
            in_item = true;
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let under_item = in_item && indent > 1;
        let target = if under_item {
            out.last_mut()
        } else {
            in_item = false;
            heading.as_mut().map(|(d, _)| d)
        };
        if let Some(d) = target {
            let more = list_item(trimmed).unwrap_or(trimmed);
            let more = strip_label(more, &["rationale", "why", "reason", "because"]);
            append_rationale(d, more);
        }
    }
    close(&mut heading, &mut out);
    out
}

fn heading_text(line: &str) -> Option<&str> {
    let hashes = line.chars().take_while(|c| *c == '#').count();
    let rest = line.get(hashes..)?;
    ((2..=6).contains(&hashes) && rest.starts_with(' ')).then(|| rest.trim())
}

/// A heading that only groups ("Decisions", "Decision log", "Index") is no decision.
fn title_is_a_decision(title: &str) -> bool {
    let lower = title.to_lowercase();
    let lower = lower.trim_matches(|c: char| !c.is_alphanumeric());
    !matches!(
        lower,
        "decisions" | "decision log" | "decision record" | "decision records" | "index" | "log"
    ) && !lower.is_empty()
}

fn list_item(line: &str) -> Option<&str> {
    if let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|m| line.strip_prefix(m)) {
        return Some(rest.trim());
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = line.get(digits..)?;
    (digits > 0)
        .then(|| rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")))
        .flatten()
        .map(str::trim)
}

fn decision_from(text: &str) -> Decision {
    let rest = text.get(4..).unwrap_or_default();
    let (applied, text) = match text.get(..4) {
        Some("[x] " | "[X] ") => (Some(true), rest),
        Some("[ ] ") => (Some(false), rest),
        _ => (None, text),
    };
    let (id, rest) = leading_id(text);
    if let Some((bold, after)) = bold_lead(rest) {
        return Decision {
            id,
            decision: cut(bold),
            rationale: Some(cut(after)),
            applied,
            date: first_date(text),
            ..Decision::default()
        };
    }
    let (decision, rationale) = match strip_bold(rest).split_once(" — ") {
        Some((d, why)) if !d.trim().is_empty() && !why.trim().is_empty() => {
            (strip_bold(d.trim()), Some(cut(why.trim())))
        }
        _ => (strip_bold(rest), None),
    };
    Decision {
        id,
        decision: cut(decision),
        rationale,
        applied,
        date: first_date(text),
        ..Decision::default()
    }
}

/// `D-001: …`, `**DEC-2** …`, `ADR-12 — …`: an id of letters, an optional dash
/// and digits at the start.
fn leading_id(text: &str) -> (Option<String>, &str) {
    let bare = text.trim_start_matches("**");
    let end = bare
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(bare.len());
    let (word, after) = bare.split_at(end);
    let letters = word.chars().take_while(char::is_ascii_uppercase).count();
    let tail = word
        .get(letters..)
        .unwrap_or_default()
        .trim_start_matches(['-', '_']);
    let is_id =
        (1..=6).contains(&letters) && !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit());
    if !is_id {
        return (None, text);
    }
    let rest = after
        .trim_start_matches("**")
        .trim_start_matches([':', ' ', '—', '-', '.', ')'])
        .trim_start();
    (Some(word.to_string()), rest)
}

/// `**Poll every 30 s.** Windows close hourly`: the bold lead is the decision,
/// the text after it the rationale.
fn bold_lead(text: &str) -> Option<(&str, &str)> {
    let (bold, after) = text.strip_prefix("**")?.split_once("**")?;
    let after = after.trim_start_matches([':', ' ', '—', '-', '.']).trim();
    (!bold.trim().is_empty() && !after.is_empty()).then(|| (bold.trim(), after))
}

fn strip_bold(text: &str) -> &str {
    text.strip_prefix("**")
        .and_then(|t| t.strip_suffix("**"))
        .filter(|t| !t.contains("**"))
        .unwrap_or(text)
}

fn strip_label<'a>(text: &'a str, labels: &[&str]) -> &'a str {
    let bare = text.trim_start_matches('*');
    labels
        .iter()
        .find_map(|label| {
            let head = bare.get(..label.len())?;
            let rest = bare.get(label.len()..)?;
            head.eq_ignore_ascii_case(label)
                .then(|| rest.trim_start_matches(['*', ':']).trim_start())
        })
        .unwrap_or(text)
}

fn append_rationale(d: &mut Decision, more: &str) {
    if more.is_empty() {
        return;
    }
    let joined = match d.rationale.take() {
        Some(before) => format!("{before} {more}"),
        None => more.to_string(),
    };
    d.rationale = Some(cut(&joined));
}

fn first_date(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(9)).find_map(|at| {
        let candidate = text.get(at..at + 10)?;
        let shape = candidate.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
        let alone = at
            .checked_sub(1)
            .and_then(|before| bytes.get(before))
            .is_none_or(|b| !b.is_ascii_digit());
        (shape && alone).then(|| candidate.to_string())
    })
}

fn status_applied(status: &str) -> Option<bool> {
    let lower = status.to_lowercase();
    if ["applied", "accepted", "done", "yes", "✓", "[x]"]
        .iter()
        .any(|w| lower.contains(w))
    {
        Some(true)
    } else if ["proposed", "pending", "open", "no", "[ ]"]
        .iter()
        .any(|w| lower.contains(w))
    {
        Some(false)
    } else {
        None
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        Some((at, _)) => format!("{}…", text.get(..at).unwrap_or_default()),
        None => text.to_string(),
    }
}

#[cfg(test)]
#[path = "decisions_tests.rs"]
mod tests;
