//! The live context gauge: the context fill the hooks last recorded for the
//! Claude Code session working on a project, and whether it is rising.
//!
//! The reading is [`fill_record`] alone: the UserPromptSubmit and PreCompact
//! hooks write `.jerry/context-monitor-state.json` in the folder Claude Code runs
//! in (`core::launch::launch_base`), and the load reads it into
//! `Workspace::context_states`. Several projects share a folder; the record is a
//! project's when its session is one the project records (a checkpoint's
//! `session_id`, a Nexus manifest's `session_ids`).

use std::collections::HashMap;

/// The fill record the hooks keep for the session running on a project.
pub use crate::core::launch::live_fill_record as fill_record;
use crate::core::model::ContextState;

/// The last two different fills seen in each record, by path: what the trend
/// arrow compares.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FillHistory(HashMap<String, (Option<f64>, f64)>);

impl FillHistory {
    /// Takes in the records of a fresh load.
    pub fn observe(&mut self, states: &[ContextState]) {
        for state in states {
            let Some(fill) = state.fill.filter(|f| f.is_finite()) else {
                continue;
            };
            let entry = self.0.entry(state.path.clone()).or_insert((None, fill));
            if entry.1 != fill {
                *entry = (Some(entry.1), fill);
            }
        }
    }

    /// The fill before the latest one recorded at `path`.
    pub fn previous(&self, path: &str) -> Option<f64> {
        self.0.get(path).and_then(|(previous, _)| *previous)
    }
}

/// `↑` rising, `↓` falling (a compaction or a new session), ` ` not known.
pub fn trend(previous: Option<f64>, now: f64) -> &'static str {
    match previous {
        Some(p) if now > p => "↑",
        Some(p) if now < p => "↓",
        _ => " ",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{ProjectKind, Workspace};

    fn state(path: &str, fill: f64) -> ContextState {
        ContextState {
            path: path.into(),
            fill: Some(fill),
            session_id: Some("s-1".into()),
            ..ContextState::default()
        }
    }

    #[test]
    fn the_record_is_the_one_in_the_folder_claude_runs_in() {
        let jerry = |dir: &str| {
            crate::core::normalize::jerry::normalize_orchestration(
                &format!("{dir}/ORCHESTRATION.yaml"),
                dir,
                "workflow:\n  id: w\n",
            )
        };
        let mut project = jerry("repo/projects/PROJ-1/orchestration/wf");
        assert_eq!(project.kind, ProjectKind::Jerry);
        let ws = Workspace {
            context_states: vec![
                state(".jerry/context-monitor-state.json", 0.1),
                state("repo/.jerry/context-monitor-state.json", 0.72),
            ],
            ..Workspace::default()
        };
        assert!(
            fill_record(&ws, &project).is_none(),
            "a project that records no session has no live fill"
        );
        let checkpoint = crate::core::normalize::checkpoint::normalize_checkpoint(
            ".jerry/checkpoints/cx-001.json",
            r#"{"checkpoint_id": "cx-001", "session_id": "s-1"}"#,
            false,
        )
        .unwrap();
        assert_eq!(checkpoint.session_id.as_deref(), Some("s-1"));
        project.checkpoints.push(checkpoint);
        assert_eq!(fill_record(&ws, &project).and_then(|s| s.fill), Some(0.72));
        let mut elsewhere = jerry("other/projects/P/orchestration/wf");
        elsewhere.checkpoints = project.checkpoints.clone();
        assert!(fill_record(&ws, &elsewhere).is_none());
    }

    #[test]
    fn the_trend_compares_the_last_two_different_fills() {
        let mut history = FillHistory::default();
        let path = "repo/.jerry/context-monitor-state.json";
        history.observe(&[state(path, 0.4)]);
        assert_eq!(history.previous(path), None);
        history.observe(&[state(path, 0.5)]);
        history.observe(&[state(path, 0.5)]);
        assert_eq!(history.previous(path), Some(0.4));
        assert_eq!(trend(history.previous(path), 0.5), "↑");
        history.observe(&[state(path, 0.1)]);
        assert_eq!(trend(history.previous(path), 0.1), "↓");
        assert_eq!(trend(None, 0.1), " ");
    }
}
