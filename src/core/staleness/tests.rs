use super::phase::same_phase;
use super::*;

const NOW: &str = "2026-02-20T12:00:00Z";

fn ts(s: &str) -> Timestamp {
    Timestamp::parse(s).unwrap()
}

fn updated(raw: &str) -> Facts {
    Facts {
        updated_at_raw: Some(raw.to_string()),
        updated_at: Timestamp::parse(raw),
        ..Facts::default()
    }
}

fn session(id: Option<&str>, started: Option<&str>) -> Option<Session> {
    Some(Session {
        id: id.map(str::to_string),
        started_at: started.map(ts),
    })
}

struct Case {
    name: &'static str,
    facts: Facts,
    level: StalenessLevel,
    /// Each must appear in one of the reasons.
    says: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    use StalenessLevel::*;
    vec![
        Case {
            name: "no timestamp",
            facts: Facts::default(),
            level: Unknown,
            says: &["No update time is recorded"],
        },
        Case {
            name: "unparseable timestamp",
            facts: updated("last tuesday"),
            level: Unknown,
            says: &["\"last tuesday\" is not a date or time"],
        },
        Case {
            name: "just updated",
            facts: updated("2026-02-20T11:59:00Z"),
            level: Fresh,
            says: &["Updated 1 min ago, within the 30-minute limit."],
        },
        Case {
            name: "exactly at the limit is still fresh",
            facts: updated("2026-02-20T11:30:00Z"),
            level: Fresh,
            says: &["Updated 30 min ago"],
        },
        Case {
            name: "one second past the limit is stale",
            facts: updated("2026-02-20T11:29:59Z"),
            level: Stale,
            says: &["Last updated 30 min ago, more than the 30-minute limit."],
        },
        Case {
            name: "offsets are honoured",
            facts: updated("2026-02-20T13:50:00+02:00"),
            level: Fresh,
            says: &["Updated 10 min ago"],
        },
        Case {
            name: "in the future",
            facts: updated("2026-02-20T12:10:00Z"),
            level: Fresh,
            says: &["in 10 min (clocks may differ)"],
        },
        Case {
            name: "a date only, today",
            facts: updated("2026-02-20"),
            level: Fresh,
            says: &["Updated today"],
        },
        Case {
            name: "a date only, yesterday",
            facts: updated("2026-02-19"),
            level: Stale,
            says: &["Last updated 12 h ago"],
        },
        Case {
            name: "exactly midnight is a date",
            facts: Facts {
                phase_started_at: Some(ts("2026-02-19T04:35:00Z")),
                ..updated("2026-02-19T00:00:00Z")
            },
            level: Stale,
            says: &["Last updated 12 h ago"],
        },
        Case {
            name: "exactly midnight, before a later day's checkpoint",
            facts: Facts {
                latest_checkpoint: Some(("cx-001".into(), ts("2026-02-20T00:30:00Z"))),
                ..updated("2026-02-19T00:00:00.000000+00:00")
            },
            level: Critical,
            says: &["Last updated on 2026-02-19, before checkpoint cx-001"],
        },
        Case {
            name: "one second after midnight is a time",
            facts: Facts {
                phase_started_at: Some(ts("2026-02-20T04:35:00Z")),
                ..updated("2026-02-20T00:00:01Z")
            },
            level: Stale,
            says: &["before the current phase started at 2026-02-20T04:35:00Z"],
        },
        Case {
            name: "finished workflows do not age",
            facts: Facts {
                finished: Some("COMPLETE".into()),
                ..updated("2026-01-01T08:00:00Z")
            },
            level: Fresh,
            says: &["The workflow is COMPLETE; its last update (50 d ago) is final."],
        },
        Case {
            name: "updated after the phase started",
            facts: Facts {
                phase: Some("3".into()),
                phase_started_at: Some(ts("2026-02-20T11:40:00Z")),
                ..updated("2026-02-20T11:50:00Z")
            },
            level: Fresh,
            says: &["Updated 10 min ago"],
        },
        Case {
            name: "updated before the phase started",
            facts: Facts {
                phase: Some("3".into()),
                phase_started_at: Some(ts("2026-02-20T11:55:00Z")),
                ..updated("2026-02-20T11:50:00Z")
            },
            level: Stale,
            says: &["before the current phase 3 started at 2026-02-20T11:55:00Z"],
        },
        Case {
            name: "the phase rule applies to finished workflows too",
            facts: Facts {
                finished: Some("COMPLETE".into()),
                phase: Some("7".into()),
                phase_started_at: Some(ts("2026-02-20T11:55:00Z")),
                ..updated("2026-02-20T11:50:00Z")
            },
            level: Stale,
            says: &["phase 7 started"],
        },
        Case {
            name: "the same second as the phase start is not older",
            facts: Facts {
                phase_started_at: Some(ts("2026-02-20T11:50:00Z")),
                ..updated("2026-02-20T11:50:00Z")
            },
            level: Fresh,
            says: &[],
        },
        Case {
            name: "a date-only update on the day the phase started",
            facts: Facts {
                phase_started_at: Some(ts("2026-02-20T09:00:00Z")),
                ..updated("2026-02-20")
            },
            level: Fresh,
            says: &["Updated today"],
        },
        Case {
            name: "older than the latest checkpoint",
            facts: Facts {
                latest_checkpoint: Some(("cx-004".into(), ts("2026-02-20T11:58:00Z"))),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Critical,
            says: &["before checkpoint cx-004 was written at 2026-02-20T11:58:00Z"],
        },
        Case {
            name: "newer than the latest checkpoint",
            facts: Facts {
                latest_checkpoint: Some(("cx-004".into(), ts("2026-02-20T11:50:00Z"))),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Fresh,
            says: &[],
        },
        Case {
            name: "older than the latest compaction event",
            facts: Facts {
                latest_compaction: Some(("CX-002".into(), ts("2026-02-20T11:59:00Z"))),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Critical,
            says: &["before compaction event CX-002"],
        },
        Case {
            name: "critical outranks stale and both reasons are given",
            facts: Facts {
                latest_checkpoint: Some(("cx-009".into(), ts("2026-02-20T11:00:00Z"))),
                ..updated("2026-02-20T10:00:00Z")
            },
            level: Critical,
            says: &["before checkpoint cx-009", "more than the 30-minute limit"],
        },
        Case {
            name: "critical even when finished",
            facts: Facts {
                finished: Some("COMPLETE".into()),
                latest_checkpoint: Some(("cx-001".into(), ts("2026-02-20T11:00:00Z"))),
                ..updated("2026-02-20T10:00:00Z")
            },
            level: Critical,
            says: &["before checkpoint cx-001"],
        },
        Case {
            name: "before the current session started",
            facts: Facts {
                session: session(None, Some("2026-02-20T11:57:00Z")),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Critical,
            says: &["before the current session started at 2026-02-20T11:57:00Z"],
        },
        Case {
            name: "after the current session started",
            facts: Facts {
                session: session(None, Some("2026-02-20T11:50:00Z")),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Fresh,
            says: &[],
        },
        Case {
            name: "a session the file does not record",
            facts: Facts {
                session: session(Some("s-new"), None),
                recorded_sessions: vec!["s-1".into(), "s-2".into()],
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Critical,
            says: &["the current session s-new is not among the 2 it records"],
        },
        Case {
            name: "a session the file records",
            facts: Facts {
                session: session(Some("s-2"), None),
                recorded_sessions: vec!["s-1".into(), "s-2".into()],
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Fresh,
            says: &[],
        },
        Case {
            name: "a file that records no sessions cannot be from a previous one",
            facts: Facts {
                session: session(Some("s-new"), None),
                ..updated("2026-02-20T11:55:00Z")
            },
            level: Fresh,
            says: &[],
        },
    ]
}

#[test]
fn every_rule_and_boundary() {
    let now = ts(NOW);
    for case in cases() {
        let got = judge(&case.facts, now, 30);
        assert_eq!(got.level, case.level, "{}: {:?}", case.name, got.reasons);
        assert!(
            !got.reasons.is_empty(),
            "{}: a level always has a reason",
            case.name
        );
        for needle in case.says {
            assert!(
                got.reasons.iter().any(|r| r.contains(needle)),
                "{}: no reason says {needle:?}: {:?}",
                case.name,
                got.reasons
            );
        }
        assert!(
            got.reasons.iter().all(|r| r.ends_with('.')),
            "{}: reasons are sentences: {:?}",
            case.name,
            got.reasons
        );
    }
}

#[test]
fn the_threshold_comes_from_the_caller() {
    let facts = updated("2026-02-20T11:50:00Z");
    let now = ts(NOW);
    assert_eq!(judge(&facts, now, 30).level, StalenessLevel::Fresh);
    let five = judge(&facts, now, 5);
    assert_eq!(five.level, StalenessLevel::Stale);
    assert!(
        five.reasons[0].contains("more than the 5-minute limit"),
        "{five:?}"
    );
}

#[test]
fn flags_are_carried_whatever_the_level() {
    let facts = Facts {
        missing_files: vec!["a.md".into()],
        unacknowledged_checkpoints: 2,
        ..Facts::default()
    };
    let got = judge(&facts, ts(NOW), 30);
    assert_eq!(got.level, StalenessLevel::Unknown);
    assert_eq!(got.missing_files, ["a.md"]);
    assert_eq!(got.unacknowledged_checkpoints, 2);
    assert_eq!(got.age_seconds, None);
    let got = judge(&updated("2026-02-20T11:00:00Z"), ts(NOW), 30);
    assert_eq!(got.age_seconds, Some(3600));
}

#[test]
fn phases_are_matched_by_number_or_name() {
    for (a, b, same) in [
        ("3", "3", true),
        ("3", "phase-3", true),
        ("Phase 3", "phase-3-analysis", true),
        ("research", "RESEARCH", true),
        ("3", "4", false),
        ("research", "planning", false),
        ("phase-1", "research", false),
    ] {
        assert_eq!(same_phase(a, b), same, "{a} vs {b}");
    }
}

#[test]
fn phase_start_is_read_from_pipelines_and_phases() {
    let doc: yaml_serde::Value = yaml_serde::from_str(
        r#"
pipelines:
  res:
    current_phase: 2
    phases:
      - id: 1
        started_at: "2026-02-19T08:00:00Z"
      - id: 2
        status: IN_PROGRESS
        started_at: "2026-02-19T10:00:00Z"
      - id: 3
        started_at: null
phases:
  phase-4: {started_at: "2026-02-19T12:00:00Z"}
"#,
    )
    .unwrap();
    let at = |p: Option<&str>| phase_started_at(&doc, p).map(Timestamp::to_iso);
    assert_eq!(at(Some("1")).as_deref(), Some("2026-02-19T08:00:00Z"));
    assert_eq!(at(Some("phase-2")).as_deref(), Some("2026-02-19T10:00:00Z"));
    assert_eq!(
        at(None).as_deref(),
        Some("2026-02-19T10:00:00Z"),
        "pipeline's own"
    );
    assert_eq!(at(Some("3")), None, "started_at: null");
    assert_eq!(
        at(Some("4")).as_deref(),
        Some("2026-02-19T12:00:00Z"),
        "keyed by name"
    );
    assert_eq!(at(Some("9")), None);
    let empty: yaml_serde::Value = yaml_serde::from_str("pipelines: 3").unwrap();
    assert_eq!(phase_started_at(&empty, Some("1")), None);
}

#[test]
fn facts_come_from_the_project() {
    use crate::core::model::*;
    let mut project = Project {
        kind: ProjectKind::Nexus,
        id: "p".into(),
        name: None,
        project_ref: None,
        source: "n/05-archived/p/01-planning/resume-context.md".into(),
        dir: "n/05-archived/p".into(),
        shape: Shape::Nexus1,
        summary: Summary::default(),
        resumption: None,
        manifest: Some(NexusManifest {
            files_to_load: vec![
                FileToLoad {
                    path: "gone.md".into(),
                    comment: None,
                    exists: Some(false),
                    resolved: None,
                },
                FileToLoad {
                    path: "here.md".into(),
                    comment: None,
                    exists: Some(true),
                    resolved: None,
                },
            ],
            session_ids: vec!["s1".into()],
            ..NexusManifest::default()
        }),
        trajectory: Default::default(),
        checkpoints: Vec::new(),
        staleness: Staleness::default(),
        diagnostics: Vec::new(),
        top_level_keys: Vec::new(),
    };
    let f = facts(&project, None);
    assert_eq!(f.missing_files, ["gone.md"]);
    assert_eq!(f.recorded_sessions, ["s1"]);
    assert_eq!(f.finished.as_deref(), Some("archived"));
    project.source = "n/02-projects/p/01-planning/resume-context.md".into();
    project.summary.phase = Some("COMPLETE".into());
    assert_eq!(facts(&project, None).finished.as_deref(), Some("COMPLETE"));
    project.summary.phase = Some("execution".into());
    assert_eq!(facts(&project, None).finished, None);
}

/// A compaction event naming the checkpoint already reported is the same compaction:
/// one reason, not two.
#[test]
fn a_checkpoint_and_the_event_naming_it_give_one_reason() {
    let now = ts("2026-02-20T12:00:00Z");
    let at = ts("2026-02-20T11:59:00Z");
    let facts = |event: &str| Facts {
        latest_checkpoint: Some(("cx-004".into(), at)),
        latest_compaction: Some((event.into(), at)),
        ..updated("2026-02-20T11:55:00Z")
    };
    let about = |event: &str| -> Vec<String> {
        judge(&facts(event), now, 30)
            .reasons
            .into_iter()
            .filter(|r| r.contains("before"))
            .collect()
    };
    assert_eq!(
        about("CX-004"),
        [
            "Last updated at 2026-02-20T11:55:00Z, before checkpoint cx-004 was written at 2026-02-20T11:59:00Z."
        ]
    );
    assert_eq!(about("cx-003").len(), 2, "{:?}", about("cx-003"));
}
