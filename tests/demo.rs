//! The built-in demo workspace: its scenarios hold together once unpacked (times
//! relative to the moment of unpacking, files that should exist do, the one that
//! should be missing is), and `resume-tui --demo list --json` shows every project
//! with the shape, staleness and badges the demo is meant to show off.

use std::path::Path;

use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;
use yaml_serde::Value;

const NOW: Timestamp = Timestamp(1_771_331_696); // 2026-02-17T12:34:56Z

const MID_GATE: &str =
    "projects/PROJ-002-payouts-api-v2/orchestration/payouts-v2-20260302-001/ORCHESTRATION.yaml";
const REGRESSED: &str =
    "projects/PROJ-003-fraud-rules-audit/orchestration/fraud-audit-20260227-001/ORCHESTRATION.yaml";
const FLAT: &str = "projects/PROJ-004-docs-site-rewrite/ORCHESTRATION.yaml";

fn unpacked() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    demo::unpack_into(dir.path(), NOW).unwrap();
    dir
}

fn yaml(root: &Path, rel: &str) -> Value {
    yaml_serde::from_str(&std::fs::read_to_string(root.join(rel)).unwrap()).unwrap()
}

fn json(root: &Path, rel: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(root.join(rel)).unwrap()).unwrap()
}

fn at<'a>(value: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(value, |v, key| &v[*key])
}

fn time(value: &Value) -> Timestamp {
    Timestamp::parse(value.as_str().unwrap()).unwrap()
}

fn minutes_before_now(t: Timestamp) -> i64 {
    NOW.seconds_since(t) / 60
}

#[test]
fn the_mid_gate_project_is_fresh_with_one_compaction_unacknowledged() {
    let dir = unpacked();
    let doc = yaml(dir.path(), MID_GATE);
    let recovery = at(&doc, &["resumption", "recovery_state"]);
    assert_eq!(
        recovery["current_activity"].as_str(),
        Some("qg-2-iteration-2")
    );
    let updated = time(&recovery["updated_at"]);
    assert_eq!(minutes_before_now(updated), 10);

    let events = at(&doc, &["resumption", "compaction_events", "events"])
        .as_sequence()
        .unwrap();
    let acked: Vec<bool> = events
        .iter()
        .map(|e| e["acknowledged"].as_bool().unwrap())
        .collect();
    assert_eq!(acked, [true, false]);
    for event in events {
        assert!(
            time(&event["timestamp"]) < updated,
            "updated after every compaction"
        );
        let file = event["checkpoint_file"].as_str().unwrap();
        assert!(dir.path().join(file).is_file(), "{file}");
    }

    let cx2 = json(dir.path(), ".jerry/checkpoints/cx-002-checkpoint.json");
    let workflow = at(&doc, &["workflow", "id"]).as_str().unwrap();
    assert_eq!(cx2["orchestration_state"]["workflow_id"], workflow);
    assert_eq!(cx2["metadata"]["acknowledged"], false);
    assert!(cx2["post_compact"]["compact_summary"].is_string());
    let cx1 = json(dir.path(), ".jerry/checkpoints/cx-001-checkpoint.json");
    assert_eq!(cx1["metadata"]["acknowledged"], true);
    assert_eq!(cx1["orchestration_state"]["workflow_id"], workflow);
}

#[test]
fn the_regressed_project_is_paused_and_three_hours_old() {
    let dir = unpacked();
    let doc = yaml(dir.path(), REGRESSED);
    let recovery = at(&doc, &["resumption", "recovery_state"]);
    assert_eq!(recovery["workflow_status"].as_str(), Some("PAUSED"));
    assert_eq!(minutes_before_now(time(&recovery["updated_at"])), 180);
    let scores = at(
        &doc,
        &["resumption", "quality_trajectory", "score_history", "qg-2"],
    );
    let scores: Vec<f64> = scores
        .as_sequence()
        .unwrap()
        .iter()
        .map(|s| s.as_f64().unwrap())
        .collect();
    assert!(
        scores.windows(2).all(|w| w[1] < w[0]),
        "{scores:?} regresses"
    );
    assert!(at(&doc, &["resumption", "compaction_events"]).is_sequence());
}

