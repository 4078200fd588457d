//! Quality-gate score trajectories, from whichever source a file offers.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum TrajectorySource {
    /// `resumption.quality_trajectory.score_history`.
    ResumptionSection,
    /// `quality_gates.*.iteration_history[].score` elsewhere in the file.
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
    pub threshold: Option<f64>,
    pub max_iterations: Option<i64>,
    pub status: Option<String>,
    /// The weakest scored dimension of the gate's last result, if recorded.
    pub lowest_dimension: Option<(String, f64)>,
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
        self.gates
            .iter()
            .rev()
            .find_map(|g| g.scores.last().map(|s| (g.gate.as_str(), *s)))
    }

    /// Direction of the last two scores of the last scored gate.
    pub fn last_trend(&self) -> Option<Trend> {
        let gate = self.gates.iter().rev().find(|g| !g.scores.is_empty())?;
        Some(trend(&gate.scores))
    }
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
}
