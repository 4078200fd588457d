//! Folders where a state file appears when a project is made: the live refresh
//! watches these (see `io::watch::plan`), so that a project written into one is
//! seen without a reload by hand, whether or not a state file is there yet.

/// Whether the folder `rel` (root-relative, `/` separators) is a place where new
/// state files conventionally appear:
///
/// - Jerry: `projects/` and each project folder `projects/<PROJ>/`; every
///   `orchestration/` folder and each workflow folder in it (`ORCHESTRATION.yaml`
///   may be at any depth, but these are where workflows are made);
/// - checkpoints: `.jerry/` and `.jerry/checkpoints/`;
/// - Nexus: the areas (`02-projects/`, `05-archived/`, `02-builds/`,
///   `02-builds/{active,complete}/`), each project folder in them and its
///   `01-planning/`.
pub fn is_state_folder(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty()).collect();
    let Some(last) = parts.len().checked_sub(1) else {
        return false;
    };
    let name = |back: usize| last.checked_sub(back).and_then(|i| parts.get(i)).copied();
    let area = |back: usize| {
        last.checked_sub(back)
            .is_some_and(|i| is_nexus_area(&parts, i))
    };
    matches!(name(0), Some("projects" | "orchestration" | ".jerry"))
        || matches!(name(1), Some("projects" | "orchestration"))
        || (name(0) == Some("checkpoints") && name(1) == Some(".jerry"))
        || area(0)
        || area(1)
        || (name(0) == Some("01-planning") && area(2))
}

/// Whether `parts[index]` names a Nexus area: `02-projects`, `05-archived`,
/// `02-builds`, or `active`/`complete` inside `02-builds`.
pub fn is_nexus_area(parts: &[&str], index: usize) -> bool {
    match parts.get(index) {
        Some(&("02-projects" | "05-archived" | "02-builds")) => true,
        Some(&("active" | "complete")) => index
            .checked_sub(1)
            .and_then(|i| parts.get(i))
            .is_some_and(|p| *p == "02-builds"),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_state_folder;

    #[test]
    fn the_places_projects_are_made_in() {
        for rel in [
            "projects",
            "projects/PROJ-008-new",
            "work/projects/PROJ-001",
            "projects/PROJ-001/orchestration",
            "projects/PROJ-001/work/EPIC-003/orchestration",
            "projects/PROJ-001/orchestration/wf-20260301-001",
            ".jerry",
            ".jerry/checkpoints",
            "repo/.jerry/checkpoints",
            "02-projects",
            "02-projects/10-new",
            "02-projects/10-new/01-planning",
            "05-archived/01-old",
            "02-builds",
            "02-builds/active",
            "02-builds/active/03-x",
            "02-builds/active/03-x/01-planning",
            "02-builds/03-flat/01-planning",
        ] {
            assert!(is_state_folder(rel), "{rel}");
        }
    }

    #[test]
    fn not_every_folder() {
        for rel in [
            "",
            "src",
            "projects/PROJ-001/research",
            "projects/PROJ-001/orchestration/wf/quality-gates",
            "02-projects/10-new/02-resources",
            "02-projects/10-new/01-planning/drafts",
            "active/03-x",
            "02-builds/active/03-x/02-resources",
            ".jerry/local",
            "checkpoints",
        ] {
            assert!(!is_state_folder(rel), "{rel}");
        }
    }
}
