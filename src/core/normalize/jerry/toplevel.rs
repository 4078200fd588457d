//! What the rest of the file says: identity (`workflow.id`, …) and the status
//! fields used when the resumption section is missing or silent.

use yaml_serde::Value;

use crate::core::model::Summary;
use crate::core::normalize::value::{get, get_text, key_text, text};
use crate::core::time::Timestamp;

pub(super) struct Identity {
    pub id: String,
    pub name: Option<String>,
    pub project_ref: Option<String>,
}

pub(super) fn identity(doc: &Value, source: &str, dir: &str) -> Identity {
    let workflow = get(doc, "workflow");
    let from_workflow = |key: &str| workflow.and_then(|w| get_text(w, key));
    let id = from_workflow("id")
        .or_else(|| get_text(doc, "workflow_id"))
        .or_else(|| get_text(doc, "id"))
        .filter(|id| !id.trim().is_empty())
        .unwrap_or_else(|| derived_id(source, dir));
    Identity {
        id,
        name: from_workflow("name")
            .or_else(|| from_workflow("title"))
            .or_else(|| get_text(doc, "name"))
            .or_else(|| get_text(doc, "title")),
        project_ref: from_workflow("project_id")
            .or_else(|| get_text(doc, "project_id"))
            .or_else(|| from_workflow("project"))
            .or_else(|| get_text(doc, "project"))
            .or_else(|| get(doc, "meta").and_then(|m| get_text(m, "project"))),
    }
}

/// The folder name, skipping a generic `orchestration` folder
/// (`PROJ-001/work/FEAT-002/orchestration/ORCHESTRATION.yaml` → `FEAT-002`).
pub(super) fn derived_id(source: &str, dir: &str) -> String {
    dir.split('/')
        .rev()
        .find(|part| {
            !part.is_empty() && *part != "." && !part.eq_ignore_ascii_case("orchestration")
        })
        .map(str::to_string)
        .unwrap_or_else(|| {
            let file = source.rsplit('/').next().unwrap_or(source);
            file.split('.').next().unwrap_or(file).to_string()
        })
}

/// Status fields outside `resumption:`, first match wins.
pub(super) fn fallback_summary(doc: &Value) -> Summary {
    let first = |paths: &[&[&str]]| paths.iter().find_map(|p| text_at(doc, p));
    let updated_at_raw = first(&[
        &["workflow", "updated_at"],
        &["updated_at"],
        &["workflow", "last_updated"],
        &["last_updated"],
        &["meta", "last_updated"],
        &["metadata", "updated_at"],
        &["metadata", "last_updated"],
    ]);
    let mut summary = Summary {
        status: first(&[&["workflow", "status"], &["status"], &["meta", "status"]]),
        phase: first(&[
            &["workflow", "current_phase"],
            &["current_phase"],
            &["pipeline", "current_phase"],
        ]),
        phase_name: first(&[&["workflow", "current_phase_name"], &["current_phase_name"]]),
        activity: None,
        next_step: first_next_action(doc),
        updated_at: updated_at_raw.as_deref().and_then(Timestamp::parse),
        updated_at_raw,
        last_checkpoint: first(&[&["checkpoints", "latest_id"]]),
        fill_at_update: None,
        ..Summary::default()
    };
    if summary.phase.is_none()
        && let Some(n) = last_completed_phase(doc)
    {
        summary.phase = Some(n.to_string());
        summary.phase_name = summary.phase_name.or(Some(format!("phase {n} completed")));
    }
    summary
}

fn text_at(doc: &Value, path: &[&str]) -> Option<String> {
    let mut value = doc;
    for key in path {
        value = get(value, key)?;
    }
    text(value)
        .filter(|t| !t.trim().is_empty())
        .map(|t| t.trim().to_string())
}

/// The highest N of top-level `phase_N_completed` keys whose value is set.
fn last_completed_phase(doc: &Value) -> Option<i64> {
    doc.as_mapping()?
        .iter()
        .filter(|(_, v)| !v.is_null() && v.as_bool() != Some(false))
        .filter_map(|(k, _)| {
            key_text(k)
                .strip_prefix("phase_")?
                .strip_suffix("_completed")?
                .parse::<i64>()
                .ok()
        })
        .max()
}

