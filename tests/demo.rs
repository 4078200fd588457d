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

/// (id, kind, shape, staleness, unacknowledged checkpoints, missing files) as the
/// demo intends them. See `assets/demo/README.md`.
const INTENDED: &[(&str, &str, &str, &str, u64, u64)] = &[
    (
        "payouts-v2-20260302-001",
        "jerry",
        "v2-nested",
        "FRESH",
        1,
        0,
    ),
    (
        "fraud-audit-20260227-001",
        "jerry",
        "v2-nested",
        "STALE",
        0,
        1,
    ),
    (
        "docs-rewrite-20260225-001",
        "jerry",
        "v2-flat",
        "CRITICAL",
        1,
        0,
    ),
    ("ledger-mig-20260112-001", "jerry", "v1", "FRESH", 0, 0),
    (
        "webhook-spike-20260301-001",
        "jerry",
        "other",
        "FRESH",
        0,
        0,
    ),
    (
        "pci-evidence-20260220-001",
        "jerry",
        "none",
        "UNKNOWN",
        0,
        0,
    ),
    (
        "07-merchant-onboarding-research",
        "nexus",
        "nexus-1.0",
        "FRESH",
        0,
        1,
    ),
    (
        "03-settlement-dashboard",
        "nexus",
        "nexus-2.0",
        "FRESH",
        0,
        0,
    ),
    (
        "04-chargeback-playbook",
        "nexus",
        "nexus-legacy",
        "STALE",
        0,
        0,
    ),
    (
        "09-ops-runbook-refresh",
        "nexus",
        "nexus-unversioned",
        "STALE",
        0,
        0,
    ),
    (
        "05-vendor-risk-review",
        "nexus",
        "nexus-no-frontmatter",
        "UNKNOWN",
        0,
        0,
    ),
];

fn run_demo(args: &[&str]) -> serde_json::Value {
    let config = tempfile::tempdir().unwrap();
    let output = assert_cmd::Command::cargo_bin("resume-tui")
        .unwrap()
        .arg("--demo")
        .args(args)
        .env("RESUME_TUI_CONFIG", config.path().join("absent.toml"))
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn project<'a>(list: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    let projects = list["projects"].as_array().unwrap();
    projects
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("{id} is not listed"))
}

#[test]
fn demo_list_shows_every_project_as_intended() {
    let list = run_demo(&["list", "--json"]);
    let projects = list["projects"].as_array().unwrap();
    let mut ids: Vec<&str> = projects.iter().map(|p| p["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    let mut intended: Vec<&str> = INTENDED.iter().map(|row| row.0).collect();
    intended.sort_unstable();
    assert_eq!(ids, intended, "exactly the intended projects");

    for &(id, kind, shape, staleness, unacked, missing) in INTENDED {
        let p = project(&list, id);
        let seen = (
            p["kind"].as_str().unwrap(),
            p["shape"].as_str().unwrap(),
            p["staleness"].as_str().unwrap(),
            p["unacknowledged_checkpoints"].as_u64().unwrap(),
            p["warnings"].as_u64().unwrap(),
        );
        // PROJ-004 is built to be updated before its last two compactions: its
        // one warning says so (the resumption section is older than cx-004).
        let warnings = u64::from(id == "docs-rewrite-20260225-001");
        assert_eq!(seen, (kind, shape, staleness, unacked, warnings), "{id}");
        let missing_seen = p["missing_files"].as_u64().unwrap();
        assert_eq!(missing_seen, missing, "{id}: missing files");
    }
    assert_eq!(list["diagnostics"].as_array().map(Vec::len), Some(0));
    let docs = project(&list, "docs-rewrite-20260225-001");
    let said = docs["behind"].to_string();
    assert!(
        said.contains("checkpoint cx-004 at")
            && said.contains("is newer than the resumption section"),
        "{said}"
    );
    assert_eq!(
        docs["contradictions"],
        serde_json::json!([]),
        "not a contradiction"
    );
}

#[test]
fn demo_list_shows_the_score_trends_and_every_checkpoint() {
    let list = run_demo(&["list", "--json"]);
    let trend = |id: &str| project(&list, id)["last_score"]["trend"].clone();
    assert_eq!(trend("payouts-v2-20260302-001"), "rising");
    assert_eq!(trend("fraud-audit-20260227-001"), "falling");
    let prose = &project(&list, "ledger-mig-20260112-001")["last_score"];
    assert_eq!(prose["score"], 0.947, "from the v1 current_state prose");
    let gates = &project(&list, "webhook-spike-20260301-001")["last_score"];
    assert_eq!(
        gates["score"], 0.905,
        "from quality_gates.*.iteration_history"
    );
    assert!(project(&list, "pci-evidence-20260220-001")["last_score"].is_null());

    // cx-001..cx-004 all belong to a workflow: cx-001/002 by their workflow_id, the
    // real-Jerry cx-003/004 (no workflow id) by the docs rewrite's compaction events.
    // cx-002 and cx-004 wait.
    let counts = |id: &str| {
        let p = project(&list, id);
        (
            p["checkpoints"].as_u64().unwrap(),
            p["unacknowledged_checkpoints"].as_u64().unwrap(),
        )
    };
    assert_eq!(counts("payouts-v2-20260302-001"), (2, 1));
    assert_eq!(counts("docs-rewrite-20260225-001"), (2, 1));
    let projects = list["projects"].as_array().unwrap();
    let tied: u64 = projects
        .iter()
        .map(|p| p["checkpoints"].as_u64().unwrap())
        .sum();
    assert_eq!(tied, 4);
    assert_eq!(list["unassigned_checkpoints"], serde_json::json!([]));
}

#[test]
fn demo_show_keeps_the_pending_decision_the_missing_file_and_the_unknown_keys() {
    let shown = run_demo(&["show", "payouts-v2-20260302-001", "--json"]);
    let decisions = shown["project"]["resumption"]["decisions"]
        .as_array()
        .unwrap();
    let applied: Vec<(&str, bool)> = decisions
        .iter()
        .map(|d| (d["id"].as_str().unwrap(), d["applied"].as_bool().unwrap()))
        .collect();
    assert_eq!(applied, [("RD-001", true), ("RD-002", false)]);

    let shown = run_demo(&["show", "07-merchant-onboarding-research", "--json"]);
    let missing = &shown["project"]["staleness"]["missing_files"];
    assert_eq!(
        *missing,
        serde_json::json!(["02-resources/kyc-vendor-matrix.md"]),
        "the workspace-relative interview notes are found"
    );

    let shown = run_demo(&["show", "ledger-mig-20260112-001", "--json"]);
    let other = &shown["project"]["resumption"]["other"];
    assert!(other["execution_notes"].is_string(), "{other}");
}
