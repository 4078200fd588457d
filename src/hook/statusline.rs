//! `resume-tui statusline`: a Claude Code `statusLine` command (reference
//! claude-code-hooks.md §6). Reads the status JSON on stdin, records the session's
//! `context_window_size` and `used_percentage` for the hooks and `monitor`
//! (`io::context_fill::statusline_record`), and prints one short line: project,
//! phase, gate, context fill with a gauge, unacknowledged checkpoints. Like a hook
//! it never fails: bad input prints a bare line and exits 0.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir, is_workspace};
use super::input::HookInput;
use super::lookup;
use crate::config::Config;
use crate::core::model::Project;
use crate::core::render::state;
use crate::core::time::Timestamp;
use crate::io::context_fill::{self, Subject, statusline_record};
use crate::io::env::Env;
use crate::io::transcript::ScanLimits;

const GAUGE_CELLS: usize = 8;

/// The figures the status JSON carries (each may be null early in a session).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    pub session_id: Option<String>,
    pub transcript_path: Option<PathBuf>,
    pub project_dir: Option<PathBuf>,
    pub model: Option<String>,
    pub window: Option<u64>,
    pub used_percentage: Option<f64>,
}

impl Status {
    pub fn from_map(map: &Map<String, Value>) -> Status {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let context = map.get("context_window");
        let workspace = map.get("workspace");
        Status {
            session_id: text(map.get("session_id")),
            transcript_path: text(map.get("transcript_path")).map(PathBuf::from),
            project_dir: text(workspace.and_then(|w| w.get("project_dir")))
                .or_else(|| text(map.get("cwd")))
                .map(PathBuf::from),
            model: text(map.get("model").and_then(|m| m.get("id"))),
            window: context
                .and_then(|c| c.get("context_window_size"))
                .and_then(Value::as_u64)
                .filter(|w| *w > 0),
            used_percentage: context
                .and_then(|c| c.get("used_percentage"))
                .and_then(Value::as_f64)
                .filter(|p| p.is_finite() && *p >= 0.0),
        }
    }
}

/// The line for `status`; in a workspace, records the session's figures first.
pub fn line(status: &Status, env: &Env, config: &Config, now: Timestamp) -> String {
    let Some(root) = status.project_dir.as_deref().filter(|d| is_workspace(d)) else {
        return join(vec![fill_part(status, env, config, None)]);
    };
    if let Some(id) = &status.session_id
        && (status.window.is_some() || status.used_percentage.is_some())
    {
        let record = statusline_record::Record {
            session_id: id.clone(),
            context_window_size: status.window,
            used_percentage: status.used_percentage,
            model: status.model.clone(),
            updated_at: now.to_iso(),
        };
        let _ = statusline_record::put(root, &record);
    }
    let mut map = Map::new();
    map.insert("cwd".into(), Value::String(root.display().to_string()));
    let input = HookInput::from_map(map);
    let ctx = HookContext::new(env, now, config, &input);
    let mut scratch = super::output::HookOutcome::default();
    let files = checkpoints::list(&checkpoints_dir(root));
    let all = checkpoints::load_all(&files, root, &mut scratch);
    let unacked = all.iter().filter(|c| !c.acknowledged).count();
    let project = state::newest_checkpoint(&all)
        .and_then(|c| lookup::for_checkpoint(c, &all, &ctx, None))
        .or_else(|| lookup::by_fallback(&ctx, status.session_id.as_deref()));
    let mut parts = project.as_ref().map(project_parts).unwrap_or_default();
    parts.push(fill_part(status, env, config, Some(root)));
    if unacked > 0 {
        parts.push(format!("{unacked} unacked"));
    }
    join(parts)
}

fn join(parts: Vec<String>) -> String {
    let text = parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" · ");
    crate::core::redact::scrub_owned(text)
}

fn project_parts(project: &Project) -> Vec<String> {
    let mut parts = vec![project.id.clone()];
    if let Some(phase) = state::phase_label(
        state::phase(project).as_deref(),
        state::phase_name(project).as_deref(),
    ) {
        parts.push(crate::core::render::format::abbreviate(&phase, 32));
    }
    if let Some((gate, _, score)) = state::last_score(project) {
        parts.push(format!("{gate} {score:.2}"));
    }
    parts
}

/// `ctx [███░░░░░] 42%`: Claude Code's own percentage, else the transcript's.
fn fill_part(
    status: &Status,
    env: &Env,
    config: &Config,
    root: Option<&std::path::Path>,
) -> String {
    let percent = status.used_percentage.or_else(|| {
        let subject = Subject {
            transcript: status.transcript_path.as_deref(),
            session_id: status.session_id.as_deref(),
            project_dir: root,
            model_hint: status.model.as_deref(),
        };
        let m = context_fill::measure(
            &subject,
            env,
            config.context.window,
            &ScanLimits::usage_only(),
        );
        m.fill.map(|f| f.fill * 100.0)
    });
    match percent {
        Some(p) => format!("ctx {} {p:.0}%", gauge(p)),
        None => "ctx ?".into(),
    }
}

pub fn gauge(percent: f64) -> String {
    let filled = ((percent / 100.0) * GAUGE_CELLS as f64)
        .round()
        .clamp(0.0, GAUGE_CELLS as f64) as usize;
    format!(
        "[{}{}]",
        "█".repeat(filled),
        "░".repeat(GAUGE_CELLS - filled)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_status_json_and_tolerates_nulls() {
        let value: Value = serde_json::from_str(
            r#"{"session_id":"s1","cwd":"/w","model":{"id":"claude-sonnet-4-5"},
                "workspace":{"project_dir":"/p"},
                "context_window":{"context_window_size":200000,"used_percentage":42.5,"current_usage":null}}"#,
        )
        .unwrap();
        let status = Status::from_map(value.as_object().unwrap());
        assert_eq!(status.project_dir, Some(PathBuf::from("/p")));
        assert_eq!(
            (status.window, status.used_percentage),
            (Some(200_000), Some(42.5))
        );
        let nulls: Value = serde_json::from_str(
            r#"{"context_window":{"context_window_size":null,"used_percentage":null},"model":"x"}"#,
        )
        .unwrap();
        assert_eq!(
            Status::from_map(nulls.as_object().unwrap()),
            Status::default()
        );
        assert_eq!(gauge(42.5), "[███░░░░░]");
        assert_eq!(gauge(150.0), "[████████]");
        assert_eq!(gauge(0.0), "[░░░░░░░░]");
    }
}
