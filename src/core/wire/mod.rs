//! Exact on-disk and on-stdin shapes, one module per format (schemas are generated from them).
pub mod checkpoint;
pub mod context_state;
pub mod nexus;
pub mod nullable;
pub mod orchestration;
pub mod precompact;

/// Every format resume-tui reads, as (file name under `schemas/`, JSON Schema),
/// generated from the wire types. `tests/schemas.rs` keeps `schemas/` in step.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    fn schema<T: schemars::JsonSchema>() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default()
    }
    vec![
        (
            "resumption-v1.schema.json",
            schema::<orchestration::ResumptionV1>(),
        ),
        (
            "resumption-v2.schema.json",
            schema::<orchestration::ResumptionV2>(),
        ),
        (
            "resumption-v2-flat.schema.json",
            schema::<orchestration::ResumptionV2Flat>(),
        ),
        (
            "checkpoint-design.schema.json",
            schema::<checkpoint::DesignCheckpoint>(),
        ),
        (
            "checkpoint-jerry.schema.json",
            schema::<checkpoint::JerryCheckpoint>(),
        ),
        (
            "context-monitor-state.schema.json",
            schema::<context_state::ContextMonitorState>(),
        ),
        (
            "jerry-context-state.schema.json",
            schema::<context_state::JerryContextState>(),
        ),
        (
            "nexus-manifest-1.0.schema.json",
            schema::<nexus::NexusManifestV1>(),
        ),
        (
            "nexus-manifest-2.0.schema.json",
            schema::<nexus::NexusManifestV2>(),
        ),
        (
            "precompact-state.schema.json",
            schema::<precompact::PrecompactState>(),
        ),
    ]
}
