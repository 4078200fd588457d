//! `doctor`'s view of the folder itself: whether the hooks act here at all, and
//! the context window the newest Claude Code session of this folder is measured
//! against, with the evidence that decided it (docs/hooks.md, "The window rule").

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::{Finding, Status, finding};
use crate::hook::context::is_workspace;
use crate::io::context_fill::{self, Subject};
use crate::io::env::Env;
use crate::io::transcript::ScanLimits;

/// The newest session's fill as the hooks would measure it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WindowReport {
    pub transcript: String,
    pub session_id: Option<String>,
    pub window: Option<u64>,
    /// `core::fill::WindowSource`, kebab-case.
    pub window_source: Option<String>,
    /// The evidence in words, e.g. `claude-sonnet-4-5: 200k unless selected with [1m]`.
    pub evidence: Option<String>,
    pub fill: Option<f64>,
    pub note: String,
}

pub fn check_workspace(root: &Path, findings: &mut Vec<Finding>) -> bool {
    let shown = root.display().to_string();
    if is_workspace(root) {
        findings.push(finding(
            Status::Ok,
            "workspace",
            &format!("{shown} is a workspace: the hooks act here"),
        ));
        return true;
    }
    findings.push(finding(
        Status::Warning,
        "workspace",
        &format!(
            "{shown} is not a workspace (no .jerry/, 00-system/, projects/ or ORCHESTRATION.yaml): the hooks run here but do nothing; run doctor from the workspace root"
        ),
    ));
    false
}

/// Measures the newest transcript Claude Code keeps for `root`, if any.
pub fn check_window(
    root: &Path,
    env: &Env,
    config_window: u64,
    findings: &mut Vec<Finding>,
) -> Option<WindowReport> {
    let transcript = newest_transcript(root, env)?;
    let session_id = transcript
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned());
    let subject = Subject {
        transcript: Some(&transcript),
        session_id: session_id.as_deref(),
        project_dir: Some(root),
        model_hint: None,
    };
    let measured = context_fill::measure(&subject, env, config_window, &ScanLimits::usage_only());
    let basis = measured.basis.as_ref();
    let report = WindowReport {
        transcript: transcript.display().to_string(),
        session_id,
        window: basis.map(|b| b.window),
        window_source: basis.map(|b| b.source.key()),
        evidence: basis.map(|b| b.evidence.clone()),
        fill: measured.fill.as_ref().map(|f| f.fill),
        note: measured.note.clone(),
    };
    let message = match basis {
        Some(b) if measured.fill.is_some() => format!(
            "newest session {}: window {} decided by {}; {}",
            report.session_id.as_deref().unwrap_or("?"),
            b.window,
            b.evidence,
            measured.note
        ),
        _ => format!(
            "newest session {}: {}",
            report.session_id.as_deref().unwrap_or("?"),
            measured.note
        ),
    };
    findings.push(finding(Status::Info, "context window", &message));
    Some(report)
}

/// `<claude config>/projects/<root with every non-alphanumeric character as ->/`,
/// its newest `.jsonl` by modification time.
fn newest_transcript(root: &Path, env: &Env) -> Option<PathBuf> {
    let config = match env.get("CLAUDE_CONFIG_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env.get("HOME")?).join(".claude"),
    };
    let name: String = root
        .display()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = config.join("projects").join(name);
    std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, path)| path)
}
