//! Edits applied to every ORCHESTRATION.yaml and Nexus manifest of the shared corpus
//! and the demo, written through the real write path into a temporary copy: every
//! line the edit did not target is byte-identical, every comment survives, the
//! result parses, and it differs from the original only by the intended change.
//! The corpus is read in place from `$RESUME_TUI_CORPUS` (tests/support/needs.rs).

#[path = "support/needs.rs"]
mod needs;

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use resume_tui::core::edit::{
    CheckpointEvent, DecisionFields, EditIntent, NewDecision, NexusFields, Op, Seg, value_ops,
};
use resume_tui::core::normalize::frontmatter;
use resume_tui::core::time::Timestamp;
use resume_tui::io::demo;
use resume_tui::io::write::WriteError;
use resume_tui::io::yaml_edit::{Edited, edit_file};
use yaml_serde::Value;

const NOW: Timestamp = Timestamp(1_772_445_600); // 2026-03-02T10:00:00Z

struct Sample {
    label: String,
    text: String,
    manifest: bool,
}

fn is_target(name: &str) -> Option<bool> {
    if name.starts_with("ORCHESTRATION") && (name.ends_with(".yaml") || name.ends_with(".yml")) {
        Some(false)
    } else if name == "resume-context.md" || name == "_resume.md" {
        Some(true)
    } else {
        None
    }
}

fn collect(root: &Path, prefix: &str, out: &mut Vec<Sample>) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                stack.push(path);
            } else if let Some(manifest) = is_target(&name) {
                let rel = path.strip_prefix(root).unwrap().display().to_string();
                out.push(Sample {
                    label: format!("{prefix}{rel}"),
                    text: std::fs::read_to_string(&path).unwrap(),
                    manifest,
                });
            }
        }
    }
}

fn samples() -> &'static [Sample] {
    static SAMPLES: OnceLock<Vec<Sample>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut all = Vec::new();
        collect(&needs::corpus(), "corpus/", &mut all);
        let demo_dir = tempfile::tempdir().unwrap();
        demo::unpack_into(demo_dir.path(), NOW).unwrap();
        collect(demo_dir.path(), "demo/", &mut all);
        all.sort_by(|a, b| a.label.cmp(&b.label));
        assert!(all.len() > 80, "only {} files found", all.len());
        all
    })
}

/// The YAML an edit sees: the whole file, or a manifest's frontmatter.
fn yaml_part(text: &str, manifest: bool) -> Option<String> {
    if !manifest {
        return Some(text.to_string());
    }
    let split = frontmatter::split("m", text).ok()?;
    split.frontmatter.map(|f| f.text.to_string())
}

fn parse(text: &str, manifest: bool) -> Option<Value> {
    yaml_serde::from_str(&yaml_part(text, manifest)?).ok()
}

/// Keys whose lines an op may rewrite.
fn touched_keys(ops: &[Op]) -> Vec<String> {
    let last_key = |path: &[Seg]| {
        path.iter().rev().find_map(|s| match s {
            Seg::Key(k) => Some(k.clone()),
            Seg::Index(_) => None,
        })
    };
    ops.iter()
        .filter_map(|op| match op {
            Op::Set { path, .. } => last_key(path),
            Op::Insert { path, .. } | Op::Append { path, .. } | Op::Remove { path } => {
                last_key(path)
            }
        })
        .collect()
}

/// Lines of `old` not in a longest common subsequence with `new` (common head and
/// tail trimmed, then `similar`'s LCS over the middle).
fn removed_lines(old: &str, new: &str) -> Vec<usize> {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut capture = similar::algorithms::Capture::new();
    let Ok(()) = similar::algorithms::lcs::diff(&mut capture, a, 0..a.len(), b, 0..b.len());
    let changed = capture
        .into_ops()
        .into_iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal);
    changed
        .flat_map(|op| op.old_range())
        .map(|i| head + i)
        .collect()
}

/// Lines holding a targeted key, and the deeper-indented lines of its block.
fn targeted_lines(text: &str, keys: &[String]) -> Vec<bool> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut allowed = vec![false; lines.len()];
    let mut block: Option<usize> = None;
    for (i, line) in lines.iter().enumerate() {
        let blank = line.trim().is_empty();
        if let Some(depth) = block {
            if blank
                || indent(line) > depth
                || line.trim_start().starts_with("- ") && indent(line) == depth
            {
                allowed[i] = true;
                continue;
            }
            block = None;
        }
        if keys.iter().any(|k| line.contains(&format!("{k}:"))) {
            allowed[i] = true;
            block = Some(indent(line));
        }
    }
    allowed
}

