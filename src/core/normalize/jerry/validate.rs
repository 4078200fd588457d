//! `validate` for `ORCHESTRATION.yaml`: the `resumption:` section checked against
//! the wire type of its shape (`core::wire::orchestration`), every problem reported
//! with the line and column of its key.

use yaml_serde::Value;

use super::ctx::{NoteCap, kind};
use super::{parse, shape, yaml_error};
use crate::core::locate::KeyIndex;
use crate::core::model::{Diagnostic, Severity, Shape};
use crate::core::normalize::json_locate::Seg;
use crate::core::normalize::ranges::range_findings;
use crate::core::normalize::schema_check::{Finding, check, display_path};
use crate::core::normalize::value::to_json;
use crate::core::wire::orchestration::{ResumptionV1, ResumptionV2, ResumptionV2Flat};

/// Every type problem in the file's `resumption:` section (and the YAML error, if
/// the file does not parse). A file without the section has nothing to check.
pub fn validate_orchestration(source: &str, text: &str) -> Vec<Diagnostic> {
    let doc = match parse::parse(text) {
        Ok(parsed) => parsed.doc,
        Err(e) => return vec![yaml_error(source, &e)],
    };
    let Some(section) = doc.get("resumption") else {
        return Vec::new();
    };
    let json = to_json(section);
    let findings = match shape::detect(section) {
        Shape::V2Nested => check::<ResumptionV2>(&json),
        Shape::V2Flat => check::<ResumptionV2Flat>(&json),
        _ if section.is_mapping() || section.is_null() => check::<ResumptionV1>(&json),
        _ => vec![Finding {
            severity: Severity::Error,
            path: Vec::new(),
            message: format!(
                "expected a map of resumption fields, found {}",
                kind(section)
            ),
        }],
    };
    let mut findings = findings;
    findings.extend(missing_sections(section));
    findings.extend(range_findings(&json));
    if findings.is_empty() {
        return Vec::new();
    }
    let mut keys = KeyIndex::new(text);
    let mut notes = NoteCap::default();
    let mut out = Vec::new();
    for finding in &findings {
        if finding.severity == Severity::Info {
            let path = segments(finding);
            let path: Vec<&str> = path.iter().map(String::as_str).collect();
            let locate = |parent: &[&str]| {
                let keys_only: Vec<&str> = parent
                    .iter()
                    .copied()
                    .filter(|p| !p.starts_with('['))
                    .collect();
                (1..=keys_only.len())
                    .rev()
                    .find_map(|n| keys_only.get(..n).and_then(|k| keys.locate(k)))
            };
            if !notes.admit(&path, &finding.message, &mut out, source, locate) {
                continue;
            }
        }
        out.push(diagnostic(source, &mut keys, finding));
    }
    out
}

/// The finding's path under `resumption`, list indices as `[N]`.
fn segments(finding: &Finding) -> Vec<String> {
    let mut path = vec!["resumption".to_string()];
    path.extend(finding.path.iter().map(|s| match s {
        Seg::Key(k) => k.clone(),
        Seg::Index(i) => format!("[{i}]"),
    }));
    path
}

/// The sub-sections seed 002 gives a v2 section, each missing one a warning.
fn missing_sections(section: &Value) -> Vec<Finding> {
    let shape = shape::detect(section);
    if !matches!(shape, Shape::V2Nested | Shape::V2Flat) {
        return Vec::new();
    }
    let has = |k: &str| section.get(k).is_some();
    let wanted: [(&str, bool); 6] = [
        ("files_to_read", has("files_to_read")),
        ("quality_trajectory", has("quality_trajectory")),
        ("defect_summary", has("defect_summary")),
        ("decision_log", has("decision_log") || has("decisions")),
        ("agent_summaries", has("agent_summaries")),
        ("compaction_events", has("compaction_events")),
    ];
    wanted
        .iter()
        .filter(|(_, present)| !present)
        .map(|(name, _)| Finding {
            severity: Severity::Warning,
            path: Vec::new(),
            message: format!(
                "missing sub-section `{name}` (Jerry's v2.0 resumption layout has it)"
            ),
        })
        .collect()
}

