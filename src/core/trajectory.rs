//! Quality-gate score trajectories, from whichever source a file offers.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TrajectorySource {
    /// `resumption.quality_trajectory.score_history`.
    ResumptionSection,
    /// `quality_gates.*.iteration_history[].score` elsewhere in the file, and the
    /// scored gates kept outside it (`barriers:`, `metrics.quality`).
    QualityGates,
    /// Scores written in v1 `current_state` prose ("QG-1: 0.941").
    Prose,
    #[default]
    None,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GateTrajectory {
    pub gate: String,
    pub name: Option<String>,
    pub scores: Vec<f64>,
    /// The number of the gate's last iteration as the file states it
    /// (`iterations_used`, `iterations`, `pg5_iterations`), which a list of
    /// scores may not show: a file often keeps only the final score.
    pub iterations: Option<i64>,
    pub threshold: Option<f64>,
    pub max_iterations: Option<i64>,
    pub status: Option<String>,
    /// The weakest scored dimension of the gate's last result, if recorded; tied
    /// dimensions are all named, joined with ", ".
    pub lowest_dimension: Option<(String, f64)>,
    /// When the gate's last score was given (`completed_at`, `date`), if recorded.
    pub scored_at: Option<crate::core::time::Timestamp>,
}

impl GateTrajectory {
    /// The number of the iteration its last score is from: the count the file
    /// states, unless the gate is under way (the count then includes the
    /// iteration in progress, which has no score yet); else the scores' count.
    pub fn last_scored_iteration(&self) -> usize {
        let stated = self
            .iterations
            .and_then(|n| usize::try_from(n).ok())
            .filter(|n| *n > 0 && !under_way(self.status.as_deref()));
        stated.unwrap_or(self.scores.len())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Trend {
    Rising,
    Falling,
    Flat,
    Single,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Trajectory {
    pub source: TrajectorySource,
    pub gates: Vec<GateTrajectory>,
}

impl Trajectory {
    /// The last score of the last gate that has one.
    pub fn last_score(&self) -> Option<(&str, f64)> {
        let gate = self.newest_scored()?;
        gate.scores.last().map(|s| (gate.gate.as_str(), *s))
    }

    /// Direction of the last two scores of the newest scored gate.
    pub fn last_trend(&self) -> Option<Trend> {
        Some(trend(&self.newest_scored()?.scores))
    }

    /// The newest gate with a score: a gate under way, else the one scored last
    /// by date, else the last in the file.
    pub fn newest_scored(&self) -> Option<&GateTrajectory> {
        self.gates
            .iter()
            .enumerate()
            .filter(|(_, g)| !g.scores.is_empty())
            .max_by_key(|(i, g)| (under_way(g.status.as_deref()), g.scored_at, *i))
            .map(|(_, g)| g)
    }
}

impl Trajectory {
    /// One gate per entry of a `score_history`-like list, in order.
    pub fn from_history(source: TrajectorySource, history: &[(String, Vec<f64>)]) -> Trajectory {
        Trajectory {
            source,
            gates: history
                .iter()
                .map(|(gate, scores)| GateTrajectory {
                    gate: gate.clone(),
                    scores: scores.clone(),
                    ..GateTrajectory::default()
                })
                .collect(),
        }
    }

    /// Does any gate have a score?
    pub fn has_scores(&self) -> bool {
        self.gates.iter().any(|g| !g.scores.is_empty())
    }

    /// Fills each gate's name, threshold, iteration budget, status and weakest
    /// dimension from the gate in `details` with the same id (see `same_gate`),
    /// where they are still unknown. Scores are left as they are.
    pub fn enrich(&mut self, details: &[GateTrajectory]) {
        for gate in &mut self.gates {
            let Some(d) = details.iter().find(|d| same_gate(&d.gate, &gate.gate)) else {
                continue;
            };
            gate.name = gate.name.take().or_else(|| d.name.clone());
            gate.threshold = gate.threshold.or(d.threshold);
            gate.max_iterations = gate.max_iterations.or(d.max_iterations);
            gate.iterations = gate.iterations.or(d.iterations);
            gate.status = gate.status.take().or_else(|| d.status.clone());
            gate.lowest_dimension = gate
                .lowest_dimension
                .take()
                .or_else(|| d.lowest_dimension.clone());
            gate.scored_at = gate.scored_at.or(d.scored_at);
        }
    }
}

fn under_way(status: Option<&str>) -> bool {
    status.is_some_and(|s| {
        let s = s.trim().to_ascii_uppercase().replace([' ', '-'], "_");
        s == "ACTIVE" || s.ends_with("IN_PROGRESS")
    })
}

/// Gate ids compare ignoring case, `-`, `_` and spaces: `QG-1` is `qg1`.
pub fn same_gate(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect()
    };
    norm(a) == norm(b)
}

/// The lowest scored dimension of a `{dimension: score}` list, ignoring unscored ones.
pub fn lowest_dimension(dimensions: &[(String, Option<f64>)]) -> Option<(String, f64)> {
    let scored: Vec<(&String, f64)> = dimensions
        .iter()
        .filter_map(|(name, score)| score.map(|s| (name, s)))
        .collect();
    let low = scored.iter().map(|(_, s)| *s).min_by(f64::total_cmp)?;
    let names: Vec<&str> = scored
        .iter()
        .filter(|(_, s)| *s == low)
        .map(|(n, _)| n.as_str())
        .collect();
    Some((names.join(", "), low))
}

pub fn trend(scores: &[f64]) -> Trend {
    match scores {
        [.., a, b] if b > a => Trend::Rising,
        [.., a, b] if b < a => Trend::Falling,
        [_, _, ..] => Trend::Flat,
        _ => Trend::Single,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trend_follows_the_last_two_scores() {
        assert_eq!(trend(&[0.8, 0.9]), Trend::Rising);
        assert_eq!(trend(&[0.95, 0.9]), Trend::Falling);
        assert_eq!(trend(&[0.9, 0.9]), Trend::Flat);
        assert_eq!(trend(&[0.9]), Trend::Single);
        assert_eq!(trend(&[]), Trend::Single);
    }

    #[test]
    fn the_last_score_is_the_newest_not_the_last_in_the_file() {
        let at = crate::core::time::Timestamp::parse;
        let gate = |id: &str, scores: Vec<f64>, status: &str, date: &str| GateTrajectory {
            gate: id.into(),
            scores,
            status: Some(status.into()),
            scored_at: at(date),
            ..Default::default()
        };
        let mut t = Trajectory {
            source: TrajectorySource::QualityGates,
            gates: vec![
                gate("qg-2", vec![0.9], "PASS", "2026-02-18"),
                gate("qg-1", vec![0.8], "PASS", "2026-02-10"),
            ],
        };
        assert_eq!(t.last_score(), Some(("qg-2", 0.9)));
        t.gates
            .push(gate("qg-3", vec![0.7, 0.82], "IN_PROGRESS", ""));
        assert_eq!(t.last_score(), Some(("qg-3", 0.82)));
        assert_eq!(t.last_trend(), Some(Trend::Rising));
    }

    #[test]
    fn tied_weakest_dimensions_are_all_named() {
        let dims = [
            ("evidence".to_string(), Some(0.9)),
            ("rigor".to_string(), Some(0.95)),
            ("traceability".to_string(), Some(0.9)),
            ("x".to_string(), None),
        ];
        assert_eq!(
            lowest_dimension(&dims),
            Some(("evidence, traceability".to_string(), 0.9))
        );
        assert_eq!(lowest_dimension(&[]), None);
    }

    #[test]
    fn last_score_skips_unscored_gates() {
        let t = Trajectory {
            source: TrajectorySource::QualityGates,
            gates: vec![
                GateTrajectory {
                    gate: "qg-1".into(),
                    scores: vec![0.8, 0.94],
                    ..Default::default()
                },
                GateTrajectory {
                    gate: "qg-2".into(),
                    scores: vec![],
                    ..Default::default()
                },
            ],
        };
        assert_eq!(t.last_score(), Some(("qg-1", 0.94)));
        assert_eq!(t.last_trend(), Some(Trend::Rising));
    }

    #[test]
    fn enrich_matches_gate_ids_loosely_and_keeps_scores() {
        let mut t = Trajectory::from_history(
            TrajectorySource::ResumptionSection,
            &[("qg-1".into(), vec![0.9]), ("agent-x".into(), vec![0.8])],
        );
        let details = vec![GateTrajectory {
            gate: "QG_1".into(),
            name: Some("Gate one".into()),
            scores: vec![0.1],
            iterations: Some(3),
            threshold: Some(0.92),
            max_iterations: Some(5),
            status: Some("PASS".into()),
            lowest_dimension: Some(("evidence".into(), 0.88)),
            scored_at: None,
        }];
        t.enrich(&details);
        let g = &t.gates[0];
        assert_eq!(g.scores, vec![0.9]);
        assert_eq!(g.threshold, Some(0.92));
        assert_eq!(g.max_iterations, Some(5));
        assert_eq!(g.iterations, Some(3));
        assert_eq!(g.status.as_deref(), Some("PASS"));
        assert_eq!(g.name.as_deref(), Some("Gate one"));
        assert_eq!(t.gates[1].threshold, None);
        assert!(t.has_scores());
        assert!(same_gate("QG-Final", "qg_final"));
        assert!(!same_gate("qg-1", "qg-10"));
    }

    #[test]
    fn lowest_dimension_ignores_unscored_dimensions() {
        let dims = vec![
            ("completeness".to_string(), Some(0.94)),
            ("traceability".to_string(), None),
            ("evidence_quality".to_string(), Some(0.91)),
        ];
        assert_eq!(
            lowest_dimension(&dims),
            Some(("evidence_quality".to_string(), 0.91))
        );
        assert_eq!(lowest_dimension(&[]), None);
    }
}