/// Comments: from a `#` after a space (or at the start) outside quoted scalars to
/// the end of the line. A quote opens a scalar only where one can start.
fn comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let (mut quote, mut escaped, mut prev) = (None, false, ' ');
            for (i, c) in line.char_indices() {
                match quote {
                    Some('"') if escaped => escaped = false,
                    Some('"') if c == '\\' => escaped = true,
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None if (c == '"' || c == '\'') && " \t:[{,-".contains(prev) => quote = Some(c),
                    None if c == '#' && prev.is_whitespace() => {
                        return Some(line[i..].trim_end().to_string());
                    }
                    None => {}
                }
                prev = c;
            }
            None
        })
        .collect()
}

fn check(sample_label: &str, old: &str, edited: &Edited, manifest: bool) {
    let new = &edited.new;
    let old_value = parse(old, manifest).expect("the original parses");
    let new_value = parse(new, manifest)
        .unwrap_or_else(|| panic!("{sample_label}: the edited file does not parse:\n{new}"));
    let mut expected = old_value.clone();
    value_ops::apply(&mut expected, &edited.ops).unwrap();
    assert_eq!(
        new_value, expected,
        "{sample_label}: more changed than intended"
    );
    assert_ne!(
        new_value, old_value,
        "{sample_label}: the intended change is missing"
    );

    // Old lines the new text dropped must hold a key an op targets.
    let keys = touched_keys(&edited.ops);
    let allowed = targeted_lines(old, &keys);
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    for i in removed_lines(old, new) {
        let line = old_lines[i];
        assert!(
            allowed[i],
            "{sample_label}: an untargeted line changed: {line:?} (ops {:?})",
            edited.ops
        );
    }
    // Counted among comments only: a `#` inside a value the edit replaced (say a
    // decision added as "#" and then edited) is no comment.
    let (before, after) = (comments(old), comments(new));
    for comment in &before {
        let count = |list: &[String]| list.iter().filter(|c| *c == comment).count();
        assert!(
            count(&after) >= count(&before),
            "{sample_label}: lost the comment {comment:?}"
        );
    }
    if manifest {
        let body = |t: &str| frontmatter::split("m", t).unwrap().body.to_string();
        assert_eq!(body(old), body(new), "{sample_label}: the body changed");
    }
}

#[derive(Debug, Clone)]
enum Choice {
    Add(String, Vec<i64>),
    Edit(u8, String),
    Apply(u8, bool),
    Merge(u16, f64, bool),
    Ack(u16),
    AckAll,
    Touch,
    Nexus(String),
}

fn decision_ids(value: &Value) -> Vec<String> {
    let res = value.get("resumption");
    let list = res
        .and_then(|r| r.get("decision_log").or_else(|| r.get("decisions")))
        .and_then(Value::as_sequence);
    list.into_iter()
        .flatten()
        .filter_map(|d| d.get("id").and_then(Value::as_str).map(str::to_string))
        .collect()
}

fn intent(choice: &Choice, current: &Value) -> EditIntent {
    let pick = |n: u8| {
        let ids = decision_ids(current);
        ids.get(usize::from(n) % ids.len().max(1))
            .cloned()
            .unwrap_or_else(|| "RD-001".to_string())
    };
    match choice {
        Choice::Add(text, phases) => EditIntent::AddDecision(NewDecision {
            decision: text.clone(),
            rationale: Some(format!("because {text}")),
            affects_phases: phases.clone(),
            gate: Some("qg-1".into()),
            iteration: Some(1),
            date: Some(NOW),
        }),
        Choice::Edit(n, text) => EditIntent::EditDecision {
            id: pick(*n),
            fields: DecisionFields {
                rationale: Some(text.clone()),
                affects_phases: Some(vec![1]),
                ..DecisionFields::default()
            },
        },
        Choice::Apply(n, applied) => EditIntent::SetDecisionApplied {
            id: pick(*n),
            applied: *applied,
        },
        Choice::Merge(n, fill, trigger) => EditIntent::MergeCheckpoint(CheckpointEvent {
            id: format!("cx-{n:03}"),
            number: Some(u32::from(*n)),
            timestamp: Some(NOW.to_iso()),
            trigger: Some(if *trigger { "auto" } else { "manual" }.into()),
            fill: Some(*fill),
            tier: Some("critical".into()),
            session_id: Some("s-1".into()),
            active_phase: Some("2".into()),
            checkpoint_file: Some(format!(".jerry/checkpoints/cx-{n:03}-checkpoint.json")),
            ..CheckpointEvent::default()
        }),
        Choice::Ack(n) => EditIntent::AcknowledgeCheckpoint {
            id: format!("cx-{n:03}"),
        },
        Choice::AckAll => EditIntent::AcknowledgeAll,
        Choice::Touch => EditIntent::Touch { now: NOW },
        Choice::Nexus(text) => EditIntent::SetNexusFields(NexusFields {
            next_action: Some(text.clone()),
            current_task: Some(format!("task {text}")),
            current_section: None,
            last_updated: Some(NOW),
        }),
    }
}

