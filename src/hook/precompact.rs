//! PreCompact: write a checkpoint (and, in a Nexus workspace, the precompact
//! state), and print nothing: plain stdout of a PreCompact hook is passed to the
//! summariser as extra instructions (reference §3.4), so only the operator's opt-in
//! `hooks.precompact_steer` prints (`steer`). Never `hookSpecificOutput`, never a
//! block.
//!
//! PreCompact fires up to four times per compaction, sometimes in parallel: a
//! checkpoint of the same session younger than `hooks.dedupe_seconds`, of the
//! same trigger and without a PostCompact record (that compaction still running),
//! is updated in place instead of adding another. Two runs that both decide to create the
//! same number are settled by the write path (`create_new` never clobbers); the
//! loser plans again and then finds the winner's checkpoint to update.

use std::path::Path;

use serde_json::Value;

use super::build::{self, CheckpointInput, FillRecord};
use super::checkpoints::{self, CheckpointFile};
use super::context::{
    HookContext, checkpoints_dir, is_nexus_workspace, monitor_state_path, precompact_state_path,
};
use super::detect::{self, Detection};
use super::input::HookInput;
use super::measure::{measure, remember};
use super::output::{HookOutcome, WriteOp};
use super::project;
use crate::core::model::{Project, ProjectKind};
use crate::core::time::Timestamp;
use crate::core::wire::context_state::ContextMonitorState;
use crate::io::discover::{self, Found};
use crate::io::transcript::ScanLimits;
use crate::io::write::{Snapshot, read_snapshot};

pub fn handle(input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let mut out = HookOutcome::default();
    let Some(root) = ctx.project_dir() else {
        out.explain("no project folder: $CLAUDE_PROJECT_DIR is unset and stdin has no cwd");
        out.info("no project folder; nothing written");
        return out;
    };
    if !root.is_dir() {
        out.error(format!(
            "project folder {} is not a readable folder",
            root.display()
        ));
        return out;
    }
    if !ctx.in_workspace {
        out.explain(format!(
            "{} is not a workspace, nor inside one (no ORCHESTRATION.yaml, .jerry/ folder, Nexus 00-system or Jerry projects/ there or above): nothing written",
            root.display()
        ));
        out.info("not a workspace; nothing written");
        return out;
    }
    let measurement = measure(input, ctx, &ScanLimits::with_tool_uses());
    out.explain(measurement.note.clone());
    if let Some(problem) = &measurement.problem {
        out.error(problem.clone());
    }
    remember(&measurement, ctx, &mut out);
    let files = checkpoints::list(&checkpoints_dir(root));
    let previous = input
        .session_id
        .as_deref()
        .and_then(|s| checkpoints::newest_of_session(&files, s, &mut out));
    let tool_uses = measurement
        .scan
        .as_ref()
        .map(|s| s.tool_uses.as_slice())
        .unwrap_or_default();
    // The transcript's paths lead to their projects without a walk; the workspace
    // is walked only when they lead nowhere.
    let mut detection = detect::in_transcript(root, tool_uses);
    // The fallback loads its candidates; the one it picks is not loaded again.
    let mut loaded = None;
    let candidates_read = project::Candidates::new(ctx);
    if let Some(d) = &detection
        && let Some(project) = candidates_read.load(&d.found)
    {
        if project.kind == ProjectKind::Nexus && !detect::is_active(&project) {
            out.explain(format!(
                "the transcript points at Nexus build {} ({}), which is finished: not chosen",
                project.id, d.found.rel
            ));
            detection = None;
        } else {
            loaded = Some(project);
        }
    }
    if detection.is_none() {
        let discovery = discover::discover(root, ctx.env);
        let candidates = detect::candidates(&discovery);
        // Without a project in the transcript: the build whose manifest records
        // this session, as Nexus's own hooks find it.
        if let Some((by_session, project)) = input
            .session_id
            .as_deref()
            .and_then(|id| detect::by_session(&candidates, id, |f| candidates_read.load(f)))
        {
            detection = Some(by_session);
            loaded = Some(project);
        }
        if detection.is_none() {
            detection = cached(root, &candidates, previous.as_ref());
        }
        if detection.is_none()
            && let Some((fell_back, project)) =
                detect::fallback(&candidates, |f| candidates_read.load(f))
        {
            detection = Some(fell_back);
            loaded = Some(project);
        }
    }
    let project = loaded.or_else(|| {
        detection
            .as_ref()
            .and_then(|d| candidates_read.load(&d.found))
    });
    if let Some(project) = &project {
        project::log_errors(project, &mut out);
    }
    match &detection {
        Some(d) => out.explain(format!(
            "project {} ({}), confidence {}, detection {}: {}",
            project.as_ref().map_or("?", |p| p.id.as_str()),
            d.found.rel,
            label(d.confidence),
            method(d.method),
            d.reason
        )),
        None => out.explain("no active workflow found; the checkpoint records the fill only"),
    }

    let fill = match &measurement.fill {
        Some(fill) => Some(FillRecord::from_fill(fill, measurement.source)),
        None => recorded_fill(root, input.session_id.as_deref(), &mut out),
    };
    let reuse = previous.filter(|(_, _, map)| {
        recent(map, ctx.now, ctx.config.hooks.dedupe_seconds)
            && same_compaction(map, input.trigger.as_deref())
    });
    let number = reuse.as_ref().map_or_else(
        || checkpoints::next_number(&files),
        |(file, _, _)| file.number,
    );
    let checkpoint = build::checkpoint(&CheckpointInput {
        number,
        now: ctx.now,
        session_id: input.session_id.as_deref(),
        trigger: input.trigger.as_deref(),
        custom_instructions: input.custom_instructions.as_deref(),
        fill: fill.as_ref(),
        project: project.as_ref(),
    });
    let Ok(Value::Object(body)) = serde_json::to_value(&checkpoint) else {
        out.error("could not serialise the checkpoint");
        return out;
    };
    if ctx.config.hooks.precompact_steer {
        super::steer::apply(&mut out, &body);
    }
    let id = checkpoints::event_id(number);
    let planned = match reuse {
        Some((file, snapshot, existing)) => {
            let body = with_carry_over(body, &existing);
            // A later firing of the same compaction (the same transcript and
            // project) would change nothing but the time.
            (!unchanged_within_window(&body, &existing, ctx)).then(|| {
                let bytes = pretty(&Value::Object(body));
                (file.path, WriteOp::Replace { snapshot, bytes }, "updated")
            })
        }
        None => {
            let path = checkpoints_dir(root).join(checkpoints::design_file_name(number));
            Some((path, WriteOp::Create(pretty(&Value::Object(body))), "new"))
        }
    };
    match planned {
        None => {
            out.explain(format!(
                "checkpoint {id}: already records this firing (only its timestamp would change); left as is"
            ));
            out.info(format!("checkpoint {id} unchanged"));
        }
        Some((path, op, verb)) => {
            out.explain(format!(
                "checkpoint {id}: {verb} ({})",
                if verb == "new" {
                    "no checkpoint of this compaction: none of this session within hooks.dedupe_seconds, or its compaction has ended (PostCompact recorded) or had another trigger"
                } else {
                    "same session within hooks.dedupe_seconds, its compaction not yet ended"
                }
            ));
            out.write(path, op, format!("{verb} checkpoint {id}"));
            out.info(format!(
                "checkpoint {id} ({verb}) for {} fill {}",
                project.as_ref().map_or("no workflow", |p| p.id.as_str()),
                fill.as_ref()
                    .map_or("unknown".to_string(), |f| format!("{:.1}%", f.fill * 100.0))
            ));
        }
    }
    if is_nexus_workspace(root) {
        let session_id = input.session_id.as_deref();
        plan_precompact_state(
            root,
            detection.as_ref(),
            project.as_ref(),
            session_id,
            ctx,
            &mut out,
        );
    }
    out
}

