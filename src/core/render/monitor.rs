//! The `<context-monitor>` block (seed 002, "Injection Format Integration"),
//! with the resumption action of each fill level ("How Hybrid A+B Triggers
//! Resumption Updates").

use serde::Serialize;

use super::budget::{Rendered, finish};
use super::format::{percent, thousands};
use super::state::{self, in_order, newest_checkpoint};
use crate::config::ContextConfig;
use crate::core::model::Project;
use crate::core::staleness::StalenessLevel;
use crate::core::time::{Timestamp, describe_update_age};

/// Tokens one quality-gate iteration costs (seed 002/003, Phase 2 data).
const QG_ITERATION_TOKENS: f64 = 29_000.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Low,
    Warning,
    Critical,
    Compaction,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Low => "LOW",
            Level::Warning => "WARNING",
            Level::Critical => "CRITICAL",
            Level::Compaction => "COMPACTION",
        }
    }
}

/// LOW < warning ≤ WARNING < critical ≤ CRITICAL < compaction ≤ COMPACTION.
pub fn level_for(fill: f64, config: &ContextConfig) -> Level {
    if fill >= config.compaction {
        Level::Compaction
    } else if fill >= config.critical {
        Level::Critical
    } else if fill >= config.warning {
        Level::Warning
    } else {
        Level::Low
    }
}

/// A measurement of context fill, from a transcript or a recorded state.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FillReading {
    /// 0.0–1.0.
    pub fill: Option<f64>,
    pub tokens_used: Option<i64>,
    pub window: Option<i64>,
    /// How the window was chosen, shown beside the token count.
    pub basis: Option<String>,
    /// The file the figure came from (a transcript, `context-state.json`, a checkpoint).
    pub source: Option<String>,
}

pub fn render_monitor(
    project: &Project,
    reading: &FillReading,
    config: &ContextConfig,
    now: Timestamp,
) -> Rendered {
    let window = reading
        .window
        .or_else(|| (config.window > 0).then_some(config.window as i64));
    let fill = reading
        .fill
        .or_else(|| match (reading.tokens_used, window) {
            (Some(used), Some(w)) if w > 0 => Some(used as f64 / w as f64),
            _ => None,
        });
    let used = reading
        .tokens_used
        .or_else(|| Some((fill? * window? as f64).round() as i64));
    // The level is read against the window the percentage is shown against.
    let level = fill.map(|f| level_for(f, config));

    let mut out = String::from("<context-monitor>\n");
    match (level, fill) {
        (Some(level), Some(fill)) => out.push_str(&format!(
            "CONTEXT STATUS: {} ({} filled)\n",
            level.label(),
            percent(fill)
        )),
        _ => out.push_str("CONTEXT STATUS: UNKNOWN (fill not measured)\n"),
    }
    let shown = |v: Option<i64>| v.map_or("unknown".into(), thousands);
    let basis = reading
        .basis
        .as_deref()
        .map_or(String::new(), |b| format!(" ({b})"));
    out.push_str(&format!(
        "Tokens used: {} / {}{basis}\n",
        shown(used),
        shown(window)
    ));
    if let (Some(used), Some(window)) = (used, window) {
        let remaining = (window - used).max(0);
        let iterations = (remaining as f64 / QG_ITERATION_TOKENS * 10.0).floor() / 10.0;
        out.push_str(&format!(
            "Estimated remaining: {} tokens (~{iterations:.1} QG iterations)\n",
            thousands(remaining)
        ));
    }
    let compactions = state::compaction_count(project).unwrap_or(0);
    out.push_str(&format!("Compaction events: {compactions}\n"));
    let last = state::last_checkpoint(project)
        .or_else(|| newest_checkpoint(&project.checkpoints).map(|c| c.id.clone()))
        .unwrap_or_else(|| "none".into());
    out.push_str(&format!("Last checkpoint: {last}\n"));
    out.push_str(&format!(
        "Resumption last updated: {}\n",
        updated(project, now)
    ));
    let staleness = &project.staleness;
    match staleness.reasons.first() {
        Some(reason) => out.push_str(&format!(
            "Resumption staleness: {} ({})\n",
            staleness.level.label(),
            as_clause(reason)
        )),
        None => out.push_str(&format!(
            "Resumption staleness: {}\n",
            staleness.level.label()
        )),
    }
    out.push('\n');
    out.push_str(&actions(project, level));
    out.push_str("</context-monitor>\n");
    let mut sources = vec![project.source.clone()];
    if let Some(source) = &reading.source {
        sources.push(source.clone());
    }
    finish(&out, sources, false)
}

/// A reason sentence as a parenthetical: first letter lowered (unless the
/// first word is an all-capitals term), no final full stop.
fn as_clause(reason: &str) -> String {
    let reason = reason.trim().trim_end_matches('.');
    let first_word = reason.split_whitespace().next().unwrap_or("");
    let shouting = first_word.chars().filter(|c| c.is_alphabetic()).count() > 1
        && first_word.chars().all(|c| !c.is_lowercase());
    let mut chars = reason.chars();
    match chars.next() {
        Some(first) if !shouting => first.to_lowercase().chain(chars).collect(),
        _ => reason.to_string(),
    }
}

fn updated(project: &Project, now: Timestamp) -> String {
    let recovery = state::recovery(project);
    let raw = recovery
        .and_then(|r| r.updated_at_raw.clone())
        .or_else(|| project.summary.updated_at_raw.clone());
    let at = recovery
        .and_then(|r| r.updated_at)
        .or(project.summary.updated_at);
    match (raw, at) {
        (raw, Some(at)) => format!(
            "{} ({})",
            at.to_iso(),
            describe_update_age(raw.as_deref(), at, now)
        ),
        (Some(raw), None) => raw,
        (None, None) => "unknown".into(),
    }
}

fn actions(project: &Project, level: Option<Level>) -> String {
    let mut lines: Vec<String> = match level {
        None | Some(Level::Low) => Vec::new(),
        Some(Level::Warning) => vec![
            "Update ORCHESTRATION.yaml resumption section with current state".into(),
            "Ensure defect_summary and agent_summaries are current".into(),
        ],
        Some(Level::Critical) => vec![
            "Write a full resumption update NOW and verify every sub-section is current".into(),
            "Prepare for session handoff: if mid-QG-iteration, complete the iteration, then checkpoint".into(),
        ],
        Some(Level::Compaction) => vec![
            "Compaction is imminent: the PreCompact hook writes a checkpoint; no orchestrator action is possible".into(),
            "After compaction, follow the <compaction-alert> to re-orient".into(),
        ],
    };
    let stale = matches!(
        project.staleness.level,
        StalenessLevel::Stale | StalenessLevel::Critical
    );
    if stale && matches!(level, None | Some(Level::Low)) {
        lines.push("Resumption section is stale: update it at the next opportunity".into());
    }
    let unacknowledged: Vec<String> = in_order(&project.checkpoints)
        .into_iter()
        .filter(|c| !c.acknowledged)
        .map(|c| c.id.clone())
        .collect();
    if !unacknowledged.is_empty() {
        lines.push(format!(
            "Merge and acknowledge checkpoint(s) {}",
            unacknowledged.join(", ")
        ));
    }
    let header = match level {
        Some(Level::Critical | Level::Compaction) => "ACTION REQUIRED:",
        _ => "ACTION RECOMMENDED:",
    };
    if lines.is_empty() {
        return "ACTION: none (normal execution; update the resumption section at phase and gate transitions)\n".into();
    }
    let mut out = format!("{header}\n");
    for line in lines {
        out.push_str(&format!("- {line}\n"));
    }
    out
}
