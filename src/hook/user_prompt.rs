//! UserPromptSubmit: measure fill, record it in `.jerry/context-monitor-state.json`,
//! and inject the `<context-monitor>` block (level WARNING or above) and the
//! Template 2 `<compaction-alert>` once, in the session that compacted, when
//! SessionStart(compact) did not deliver it already (`delivery`).
//! Never writes a checkpoint: that is PreCompact's job (a real hook wrote a new
//! one on every prompt past 80 %).

use std::path::Path;

use super::checkpoints;
use super::context::{HookContext, checkpoints_dir, monitor_state_path};
use super::delivery::{ALERT_MARK, Delivered, Deliveries, cut_alert};
use super::dropped_section;
use super::input::{Event, HookInput};
use super::lookup;
use super::measure::{Measurement, measure, remember};
use super::output::{HookOutcome, WriteOp, additional_context, carries_whole};
use super::project;
use crate::core::model::{Checkpoint, Project};
use crate::core::render::{Level, level_for, render_alert, render_monitor, state};
use crate::core::wire::context_state::ContextMonitorState;
use crate::io::context_fill;
use crate::io::transcript::ScanLimits;
use crate::io::write::read_snapshot;

pub fn handle(input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let Some(root) = ctx.project_dir() else {
        return HookOutcome::nothing("no project folder");
    };
    if !ctx.in_workspace {
        return HookOutcome::nothing(format!(
            "{} is not a workspace (no .jerry, 00-system, projects or ORCHESTRATION.yaml)",
            root.display()
        ));
    }
    let mut out = HookOutcome::default();
    let measurement = measure(input, ctx, &ScanLimits::usage_only());
    out.explain(measurement.note.clone());
    match &measurement.problem {
        // A new session's first prompt: the transcript is not written yet.
        Some(problem) if measurement.transcript_missing => {
            out.info(format!("{problem} (not written yet: a new session)"));
        }
        Some(problem) => out.error(problem.clone()),
        None => {}
    }
    remember(&measurement, ctx, &mut out);
    let level = measurement
        .fill
        .as_ref()
        .map(|f| level_for(f.fill, &ctx.config.context));
    if level.is_none()
        && measurement
            .scan
            .as_ref()
            .is_some_and(|s| s.last_boundary.is_some())
    {
        forget_state(input, ctx, &mut out);
    }

    let warning = level.is_some_and(|l| l >= Level::Warning);
    let deliveries = Deliveries::load(root, &mut out);
    let session_id = input.session_id.as_deref();
    let all = read_checkpoints(root, warning, &deliveries, session_id, &mut out);
    // Only read (the transcript's first line) when a project is loaded.
    let session = || {
        project::session(
            input.session_id.as_deref(),
            input.transcript_path.as_deref(),
        )
    };
    let mut project: Option<Project> = None;
    // The workflow this session is known to work on, recorded with its fill.
    let mut attributed: Option<String> = None;
    let mut blocks = Vec::new();

    if warning {
        let newest_unacked = state::in_order(&all)
            .into_iter()
            .rev()
            .find(|c| !c.acknowledged);
        // The workflow this session last checkpointed, else the newest one.
        let own = input.session_id.as_deref().and_then(|id| {
            state::in_order(&all)
                .into_iter()
                .rev()
                .find(|c| c.session_id.as_deref() == Some(id))
        });
        // The session's own workflow: the one it last checkpointed, else the one
        // its recent file tool calls work in; only then a guess.
        project = own
            .and_then(|c| lookup::for_checkpoint(c, &all, ctx, session()))
            .or_else(|| {
                let detected =
                    lookup::by_transcript(input.transcript_path.as_deref(), &all, ctx, session());
                if let Some(p) = &detected {
                    out.explain(format!(
                        "the transcript's recent file tool calls work in {}",
                        p.source
                    ));
                }
                detected
            });
        if project.is_some() {
            attributed = project.as_ref().map(|p| p.source.clone());
        }
        project = project
            .or_else(|| {
                newest_unacked
                    .or_else(|| state::newest_checkpoint(&all))
                    .and_then(|c| lookup::for_checkpoint(c, &all, ctx, session()))
            })
            .or_else(|| lookup::from_precompact_state(ctx, session()).map(|(p, _)| p))
            .or_else(|| lookup::by_fallback(ctx, input.session_id.as_deref()));
        let shown = project
            .clone()
            .unwrap_or_else(|| lookup::placeholder(all.clone()));
        out.explain(format!("monitor block for {}", shown.source));
        let reading = context_fill::reading(&measurement, measurement.source.to_string());
        blocks.push(render_monitor(&shown, &reading, &ctx.config.context, ctx.now).text);
    }
    let mut alert = None;
    if let Some(level) = level {
        out.explain(format!("level {}", level.label()));
        plan_state(input, ctx, &measurement, level, attributed, &mut out);
    }
    let mut deliveries = deliveries;
    let (again, kept) = prove_compact_alert(input, &all, &mut deliveries, ctx, &mut out);
    match (deliveries.due(&all, session_id).or(again), session_id) {
        (Some(checkpoint), Some(session_id)) => {
            if project
                .as_ref()
                .is_none_or(|p| checkpoint.workflow_id.as_deref() != Some(p.id.as_str()))
            {
                project = lookup::for_checkpoint(checkpoint, &all, ctx, session());
            }
            let text = render_alert(checkpoint, project.as_ref(), &all).text;
            blocks.push(text.clone());
            alert = Some((checkpoint.clone(), session_id, text));
        }
        _ => out.explain(
            "no compaction alert due: none undelivered from this session (others' and session-less checkpoints never alert)",
        ),
    }
    // After a compaction: what its summary dropped (PostCompact, which records
    // the summary, runs after SessionStart(compact)).
    let dropped = dropped_section::due_with_prompt(&all, session_id, &deliveries, &mut out).map(
        |(checkpoint, section)| {
            blocks.push(section.clone());
            (checkpoint.clone(), section)
        },
    );
    out.stdout = additional_context(Event::UserPromptSubmit.name(), &blocks);
    let via = Event::UserPromptSubmit.name();
    // The dropped section is recorded only when it went out whole.
    let dropped = dropped
        .filter(|(_, section)| carries_whole(out.stdout.as_deref(), section))
        .map(|(checkpoint, _)| checkpoint);
    let dropped_whole = |of: &Checkpoint| dropped.as_ref().is_some_and(|c| c.path == of.path);
    match (alert, session_id) {
        (Some((checkpoint, session_id, text)), _) => {
            if carries_whole(out.stdout.as_deref(), &text) {
                out.explain(format!(
                    "compaction alert for {}, written in this session; recorded as delivered",
                    checkpoint.path
                ));
                let what = Delivered {
                    alert: true,
                    dropped: dropped_whole(&checkpoint),
                };
                deliveries.record(root, &checkpoint, session_id, via, ctx.now, what, &mut out);
            } else {
                out.error(cut_alert(&checkpoint));
            }
        }
        (None, Some(session_id)) => {
            if let Some(checkpoint) = &dropped {
                let what = Delivered {
                    alert: false,
                    dropped: true,
                };
                deliveries.record(root, checkpoint, session_id, via, ctx.now, what, &mut out);
            } else if let Some(checkpoint) = kept {
                let what = format!("alert of {} kept by the client", checkpoint.id);
                deliveries.save(root, what, &mut out);
            }
        }
        (None, None) => {}
    }
    out.info(format!(
        "level {}, {} block(s) injected",
        level.map_or("unknown", Level::label),
        blocks.len()
    ));
    out
}