/// Written within `hooks.dedupe_seconds` and the same as `new` but for the time:
/// a later firing of the same compaction leaves such a file as it is.
fn unchanged_within_window(
    new: &serde_json::Map<String, Value>,
    old: &serde_json::Map<String, Value>,
    ctx: &HookContext,
) -> bool {
    recent(old, ctx.now, ctx.config.hooks.dedupe_seconds) && same_but_timestamp(new, old)
}

/// Whether two checkpoints (or states) differ at most in their `timestamp`.
fn same_but_timestamp(
    new: &serde_json::Map<String, Value>,
    old: &serde_json::Map<String, Value>,
) -> bool {
    new.len() == old.len()
        && new
            .iter()
            .all(|(key, value)| key == "timestamp" || old.get(key) == Some(value))
}

fn label(confidence: crate::core::wire::precompact::Confidence) -> &'static str {
    use crate::core::wire::precompact::Confidence;
    match confidence {
        Confidence::High => "high",
        Confidence::Medium => "medium",
        Confidence::Low => "low",
    }
}

fn method(method: crate::core::wire::precompact::DetectionMethod) -> &'static str {
    use crate::core::wire::precompact::DetectionMethod;
    match method {
        DetectionMethod::Transcript => "transcript",
        DetectionMethod::Cache => "cache",
        DetectionMethod::Fallback => "fallback",
    }
}

