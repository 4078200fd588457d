//! The `resumption:` section of a Jerry `ORCHESTRATION.yaml`, as files write it:
//! v1 (five fields, seed 002 "current schema"), v2 nested (`recovery_state:` and
//! seven sub-sections, seed 002/004) and v2 flat (the recovery fields directly under
//! `resumption:`, with `decisions:`). Untagged enums accept every variant real files
//! use; the JSON Schemas in `schemas/` are generated from these types, and
//! `validate` checks files against them. Reading for display is done leniently by
//! `core::normalize::jerry`, which accepts even more.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;

/// Text as files write it; numbers and booleans are read as their text.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    Text(String),
    Integer(i64),
    Number(f64),
    Bool(bool),
}

/// v1: the five fields of the original section (plus `next_action` and
/// `last_checkpoint_id`, which some real files write instead). Real files add
/// keys of their own (`agent_count`, `execution_notes`, …); they are kept as
/// other fields.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
pub struct ResumptionV1 {
    /// The most recent checkpoint id.
    pub last_checkpoint: Option<Scalar>,
    /// Prose: where the workflow stands (often with gate scores, "QG-1: 0.941").
    pub current_state: Option<Scalar>,
    /// What the resuming session should do first.
    pub next_step: Option<Scalar>,
    pub files_to_read: Option<Vec<FileToReadEntry>>,
    pub cross_session_portable: Option<bool>,
    pub ephemeral_references: Option<bool>,
    /// Written by some files instead of `next_step`.
    pub next_action: Option<Scalar>,
    /// Written by some files instead of `last_checkpoint`.
    pub last_checkpoint_id: Option<Scalar>,
    /// Written by some files instead of `current_state`.
    pub context_summary: Option<Scalar>,
    /// The last phase finished, when no current phase is written.
    pub last_completed_phase: Option<Scalar>,
    /// More files to read, read like `files_to_read`.
    pub key_reference_files: Option<Vec<FileToReadEntry>>,
    pub key_artifacts_to_read: Option<Vec<FileToReadEntry>>,
}

/// v2 nested: `recovery_state:` plus the sub-sections (seed 004's update protocol).
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct ResumptionV2 {
    pub recovery_state: RecoveryState,
    #[serde(flatten)]
    pub sections: V2Sections,
}

/// v2 flat: the recovery fields directly under `resumption:` (seed 002's example).
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct ResumptionV2Flat {
    #[serde(flatten)]
    pub recovery: RecoveryState,
    #[serde(flatten)]
    pub sections: V2Sections,
}

/// Overwritten at every state transition (seed 004). `next_step`, `updated_at`,
/// `workflow_status` and `current_phase` are what a resuming session and the
/// staleness check need; the others are optional.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct RecoveryState {
    pub last_checkpoint: Option<Scalar>,
    /// A number (`3`) or a name (`"COMPLETE"`).
    pub current_phase: Scalar,
    pub current_phase_name: Option<Scalar>,
    /// `ACTIVE`, `PAUSED`, `COMPLETE`, `FAILED`, `CANCELLED`; other values are shown as written.
    pub workflow_status: Scalar,
    /// `phase-N-agent-execution`, `qg-N-iteration-M`, `compaction-recovery`, `idle`, or prose.
    pub current_activity: Option<Scalar>,
    pub next_step: Scalar,
    /// 0.0–1.0, or null when unknown.
    pub context_fill_at_update: Option<f64>,
    /// ISO 8601, e.g. `2026-02-17T12:34:56Z`.
    pub updated_at: String,
    pub cross_session_portable: Option<bool>,
    pub ephemeral_references: Option<bool>,
}

/// The sub-sections after the recovery state; each may be absent.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
pub struct V2Sections {
    pub files_to_read: Option<Vec<FileToReadEntry>>,
    pub quality_trajectory: Option<QualityTrajectory>,
    pub defect_summary: Option<DefectSummary>,
    /// The decision log as the template and real files name it.
    pub decision_log: Option<Vec<DecisionEntry>>,
    /// The decision log as seed 002's example names it.
    pub decisions: Option<Vec<DecisionEntry>>,
    pub agent_summaries: Option<AgentSummaries>,
    pub compaction_events: Option<CompactionEvents>,
}

/// A plain path (v1) or a structured entry (v2); lists may mix both.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum FileToReadEntry {
    Path(String),
    Entry(FileToRead),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct FileToRead {
    pub path: String,
    /// Load order, 1 first.
    pub priority: Option<i64>,
    pub purpose: Option<String>,
    /// Sections worth reading in the file.
    pub sections: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
pub struct QualityTrajectory {
    pub gates_completed: Option<Vec<GateCompleted>>,
    pub gates_remaining: Option<Vec<Scalar>>,
    /// Null between gates.
    pub current_gate: Option<Scalar>,
    pub current_gate_iteration: Option<i64>,
    /// Gate (or agent) id → score per iteration.
    pub score_history: Option<BTreeMap<String, Scores>>,
    pub lowest_dimension: Option<Scalar>,
    pub total_iterations_used: Option<i64>,
    pub total_iterations_budget: Option<i64>,
}

/// A gate id (`"qg-1"`) or a record of the gate's result.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum GateCompleted {
    Id(Scalar),
    Record(GateRecord),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct GateRecord {
    pub id: Scalar,
    pub score: Option<f64>,
    pub iterations: Option<i64>,
    pub date: Option<String>,
    pub note: Option<String>,
}

/// Scores per iteration; a single score is accepted too.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scores {
    List(Vec<f64>),
    One(f64),
}