fn diagnostic(source: &str, index: &mut KeyIndex, finding: &Finding) -> Diagnostic {
    let mut path = vec![Seg::key("resumption")];
    path.extend(finding.path.iter().cloned());
    let message = format!("{}: {}", display_path(&path), finding.message);
    let diagnostic = match finding.severity {
        Severity::Error => Diagnostic::error(source, message),
        Severity::Warning => Diagnostic::warning(source, message),
        Severity::Info => Diagnostic::info(source, message),
    };
    let keys: Vec<&str> = path
        .iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
        .collect();
    let found = (1..=keys.len())
        .rev()
        .find_map(|n| keys.get(..n).and_then(|k| index.locate(k)));
    match found {
        Some((line, column)) => diagnostic.at(line, column),
        None => diagnostic,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_warnings_at_their_keys() {
        let got = validate(
            "resumption:\n  recovery_state:\n    current_phase: -1\n    workflow_status: ACTIVE\n    \
             context_fill_at_update: 1.5\n    updated_at: '2026-03-01T11:00:00'\n  files_to_read: []\n  \
             quality_trajectory:\n    score_history: {qg-1: [0.9, 1.2]}\n",
        );
        let said = |part: &str| got.iter().any(|d| d.contains(part));
        assert!(
            said(":3:5: warning: resumption.recovery_state.current_phase: a negative phase"),
            "{got:#?}"
        );
        assert!(
            said(
                ":5:5: warning: resumption.recovery_state.context_fill_at_update: a fill outside 0.0–1.0 (1.5)"
            ),
            "{got:#?}"
        );
        assert!(
            said(
                ":6:5: warning: resumption.recovery_state.updated_at: timestamp \"2026-03-01T11:00:00\" has no zone"
            ),
            "{got:#?}"
        );
        assert!(
            said(":7:3: warning: resumption.files_to_read: is empty"),
            "{got:#?}"
        );
        assert!(
            said(
                "warning: resumption.quality_trajectory.score_history.qg-1[1]: a score outside 0.0–1.0 (1.2)"
            ),
            "{got:#?}"
        );
        assert!(got.iter().all(|d| !d.contains("error")), "{got:#?}");
    }

    fn validate(text: &str) -> Vec<String> {
        validate_orchestration("w/ORCHESTRATION.yaml", text)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn clean_sections_of_each_shape_have_no_errors() {
        let v1 = "resumption:\n  last_checkpoint: cp\n  current_state: s\n  next_step: n\n  \
                  files_to_read: [a.md]\n  cross_session_portable: true\n  ephemeral_references: false\n";
        assert_eq!(validate(v1), Vec::<String>::new());
        let nested = "resumption:\n  recovery_state:\n    current_phase: 2\n    workflow_status: ACTIVE\n    \
                      next_step: n\n    updated_at: '2026-02-17T12:00:00Z'\n  files_to_read: [a.md]\n  \
                      quality_trajectory: {}\n  defect_summary: {}\n  decision_log: []\n  \
                      agent_summaries: {}\n  compaction_events: {count: 0, events: []}\n";
        assert_eq!(validate(nested), Vec::<String>::new());
        assert_eq!(validate("workflow: {id: x}\n"), Vec::<String>::new());
    }

    #[test]
    fn reports_every_type_problem_with_its_location() {
        let text = "resumption:\n  recovery_state:\n    current_phase: 2\n    workflow_status: ACTIVE\n    \
                    next_step: n\n    updated_at: [not, text]\n    cross_session_portable: maybe\n  \
                    files_to_read:\n    - path: a.md\n      priority: first\n  \
                    quality_trajectory:\n    score_history: {qg-1: [0.9, high]}\n  agent_count: 3\n";
        let got: Vec<String> = validate(text)
            .into_iter()
            .filter(|d| !d.contains("missing sub-section"))
            .collect();
        assert_eq!(got.len(), 5, "{got:#?}");
        assert!(got[0].starts_with("w/ORCHESTRATION.yaml:6:5: error: resumption.recovery_state.updated_at: expected string"), "{got:#?}");
        assert!(
            got[1].starts_with(
                "w/ORCHESTRATION.yaml:7:5: error: resumption.recovery_state.cross_session_portable"
            ),
            "{got:#?}"
        );
        assert!(
            got[2].contains(":10:7: error: resumption.files_to_read[0].priority"),
            "{got:#?}"
        );
        assert!(
            got[3].contains(":12:21: error: resumption.quality_trajectory.score_history.qg-1[1]"),
            "{got:#?}"
        );
        assert!(
            got[4].contains(":13:3: info: resumption.agent_count: unknown field"),
            "{got:#?}"
        );
    }

    #[test]
    fn missing_recovery_fields_are_warnings_and_bad_yaml_an_error() {
        let got = validate("resumption:\n  recovery_state:\n    next_step: n\n");
        assert_eq!(got.len(), 9, "{got:#?}");
        assert!(got.iter().take(3).all(|m| {
            m.contains(":2:3: warning: resumption.recovery_state: missing required field")
        }));
        assert!(
            got[3].contains(":1:1: warning: resumption: missing sub-section `files_to_read`"),
            "{got:#?}"
        );
        assert!(got[8].contains("missing sub-section `compaction_events`"));
        let got = validate("resumption: [\n");
        assert_eq!(got.len(), 1);
        assert!(got[0].contains("error: not valid YAML"));
        let got = validate("resumption: just text\n");
        assert!(
            got[0].contains(":1:1: error: resumption: expected a map"),
            "{got:#?}"
        );
    }

    /// 20,000 entries with an unknown key made 20,000 notes, each located; now
    /// a hundred are listed and one note counts the rest, exactly.
    #[test]
    fn unknown_fields_past_a_hundred_are_counted_not_listed() {
        let mut text = String::from("resumption:\n  files_to_read:\n");
        for i in 0..1_000 {
            text.push_str(&format!("    - {{path: f{i}, x{i}: 1}}\n"));
        }
        let got = validate(&text);
        let unknown = got
            .iter()
            .filter(|d| d.contains("unknown field") && !d.contains("more notes like"))
            .count();
        assert_eq!(unknown, 100, "{got:#?}");
        assert!(got.iter().any(|d| {
            d.contains(":3:18: info: resumption.files_to_read[0].x0: unknown field `x0`")
        }));
        let count: Vec<&String> = got
            .iter()
            .filter(|d| d.contains("more notes like"))
            .collect();
        assert_eq!(count.len(), 1, "{got:#?}");
        assert!(
            count[0].contains(":2:3: info: resumption.files_to_read[*]: 900 more notes like \"resumption.files_to_read[0].x0: unknown field `x0` (kept as an other field)\""),
            "{}",
            count[0]
        );
    }
}
