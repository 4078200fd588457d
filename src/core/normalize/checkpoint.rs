//! Checkpoint files → `Checkpoint`: the design format (`cx-NNN-checkpoint.json`,
//! seed 002) and the real Jerry format (`cx-NNN.json`), told apart by content.
//! Keys the model has no field for are kept under `other` with dotted names
//! (`trigger.source`, `context_state.monitoring_ok`).

use serde_json::Value;

use super::json_value::{
    self as jv, get, get_bool, get_float, get_int, get_text, other_fields_into,
};
use super::schema_check;
use crate::core::model::{
    AckSource, Checkpoint, CheckpointDecision, CheckpointFormat, Diagnostic, FileToRead,
    OtherFields, PostCompactRecord,
};
use crate::core::time::Timestamp;
use crate::core::wire::checkpoint::{DesignCheckpoint, JerryCheckpoint};

/// Reads one checkpoint. `path` is relative to the workspace root; `marker_present`
/// says whether a `cx-NNN.acknowledged` marker sits beside it. Only JSON that does
/// not parse, or that is not an object, is an error.
pub fn normalize_checkpoint(
    path: &str,
    text: &str,
    marker_present: bool,
) -> Result<Checkpoint, Diagnostic> {
    let value = jv::parse(path, text)?;
    if !value.is_object() {
        return Err(Diagnostic::error(path, "a checkpoint must be a JSON object").at(1, 1));
    }
    let format = detect_format(path, &value);
    let mut checkpoint = match format {
        CheckpointFormat::Design => read_design(path, &value),
        CheckpointFormat::Jerry => read_jerry(path, &value),
    };
    if !checkpoint.acknowledged && marker_present {
        checkpoint.acknowledged = true;
        checkpoint.acknowledged_via = Some(AckSource::Marker);
    }
    Ok(checkpoint)
}

/// Design files carry `event_id`/`metadata`/`orchestration_state`; real Jerry files
/// `checkpoint_id` and `context_state.fill_percentage`. Without either, the name decides.
pub fn detect_format(path: &str, value: &Value) -> CheckpointFormat {
    let design = [
        "event_id",
        "metadata",
        "orchestration_state",
        "recovery_instructions",
    ]
    .iter()
    .any(|k| get(value, k).is_some());
    let jerry = get(value, "checkpoint_id").is_some()
        || get(value, "context_state")
            .and_then(|c| get(c, "fill_percentage"))
            .is_some();
    match (design, jerry) {
        (true, false) => CheckpointFormat::Design,
        (false, true) => CheckpointFormat::Jerry,
        _ if path.ends_with("-checkpoint.json") => CheckpointFormat::Design,
        _ => CheckpointFormat::Jerry,
    }
}

/// `cx-007` from `…/cx-007-checkpoint.json` or `…/cx-007.json`.
pub fn id_from_path(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let stem = name.strip_suffix(".json").unwrap_or(name);
    stem.strip_suffix("-checkpoint").unwrap_or(stem).to_string()
}

