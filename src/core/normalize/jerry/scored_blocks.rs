//! Scored gates a workflow keeps outside `quality_gates:`: its `barriers:` (a
//! barrier with a `quality:` block is a gate: `actual_score`, `actual_scores.composite`,
//! `iterations_used`) and `metrics.quality` (a `scores:` list of
//! `{barrier, score, iterations}`, or flat `<gate>_score` / `<gate>_iterations`
//! keys). Only gates with a score are taken: a barrier that is a hand-off is not
//! a gate.

use yaml_serde::Value;

use super::gates::gate;
use crate::core::normalize::value::{float, get, int, key_text};
use crate::core::trajectory::{GateTrajectory, same_gate};

/// `quality_gates` first, then each scored gate of the other blocks: a gate
/// already known by id gains the scores and iteration count it lacked.
pub(super) fn merge_scored_blocks(
    mut gates: Vec<GateTrajectory>,
    doc: &Value,
) -> Vec<GateTrajectory> {
    for found in barriers(doc).into_iter().chain(metrics(doc)) {
        match gates.iter_mut().find(|g| same_gate(&g.gate, &found.gate)) {
            Some(known) if known.scores.is_empty() => {
                known.scores = found.scores;
                known.iterations = known.iterations.or(found.iterations);
                known.threshold = known.threshold.or(found.threshold);
            }
            Some(known) => known.iterations = known.iterations.or(found.iterations),
            None => gates.push(found),
        }
    }
    gates
}

/// A `quality_gates` entry with no score whose status does not say it passed,
/// while `barriers:` or `metrics.quality` records it scored at or above its
/// threshold: its status was left behind. One line each, with the key.
pub(super) fn statuses_behind_scores(doc: &Value) -> Vec<(String, String)> {
    let listed = super::gates::quality_gates(doc);
    let elsewhere: Vec<(GateTrajectory, &str)> = barriers(doc)
        .into_iter()
        .map(|g| (g, "barriers"))
        .chain(metrics(doc).into_iter().map(|g| (g, "metrics.quality")))
        .collect();
    let passed = |s: &str| {
        let s = s.to_ascii_uppercase();
        ["PASS", "COMPLETE", "DONE", "ACCEPTED"]
            .iter()
            .any(|w| s.contains(w))
    };
    listed
        .iter()
        .filter(|g| g.scores.is_empty())
        .filter_map(|g| {
            let status = g.status.as_deref().filter(|s| !passed(s))?;
            let (found, block) = elsewhere
                .iter()
                .find(|(f, _)| same_gate(&f.gate, &g.gate))?;
            let score = *found.scores.last()?;
            let threshold = g.threshold.or(found.threshold)?;
            (score >= threshold).then(|| {
                (
                    "quality_gates".to_string(),
                    format!(
                        "quality_gates marks {} {status}, but {block} records it scored {score} \
                         (threshold {threshold})",
                        g.gate
                    ),
                )
            })
        })
        .collect()
}

fn barriers(doc: &Value) -> Vec<GateTrajectory> {
    entries(get(doc, "barriers"))
}

/// The entries of a list, or of a map keyed by id, that are scored gates.
fn entries(block: Option<&Value>) -> Vec<GateTrajectory> {
    let scored = |g: &GateTrajectory| !g.scores.is_empty();
    match block {
        Some(Value::Sequence(items)) => items
            .iter()
            .filter_map(|v| gate(v, None))
            .filter(scored)
            .collect(),
        Some(Value::Mapping(map)) => map
            .iter()
            .filter_map(|(k, v)| gate(v, Some(key_text(k))))
            .filter(scored)
            .collect(),
        _ => Vec::new(),
    }
}

fn metrics(doc: &Value) -> Vec<GateTrajectory> {
    let Some(quality) = get(doc, "metrics").and_then(|m| get(m, "quality")) else {
        return Vec::new();
    };
    let mut found = entries(get(quality, "scores"));
    for (key, value) in quality.as_mapping().into_iter().flatten() {
        let key = key_text(key);
        let Some(id) = key.strip_suffix("_score").filter(|id| is_a_gate(id)) else {
            continue;
        };
        let Some(score) = float(value) else {
            continue;
        };
        let iterations = get(quality, &format!("{id}_iterations")).and_then(int);
        found.push(GateTrajectory {
            gate: id.to_string(),
            scores: vec![score],
            iterations,
            ..GateTrajectory::default()
        });
    }
    found
}