/// Applies `choices` to a temporary copy of `sample`, checking after each edit.
fn run(sample: &Sample, choices: &[Choice]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let name = if sample.manifest {
        "resume-context.md"
    } else {
        "ORCHESTRATION.yaml"
    };
    let path = dir.path().join(name);
    std::fs::write(&path, &sample.text).unwrap();
    let mut changed = 0;
    for choice in choices {
        let choice = match (choice, sample.manifest) {
            (Choice::Nexus(_), false) => Choice::Touch,
            (Choice::Nexus(_), true) => choice.clone(),
            (_, true) => Choice::Nexus("resume at step 3".into()),
            _ => choice.clone(),
        };
        let old = std::fs::read_to_string(&path).unwrap();
        let Some(current) = parse(&old, sample.manifest) else {
            return changed; // a file with no frontmatter, or YAML the tool refuses
        };
        let intent = intent(&choice, &current);
        match edit_file(&path, &sample.label, &intent, false) {
            Ok(edited) if edited.changed() => {
                check(&sample.label, &old, &edited, sample.manifest);
                assert_eq!(std::fs::read_to_string(&path).unwrap(), edited.new);
                changed += 1;
            }
            Ok(_) => assert_eq!(std::fs::read_to_string(&path).unwrap(), old),
            Err(WriteError::NotApplicable { .. }) => {
                assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
            }
            Err(other) => panic!("{}: {intent:?}: {other}", sample.label),
        }
    }
    changed
}

#[test]
#[cfg_attr(
    not(resume_tui_corpus),
    ignore = "needs RESUME_TUI_CORPUS=<corpus folder>"
)]
fn every_file_takes_each_edit() {
    let choices = [
        Choice::Add(
            "A decision: with \"quotes\" # and a hash".into(),
            vec![2, 3],
        ),
        Choice::Apply(0, true),
        Choice::Edit(0, "edited".into()),
        Choice::Merge(7, 0.912, true),
        Choice::Ack(7),
        Choice::Merge(8, 0.5, false),
        Choice::AckAll,
        Choice::Touch,
    ];
    let mut changed = 0;
    for sample in samples() {
        for choice in &choices {
            changed += run(sample, std::slice::from_ref(choice));
        }
    }
    assert!(
        changed > samples().len() * 3,
        "only {changed} edits changed anything"
    );
}

fn choice() -> impl Strategy<Value = Choice> {
    let text = "[a-zA-Z0-9 ,.:#'\"\\\\é✓\\-]{1,30}";
    prop_oneof![
        (text, prop::collection::vec(0i64..9, 0..3)).prop_map(|(t, p)| Choice::Add(t, p)),
        (any::<u8>(), text).prop_map(|(n, t)| Choice::Edit(n, t)),
        (any::<u8>(), any::<bool>()).prop_map(|(n, a)| Choice::Apply(n, a)),
        (1u16..12, 0.0f64..1.0, any::<bool>()).prop_map(|(n, f, t)| Choice::Merge(n, f, t)),
        (1u16..12).prop_map(Choice::Ack),
        Just(Choice::AckAll),
        Just(Choice::Touch),
        text.prop_map(Choice::Nexus),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    #[cfg_attr(not(resume_tui_corpus), ignore = "needs RESUME_TUI_CORPUS=<corpus folder>")]
    fn random_edit_sequences_change_only_their_targets(
        index in any::<prop::sample::Index>(),
        choices in prop::collection::vec(choice(), 1..5),
    ) {
        let sample = index.get(samples());
        run(sample, &choices);
    }
}
