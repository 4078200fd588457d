//! Frontmatter mapping → `NexusManifest` fields. Every key lands in a model field
//! or, in file order, in `other`; a known key with a value of the wrong kind is
//! kept in `other` with a warning.

use yaml_serde::Value;

use super::ctx::Ctx;
use super::files_to_load::read_files_to_load;
use crate::core::model::NexusManifest;
use crate::core::normalize::value::{self, get, to_json};
use crate::core::time::Timestamp;

/// Keys with a home in `NexusManifest` (v1.0, v2.0, real v4 additions).
const KNOWN: &[&str] = &[
    "resume_schema_version",
    "project_id",
    "project_name",
    "build_id",
    "build_name",
    "build_type",
    "current_phase",
    "next_action",
    "continue_at",
    "files_to_load",
    "current_section",
    "current_task",
    "total_tasks",
    "tasks_completed",
    "progress",
    "last_updated",
    "session_id",
    "session_ids",
    "blockers",
    "rediscovery_round",
    "discovery_complete",
];

/// Reads the frontmatter mapping `map` into a manifest (body and fences unset).
pub(super) fn read_fields(map: &Value, ctx: &mut Ctx) -> NexusManifest {
    let mut r = Reader {
        map,
        ctx,
        rejected: Vec::new(),
    };
    let legacy = r.text("resume_version");
    let mut manifest = NexusManifest {
        schema_version: r.text("resume_schema_version"),
        project_id: r.text("project_id"),
        project_name: r.text("project_name"),
        build_id: r.text("build_id"),
        build_name: r.text("build_name"),
        build_type: r.text("build_type"),
        current_phase: r.text("current_phase"),
        next_action: r.text("next_action"),
        continue_at: r.text("continue_at"),
        current_section: r.text("current_section"),
        current_task: r.text("current_task"),
        total_tasks: r.int("total_tasks"),
        tasks_completed: r.int("tasks_completed"),
        progress: get(map, "progress").filter(|v| !v.is_null()).map(to_json),
        last_updated_raw: r.text("last_updated"),
        session_ids: r.list("session_ids"),
        blockers: r.list("blockers"),
        rediscovery_round: r.int("rediscovery_round"),
        discovery_complete: r.boolean("discovery_complete"),
        ..NexusManifest::default()
    };
    if let Some(session) = r.text("session_id").filter(|s| !s.trim().is_empty())
        && !manifest.session_ids.contains(&session)
    {
        manifest.session_ids.push(session);
    }
    match read_files_to_load(map, r.ctx) {
        Some(files) => manifest.files_to_load = files,
        None => r.rejected.push("files_to_load"),
    }

    // Older files name these differently; the alias stays in `other` as written.
    if manifest.schema_version.is_none() {
        manifest.schema_version = legacy;
    }
    if manifest.current_phase.is_none() {
        manifest.current_phase = r.text("phase");
    }
    if manifest.last_updated_raw.is_none() {
        manifest.last_updated_raw = r.text("updated");
    }
    if let Some(raw) = &manifest.last_updated_raw {
        manifest.last_updated = Timestamp::parse(raw);
        if manifest.last_updated.is_none() {
            let key = if map_has(map, "last_updated") {
                "last_updated"
            } else {
                "updated"
            };
            r.ctx
                .warn(&[key], format!("`{raw}` is not an ISO 8601 timestamp"));
        }
    }

    let mut known: Vec<&str> = KNOWN.to_vec();
    if !map_has(map, "resume_schema_version") {
        // The legacy key is the version only when the current one is absent.
        known.push("resume_version");
    }
    known.retain(|k| !r.rejected.contains(k));
    manifest.other = value::other_fields(map, &known);
    manifest
}

fn map_has(map: &Value, key: &str) -> bool {
    get(map, key).is_some()
}

struct Reader<'m, 'c, 'a> {
    map: &'m Value,
    ctx: &'c mut Ctx<'a>,
    rejected: Vec<&'static str>,
}

impl Reader<'_, '_, '_> {
    fn present(&self, key: &str) -> Option<&Value> {
        get(self.map, key).filter(|v| !v.is_null())
    }

    fn reject(&mut self, key: &'static str, expected: &str) {
        if let Some(found) = get(self.map, key) {
            self.ctx.wrong_type(key, expected, found);
        }
        self.rejected.push(key);
    }

    fn text(&mut self, key: &'static str) -> Option<String> {
        let found = self.present(key).map(value::text)?;
        if found.is_none() {
            self.reject(key, "text");
        }
        found
    }

    fn int(&mut self, key: &'static str) -> Option<i64> {
        let found = self.present(key).map(value::int)?;
        if found.is_none() {
            self.reject(key, "a whole number");
        }
        found
    }

    fn boolean(&mut self, key: &'static str) -> Option<bool> {
        let found = self.present(key).map(value::boolean)?;
        if found.is_none() {
            self.reject(key, "true or false");
        }
        found
    }

    /// A list of scalars (a single scalar is a one-item list); maps inside are rejected.
    fn list(&mut self, key: &'static str) -> Vec<String> {
        let Some(found) = self.present(key) else {
            return Vec::new();
        };
        let readable = match found {
            Value::Sequence(items) => items
                .iter()
                .all(|i| i.is_null() || value::text(i).is_some()),
            other => value::text(other).is_some(),
        };
        if !readable {
            self.reject(key, "a list of text values");
            return Vec::new();
        }
        value::text_list(found)
            .into_iter()
            .filter(|s| !s.trim().is_empty())
            .collect()
    }
}