/// `average_score`, `lowest_enabler_score`, `phase_1_avg_score` and the like sum
/// gates up, and `current_score` names none: they are not a gate.
fn is_a_gate(id: &str) -> bool {
    let summary = [
        "average", "avg", "mean", "min", "max", "lowest", "highest", "overall", "total", "median",
        "current",
    ];
    !id.is_empty()
        && !summary
            .iter()
            .any(|s| id == *s || id.starts_with(&format!("{s}_")) || id.ends_with(&format!("_{s}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(text: &str) -> Vec<GateTrajectory> {
        let doc: Value = yaml_serde::from_str(text).expect("test YAML");
        merge_scored_blocks(super::super::gates::quality_gates(&doc), &doc)
    }

    #[test]
    fn a_barrier_with_a_quality_block_is_a_scored_gate() {
        let g = scored(
            "barriers:\n  - id: b-1\n    status: PASSED\n    quality:\n      threshold: 0.95\n      \
             max_iterations: 5\n      actual_score: 0.96\n      iterations_used: 2\n  \
             - id: b-2\n    status: PASSED\n    quality:\n      actual_scores: {feat_a: 0.95, composite: 0.957}\n  \
             - id: handoff\n    status: COMPLETE\n",
        );
        assert_eq!(g.len(), 2, "{g:?}");
        assert_eq!(
            (g[0].gate.as_str(), g[0].scores.clone(), g[0].iterations),
            ("b-1", vec![0.96], Some(2))
        );
        assert_eq!((g[0].threshold, g[0].max_iterations), (Some(0.95), Some(5)));
        assert_eq!(g[0].status.as_deref(), Some("PASSED"));
        assert_eq!(g[1].scores, vec![0.957]);
    }

    #[test]
    fn metrics_quality_scores_and_flat_keys_with_their_iterations() {
        let g = scored(
            "metrics:\n  quality:\n    pg1_result: PASS\n    pg2_score: null\n    pg5_score: 0.951\n    \
             pg5_iterations: 3\n    average_score: 0.9\n    lowest_enabler_score: 0.8\n    \
             phase_1_avg_score: 0.9\n    current_score: 0.7\n    scores:\n      - {barrier: b-4, score: 0.952, iterations: 2}\n",
        );
        let ids: Vec<(&str, Option<i64>)> =
            g.iter().map(|g| (g.gate.as_str(), g.iterations)).collect();
        assert_eq!(ids, vec![("b-4", Some(2)), ("pg5", Some(3))]);
    }

    #[test]
    fn a_known_gate_gains_the_score_it_lacked() {
        let g = scored(
            "quality_gates:\n  - {id: QG-1, status: PASS}\n  - id: qg-2\n    score_recorded: 0.93\n    \
             iterations: 4\nmetrics:\n  quality:\n    qg_1_score: 0.94\n    qg_1_iterations: 2\n",
        );
        assert_eq!(
            (g[0].scores.clone(), g[0].iterations),
            (vec![0.94], Some(2))
        );
        assert_eq!(
            (g[1].scores.clone(), g[1].iterations),
            (vec![0.93], Some(4))
        );
        assert_eq!(g.len(), 2);
    }

    #[test]
    fn a_gate_status_behind_a_passing_score_elsewhere() {
        let doc: Value = yaml_serde::from_str(
            "quality_gates:\n  - {id: qg2, status: BLOCKED, threshold: 0.92}\n  \
             - {id: qg3, status: BLOCKED, threshold: 0.92}\n  - {id: qg4, status: PENDING}\n\
             metrics:\n  quality:\n    qg2_score: 0.97\n    qg3_score: 0.9\n    qg4_score: 0.99\n",
        )
        .expect("test YAML");
        assert_eq!(
            statuses_behind_scores(&doc),
            [(
                "quality_gates".to_string(),
                "quality_gates marks qg2 BLOCKED, but metrics.quality records it scored 0.97 \
                 (threshold 0.92)"
                    .to_string()
            )],
            "qg3 is below its threshold; qg4 has none to judge by"
        );
    }

    #[test]
    fn a_score_map_gives_its_composite() {
        let g = scored("quality_gates:\n  - id: qg-1\n    score: {composite: 0.927, band: PASS}\n");
        assert_eq!(g[0].scores, vec![0.927]);
        assert!(scored("barriers: 3\nmetrics: {quality: [1]}\n").is_empty());
    }
}
