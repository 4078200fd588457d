//! The `quality_trajectory.score_history` a migrated section gains: the scores the
//! model read from `quality_gates` or from the v1 prose, gate by gate, so that the
//! trajectory shown before and after the migration is the same.

use yaml_serde::{Mapping, Value};

use crate::core::edit::render;
use crate::core::model::Project;
use crate::core::trajectory::TrajectorySource;

#[derive(Debug, Clone, PartialEq)]
pub(super) struct History {
    /// Where the scores were found, for the report and the comment.
    pub source: &'static str,
    pub gates: Vec<(String, Vec<f64>)>,
}

/// The score history to write, if the model found scores outside the section.
/// `Err` explains why scores that exist cannot be written.
pub(super) fn history(project: &Project) -> Result<Option<History>, String> {
    let trajectory = &project.trajectory;
    let source = match trajectory.source {
        TrajectorySource::QualityGates => "quality_gates",
        TrajectorySource::Prose => "the current_state prose",
        TrajectorySource::ResumptionSection | TrajectorySource::None => return Ok(None),
    };
    if !trajectory.has_scores() {
        return Ok(None);
    }
    let gates: Vec<(String, Vec<f64>)> = trajectory
        .gates
        .iter()
        .map(|g| (g.gate.clone(), g.scores.clone()))
        .collect();
    if let Some((gate, _)) = gates
        .iter()
        .enumerate()
        .find(|(i, (id, _))| gates.iter().take(*i).any(|(other, _)| other == id))
        .map(|(_, g)| g)
    {
        return Err(format!(
            "{source} lists gate `{gate}` more than once; score_history not written (the scores stay where they are)"
        ));
    }
    Ok(Some(History { source, gates }))
}

/// The `quality_trajectory:` entry at `indent`, nested by `step`, with a comment
/// line saying where the scores came from.
pub(super) fn render_entry(h: &History, indent: usize, step: usize, nl: &str) -> String {
    let pad = " ".repeat(indent);
    let pad2 = " ".repeat(indent + step);
    let pad3 = " ".repeat(indent + 2 * step);
    let mut out = format!(
        "{pad}# score_history from {} (resume-tui migrate){nl}{pad}quality_trajectory:{nl}{pad2}score_history:{nl}",
        h.source
    );
    for (gate, scores) in &h.gates {
        let list: Vec<String> = scores.iter().map(|s| render::float(*s)).collect();
        out.push_str(&format!(
            "{pad3}{}: [{}]{nl}",
            render::key(gate),
            list.join(", ")
        ));
    }
    out
}

/// The value the rendered entry must read back as.
pub(super) fn value(h: &History) -> Value {
    let mut history = Mapping::new();
    for (gate, scores) in &h.gates {
        let list = scores.iter().map(|s| Value::from(*s)).collect();
        history.insert(Value::from(gate.as_str()), Value::Sequence(list));
    }
    let mut trajectory = Mapping::new();
    trajectory.insert(Value::from("score_history"), Value::Mapping(history));
    Value::Mapping(trajectory)
}