/// The project an earlier checkpoint of this session pointed at (its first file to
/// read is the state file), else the Nexus precompact state not yet consumed.
fn cached(
    root: &Path,
    candidates: &[&Found],
    previous: Option<&(CheckpointFile, Snapshot, serde_json::Map<String, Value>)>,
) -> Option<Detection> {
    if let Some((file, _, map)) = previous {
        let first = map
            .get("recovery_instructions")
            .and_then(|r| r.get("files_to_read"))
            .and_then(Value::as_array)
            .and_then(|files| files.first())
            .and_then(|f| f.get("path"))
            .and_then(Value::as_str);
        if let Some(hit) = first.and_then(|p| detect::from_cache(candidates, p, &file.id)) {
            return Some(hit);
        }
    }
    let state = read_snapshot(&precompact_state_path(root)).ok()?;
    let value: Value = serde_json::from_slice(&state.bytes).ok()?;
    let id = value.get("active_project_id")?.as_str()?;
    detect::from_cache(candidates, id, "precompact_state.json")
}

/// Whether an earlier checkpoint of the session belongs to the compaction now
/// firing PreCompact again: not once PostCompact has recorded that compaction's
/// end (Claude Code runs PostCompact after its last PreCompact), and not under
/// another trigger (`manual` then `auto` are two compactions).
fn same_compaction(map: &serde_json::Map<String, Value>, trigger: Option<&str>) -> bool {
    let ended = map.get("post_compact").is_some_and(|p| !p.is_null());
    let recorded = map
        .get("trigger")
        .and_then(|t| t.get("type"))
        .and_then(Value::as_str);
    let trigger = trigger.unwrap_or("auto");
    !ended && recorded.is_none_or(|r| r == trigger)
}

/// Whether the checkpoint was written within `dedupe_seconds` of `now`.
fn recent(map: &serde_json::Map<String, Value>, now: Timestamp, dedupe_seconds: u64) -> bool {
    let Some(written) = map
        .get("timestamp")
        .and_then(Value::as_str)
        .and_then(Timestamp::parse)
    else {
        return false;
    };
    let age = now.seconds_since(written);
    age >= -5 && age <= i64::try_from(dedupe_seconds).unwrap_or(i64::MAX)
}

/// What the earlier run recorded and this one must not lose: the acknowledgement.
/// (A checkpoint with PostCompact's record is never updated: its compaction ended.)
fn with_carry_over(
    mut body: serde_json::Map<String, Value>,
    existing: &serde_json::Map<String, Value>,
) -> serde_json::Map<String, Value> {
    if let Some(value) = existing.get("metadata") {
        body.insert("metadata".to_string(), value.clone());
    }
    body
}

/// The fill the UserPromptSubmit hook last recorded for this session; none
/// without a session id (the record could be any session's).
fn recorded_fill(
    root: &Path,
    session_id: Option<&str>,
    out: &mut HookOutcome,
) -> Option<FillRecord> {
    let session_id = session_id.filter(|s| !s.is_empty())?;
    let snapshot = read_snapshot(&monitor_state_path(root)).ok()?;
    let state: ContextMonitorState = serde_json::from_slice(&snapshot.bytes).ok()?;
    if state.session_id.as_deref() != Some(session_id) {
        return None;
    }
    out.explain(format!(
        "fill taken from .jerry/context-monitor-state.json of {}",
        state.updated_at
    ));
    Some(FillRecord {
        fill: state.fill,
        tokens_used: u64::try_from(state.tokens_used).unwrap_or(0),
        window: u64::try_from(state.window).unwrap_or(0),
        source: format!(
            "context-monitor-state ({}); window: {}",
            state.updated_at, state.window_source
        ),
    })
}

fn plan_precompact_state(
    root: &Path,
    detection: Option<&Detection>,
    project: Option<&Project>,
    session_id: Option<&str>,
    ctx: &HookContext,
    out: &mut HookOutcome,
) {
    let state = build::precompact_state(detection, project, session_id, ctx.now);
    let Ok(Value::Object(value)) = serde_json::to_value(&state) else {
        out.error("could not serialise the precompact state");
        return;
    };
    let bytes = pretty(&Value::Object(value.clone()));
    let path = precompact_state_path(root);
    // Not fsynced: the checkpoint written beside it (durably) records the same
    // project and confidence, and SessionStart falls back on it (docs/hooks.md).
    match WriteOp::put(&path, bytes) {
        Ok(WriteOp::Replace { snapshot, .. })
            if serde_json::from_slice(&snapshot.bytes)
                .is_ok_and(|old| unchanged_within_window(&value, &old, ctx)) =>
        {
            out.explain(
                "precompact state: already says this, written within hooks.dedupe_seconds; left as is",
            );
        }
        Ok(op) => out.write_cache(path, op, "Nexus precompact state for SessionStart"),
        Err(e) => out.error(format!("{e}; left alone")),
    }
}

fn pretty(value: &Value) -> Vec<u8> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into());
    text.push('\n');
    text.into_bytes()
}