#[test]
fn the_flat_project_was_updated_before_its_last_compaction() {
    let dir = unpacked();
    let doc = yaml(dir.path(), FLAT);
    let resumption = &doc["resumption"];
    assert!(resumption.get("recovery_state").is_none(), "flat layout");
    assert!(resumption["decisions"].is_sequence());
    let updated = time(&resumption["updated_at"]);
    let events = resumption["compaction_events"]["events"]
        .as_sequence()
        .unwrap();
    let newest = events.iter().map(|e| time(&e["timestamp"])).max().unwrap();
    assert!(
        newest > updated,
        "a compaction after the last update makes it CRITICAL"
    );
    for event in events {
        let id = event["checkpoint_id"].as_str().unwrap();
        let checkpoint = json(dir.path(), &format!(".jerry/checkpoints/{id}.json"));
        assert_eq!(checkpoint["checkpoint_id"], id);
    }
    let checkpoints = dir.path().join(".jerry/checkpoints");
    assert!(checkpoints.join("cx-003.acknowledged").is_file());
    assert!(!checkpoints.join("cx-004.acknowledged").exists());
}

/// Every path listed for reading exists except the two the demo leaves missing on purpose.
#[test]
fn only_the_intended_files_are_missing() {
    let dir = unpacked();
    let root = dir.path();
    let mut missing = Vec::new();
    for (rel, _) in demo::files() {
        let listed = if rel.ends_with("ORCHESTRATION.yaml") {
            jerry_files_to_read(&yaml(root, rel))
        } else if rel.ends_with("resume-context.md") || rel.ends_with("_resume.md") {
            nexus_files_to_load(&std::fs::read_to_string(root.join(rel)).unwrap())
        } else {
            continue;
        };
        let folder = Path::new(rel).parent().unwrap();
        let project = if rel.contains("/01-planning/") {
            folder.parent().unwrap()
        } else {
            folder
        };
        for path in listed {
            let found = root.join(&path).exists() || root.join(project).join(&path).exists();
            if !found {
                missing.push(path);
            }
        }
    }
    missing.sort();
    assert_eq!(
        missing,
        [
            "02-resources/kyc-vendor-matrix.md",
            "projects/PROJ-003-fraud-rules-audit/orchestration/fraud-audit-20260227-001/evidence/rule-coverage-matrix.md",
        ]
    );
}

fn jerry_files_to_read(doc: &Value) -> Vec<String> {
    let Some(list) = doc["resumption"]["files_to_read"].as_sequence() else {
        return Vec::new();
    };
    list.iter()
        .map(|item| match item.as_str() {
            Some(path) => path.to_string(),
            None => item["path"].as_str().unwrap().to_string(),
        })
        .collect()
}

fn nexus_files_to_load(text: &str) -> Vec<String> {
    let Some(front) = text
        .strip_prefix("---\n")
        .and_then(|rest| rest.split("\n---\n").next())
    else {
        return Vec::new();
    };
    let doc: Value = yaml_serde::from_str(front).unwrap();
    doc["files_to_load"]
        .as_sequence()
        .map(|list| {
            list.iter()
                .map(|p| p.as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn no_timestamp_is_in_the_future_and_fresh_ones_are_minutes_old() {
    let dir = unpacked();
    let state = json(dir.path(), ".jerry/context-monitor-state.json");
    let updated = Timestamp::parse(state["updated_at"].as_str().unwrap()).unwrap();
    assert_eq!(minutes_before_now(updated), 1);
    let mut seen = 0;
    for (rel, _) in demo::files() {
        let text = std::fs::read_to_string(dir.path().join(rel)).unwrap_or_default();
        for word in text.split(|c: char| c == '"' || c.is_whitespace()) {
            if let Some(t) = Timestamp::parse(word).filter(|_| word.len() == 20) {
                assert!(t <= NOW, "{rel}: {word} is in the future");
                seen += 1;
            }
        }
    }
    assert!(seen >= 40, "only {seen} timestamps found");
}
