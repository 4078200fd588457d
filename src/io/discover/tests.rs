use std::path::Path;

use super::*;

fn touch(root: &Path, rel: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "x").unwrap();
}

fn rels(d: &Discovery, kind: FileKind) -> Vec<(&str, &str)> {
    d.of_kind(kind)
        .map(|f| (f.rel.as_str(), f.dir.as_str()))
        .collect()
}

#[test]
fn classifies_every_known_location() {
    let cases: &[(&str, Option<(FileKind, &str)>)] = &[
        ("ORCHESTRATION.yaml", Some((FileKind::Orchestration, ""))),
        (
            "projects/P-1/orchestration/wf/ORCHESTRATION.yaml",
            Some((FileKind::Orchestration, "projects/P-1/orchestration/wf")),
        ),
        ("a/ORCHESTRATION.yml", None),
        (
            ".jerry/checkpoints/cx-001.json",
            Some((FileKind::Checkpoint, ".jerry/checkpoints")),
        ),
        (
            "r/.jerry/checkpoints/cx-012-checkpoint.json",
            Some((FileKind::Checkpoint, "r/.jerry/checkpoints")),
        ),
        (
            ".jerry/checkpoints/cx-1000.acknowledged",
            Some((FileKind::CheckpointMarker, ".jerry/checkpoints")),
        ),
        (".jerry/checkpoints/cx-.json", None),
        (".jerry/checkpoints/cx-001.json.bak", None),
        ("checkpoints/cx-001.json", None),
        (
            ".jerry/context-monitor-state.json",
            Some((FileKind::ContextMonitorState, "")),
        ),
        ("context-monitor-state.json", None),
        (
            "n/00-system/.cache/precompact_state.json",
            Some((FileKind::Precompact, "n")),
        ),
        (".cache/precompact_state.json", None),
        (
            "02-projects/07-x/01-planning/resume-context.md",
            Some((FileKind::NexusManifest, "02-projects/07-x")),
        ),
        (
            "n/02-projects/07-x/01-planning/_resume.md",
            Some((FileKind::NexusManifest, "n/02-projects/07-x")),
        ),
        (
            "02-projects/07-x/_resume.md",
            Some((FileKind::NexusManifest, "02-projects/07-x")),
        ),
        ("02-projects/07-x/resume-context.md", None),
        (
            "02-builds/active/03-b/01-planning/resume-context.md",
            Some((FileKind::NexusManifest, "02-builds/active/03-b")),
        ),
        (
            "02-builds/complete/03-b/01-planning/resume-context.md",
            Some((FileKind::NexusManifest, "02-builds/complete/03-b")),
        ),
        (
            "02-builds/03-b/01-planning/resume-context.md",
            Some((FileKind::NexusManifest, "02-builds/03-b")),
        ),
        (
            "05-archived/09-y/01-planning/resume-context.md",
            Some((FileKind::NexusManifest, "05-archived/09-y")),
        ),
        ("other/active/03-b/01-planning/resume-context.md", None),
        (
            "02-projects/x/03-working/test/01-planning/resume-context.md",
            None,
        ),
        (
            "02-projects/07-x/01-planning/resume-context.md.backup",
            None,
        ),
        (
            "02-projects/07-x/01-planning/resume-context.md.pre-optimize-backup",
            None,
        ),
        ("01-planning/resume-context.md", None),
    ];
    for (rel, expected) in cases {
        let got = classify(rel);
        let got = got.as_ref().map(|(k, d)| (*k, d.as_str()));
        assert_eq!(got, *expected, "{rel}");
    }
}