/// How much of the transcript's end is searched for the alert SessionStart(compact)
/// printed: it lies right after the compaction's boundary and summary.
const ALERT_PROOF_BYTES: u64 = 1 << 20;

/// An alert SessionStart(compact) printed counts as seen only once the transcript
/// shows the client kept it (2.1.332 writes it there; 2.1.76 in print mode drops
/// it, docs/hooks.md "The real client"). Checked once, at the first prompt after:
/// kept → marked so (returned second); not kept → due again with this prompt
/// (returned first).
fn prove_compact_alert<'a>(
    input: &HookInput,
    all: &'a [Checkpoint],
    deliveries: &mut Deliveries,
    ctx: &HookContext,
    out: &mut HookOutcome,
) -> (Option<&'a Checkpoint>, Option<&'a Checkpoint>) {
    let session_id = input.session_id.as_deref();
    if deliveries.due(all, session_id).is_some() {
        return (None, None);
    }
    let Some(checkpoint) = deliveries.unproven_compact_alert(all, session_id) else {
        return (None, None);
    };
    let kept = input.transcript_path.as_deref().map(|t| {
        crate::io::transcript::holds_after_last_boundary(t, ALERT_MARK, ALERT_PROOF_BYTES)
    });
    match kept {
        Some(Ok(true)) => {
            out.explain(format!(
                "the alert for {} is in the transcript after the compaction: the client kept it",
                checkpoint.id
            ));
            deliveries.mark_kept(checkpoint, ctx.now);
            (None, Some(checkpoint))
        }
        other => {
            let why = match other {
                Some(Err(e)) => format!("the transcript could not be read ({e})"),
                None => "no transcript to look in".to_string(),
                Some(Ok(_)) => "the transcript does not hold it after the compaction".to_string(),
            };
            out.explain(format!(
                "the alert for {} went with SessionStart(compact), but {why}: again with this prompt",
                checkpoint.id
            ));
            (Some(checkpoint), None)
        }
    }
}

