//! `validate` never calls a key unknown that the summary was read from: a Nexus
//! manifest's older `updated` and `phase`, a `status` the status came from. Keys
//! nothing reads are still noted as unknown.

#[path = "support/cli.rs"]
mod cli;

#[test]
fn a_key_the_summary_reads_is_said_to_be_read_not_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir
        .path()
        .join("02-projects/01-shop/01-planning/resume-context.md");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    std::fs::write(
        &manifest,
        "---\nupdated: \"2026-01-02T03:04:05Z\"\nphase: \"analysis\"\nproject_id: \"01-shop\"\n\
         mood: \"sunny\"\n---\n\n# Resume Context\n",
    )
    .unwrap();
    let assert = cli::cli(dir.path(), &["validate"]).success();
    let said = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
    assert!(
        said.contains(":2:1: info: updated: read as the last update"),
        "{said}"
    );
    assert!(
        said.contains(":3:1: info: phase: read as the current phase"),
        "{said}"
    );
    assert!(!said.contains("unknown field `updated`"), "{said}");
    assert!(!said.contains("unknown field `phase`"), "{said}");
    assert!(said.contains("mood: unknown field `mood`"), "{said}");
}