#[test]
fn walks_a_workspace_and_skips_heavy_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    for rel in [
        "projects/P-1/ORCHESTRATION.yaml",
        "projects/P-1/orchestration/wf-1/ORCHESTRATION.yaml",
        ".jerry/checkpoints/cx-001.json",
        ".jerry/checkpoints/cx-001.acknowledged",
        ".jerry/checkpoints/cx-002-checkpoint.json",
        ".jerry/context-monitor-state.json",
        "nexus/02-projects/01-a/01-planning/resume-context.md",
        "nexus/00-system/.cache/precompact_state.json",
        "node_modules/pkg/ORCHESTRATION.yaml",
        "target/debug/ORCHESTRATION.yaml",
        ".git/ORCHESTRATION.yaml",
        "x/.cache/00-system/.cache/precompact_state.json",
        "notes/readme.md",
    ] {
        touch(root, rel);
    }
    let d = discover(root, &Env::default());
    assert_eq!(
        rels(&d, FileKind::Orchestration),
        [
            ("projects/P-1/ORCHESTRATION.yaml", "projects/P-1"),
            (
                "projects/P-1/orchestration/wf-1/ORCHESTRATION.yaml",
                "projects/P-1/orchestration/wf-1"
            ),
        ]
    );
    assert_eq!(rels(&d, FileKind::Checkpoint).len(), 2);
    assert_eq!(rels(&d, FileKind::CheckpointMarker).len(), 1);
    assert_eq!(rels(&d, FileKind::ContextMonitorState).len(), 1);
    assert_eq!(
        rels(&d, FileKind::Precompact),
        [("nexus/00-system/.cache/precompact_state.json", "nexus")]
    );
    assert_eq!(
        rels(&d, FileKind::NexusManifest),
        [(
            "nexus/02-projects/01-a/01-planning/resume-context.md",
            "nexus/02-projects/01-a"
        )]
    );
    assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
}

#[test]
fn the_newer_manifest_wins_and_the_legacy_one_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    touch(root, "02-projects/10-a/01-planning/resume-context.md");
    touch(root, "02-projects/10-a/_resume.md");
    touch(root, "02-projects/11-b/01-planning/_resume.md");
    touch(root, "02-projects/11-b/01-planning/resume-context.md");
    touch(root, "02-projects/12-c/_resume.md");
    let d = discover(root, &Env::default());
    assert_eq!(
        rels(&d, FileKind::NexusManifest),
        [
            (
                "02-projects/10-a/01-planning/resume-context.md",
                "02-projects/10-a"
            ),
            (
                "02-projects/11-b/01-planning/resume-context.md",
                "02-projects/11-b"
            ),
            ("02-projects/12-c/_resume.md", "02-projects/12-c"),
        ]
    );
    let notes: Vec<String> = d.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes
            .iter()
            .all(|n| n.contains(": info: legacy duplicate of")),
        "{notes:?}"
    );
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_walked_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    touch(root, "a/ORCHESTRATION.yaml");
    std::os::unix::fs::symlink(root, root.join("a/loop")).unwrap();
    std::os::unix::fs::symlink(root.join("a"), root.join("alias")).unwrap();
    std::os::unix::fs::symlink(root.join("missing"), root.join("ORCHESTRATION.yaml")).unwrap();
    let d = discover(root, &Env::default());
    assert_eq!(
        rels(&d, FileKind::Orchestration),
        [("a/ORCHESTRATION.yaml", "a")]
    );
    let text: Vec<String> = d.diagnostics.iter().map(ToString::to_string).collect();
    assert!(
        text.iter().any(|t| t.starts_with("a/loop: info: symlink")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("ORCHESTRATION.yaml: warning: broken")),
        "{text:?}"
    );
}

#[cfg(unix)]
#[test]
fn symlinked_folders_outside_the_walk_are_followed() {
    let outside = tempfile::tempdir().unwrap();
    touch(outside.path(), "wf/ORCHESTRATION.yaml");
    let tmp = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("linked")).unwrap();
    let d = discover(tmp.path(), &Env::default());
    assert_eq!(
        rels(&d, FileKind::Orchestration),
        [("linked/wf/ORCHESTRATION.yaml", "linked/wf")]
    );
}

#[test]
fn a_missing_root_is_a_diagnostic() {
    let d = discover(Path::new("/definitely/not/here"), &Env::default());
    assert!(d.files.is_empty());
    assert_eq!(d.diagnostics.len(), 1);
    assert!(d.diagnostics[0].message.starts_with("cannot read folder"));
}

