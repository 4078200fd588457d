//! Context fill of the payload's session, through the one shared path
//! (`io::context_fill`).

use super::context::HookContext;
use super::input::HookInput;
use super::output::{HookOutcome, WriteOp};
pub use crate::io::context_fill::Measurement;
use crate::io::context_fill::{self, Evidence, Subject, session_evidence};
use crate::io::transcript::ScanLimits;

pub fn measure(input: &HookInput, ctx: &HookContext, limits: &ScanLimits) -> Measurement {
    let subject = Subject {
        transcript: input.transcript_path.as_deref(),
        session_id: input.session_id.as_deref(),
        project_dir: ctx.project_dir(),
        model_hint: input.model.as_deref(),
    };
    context_fill::measure(&subject, ctx.env, ctx.config.context.window, limits)
}

/// Keeps what the measurement learned about the session's window, so a later
/// event whose tail no longer reaches it still counts it: a cache write (atomic,
/// not fsynced), planned only when something is new.
pub fn remember(measurement: &Measurement, ctx: &HookContext, out: &mut HookOutcome) {
    let (Some(dir), Some(learned)) = (ctx.project_dir(), &measurement.learned) else {
        return;
    };
    let Some(path) = session_evidence::path(dir, &learned.session_id) else {
        return;
    };
    let record = Evidence {
        updated_at: ctx.now.to_iso(),
        ..learned.clone()
    };
    let mut bytes = serde_json::to_vec_pretty(&record).unwrap_or_default();
    bytes.push(b'\n');
    match WriteOp::put(&path, bytes) {
        Ok(op) => out.write_cache(path, op, "window evidence of the session"),
        Err(e) => out.error(format!("{e}; left alone")),
    }
}