#[derive(Debug, Clone, Default, PartialEq, Deserialize, JsonSchema)]
pub struct DefectSummary {
    pub total_defects_found: Option<i64>,
    pub total_defects_resolved: Option<i64>,
    pub unresolved_defects: Option<Vec<Scalar>>,
    pub recurring_patterns: Option<Vec<DefectPatternEntry>>,
    pub last_gate_primary_defect: Option<Scalar>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DefectPatternEntry {
    Text(String),
    Pattern(DefectPattern),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct DefectPattern {
    pub pattern: String,
    pub gates_affected: Option<Vec<Scalar>>,
    pub resolution: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum DecisionEntry {
    Record(Decision),
    Text(String),
}

/// A cross-phase decision (`RD-NNN`); real entries sometimes have no id and add a date.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct Decision {
    pub id: Option<Scalar>,
    pub gate: Option<Scalar>,
    pub iteration: Option<i64>,
    pub decision: String,
    pub rationale: Option<String>,
    pub affects_phases: Option<Vec<i64>>,
    pub applied: Option<bool>,
    pub date: Option<String>,
}

/// `agent: summary` as a map (the design), or a list of one-entry maps or
/// `"agent: summary"` strings.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AgentSummaries {
    Map(BTreeMap<String, Scalar>),
    List(Vec<AgentSummaryItem>),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AgentSummaryItem {
    Line(String),
    Pair(BTreeMap<String, Scalar>),
}

/// The four shapes of `compaction_events`. An empty `events` list reads as the design shape.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CompactionEvents {
    /// `{count, events: [{id, timestamp, trigger, estimated_fill_before, …}]}` (seed 002/004).
    Design(DesignLog),
    /// `{count, events: [{checkpoint_id, fill_percentage, tier, timestamp}]}` (Jerry code write-back).
    JerryCode(JerryCodeLog),
    /// `{count, timestamps: [], recovery_notes: []}`.
    CountOnly(CountOnlyLog),
    /// `[{session, compactions, note}]`.
    BareList(Vec<SessionCompactions>),
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct DesignLog {
    pub count: Option<i64>,
    pub events: Vec<DesignEvent>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct DesignEvent {
    /// `CX-NNN`.
    pub id: String,
    pub timestamp: String,
    /// `auto` or `manual`.
    pub trigger: Option<String>,
    pub estimated_fill_before: Option<f64>,
    pub active_phase: Option<Scalar>,
    pub active_gate: Option<Scalar>,
    pub active_gate_iteration: Option<i64>,
    pub checkpoint_file: Option<String>,
    pub acknowledged: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct JerryCodeLog {
    pub count: Option<i64>,
    pub events: Vec<JerryCodeEvent>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct JerryCodeEvent {
    pub checkpoint_id: String,
    pub fill_percentage: Option<f64>,
    pub tier: Option<String>,
    pub timestamp: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct CountOnlyLog {
    pub count: i64,
    pub timestamps: Option<Vec<Scalar>>,
    pub recovery_notes: Option<Vec<Scalar>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
pub struct SessionCompactions {
    pub session: Option<Scalar>,
    pub compactions: Option<i64>,
    pub note: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_002_flat_example_deserialises() {
        let text = "last_checkpoint: CP-002\ncurrent_phase: 3\nworkflow_status: ACTIVE\n\
            next_step: Go\nupdated_at: '2026-02-17T12:34:56Z'\ncontext_fill_at_update: 0.642\n\
            files_to_read: [{path: a, priority: 1, purpose: p, sections: [x]}, b.md]\n\
            quality_trajectory: {gates_completed: [qg-1, {id: qg-2, score: 0.95}], \
            score_history: {qg-1: [0.8, 0.9], qg-2: 0.95}}\n\
            decisions: [{id: RD-001, decision: d, affects_phases: [3], applied: true}]\n\
            agent_summaries: {a: PASS.}\ncompaction_events: {count: 0, events: []}\n";
        let flat: ResumptionV2Flat = yaml_serde::from_str(text).unwrap();
        assert_eq!(flat.recovery.current_phase, Scalar::Integer(3));
        assert_eq!(flat.sections.files_to_read.unwrap().len(), 2);
        assert!(matches!(
            flat.sections.compaction_events,
            Some(CompactionEvents::Design(_))
        ));
        assert_eq!(flat.sections.decisions.unwrap().len(), 1);
    }

    #[test]
    fn the_four_compaction_shapes_pick_their_variant() {
        let parse = |t: &str| yaml_serde::from_str::<CompactionEvents>(t).unwrap();
        assert!(matches!(
            parse("{count: 1, events: [{checkpoint_id: cx-1, fill_percentage: 0.9, tier: W}]}"),
            CompactionEvents::JerryCode(_)
        ));
        assert!(matches!(
            parse("{count: 1, events: [{id: CX-1, timestamp: t}]}"),
            CompactionEvents::Design(_)
        ));
        assert!(matches!(
            parse("{count: 2, timestamps: [], recovery_notes: []}"),
            CompactionEvents::CountOnly(_)
        ));
        assert!(matches!(
            parse("[{session: s, compactions: 2, note: n}]"),
            CompactionEvents::BareList(_)
        ));
    }

    #[test]
    fn v1_accepts_numbers_as_text_and_rejects_a_map_for_files() {
        let v1: ResumptionV1 =
            yaml_serde::from_str("next_step: 42\nfiles_to_read: [a.md]\n").unwrap();
        assert_eq!(v1.next_step, Some(Scalar::Integer(42)));
        assert!(yaml_serde::from_str::<ResumptionV1>("files_to_read: {a: b}\n").is_err());
    }
}
