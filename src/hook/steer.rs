//! PreCompact with `hooks.precompact_steer = true`: plain stdout naming what the
//! summary must keep (`core::dropped::steer_text`), cleaned then redacted
//! (`core::redact::scrub`); without it PreCompact prints nothing.

use serde_json::{Map, Value};

use super::output::HookOutcome;
use crate::core::dropped::steer_text;
use crate::core::normalize::checkpoint::normalize_checkpoint;
use crate::core::redact::scrub;

pub fn apply(out: &mut HookOutcome, body: &Map<String, Value>) {
    let text = serde_json::to_string(body).unwrap_or_default();
    let Ok(checkpoint) = normalize_checkpoint("", &text, false) else {
        return;
    };
    match steer_text(&checkpoint) {
        Some(steer) => {
            out.explain("precompact_steer: the summariser is told which identifiers to keep");
            out.stdout = Some(scrub(&steer).into_owned());
        }
        None => out.explain("precompact_steer: nothing to name; nothing printed"),
    }
}
