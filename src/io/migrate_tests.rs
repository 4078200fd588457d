use super::*;

fn write_file(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn backups_never_overwrite_an_earlier_backup() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ORCHESTRATION.yaml");
    write_file(&file, "a: 1\n");
    let first = make_backup(&file, b"one").unwrap();
    let second = make_backup(&file, b"two").unwrap();
    assert_eq!(first.file_name().unwrap(), "ORCHESTRATION.yaml.bak");
    assert_eq!(second.file_name().unwrap(), "ORCHESTRATION.yaml.bak.1");
    assert_eq!(std::fs::read(&first).unwrap(), b"one");
    assert_eq!(std::fs::read(&second).unwrap(), b"two");
}

#[test]
fn renaming_refuses_an_existing_target_and_a_changed_source() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("p/01-planning/_resume.md");
    let new = dir.path().join("p/01-planning/resume-context.md");
    write_file(&old, "legacy\n");
    write_file(&new, "current\n");
    let snapshot = write::read_snapshot(&old).unwrap();
    assert!(matches!(
        rename_no_clobber(&snapshot, &new),
        Err(WriteError::AlreadyExists { .. })
    ));
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "current\n");
    std::fs::remove_file(&new).unwrap();

    std::fs::write(&old, "edited meanwhile\n").unwrap();
    assert!(matches!(
        rename_no_clobber(&snapshot, &new),
        Err(WriteError::ChangedOnDisk { .. })
    ));
    assert!(!new.exists());
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "edited meanwhile\n");

    let snapshot = write::read_snapshot(&old).unwrap();
    rename_no_clobber(&snapshot, &new).unwrap();
    assert!(!old.exists());
    assert_eq!(std::fs::read_to_string(&new).unwrap(), "edited meanwhile\n");
}

#[test]
fn a_root_level_legacy_manifest_moves_into_a_new_planning_folder() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("02-projects/07-x/_resume.md");
    write_file(&old, "# Airtable - Resume Context\n\n**Status**: DONE\n");
    let report = migrate_nexus(dir.path(), &Env::default(), Options::default());
    assert_eq!(report.files.len(), 1, "{report:?}");
    let file = &report.files[0];
    assert_eq!(file.status, Status::Changed, "{file:?}");
    assert_eq!(
        file.renamed_to.as_deref(),
        Some("02-projects/07-x/01-planning/resume-context.md")
    );
    assert!(!old.exists());
    let new = std::fs::read_to_string(
        dir.path()
            .join("02-projects/07-x/01-planning/resume-context.md"),
    )
    .unwrap();
    assert!(new.starts_with("---\n"), "{new}");
    assert!(
        new.ends_with("---\n# Airtable - Resume Context\n\n**Status**: DONE\n"),
        "{new}"
    );
}

#[test]
fn a_dry_run_writes_nothing_and_shows_the_rename() {
    let dir = tempfile::tempdir().unwrap();
    let old = dir.path().join("02-projects/24-x/01-planning/_resume.md");
    write_file(
        &old,
        "---\nresume_version: 1.6\nproject_id: 24-x\n---\n# X\n",
    );
    let options = Options {
        dry_run: true,
        backup: true,
    };
    let report = migrate_nexus(dir.path(), &Env::default(), options);
    let diff = report.files[0].diff.as_deref().unwrap();
    assert!(diff.starts_with(
        "rename from 02-projects/24-x/01-planning/_resume.md\nrename to 02-projects/24-x/01-planning/resume-context.md\n--- a/"
    ));
    assert!(
        diff.contains("+resume_schema_version: \"1.0\"  # migrated from resume_version: 1.6\n")
    );
    let names: Vec<_> = std::fs::read_dir(old.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["_resume.md"]);
}

#[test]
fn a_write_that_fails_leaves_no_backup_behind() {
    let dir = tempfile::tempdir().unwrap();
    let rel = "ORCHESTRATION.yaml";
    let path = dir.path().join(rel);
    let text = "resumption:\n  last_checkpoint: cp\n  next_step: go\n";
    write_file(&path, text);
    let snapshot = write::read_snapshot(&path).unwrap();
    std::fs::write(&path, format!("{text}# edited meanwhile\n")).unwrap();
    let outcome = migrate_resumption(rel, text);
    let options = Options {
        dry_run: false,
        backup: true,
    };
    let report = apply(rel, None, &snapshot, outcome, options);
    assert_eq!(report.status, Status::Failed);
    assert!(report.reason.unwrap().contains("changed on disk"));
    assert!(!dir.path().join("ORCHESTRATION.yaml.bak").exists());
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("# edited meanwhile\n")
    );
}
