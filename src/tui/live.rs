//! The live context gauge: the context fill last recorded for the Claude Code
//! session working on a project, and whether it is rising.
//!
//! Two records give a reading, both in the folder Claude Code runs in
//! (`core::launch::launch_base`): the hooks' `.jerry/context-monitor-state.json`
//! (UserPromptSubmit, PreCompact), which the load reads into
//! `Workspace::context_states`, and the status line's
//! `.jerry/context-window/<session>.json` (`live_records` adds those). Several
//! projects share a folder; a record is a project's when its session works on the
//! project (`launch::session_works_on`: the project records the session, or the
//! hooks' record names the project for it). The newest reading wins.
//!
//! Neither record keeps a history, only its latest figure. The trend compares the
//! newest reading with the one before it: the figure this dashboard saw in that
//! record earlier (`FillHistory`), else the other record of the same session when
//! it is older and says something else. Without either it is not known, and the
//! Overview says so.

use std::collections::HashMap;

use crate::core::launch;
use crate::core::model::{ContextState, Project, Workspace};
use crate::core::session_fill::readings;

/// Where the hooks record the fill, relative to the folder Claude Code runs in.
const RECORD: &str = launch::MONITOR_RECORD;

/// The newest reading for the session running on `project`.
pub fn fill_record<'a>(workspace: &'a Workspace, project: &Project) -> Option<&'a ContextState> {
    readings(workspace, project).pop()
}

/// What the gauge shows for a project.
#[derive(Debug, Clone, PartialEq)]
pub struct Gauge<'a> {
    pub reading: &'a ContextState,
    pub fill: f64,
    /// The reading before, when one is known.
    pub previous: Option<f64>,
}

impl Gauge<'_> {
    /// Which record the reading is from, in words.
    pub fn source(&self) -> &'static str {
        if self.reading.path.ends_with(RECORD) {
            "hooks"
        } else {
            "status line"
        }
    }

    pub fn trend(&self) -> &'static str {
        trend(self.previous, self.fill)
    }
}

/// The newest reading for `project` and the one before it (see the module).
pub fn gauge<'a>(
    workspace: &'a Workspace,
    history: &FillHistory,
    project: &Project,
) -> Option<Gauge<'a>> {
    let mut all = readings(workspace, project);
    let reading = all.pop()?;
    let fill = reading.fill.unwrap_or_default();
    let from_records = all
        .iter()
        .rev()
        .find(|s| {
            s.session_id == reading.session_id
                && s.updated_at.is_some()
                && s.updated_at < reading.updated_at
                && s.fill != reading.fill
        })
        .and_then(|s| s.fill);
    // What this record said before is the latest earlier figure; else the other
    // record's.
    let previous = history.previous(&reading.path).or(from_records);
    Some(Gauge {
        reading,
        fill,
        previous,
    })
}

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

    /// A session with no checkpoint yet: the hooks' record names the project its
    /// file tool calls work in, and the gauge (with the status line's record of
    /// the same session) is that project's, no other's.
    #[test]
    fn a_record_naming_the_project_gives_it_the_sessions_fill() {
        let jerry = |dir: &str| {
            crate::core::normalize::jerry::normalize_orchestration(
                &format!("{dir}/ORCHESTRATION.yaml"),
                dir,
                "workflow:\n  id: w\n",
            )
        };
        let named = jerry("repo/projects/PROJ-1/orchestration/wf");
        let other = jerry("repo/projects/PROJ-2/orchestration/wf");
        let mut record = state("repo/.jerry/context-monitor-state.json", 0.7);
        record.other.insert(
            "project".into(),
            "projects/PROJ-1/orchestration/wf/ORCHESTRATION.yaml".into(),
        );
        let mut statusline = state("repo/.jerry/context-window/s-1.json", 0.71);
        statusline.updated_at = crate::core::time::Timestamp::parse("2026-03-01T12:00:00Z");
        let ws = Workspace {
            context_states: vec![record, statusline],
            ..Workspace::default()
        };
        assert_eq!(fill_record(&ws, &named).and_then(|s| s.fill), Some(0.71));
        assert!(fill_record(&ws, &other).is_none());
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
