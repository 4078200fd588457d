//! The frontmatter fields a manifest migration adds, and where each value comes from.

use yaml_serde::Mapping;

use crate::core::edit::render;
use crate::core::model::Project;
use crate::core::normalize::value::text;
use crate::core::time::Timestamp;

/// Required by the documented schema (seed 000, `resume_context_v1.json`).
pub(super) const REQUIRED: &[&str] = &[
    "resume_schema_version",
    "project_id",
    "project_name",
    "current_phase",
    "next_action",
    "files_to_load",
    "last_updated",
];

/// A field to add: its key, its value, and where the value came from.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Added {
    pub key: &'static str,
    pub value: String,
    pub from: &'static str,
}

impl Added {
    fn new(key: &'static str, value: &str, from: &'static str) -> Added {
        Added {
            key,
            value: value.trim().to_string(),
            from,
        }
    }

    pub fn line(&self, nl: &str) -> String {
        format!(
            "{}: {}  # {}{nl}",
            self.key,
            render::double_quoted(&self.value),
            self.from
        )
    }
}

/// What the migration may use besides the frontmatter itself.
pub(super) struct Sources<'a> {
    pub folder: Option<&'a str>,
    pub before: &'a Project,
    pub modified: Option<Timestamp>,
}

/// Fields to add to an existing schema-1.0 frontmatter `map`: each absent required
/// field that can be derived (the version is handled by the caller).
pub(super) fn for_frontmatter(map: &Mapping, src: &Sources) -> Vec<Added> {
    let absent = |key: &str| !map.contains_key(key);
    let alias = |key: &str| map.get(key).and_then(text).filter(|t| !t.trim().is_empty());
    let mut added = Vec::new();
    if absent("project_id")
        && let Some(folder) = src.folder
    {
        added.push(Added::new("project_id", folder, "from the folder name"));
    }
    if absent("project_name")
        && absent("build_name")
        && let Some(name) = &src.before.name
    {
        added.push(Added::new("project_name", name, "from the first heading"));
    }
    if absent("current_phase")
        && let Some(phase) = alias("phase")
    {
        added.push(Added::new("current_phase", &phase, "from `phase`"));
    }
    if absent("last_updated") {
        match alias("updated") {
            Some(at) => added.push(Added::new("last_updated", &at, "from `updated`")),
            None => added.extend(modified(src)),
        }
    }
    added
}

/// The whole frontmatter of a manifest that has none, from the facts its markdown
/// states (the same facts the file was read with).
pub(super) fn for_body(src: &Sources) -> Vec<Added> {
    let manifest = src.before.manifest.as_ref();
    let fact = |f: fn(&crate::core::model::NexusManifest) -> Option<String>| manifest.and_then(f);
    let mut added = vec![Added::new(
        "resume_schema_version",
        "1.0",
        "the documented Nexus schema",
    )];
    if let Some(folder) = src.folder {
        added.push(Added::new("project_id", folder, "from the folder name"));
    }
    if let Some(name) = &src.before.name {
        added.push(Added::new("project_name", name, "from the first heading"));
    }
    if let Some(phase) = fact(|m| m.current_phase.clone()) {
        added.push(Added::new(
            "current_phase",
            &phase,
            "from the body's Phase line",
        ));
    }
    if let Some(action) = fact(|m| m.next_action.clone()) {
        added.push(Added::new(
            "next_action",
            &action,
            "from the body's Next line",
        ));
    }
    match fact(|m| m.last_updated_raw.clone()) {
        Some(at) => added.push(Added::new(
            "last_updated",
            &at,
            "from the body's Last Updated line",
        )),
        None => added.extend(modified(src)),
    }
    let status = fact(|m| {
        m.other
            .get("status")
            .and_then(|s| s.as_str())
            .map(str::to_string)
    });
    if let Some(status) = status {
        added.push(Added::new("status", &status, "from the body's Status line"));
    }
    added
}

fn modified(src: &Sources) -> Option<Added> {
    src.modified.map(|at| {
        Added::new(
            "last_updated",
            &at.to_iso(),
            "from the file's modification time",
        )
    })
}

/// Required fields still absent once `added` is in.
pub(super) fn still_missing(map: Option<&Mapping>, added: &[Added]) -> Vec<String> {
    REQUIRED
        .iter()
        .filter(|key| {
            !map.is_some_and(|m| m.contains_key(**key)) && !added.iter().any(|a| a.key == **key)
        })
        .map(|key| format!("{key}: could not be derived; add it by hand"))
        .collect()
}