/// The checkpoints this prompt needs. The monitor block (WARNING and above)
/// counts the project's, and an alert shows them all; below WARNING only an alert
/// due in this session needs any, and only this session's checkpoints can make one
/// due: those are read first (files that cannot hold the id are not parsed), the
/// rest only when one is due.
fn read_checkpoints(
    root: &Path,
    warning: bool,
    deliveries: &Deliveries,
    session_id: Option<&str>,
    out: &mut HookOutcome,
) -> Vec<Checkpoint> {
    let files = checkpoints::list(&checkpoints_dir(root));
    if !warning {
        let Some(session_id) = session_id.filter(|s| !s.is_empty()) else {
            return Vec::new();
        };
        let own = checkpoints::load_of_session(&files, root, session_id, out);
        if deliveries.due(&own, Some(session_id)).is_none() {
            return own;
        }
    }
    checkpoints::load_all(&files, root, out)
}

fn plan_state(
    input: &HookInput,
    ctx: &HookContext,
    measurement: &Measurement,
    level: Level,
    project: Option<String>,
    out: &mut HookOutcome,
) {
    let (Some(root), Some(fill)) = (ctx.project_dir(), &measurement.fill) else {
        return;
    };
    let state = ContextMonitorState {
        schema_version: "1.0".into(),
        session_id: input.session_id.clone(),
        fill: (fill.fill * 10_000.0).round() / 10_000.0,
        tokens_used: i64::try_from(fill.tokens_used).unwrap_or(i64::MAX),
        window: i64::try_from(fill.basis.window).unwrap_or(i64::MAX),
        window_source: fill.basis.evidence.clone(),
        level: level.label().to_string(),
        updated_at: ctx.now.to_iso(),
        transcript_path: input
            .transcript_path
            .as_ref()
            .map(|p| p.display().to_string()),
        project,
    };
    let Ok(mut text) = serde_json::to_string_pretty(&state) else {
        return;
    };
    text.push('\n');
    let path = monitor_state_path(root);
    let op = match WriteOp::put(&path, text.into_bytes()) {
        Ok(WriteOp::Replace { snapshot, bytes }) if snapshot.bytes == bytes => return,
        Ok(op) => op,
        Err(e) => return out.error(format!("{e}; left alone")),
    };
    // A cache rewritten on every prompt: atomic, not fsynced (docs/hooks.md).
    out.write_cache(path, op, "context monitor state");
}

/// After a compaction with no response yet the fill is unknown, and the figure
/// this session recorded is from before it: it is removed, so the dashboard and
/// `monitor` show no live fill either (one answer everywhere). Another session's
/// record is left alone.
fn forget_state(input: &HookInput, ctx: &HookContext, out: &mut HookOutcome) {
    let (Some(root), Some(session_id)) = (ctx.project_dir(), input.session_id.as_deref()) else {
        return;
    };
    let path = monitor_state_path(root);
    let Ok(snapshot) = read_snapshot(&path) else {
        return;
    };
    let recorded: Option<ContextMonitorState> = serde_json::from_slice(&snapshot.bytes).ok();
    if recorded.and_then(|s| s.session_id).as_deref() != Some(session_id) {
        return;
    }
    out.explain("the fill this session recorded before its compaction is removed");
    out.write_cache(
        path,
        WriteOp::Remove { snapshot },
        "context monitor state from before the compaction",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::core::time::Timestamp;
    use crate::io::env::Env;

    #[test]
    fn the_monitor_state_and_the_window_evidence_are_caches_written_without_fsync() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".jerry")).unwrap();
        let transcript = dir.path().join("t.jsonl");
        let usage = r#"{"type":"assistant","isSidechain":false,"sessionId":"s","timestamp":"2026-03-01T12:00:00Z","message":{"id":"m1","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":50000,"output_tokens":5}}}"#;
        std::fs::write(&transcript, format!("{usage}\n")).unwrap();
        let mut map = serde_json::Map::new();
        map.insert("session_id".into(), "s".into());
        map.insert(
            "transcript_path".into(),
            transcript.display().to_string().into(),
        );
        map.insert("cwd".into(), dir.path().display().to_string().into());
        let input = HookInput::from_map(map);
        let (env, config) = (Env::default(), Config::default());
        let now = Timestamp::parse("2026-03-01T12:01:00Z").unwrap();
        let ctx = HookContext::new(&env, now, &config, &input);
        let outcome = handle(&input, &ctx);
        let writes: Vec<(String, bool)> = outcome
            .writes
            .iter()
            .map(|w| (w.why.clone(), w.durable))
            .collect();
        assert_eq!(
            writes,
            [
                ("window evidence of the session".to_string(), false),
                ("context monitor state".to_string(), false)
            ],
            "the session's model is kept on its first measurement"
        );
    }
}
