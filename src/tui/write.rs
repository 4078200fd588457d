//! Writes asked for by the dashboard, through the edit layer (`core::edit` intents
//! applied by `io::yaml_edit` through `io::write`).

use std::path::Path;

use super::effect::WriteRequest;
use super::msg::{Msg, WriteError};
use crate::config::Config;
use crate::io::env::Env;

pub fn perform(root: &Path, env: &Env, config: &Config, request: WriteRequest) -> Msg {
    let _ = (root, env, config);
    Msg::Written {
        what: request.op.describe(),
        result: Err(WriteError::Failed(
            "the edit layer (io::yaml_edit) is not in this build yet".into(),
        )),
    }
}
