//! What the rest of the file says: identity (`workflow.id`, …) and the status
//! fields used when the resumption section is missing or silent.

use yaml_serde::Value;

use crate::core::normalize::value::{get, get_text, text};
use crate::core::workspace::is_generic_folder;

pub(super) struct Identity {
    pub id: String,
    pub name: Option<String>,
    pub project_ref: Option<String>,
}

pub(super) fn identity(doc: &Value, source: &str, dir: &str) -> Identity {
    // `workflow:`, else the `orchestration:` block some plans keep it in
    // (`orchestration: {id: ORCH-001, name: …}` in a `plans/` folder).
    let from_workflow = |key: &str| {
        ["workflow", "orchestration"]
            .iter()
            .find_map(|block| get(doc, block).and_then(|b| get_text(b, key)))
    };
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

/// The folder name, skipping a generic folder (`orchestration`, `plans`, …)
/// (`PROJ-001/work/FEAT-002/orchestration/ORCHESTRATION.yaml` → `FEAT-002`).
pub(super) fn derived_id(source: &str, dir: &str) -> String {
    dir.split('/')
        .rev()
        .find(|part| !part.is_empty() && *part != "." && !is_generic_folder(part))
        .map(str::to_string)
        .unwrap_or_else(|| {
            let file = source.rsplit('/').next().unwrap_or(source);
            file.split('.').next().unwrap_or(file).to_string()
        })
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
        let doc = yaml("orchestration: {id: ORCH-001, name: Transcript Skill, status: ACTIVE}\n");
        let id = identity(&doc, "p/plans/ORCHESTRATION.yaml", "p/plans");
        assert_eq!(
            (id.id.as_str(), id.name.as_deref()),
            ("ORCH-001", Some("Transcript Skill"))
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
        assert_eq!(
            derived_id("a/EPIC-1/plans/O.yaml", "a/EPIC-1/plans"),
            "EPIC-1"
        );
        assert_eq!(derived_id("ORCHESTRATION.yaml", ""), "ORCHESTRATION");
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