/// `7` from `cx-007` (also `CX-7`, `cx-007-checkpoint`).
pub fn number_from_id(id: &str) -> Option<u32> {
    let rest = id
        .get(..3)
        .filter(|p| p.eq_ignore_ascii_case("cx-"))
        .and(id.get(3..))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn empty(path: &str, id: String, format: CheckpointFormat) -> Checkpoint {
    Checkpoint {
        number: number_from_id(&id),
        id,
        format,
        path: path.to_string(),
        created_at_raw: None,
        created_at: None,
        trigger: None,
        session_id: None,
        fill: None,
        tokens_used: None,
        window: None,
        tier: None,
        fill_source: None,
        workflow_id: None,
        workflow_status: None,
        current_phase: None,
        current_phase_name: None,
        current_activity: None,
        last_completed_checkpoint: None,
        current_gate: None,
        current_gate_iteration: None,
        current_gate_score: None,
        defect_patterns: Vec::new(),
        unresolved_defects: Vec::new(),
        blockers: Vec::new(),
        decisions: Vec::new(),
        agent_summaries: Vec::new(),
        files_to_read: Vec::new(),
        next_action: None,
        critical_context: None,
        acknowledged: false,
        acknowledged_via: None,
        acknowledged_at: None,
        written_by: None,
        post_compact: None,
        resumption_state: None,
        other: OtherFields::new(),
        transcript_summary: None,
    }
}

fn id_of(path: &str, value: &Value, key: &str) -> String {
    get_text(value, key)
        .filter(|id| !id.trim().is_empty())
        .unwrap_or_else(|| id_from_path(path))
}

fn read_design(path: &str, v: &Value) -> Checkpoint {
    let mut c = empty(path, id_of(path, v, "event_id"), CheckpointFormat::Design);
    c.created_at_raw = get_text(v, "timestamp");
    c.created_at = c.created_at_raw.as_deref().and_then(Timestamp::parse);
    c.session_id = get_text(v, "session_id");
    let null = Value::Null;
    let section = |key: &str| get(v, key).unwrap_or(&null);

    let trigger = section("trigger");
    c.trigger = get_text(trigger, "type").or_else(|| jv::text(trigger));
    other_fields_into(trigger, &["type"], "trigger.", &mut c.other);

    let ctx = section("context_state");
    c.fill = get_float(ctx, "estimated_fill_before_compaction");
    c.tokens_used = get_int(ctx, "estimated_tokens_used");
    c.window = get_int(ctx, "context_window_size");
    c.fill_source = get_text(ctx, "source");
    c.tier = get_text(ctx, "tier");
    let known = [
        "estimated_fill_before_compaction",
        "estimated_tokens_used",
        "context_window_size",
        "source",
        "tier",
    ];
    other_fields_into(ctx, &known, "context_state.", &mut c.other);

    let orch = section("orchestration_state");
    c.workflow_id = get_text(orch, "workflow_id");
    c.workflow_status = get_text(orch, "workflow_status");
    c.current_phase = get_text(orch, "current_phase");
    c.current_phase_name = get_text(orch, "current_phase_name");
    c.current_activity = get_text(orch, "current_activity");
    c.last_completed_checkpoint = get_text(orch, "last_completed_checkpoint");
    c.current_gate = get_text(orch, "current_gate");
    c.current_gate_iteration = get_int(orch, "current_gate_iteration");
    c.current_gate_score = get_float(orch, "current_gate_score");
    let known = [
        "workflow_id",
        "workflow_status",
        "current_phase",
        "current_phase_name",
        "current_activity",
        "last_completed_checkpoint",
        "current_gate",
        "current_gate_iteration",
        "current_gate_score",
    ];
    other_fields_into(orch, &known, "orchestration_state.", &mut c.other);

    let acc = section("accumulated_context");
    c.defect_patterns = jv::get_text_list(acc, "defect_patterns");
    c.unresolved_defects = jv::get_text_list(acc, "unresolved_defects");
    c.blockers = jv::get_text_list(acc, "blockers");
    c.decisions = get(acc, "decisions_since_last_checkpoint")
        .and_then(Value::as_array)
        .map(|items| items.iter().map(decision).collect())
        .unwrap_or_default();
    c.agent_summaries = agent_summaries(get(acc, "agent_summaries"));
    let known = [
        "defect_patterns",
        "decisions_since_last_checkpoint",
        "agent_summaries",
        "unresolved_defects",
        "blockers",
    ];
    other_fields_into(acc, &known, "accumulated_context.", &mut c.other);

    let rec = section("recovery_instructions");
    if let Some(files) = get(rec, "files_to_read") {
        c.files_to_read = files_to_read(files);
        let listed = files
            .as_array()
            .map_or(usize::from(!files.is_null()), Vec::len);
        if c.files_to_read.len() < listed {
            // Some entries have no readable path: keep the list as written.
            c.other
                .insert("recovery_instructions.files_to_read".into(), files.clone());
        }
    }
    c.next_action = get_text(rec, "next_action");
    c.critical_context = get_text(rec, "critical_context");
    other_fields_into(
        rec,
        &["files_to_read", "next_action", "critical_context"],
        "recovery_instructions.",
        &mut c.other,
    );

    let meta = section("metadata");
    c.written_by = get_text(meta, "written_by");
    c.acknowledged_at = get_text(meta, "acknowledged_at");
    if get_bool(meta, "acknowledged") == Some(true) {
        c.acknowledged = true;
        c.acknowledged_via = Some(AckSource::Flag);
    }
    other_fields_into(
        meta,
        &["written_by", "acknowledged", "acknowledged_at"],
        "metadata.",
        &mut c.other,
    );

    c.post_compact = get(v, "post_compact")
        .filter(|p| p.is_object())
        .map(|p| PostCompactRecord {
            trigger: get_text(p, "trigger"),
            compact_summary: get_text(p, "compact_summary"),
            recorded_at: get_text(p, "recorded_at"),
        });
    let top = [
        "event_id",
        "timestamp",
        "session_id",
        "trigger",
        "context_state",
        "orchestration_state",
        "accumulated_context",
        "recovery_instructions",
        "metadata",
        "post_compact",
    ];
    other_fields_into(v, &top, "", &mut c.other);
    // Sections that are not maps cannot be read field by field: keep them whole.
    for key in [
        "trigger",
        "context_state",
        "orchestration_state",
        "accumulated_context",
        "recovery_instructions",
        "metadata",
    ] {
        if let Some(found) = get(v, key).filter(|s| !s.is_object() && !s.is_null())
            && !(key == "trigger" && c.trigger.is_some())
        {
            c.other.insert(key.to_string(), found.clone());
        }
    }
    c
}

fn read_jerry(path: &str, v: &Value) -> Checkpoint {
    let mut c = empty(
        path,
        id_of(path, v, "checkpoint_id"),
        CheckpointFormat::Jerry,
    );
    c.created_at_raw = get_text(v, "created_at");
    c.created_at = c.created_at_raw.as_deref().and_then(Timestamp::parse);
    c.session_id = get_text(v, "session_id");
    if let Some(ctx) = get(v, "context_state") {
        c.fill = get_float(ctx, "fill_percentage");
        c.tier = get_text(ctx, "tier");
        c.tokens_used = get_int(ctx, "token_count");
        c.window = get_int(ctx, "context_window");
        other_fields_into(
            ctx,
            &["fill_percentage", "tier", "token_count", "context_window"],
            "context_state.",
            &mut c.other,
        );
        if !ctx.is_object() && !ctx.is_null() {
            c.other.insert("context_state".into(), ctx.clone());
        }
    }
    c.resumption_state = get(v, "resumption_state").filter(|r| !r.is_null()).cloned();
    if let Some(state) = c.resumption_state.clone() {
        super::resumption_state::read_resumption_state(&mut c, &state);
    }
    let known = [
        "checkpoint_id",
        "context_state",
        "resumption_state",
        "created_at",
        "session_id",
    ];
    other_fields_into(v, &known, "", &mut c.other);
    c
}

fn decision(item: &Value) -> CheckpointDecision {
    match item {
        Value::Object(_) => CheckpointDecision {
            id: get_text(item, "id"),
            summary: get_text(item, "summary")
                .or_else(|| get_text(item, "decision"))
                .unwrap_or_default(),
            affects_phases: get(item, "affects_phases")
                .and_then(Value::as_array)
                .map(|phases| phases.iter().filter_map(jv::int).collect())
                .unwrap_or_default(),
        },
        other => CheckpointDecision {
            summary: jv::text(other).unwrap_or_else(|| other.to_string()),
            ..CheckpointDecision::default()
        },
    }
}

fn agent_summaries(value: Option<&Value>) -> Vec<(String, String)> {
    match value {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(agent, summary)| {
                (
                    agent.clone(),
                    jv::text(summary).unwrap_or_else(|| summary.to_string()),
                )
            })
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                let agent = get_text(item, "agent")
                    .or_else(|| get_text(item, "name"))
                    .unwrap_or_default();
                let summary = get_text(item, "summary")
                    .or_else(|| jv::text(item))
                    .unwrap_or_else(|| item.to_string());
                (agent, summary)
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn files_to_read(value: &Value) -> Vec<FileToRead> {
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        other => vec![other],
    };
    items
        .into_iter()
        .filter_map(|item| match item {
            Value::Object(_) => Some(FileToRead {
                path: get_text(item, "path")?,
                priority: get_int(item, "priority"),
                purpose: get_text(item, "purpose"),
                sections: jv::get_text_list(item, "sections"),
                ..FileToRead::default()
            }),
            other => jv::text(other).map(|path| FileToRead {
                path,
                ..FileToRead::default()
            }),
        })
        .collect()
}

/// Every problem in a checkpoint file, checked against the wire type of its format.
pub fn validate_checkpoint(path: &str, text: &str) -> Vec<Diagnostic> {
    let value = match jv::parse(path, text) {
        Ok(value) => value,
        Err(diagnostic) => return vec![diagnostic],
    };
    let mut findings = match detect_format(path, &value) {
        CheckpointFormat::Design => schema_check::check::<DesignCheckpoint>(&value),
        CheckpointFormat::Jerry => schema_check::check::<JerryCheckpoint>(&value),
    };
    findings.extend(super::ranges::range_findings(&value));
    schema_check::json_diagnostics(path, text, &findings)
}

#[cfg(test)]
#[path = "checkpoint_tests.rs"]
mod tests;