#[test]
fn context_state_comes_from_the_env_value() {
    let lifecycle = tempfile::tempdir().unwrap();
    touch(lifecycle.path(), "context-state.json");
    let home = tempfile::tempdir().unwrap();
    touch(home.path(), ".jerry/local/context-state.json");
    let root = tempfile::tempdir().unwrap();

    let lifecycle_dir = lifecycle.path().to_str().unwrap();
    let home_dir = home.path().to_str().unwrap();
    let env = Env::from_pairs([("JERRY_LIFECYCLE_DIR", lifecycle_dir), ("HOME", home_dir)]);
    let found: Vec<_> = discover(root.path(), &env)
        .of_kind(FileKind::LifecycleContextState)
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(found, [lifecycle.path().join("context-state.json")]);

    let env = Env::from_pairs([("HOME", home_dir)]);
    let found: Vec<_> = discover(root.path(), &env)
        .of_kind(FileKind::LifecycleContextState)
        .map(|f| f.path.clone())
        .collect();
    assert_eq!(found, [home.path().join(".jerry/local/context-state.json")]);

    assert_eq!(discover(root.path(), &Env::default()).files, []);
}

/// A state file replaced by a folder (or a link to one) was passed over in silence.
#[test]
fn a_folder_where_a_state_file_belongs_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("projects/P/ORCHESTRATION.yaml")).unwrap();
    std::fs::create_dir_all(root.join(".jerry/checkpoints/cx-001-checkpoint.json")).unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.join("projects/Q")).unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), root.join("projects/Q/ORCHESTRATION.yaml"))
        .unwrap();
    let d = discover(root, &Env::from_pairs([]));
    assert!(d.files.is_empty());
    let mut said: Vec<String> = d.diagnostics.iter().map(|x| x.to_string()).collect();
    said.sort();
    assert_eq!(
        said,
        [
            ".jerry/checkpoints/cx-001-checkpoint.json: warning: is a folder, not a file: not read",
            "projects/P/ORCHESTRATION.yaml: warning: is a folder, not a file: not read",
            "projects/Q/ORCHESTRATION.yaml: warning: is a folder, not a file: not read",
        ]
    );
}

#[test]
fn the_walk_names_the_folders_where_state_files_appear_even_empty() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in [
        "projects/PROJ-001/orchestration/wf-1",
        "projects/PROJ-002/research",
        "02-projects/10-new/01-planning",
        "node_modules/projects/x",
        "src/deep",
    ] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    let mut found = discover(root, &Env::default()).state_folders;
    found.sort();
    assert_eq!(
        found,
        [
            "02-projects",
            "02-projects/10-new",
            "02-projects/10-new/01-planning",
            "projects",
            "projects/PROJ-001",
            "projects/PROJ-001/orchestration",
            "projects/PROJ-001/orchestration/wf-1",
            "projects/PROJ-002",
        ],
        "skipped folders (node_modules) are not walked"
    );
}

/// Past the first few dozen folders the walk goes on several threads: the same
/// files, each once, by its real path, in the same order, whatever the timing;
/// loops and links handled as on one thread.
#[cfg(unix)]
#[test]
fn a_large_workspace_walked_on_several_threads_gives_the_same_discovery() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let mut expected = Vec::new();
    for p in 0..60 {
        for w in 0..4 {
            let rel = format!("projects/PROJ-{p:03}/orchestration/wf-{w}/ORCHESTRATION.yaml");
            touch(root, &rel);
            expected.push(rel);
        }
        touch(
            root,
            &format!("projects/PROJ-{p:03}/.jerry/checkpoints/cx-001.json"),
        );
    }
    std::os::unix::fs::symlink(root.join("projects"), root.join("projects/PROJ-007/loop")).unwrap();
    std::os::unix::fs::symlink(root.join("projects/PROJ-009"), root.join("alias")).unwrap();
    expected.sort();
    let first = discover(root, &Env::default());
    let found: Vec<&str> = first
        .of_kind(FileKind::Orchestration)
        .map(|f| f.rel.as_str())
        .collect();
    assert_eq!(found, expected);
    assert_eq!(first.of_kind(FileKind::Checkpoint).count(), 60);
    let loops = first
        .diagnostics
        .iter()
        .filter(|d| d.message.contains("already searched"))
        .count();
    assert_eq!(loops, 2, "{:?}", first.diagnostics);
    for _ in 0..10 {
        let again = discover(root, &Env::default());
        assert_eq!(again.files, first.files);
        assert_eq!(again.diagnostics, first.diagnostics);
        assert_eq!(again.state_folders, first.state_folders);
    }
}
