//! State files in places where no live work is kept: test fixtures are excluded
//! (shown by `list --all`, with the reason), archived copies are listed with a
//! warning, and neither is ever chosen as the active project by the hooks. The
//! rules are written down in docs/formats.md ("Which files are projects").

pub use crate::core::model::Excluded;

/// Folder names that hold test data.
const FIXTURE_FOLDERS: &[&str] = &[
    "test",
    "tests",
    "__tests__",
    "fixture",
    "fixtures",
    "__fixtures__",
    "test_data",
    "test-data",
    "testdata",
    "test_fixtures",
];

/// Folder names that hold archived copies. Nexus's own archive areas
/// (`05-archived/`, `02-builds/complete/`) are expected places, not strays.
const ARCHIVE_FOLDERS: &[&str] = &["archive", "archives", "archived", ".archive"];

/// Where a state file sits, judged by the folders above it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placement {
    /// Where live work is kept.
    Expected,
    /// Listed, with this warning; never the hooks' active project.
    Archived(String),
    /// Not listed; `list --all` shows it with this reason.
    Excluded(String),
}

/// Judges the root-relative path `rel` of a state file by its folders (the file
/// name itself is not looked at: `_resume.md` is a manifest's real name).
pub fn placement(rel: &str) -> Placement {
    let folders: Vec<&str> = rel.split('/').collect();
    let folders = folders.split_last().map_or(&[][..], |(_, f)| f);
    if let Some(folder) = folders
        .iter()
        .find(|f| FIXTURE_FOLDERS.contains(&f.to_ascii_lowercase().as_str()))
    {
        return Placement::Excluded(format!(
            "under a test-fixture folder ({folder}/): test data, not a project"
        ));
    }
    if let Some(folder) = folders.iter().find(|f| is_archive_folder(f)) {
        return Placement::Archived(format!(
            "in an archived folder ({folder}/): listed, but never chosen as the active project by the hooks"
        ));
    }
    Placement::Expected
}

/// `archive/`, `_old-build/`, `_archive/`: archived by name. (`05-archived` and
/// `02-builds/complete` are Nexus's own, judged as finished elsewhere.)
pub fn is_archive_folder(name: &str) -> bool {
    name.starts_with('_') || ARCHIVE_FOLDERS.contains(&name.to_ascii_lowercase().as_str())
}

/// Whether the hooks may choose a project whose state file is at `rel` as the
/// active one: not archived by any folder above it (including Nexus's archive
/// areas and templates), not a fixture.
pub fn may_be_active(rel: &str) -> bool {
    if placement(rel) != Placement::Expected {
        return false;
    }
    let folders: Vec<&str> = rel.split('/').collect();
    let folders = folders.split_last().map_or(&[][..], |(_, f)| f);
    !folders
        .iter()
        .any(|f| matches!(*f, "05-archived" | "templates"))
        && !folders.windows(2).any(|w| w == ["02-builds", "complete"])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_are_excluded_archives_warned_the_rest_expected() {
        for rel in [
            "tests/fixtures/ORCHESTRATION.yaml",
            "02-projects/24-x/03-working/test_data/p/01-planning/resume-context.md",
            "src/__fixtures__/w/ORCHESTRATION.yaml",
            "Test/ORCHESTRATION.yaml",
        ] {
            assert!(
                matches!(placement(rel), Placement::Excluded(_)),
                "{rel}: {:?}",
                placement(rel)
            );
        }
        for rel in [
            "docs/archive/PROJ-006/ORCHESTRATION.yaml",
            "02-builds/_old-build/01-planning/resume-context.md",
            "projects/_archive/wf/ORCHESTRATION.yaml",
        ] {
            assert!(matches!(placement(rel), Placement::Archived(_)), "{rel}");
            assert!(!may_be_active(rel), "{rel}");
        }
        for rel in [
            "ORCHESTRATION.yaml",
            "projects/PROJ-001/orchestration/wf/ORCHESTRATION.yaml",
            "02-projects/07-x/_resume.md",
            "02-builds/active/03-tests-for-x/01-planning/resume-context.md",
            "05-archived/07-x/01-planning/resume-context.md",
        ] {
            assert_eq!(placement(rel), Placement::Expected, "{rel}");
        }
        assert!(may_be_active("02-projects/07-x/_resume.md"));
        assert!(!may_be_active(
            "05-archived/07-x/01-planning/resume-context.md"
        ));
        assert!(!may_be_active(
            "02-builds/complete/07-x/01-planning/resume-context.md"
        ));
        assert!(may_be_active(
            "02-builds/active/07-x/01-planning/resume-context.md"
        ));
    }
}
