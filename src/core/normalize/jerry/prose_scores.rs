//! Gate scores written in v1 `current_state` prose: "QG-1: 0.941, QG-2: 0.9505",
//! "QG-Final: 0.9335", "QG-1 PASS (0.9340)", "PG5 PASS (0.951)".

const PREFIXES: &[&str] = &["qg", "pg", "gate"];

/// Gate → scores in order of mention (a repeated identical score counts once).
pub(super) fn scores_in_prose(text: &str) -> Vec<(String, Vec<f64>)> {
    let chars: Vec<char> = text.chars().collect();
    let mut found: Vec<(String, Vec<f64>)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let boundary = i == 0
            || chars
                .get(i - 1)
                .is_some_and(|c| !c.is_alphanumeric() && *c != '-' && *c != '_');
        if boundary && let Some(end) = gate_id_end(&chars, i) {
            if let Some(score) = score_after(&chars, end) {
                let id: String = chars.iter().skip(i).take(end - i).collect();
                match found.iter_mut().find(|(g, _)| *g == id) {
                    Some((_, scores)) if scores.last() == Some(&score) => {}
                    Some((_, scores)) => scores.push(score),
                    None => found.push((id, vec![score])),
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// Where a gate id (`QG-1`, `qg_final`, `PG5`, `GATE-4`) starting at `at` ends.
fn gate_id_end(chars: &[char], at: usize) -> Option<usize> {
    let prefix = PREFIXES.iter().find(|p| {
        p.chars().enumerate().all(|(k, c)| {
            chars
                .get(at + k)
                .is_some_and(|x| x.to_ascii_lowercase() == c)
        })
    })?;
    let mut i = at + prefix.len();
    let separated = matches!(chars.get(i), Some('-' | '_'));
    if separated {
        i += 1;
    }
    let start = i;
    while let Some(c) = chars.get(i) {
        let joins = matches!(c, '-' | '_') && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric());
        if c.is_alphanumeric() || (joins && i > start) {
            i += 1;
        } else {
            break;
        }
    }
    let suffix_has_digit = chars.get(start..i)?.iter().any(char::is_ascii_digit);
    (i > start && (separated || suffix_has_digit)).then_some(i)
}

/// A score right after a gate id: `: 0.94`, ` PASS (0.934)`, ` = 0.9`.
fn score_after(chars: &[char], from: usize) -> Option<f64> {
    let mut i = skip_spaces(chars, from);
    if matches!(chars.get(i), Some(':' | '=')) {
        i = skip_spaces(chars, i + 1);
    }
    for _ in 0..2 {
        let word_end = (i..).find(|&j| {
            !chars
                .get(j)
                .is_some_and(|c| c.is_ascii_uppercase() || *c == '-')
        })?;
        if word_end - i >= 2 {
            i = skip_spaces(chars, word_end);
        }
    }
    if chars.get(i) == Some(&'(') {
        i = skip_spaces(chars, i + 1);
    }
    let start = i;
    while chars.get(i).is_some_and(char::is_ascii_digit) {
        i += 1;
    }
    if i == start
        || chars.get(i) != Some(&'.')
        || !chars.get(i + 1).is_some_and(char::is_ascii_digit)
    {
        return None;
    }
    i += 1;
    while chars.get(i).is_some_and(char::is_ascii_digit) {
        i += 1;
    }
    if chars
        .get(i)
        .is_some_and(|c| c.is_alphanumeric() || *c == '%')
    {
        return None;
    }
    let number: String = chars.get(start..i)?.iter().collect();
    number
        .parse::<f64>()
        .ok()
        .filter(|s| (0.0..=1.0).contains(s))
}

fn skip_spaces(chars: &[char], from: usize) -> usize {
    (from..)
        .find(|&j| chars.get(j).is_none_or(|c| *c != ' '))
        .unwrap_or(from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(text: &str) -> Vec<(String, Vec<f64>)> {
        scores_in_prose(text)
    }

    fn pairs(list: &[(&str, &[f64])]) -> Vec<(String, Vec<f64>)> {
        list.iter()
            .map(|(g, s)| (g.to_string(), s.to_vec()))
            .collect()
    }

    #[test]
    fn colon_lists_of_gate_scores() {
        assert_eq!(
            scores(
                "All 4 quality gates PASS (QG-1: 0.941, QG-2: 0.9505, QG-3: 0.935, QG-Final: 0.9335)."
            ),
            pairs(&[
                ("QG-1", &[0.941]),
                ("QG-2", &[0.9505]),
                ("QG-3", &[0.935]),
                ("QG-Final", &[0.9335]),
            ])
        );
    }

    #[test]
    fn verdicts_and_parentheses_between_gate_and_score() {
        assert_eq!(
            scores("QG-1 PASS (0.9340). QG-2 CONDITIONAL PASS (0.9440). PG5 PASS (0.951)."),
            pairs(&[("QG-1", &[0.934]), ("QG-2", &[0.944]), ("PG5", &[0.951])])
        );
    }

    #[test]
    fn repeated_mentions_append_new_scores_only() {
        assert_eq!(
            scores("QG-1: 0.88 then QG-1: 0.93, QG-1 PASS (0.93)"),
            pairs(&[("QG-1", &[0.88, 0.93])])
        );
    }

    #[test]
    fn non_scores_and_non_gates_are_ignored() {
        assert!(scores("All 3 gates PASS (0.95). C4 tournament PASS (0.9355).").is_empty());
        assert!(scores("QG-2: 3 iterations, QG-3: 95%, QG-4: 12.5, subqg-1: 0.9").is_empty());
        assert!(scores("").is_empty());
        assert!(scores("QG").is_empty());
        assert!(scores("QG-1:").is_empty());
    }
}
