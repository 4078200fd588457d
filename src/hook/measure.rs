//! Context fill of the payload's session, through the one shared path
//! (`io::context_fill`).

use super::context::HookContext;
use super::input::HookInput;
pub use crate::io::context_fill::Measurement;
use crate::io::context_fill::{self, Subject};
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
