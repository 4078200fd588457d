//! Active blockers: `blockers: {active: [...]}` (beside `resolved:`), or a
//! `blockers:` list whose entries are text or maps (`id`, `description`,
//! `severity`, `impact`, `status`), at the top level, under `workflow:` /
//! `state:`, or in the resumption section. A list entry whose status says it
//! is resolved is not active. Most severe first; equal severities keep file order.

use yaml_serde::Value;

use crate::core::model::Blocker;
use crate::core::normalize::value::{get, get_text, text};

/// Where a workflow lists its blockers, first found wins.
const PLACES: &[&[&str]] = &[
    &["blockers"],
    &["workflow", "blockers"],
    &["state", "blockers"],
    &["resumption", "blockers"],
    &["resumption", "recovery_state", "blockers"],
];

pub(super) fn active_blockers(doc: &Value) -> Vec<Blocker> {
    let Some((value, key)) = PLACES.iter().find_map(|path| {
        let mut value = doc;
        for k in *path {
            value = get(value, k)?;
        }
        Some((value, path.join(".")))
    }) else {
        return Vec::new();
    };
    let (list, key) = match value {
        Value::Mapping(_) => match get(value, "active") {
            Some(active) => (active, format!("{key}.active")),
            None => (value, key),
        },
        other => (other, key),
    };
    let mut found: Vec<Blocker> = match list {
        Value::Sequence(items) => items
            .iter()
            .filter_map(|v| blocker(v, None, &key))
            .collect(),
        Value::Mapping(map) => map
            .iter()
            .filter_map(|(k, v)| blocker(v, text(k), &key))
            .collect(),
        _ => Vec::new(),
    };
    found.sort_by_key(|b| rank(b.severity.as_deref()));
    found
}

fn blocker(value: &Value, id: Option<String>, key: &str) -> Option<Blocker> {
    if let Some(line) = text(value).map(|t| t.trim().to_string()) {
        return (!line.is_empty()).then(|| Blocker {
            id: None,
            description: line,
            key: key.to_string(),
            ..Blocker::default()
        });
    }
    value.as_mapping()?;
    if get_text(value, "status").is_some_and(|s| resolved(&s)) {
        return None;
    }
    let field = |keys: &[&str]| keys.iter().find_map(|k| get_text(value, k));
    let id = field(&["id"]).or(id);
    let description = field(&[
        "description",
        "title",
        "summary",
        "blocker",
        "issue",
        "name",
    ])
    .or_else(|| id.clone())?;
    Some(Blocker {
        id,
        severity: field(&["severity", "priority"]),
        description,
        impact: field(&["impact", "blocking"]),
        key: key.to_string(),
    })
}

fn resolved(status: &str) -> bool {
    let s = status.trim().to_ascii_uppercase();
    [
        "RESOLVED",
        "CLOSED",
        "DONE",
        "FIXED",
        "COMPLETE",
        "MITIGATED",
        "CLEARED",
    ]
    .iter()
    .any(|word| s.starts_with(word))
}

/// Lower is more severe; a severity the scale does not know comes after `LOW`.
fn rank(severity: Option<&str>) -> u8 {
    match severity.map(|s| s.trim().to_ascii_uppercase()).as_deref() {
        Some("CRITICAL" | "BLOCKER" | "P0" | "SEV0" | "SEV1") => 0,
        Some("HIGH" | "MAJOR" | "P1" | "SEV2") => 1,
        Some("MEDIUM" | "MODERATE" | "P2" | "SEV3") => 2,
        Some("LOW" | "MINOR" | "P3" | "SEV4") => 3,
        Some(_) => 4,
        None => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blockers(text: &str) -> Vec<Blocker> {
        active_blockers(&yaml_serde::from_str(text).expect("test YAML"))
    }

    #[test]
    fn the_active_list_most_severe_first() {
        let b = blockers(
            "blockers:\n  active:\n    - {id: B-2, description: slow CI, severity: LOW}\n    \
             - {id: B-1, description: no API key, severity: CRITICAL, impact: Phase 3}\n    \
             - {id: B-3, description: review, severity: HIGH}\n  resolved:\n    - {id: B-0, description: old}\n",
        );
        let ids: Vec<_> = b.iter().map(|b| b.id.as_deref().unwrap_or("")).collect();
        assert_eq!(ids, ["B-1", "B-3", "B-2"]);
        assert_eq!(b[0].impact.as_deref(), Some("Phase 3"));
        assert_eq!(b[0].key, "blockers.active");
    }

    #[test]
    fn a_plain_list_of_text_or_entries_without_resolved_ones() {
        let b = blockers(
            "resumption:\n  blockers:\n    - waiting on legal\n    \
             - {title: flaky test, status: RESOLVED}\n    - {title: quota, severity: medium}\n",
        );
        let texts: Vec<_> = b.iter().map(|b| b.description.as_str()).collect();
        assert_eq!(texts, ["quota", "waiting on legal"]);
        assert_eq!(b[0].key, "resumption.blockers");
    }

    #[test]
    fn empty_or_odd_lists_give_none() {
        assert!(blockers("blockers: []\n").is_empty());
        assert!(blockers("blockers: {active: [], resolved: []}\n").is_empty());
        assert!(blockers("blockers: 3\n").is_empty());
        assert!(blockers("blockers: [[1], {severity: HIGH}]\n").is_empty());
    }
}