/// The first entry of top-level `next_actions`: a list of strings or `{action}`
/// maps, or a map whose `immediate` (else first) list holds them.
pub(super) fn first_next_action(doc: &Value) -> Option<String> {
    let actions = get(doc, "next_actions")?;
    let list = match actions {
        Value::Sequence(items) => items.as_slice(),
        Value::Mapping(map) => map
            .get("immediate")
            .and_then(Value::as_sequence)
            .or_else(|| map.values().find_map(Value::as_sequence))
            .map(Vec::as_slice)?,
        other => return text(other),
    };
    list.iter().find_map(|item| {
        text(item)
            .or_else(|| get_text(item, "action"))
            .or_else(|| get_text(item, "description"))
            .filter(|t| !t.trim().is_empty())
            .map(|t| t.trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text_in: &str) -> Value {
        yaml_serde::from_str(text_in).unwrap()
    }

    #[test]
    fn identity_prefers_the_workflow_block() {
        let doc = yaml("workflow: {id: wf-1, name: Name, project_id: PROJ-1}\nid: other\n");
        let id = identity(&doc, "p/ORCHESTRATION.yaml", "p");
        assert_eq!(id.id, "wf-1");
        assert_eq!(id.name.as_deref(), Some("Name"));
        assert_eq!(id.project_ref.as_deref(), Some("PROJ-1"));
        let doc = yaml("workflow_id: wf-2\nproject: PROJ-2\n");
        let id = identity(&doc, "p/ORCHESTRATION.yaml", "p");
        assert_eq!(
            (id.id.as_str(), id.project_ref.as_deref()),
            ("wf-2", Some("PROJ-2"))
        );
    }

    #[test]
    fn derived_ids_skip_generic_folders() {
        assert_eq!(
            derived_id("a/FEAT-2/orchestration/O.yaml", "a/FEAT-2/orchestration"),
            "FEAT-2"
        );
        assert_eq!(
            derived_id("a/orchestration/wf-3/O.yaml", "a/orchestration/wf-3"),
            "wf-3"
        );
        assert_eq!(derived_id("ORCHESTRATION.yaml", ""), "ORCHESTRATION");
    }

    #[test]
    fn fallback_summary_reads_top_level_status() {
        let doc = yaml(
            "workflow: {status: ACTIVE, updated_at: '2026-02-01T10:00:00Z'}\ncurrent_phase: 2\n\
             checkpoints: {latest_id: cp-4}\nnext_actions: {immediate: [{action: Run QG-2}]}\n",
        );
        let s = fallback_summary(&doc);
        assert_eq!(s.status.as_deref(), Some("ACTIVE"));
        assert_eq!(s.phase.as_deref(), Some("2"));
        assert_eq!(s.updated_at.unwrap().to_iso(), "2026-02-01T10:00:00Z");
        assert_eq!(s.last_checkpoint.as_deref(), Some("cp-4"));
        assert_eq!(s.next_step.as_deref(), Some("Run QG-2"));
    }

    #[test]
    fn phase_n_completed_gives_the_last_completed_phase() {
        let doc = yaml(
            "status: COMPLETE\nphase_1_completed: true\nphase_2_completed: '2026-01-02'\nphase_3_completed: null\n",
        );
        let s = fallback_summary(&doc);
        assert_eq!(s.phase.as_deref(), Some("2"));
        assert_eq!(s.phase_name.as_deref(), Some("phase 2 completed"));
    }

    #[test]
    fn next_actions_in_list_form() {
        assert_eq!(
            first_next_action(&yaml("next_actions: ['', Commit]\n")).as_deref(),
            Some("Commit")
        );
        assert_eq!(first_next_action(&yaml("next_actions: []\n")), None);
        assert_eq!(first_next_action(&yaml("x: 1\n")), None);
    }
}
