//! Gate details and score histories from the top-level `quality_gates:` block,
//! (else `gates:`), which real files write as a map of gates, a list of gates, or
//! a map holding a `gates:` list; then the scored gates kept outside it
//! (`barriers:`, `metrics.quality`, see `scored_blocks`).

use yaml_serde::Value;

use crate::core::normalize::value::{float, get, get_text, int, key_text};
use crate::core::trajectory::{GateTrajectory, lowest_dimension};

pub(super) fn quality_gates(doc: &Value) -> Vec<GateTrajectory> {
    let Some(block) = get(doc, "quality_gates").or_else(|| get(doc, "gates")) else {
        return Vec::new();
    };
    let mut gates = Vec::new();
    match block {
        Value::Sequence(items) => gates.extend(items.iter().filter_map(|g| gate(g, None))),
        Value::Mapping(map) => {
            for (k, v) in map {
                match v {
                    Value::Mapping(_) => gates.extend(gate(v, Some(key_text(k)))),
                    Value::Sequence(items) => {
                        gates.extend(items.iter().filter_map(|g| gate(g, None)));
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    gates
}

pub(super) fn gate(value: &Value, key: Option<String>) -> Option<GateTrajectory> {
    value.as_mapping()?;
    let id = ["id", "gate", "barrier"]
        .iter()
        .find_map(|k| get_text(value, k))
        .or(key)?;
    // A barrier keeps its threshold, budget and scores in a `quality:` block.
    let inner = get(value, "quality").filter(|q| q.is_mapping());
    let either = |k: &str| get(value, k).or_else(|| inner.and_then(|q| get(q, k)));
    let mut scores = scores(value);
    if scores.is_empty()
        && let Some(q) = inner
    {
        scores = self::scores(q);
    }
    Some(GateTrajectory {
        gate: id,
        name: get_text(value, "name"),
        scores,
        iterations: ITERATION_KEYS.iter().find_map(|k| either(k).and_then(int)),
        threshold: either("threshold").and_then(threshold),
        max_iterations: either("max_iterations").and_then(int),
        // A scores list entry says how its gate ended in `result` (`PASS`).
        status: ["status", "result", "verdict"]
            .iter()
            .find_map(|k| get_text(value, k)),
        lowest_dimension: dimensions(value),
        scored_at: ["completed_at", "date", "scored_at"]
            .iter()
            .find_map(|k| get_text(value, k))
            .and_then(|t| super::state::parse_date(&t)),
    })
}

/// `iteration_history[].score`, else `iteration_scores` (a list of scores or of
/// `{iteration, score}`, or a map of iteration to score), else `score_iteration_N`
/// keys; then a final `score` (or `final_score`) when it is not the last already.
fn scores(value: &Value) -> Vec<f64> {
    if let Some(history) = get(value, "iteration_history").and_then(Value::as_sequence) {
        let scores: Vec<f64> = history
            .iter()
            .filter_map(|it| get(it, "score").and_then(float))
            .collect();
        if !scores.is_empty() {
            return scores;
        }
    }
    let mut scores = iteration_scores(value);
    let last = final_score(value);
    if let Some(last) = last
        && scores.last() != Some(&last)
    {
        scores.push(last);
    }
    scores
}

/// Keys a gate's result is written under, first found wins; a map under one of
/// them (`score: {composite: 0.927, band: PASS}`) gives its `composite`/`score`.
pub(super) const SCORE_KEYS: &[&str] = &[
    "score",
    "final_score",
    "score_recorded",
    "composite",
    "composite_score",
    "quality_score",
    "actual_score",
    "actual_scores",
];

/// Keys that state how many iterations a gate took (the number of its last one).
/// (`current_iteration` is the one under way, not the one scored last.)
pub(super) const ITERATION_KEYS: &[&str] = &["iterations_used", "iterations"];

fn final_score(value: &Value) -> Option<f64> {
    SCORE_KEYS.iter().find_map(|k| {
        let v = get(value, k)?;
        float(v).or_else(|| {
            ["composite", "composite_score", "score", "final"]
                .iter()
                .find_map(|inner| get(v, inner).and_then(float))
        })
    })
}

fn iteration_scores(value: &Value) -> Vec<f64> {
    let mut numbered: Vec<(f64, f64)> = match get(value, "iteration_scores") {
        Some(Value::Sequence(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, it)| {
                let score = float(it).or_else(|| get(it, "score").and_then(float))?;
                let n = get(it, "iteration").and_then(float).unwrap_or(i as f64);
                Some((n, score))
            })
            .collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .filter_map(|(k, v)| {
                let key = key_text(k);
                let digits = key.trim_start_matches(|c: char| !c.is_ascii_digit());
                Some((digits.parse().ok()?, float(v)?))
            })
            .collect(),
        _ => Vec::new(),
    };
    if !numbered.is_empty() {
        numbered.sort_by(|a, b| a.0.total_cmp(&b.0));
        return numbered.into_iter().map(|(_, s)| s).collect();
    }
    score_iteration_keys(value)
}

fn score_iteration_keys(value: &Value) -> Vec<f64> {
    let mut numbered: Vec<(u32, f64)> = value
        .as_mapping()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| {
            let n = key_text(k).strip_prefix("score_iteration_")?.parse().ok()?;
            Some((n, float(v)?))
        })
        .collect();
    numbered.sort_by_key(|(n, _)| *n);
    numbered.into_iter().map(|(_, s)| s).collect()
}

/// A number, or the lowest number of a per-reviewer map (`{ps_critic: 0.92, …}`).
fn threshold(value: &Value) -> Option<f64> {
    match value {
        Value::Mapping(map) => map.values().filter_map(float).min_by(f64::total_cmp),
        other => float(other),
    }
}

/// The weakest of the gate's `score_dimensions`, else of its last iteration's.
fn dimensions(value: &Value) -> Option<(String, f64)> {
    let from = |v: &Value| {
        let map = get(v, "score_dimensions")?.as_mapping()?;
        let dims: Vec<(String, Option<f64>)> =
            map.iter().map(|(k, s)| (key_text(k), float(s))).collect();
        lowest_dimension(&dims)
    };
    from(value).or_else(|| {
        get(value, "iteration_history")
            .and_then(Value::as_sequence)
            .and_then(|h| h.last())
            .and_then(from)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gates(text_in: &str) -> Vec<GateTrajectory> {
        quality_gates(&yaml_serde::from_str(text_in).unwrap())
    }

    #[test]
    fn a_map_of_gates_with_iteration_histories() {
        let g = gates(
            "quality_gates:\n  qg-1:\n    name: Research\n    status: PASS\n    threshold: 0.92\n    \
             max_iterations: 5\n    iteration_history:\n      - {iteration: 1, score: 0.825}\n      \
             - {iteration: 2, score: 0.916}\n      - {iteration: 3, verdict: lost}\n      \
             - {iteration: 4, score: 0.941}\n    score_dimensions: {completeness: 0.94, evidence: 0.91, \
             traceability: null}\n  threshold: 0.92\n",
        );
        assert_eq!(g.len(), 1);
        let q = &g[0];
        assert_eq!(q.gate, "qg-1");
        assert_eq!(q.scores, vec![0.825, 0.916, 0.941]);
        assert_eq!((q.threshold, q.max_iterations), (Some(0.92), Some(5)));
        assert_eq!(q.status.as_deref(), Some("PASS"));
        assert_eq!(q.lowest_dimension, Some(("evidence".to_string(), 0.91)));
    }

    #[test]
    fn a_list_of_gates_and_a_gates_list_inside_a_map() {
        let g = gates(
            "quality_gates:\n  - {id: QG-0, status: PASSED, threshold: {ps_critic: 0.92, nse_qa: 0.9}}\n  \
             - {id: QG-1, score: 0.93, iterations: 1}\n",
        );
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].threshold, Some(0.9));
        assert!(g[0].scores.is_empty());
        assert_eq!(g[1].scores, vec![0.93]);
        let g = gates(
            "quality_gates:\n  threshold: 0.92\n  gates:\n    - id: qg-1\n      score_iteration_2: 0.9075\n      \
             score_iteration_1: 0.807\n      score: 0.934\n",
        );
        assert_eq!(g[0].scores, vec![0.807, 0.9075, 0.934]);
    }

    #[test]
    fn iteration_scores_as_a_list_a_map_or_entries() {
        let g = gates(
            "quality_gates:\n  - id: QG-3\n    status: IN_PROGRESS\n    iteration_scores:\n      \
             2: 0.82\n      1: 0.67\n      3: 0.89\n    score: null\n  \
             - {id: PG-5, iteration_scores: [0.951], final_score: 0.951, completed_at: '2026-02-20T00:00:00Z'}\n  \
             - id: QG-9\n    iteration_scores:\n      - {iteration: 2, score: 0.934}\n      - {iteration: 1, score: 0.866}\n",
        );
        assert_eq!(g[0].scores, vec![0.67, 0.82, 0.89]);
        assert_eq!(g[1].scores, vec![0.951]);
        assert_eq!(g[1].scored_at.unwrap().to_iso(), "2026-02-20T00:00:00Z");
        assert_eq!(g[2].scores, vec![0.866, 0.934]);
    }

    #[test]
    fn nothing_usable_gives_nothing() {
        assert!(gates("quality_gates: 3\n").is_empty());
        assert!(gates("other: 1\n").is_empty());
        assert!(gates("quality_gates: [1, two]\n").is_empty());
    }
}
