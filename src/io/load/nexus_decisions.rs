//! A Nexus build's `02-resources/decisions.md`, read beside its manifest.

use std::path::Path;

use super::read::{NotRead, decode, read_bytes_capped};
use crate::core::launch::join;
use crate::core::model::{Diagnostic, NexusDecisions, Project, Severity};
use crate::core::normalize::nexus::decisions::{DECISIONS_FILE, parse_decisions};

/// Real decision files are a few KB; a larger one is refused, with a warning.
const MAX_DECISIONS_BYTES: u64 = 1024 * 1024;

/// Reads the decisions of the Nexus build `project` (its folder under `root`)
/// into its manifest. A build without the file has none; one that cannot be
/// read gets a warning naming it.
pub fn read_into(root: &Path, project: &mut Project) {
    let Some(manifest) = &mut project.manifest else {
        return;
    };
    let rel = join(&project.dir, DECISIONS_FILE);
    let bytes = match read_bytes_capped(&root.join(&rel), MAX_DECISIONS_BYTES) {
        Ok(bytes) => bytes,
        Err(NotRead::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return,
        Err(refused) => {
            let why = format!("decisions not read: {refused}");
            project.diagnostics.push(Diagnostic::warning(&rel, why));
            return;
        }
    };
    match decode(&rel, bytes) {
        Ok(text) => {
            manifest.decisions = Some(NexusDecisions {
                entries: parse_decisions(&text),
                path: rel,
            });
        }
        Err(diagnostic) => project.diagnostics.push(Diagnostic {
            severity: Severity::Warning,
            ..diagnostic
        }),
    }
}
