use super::*;
use crate::core::model::Shape;

/// 2026-02-17T12:34:56Z.
const NOW: Timestamp = Timestamp(1_771_331_696);

fn state(age_minutes: Option<i64>, session: Option<&str>, confidence: &str) -> PrecompactState {
    let timestamp = age_minutes.map(|m| Timestamp(NOW.0 - m * 60));
    PrecompactState {
        path: "00-system/.cache/precompact_state.json".into(),
        active_project_id: Some("07-merchant".into()),
        confidence: Some(confidence.into()),
        detection_method: Some("transcript".into()),
        timestamp_raw: timestamp.map(Timestamp::to_iso),
        timestamp,
        session_id: session.map(str::to_string),
        ..PrecompactState::default()
    }
}

fn nexus(id: &str, source: &str) -> Project {
    Project::at(ProjectKind::Nexus, id, source, "", Shape::Nexus1)
}

#[test]
fn the_bound_is_inclusive_and_allows_five_minutes_ahead() {
    assert!(within_bound(30 * 60, 30));
    assert!(!within_bound(30 * 60 + 1, 30));
    assert!(within_bound(-300, 30));
    assert!(!within_bound(-301, 30));
    assert!(within_bound(0, 0));
    assert!(within_bound(i64::MAX, u64::MAX));
}

#[test]
fn a_recent_confident_state_of_a_known_project_is_injectable() {
    let v = view(&state(Some(12), None, "high"), NOW, 30, true);
    assert!(v.injectable);
    assert_eq!(
        v.injection,
        "younger than 30 min: the next SessionStart injects it"
    );
    assert_eq!(v.age_minutes, Some(12));
    assert_eq!(v.age(), "12 min ago");
    assert_eq!(v.session(), "no session");
}

#[test]
fn an_old_state_is_left_for_the_operator() {
    let v = view(&state(Some(50), None, "high"), NOW, 30, true);
    assert!(!v.injectable);
    assert_eq!(v.injection, "older than 30 min: never injected");
    assert_eq!(
        v.summary(),
        "precompact state from 50 min ago (no session; high, detected by transcript) — \
         older than 30 min: never injected"
    );
    assert_eq!(v.written(), "2026-02-17T11:44:56Z (50 min ago)");
    assert_eq!(v.detection(), "high · detected by transcript");
}

#[test]
fn an_old_state_of_a_session_is_injected_only_there() {
    let v = view(&state(Some(50), Some("s-1"), "high"), NOW, 30, true);
    assert!(!v.injectable);
    assert_eq!(
        v.injection,
        "older than 30 min: injected only if its own session resumes"
    );
    assert_eq!(v.session(), "s-1");
    assert!(
        v.summary()
            .contains("(session s-1; high, detected by transcript)")
    );
}

#[test]
fn the_bound_comes_from_the_setting() {
    let v = view(&state(Some(50), None, "high"), NOW, 60, true);
    assert!(v.injectable, "{v:?}");
    let v = view(&state(Some(6), None, "high"), NOW, 5, true);
    assert_eq!(v.injection, "older than 5 min: never injected");
}

#[test]
fn recent_but_unusable_states_say_why() {
    let low = view(&state(Some(1), None, "low"), NOW, 30, true);
    assert!(!low.injectable);
    assert_eq!(
        low.injection,
        "confidence low: the next SessionStart removes it, injects nothing"
    );
    let unknown = view(&state(Some(1), None, "high"), NOW, 30, false);
    assert!(!unknown.injectable);
    assert!(unknown.injection.starts_with("names no project here"));
    let ahead = view(&state(Some(-10), None, "high"), NOW, 30, true);
    assert_eq!(ahead.injection, "dated in the future: never injected");
    assert_eq!(ahead.age_minutes, Some(-10));
}

#[test]
fn an_undated_state_has_no_age() {
    let mut s = state(None, None, "high");
    s.timestamp_raw = Some("yesterday".into());
    let v = view(&s, NOW, 30, true);
    assert_eq!(v.age_minutes, None);
    assert_eq!(v.age(), "undated");
    assert_eq!(v.written(), "yesterday");
    assert_eq!(v.injection, "no readable timestamp: never injected");
    assert!(
        v.summary()
            .starts_with("precompact state undated (no session;")
    );
}

#[test]
fn the_named_project_is_found_where_the_hooks_look() {
    let projects = [
        nexus("other", "02-projects/other/01-planning/resume-context.md"),
        nexus(
            "07-merchant",
            "02-builds/active/07-merchant/01-planning/resume-context.md",
        ),
        Project::at(
            ProjectKind::Jerry,
            "07-merchant",
            "projects/07-merchant/ORCHESTRATION.yaml",
            "",
            Shape::V1,
        ),
    ];
    let s = state(Some(1), None, "high");
    let found = named_project(&s, &projects).map(|p| p.source.as_str());
    assert_eq!(
        found,
        Some("02-builds/active/07-merchant/01-planning/resume-context.md")
    );
}

#[test]
fn the_named_project_is_under_the_states_own_nexus_root() {
    let projects = [nexus(
        "id-in-the-manifest",
        "nexus/02-projects/07-merchant/01-planning/resume-context.md",
    )];
    let mut s = state(Some(1), None, "high");
    assert!(named_project(&s, &projects).is_none(), "another root");
    s.path = "nexus/00-system/.cache/precompact_state.json".into();
    let found = named_project(&s, &projects).map(|p| p.id.as_str());
    assert_eq!(found, Some("id-in-the-manifest"));
}

#[test]
fn ids_that_are_not_folder_names_name_nothing() {
    for id in ["", "../x", "a/b", "a\\b", ".hidden"] {
        assert!(manifest_places(id).is_none(), "{id:?}");
    }
    let mut s = state(Some(1), None, "high");
    s.active_project_id = None;
    let projects = [nexus("x", "02-projects/x/01-planning/resume-context.md")];
    assert!(named_project(&s, &projects).is_none());
}

#[test]
fn a_state_belongs_to_the_project_it_names_or_is_an_orphan() {
    let ws = |id: Option<&str>| {
        let mut s = state(Some(50), None, "high");
        s.active_project_id = id.map(str::to_string);
        Workspace {
            projects: vec![
                nexus(
                    "07-merchant",
                    "02-projects/07-merchant/01-planning/resume-context.md",
                ),
                nexus("other", "02-projects/other/01-planning/resume-context.md"),
            ],
            precompact: Some(s),
            ..Workspace::default()
        }
    };
    let named = ws(Some("07-merchant"));
    let [merchant, other] = [&named.projects[0], &named.projects[1]];
    assert!(of_project(&named, merchant, NOW, 30).is_some());
    assert!(of_project(&named, other, NOW, 30).is_none());
    assert_eq!(orphan_note(&named, NOW), None);
    let ghost = ws(Some("ghost"));
    assert!(of_project(&ghost, &ghost.projects[0], NOW, 30).is_none());
    assert_eq!(
        orphan_note(&ghost, NOW).as_deref(),
        Some("precompact state 50 min ago names \"ghost\": no such project")
    );
    assert_eq!(
        orphan_note(&ws(None), NOW).as_deref(),
        Some("precompact state 50 min ago names no project")
    );
    assert_eq!(orphan_note(&Workspace::default(), NOW), None);
}
