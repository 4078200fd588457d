//! The names a project's owner uses for it besides its id: the Jerry project
//! reference (`PROJ-010`) and project folder (`PROJ-010-cyber-ops`), every
//! work-item folder the workflow lies in (`EPIC-001-…`, `FEAT-023-showcase-video`,
//! `EN-929-…`, each also by its bare id `FEAT-023`), the workflow's folder, a
//! Nexus project or build folder and its `project_id` / `build_id`. Derived from
//! the path and the file, never guessed.

use crate::core::model::{Project, ProjectKind};

/// Every name of `project`, its id first, without repeats (ignoring case).
pub fn aliases(project: &Project) -> Vec<String> {
    let mut names = vec![project.id.clone()];
    names.extend(project.project_ref.clone());
    let folders: Vec<&str> = project.dir.split('/').filter(|s| !s.is_empty()).collect();
    match project.kind {
        ProjectKind::Jerry => {
            for folder in &folders {
                if let Some(reference) = work_item_id(folder) {
                    names.push(reference.to_string());
                    names.push((*folder).to_string());
                }
            }
            names.extend(workflow_folder(&folders));
        }
        ProjectKind::Nexus => {
            names.extend(nexus_folder(&folders));
            if let Some(m) = &project.manifest {
                names.extend(m.project_id.clone());
                names.extend(m.build_id.clone());
            }
        }
    }
    let mut seen: Vec<String> = Vec::new();
    names.retain(|name| {
        let lower = name.trim().to_lowercase();
        let fresh = !lower.is_empty() && !seen.contains(&lower);
        seen.push(lower);
        fresh
    });
    names
}

/// The work-item id a folder is named by, as Jerry names its work items:
/// upper-case letters, `-`, digits, then the end or `-words` (`PROJ-010` of
/// `PROJ-010-cyber-ops`, `FEAT-023` of `FEAT-023-showcase-video`, `EN-929`).
fn work_item_id(folder: &str) -> Option<&str> {
    let letters = folder.bytes().take_while(u8::is_ascii_uppercase).count();
    let rest = folder.get(letters..)?.strip_prefix('-')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest.as_bytes().get(digits);
    (letters > 0 && digits > 0 && matches!(after, None | Some(b'-')))
        .then(|| folder.get(..letters + 1 + digits))?
}

/// Folder names that say what a folder holds, not which workflow it is.
const GENERIC_FOLDERS: [&str; 6] = [
    "orchestration",
    "orchestrations",
    "plan",
    "plans",
    "workflow",
    "workflows",
];

/// Whether a folder's name is a generic word (`orchestration/`, `plans/`), so
/// that the workflow in it is named by its file or the folder above.
pub fn is_generic_folder(name: &str) -> bool {
    GENERIC_FOLDERS.contains(&name.to_ascii_lowercase().as_str())
}

/// The innermost folder whose name is not a generic word.
fn workflow_folder(folders: &[&str]) -> Option<String> {
    folders
        .iter()
        .rev()
        .find(|f| !is_generic_folder(f))
        .map(|f| (*f).to_string())
}

/// The project or build folder: the one holding `01-planning`, else the last.
fn nexus_folder(folders: &[&str]) -> Option<String> {
    let planning = folders.iter().position(|f| *f == "01-planning");
    let index = match planning {
        Some(0) => return None,
        Some(i) => i - 1,
        None => folders.len().checked_sub(1)?,
    };
    folders.get(index).map(|f| (*f).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::NexusManifest;
    use crate::core::normalize::jerry::normalize_orchestration;

    #[test]
    fn a_jerry_workflow_is_named_by_its_project_and_folders() {
        let p = normalize_orchestration(
            "projects/PROJ-010-cyber-ops/orchestration/ops-20260222-001/ORCHESTRATION.yaml",
            "projects/PROJ-010-cyber-ops/orchestration/ops-20260222-001",
            "workflow: {id: cyber-ops-20260222-001, project_id: PROJ-010}\n",
        );
        assert_eq!(
            aliases(&p),
            [
                "cyber-ops-20260222-001",
                "PROJ-010",
                "PROJ-010-cyber-ops",
                "ops-20260222-001"
            ]
        );
        assert_eq!(work_item_id("PROJ-0x"), None);
        assert_eq!(work_item_id("PROJ-12"), Some("PROJ-12"));
        assert_eq!(work_item_id("FEAT-023-showcase-video"), Some("FEAT-023"));
        assert_eq!(work_item_id("EN-929"), Some("EN-929"));
        for not_an_item in ["feat-023", "FEAT-", "-12", "FEAT-12x", "02-builds", ""] {
            assert_eq!(work_item_id(not_an_item), None, "{not_an_item}");
        }
    }

    #[test]
    fn a_workflow_is_named_by_every_work_item_folder_it_lies_in() {
        let p = normalize_orchestration(
            "p/PROJ-001-x/work/EPIC-001-y/FEAT-023-video/orchestration/f23/ORCHESTRATION.yaml",
            "p/PROJ-001-x/work/EPIC-001-y/FEAT-023-video/orchestration/f23",
            "workflow: {id: f23-001}\n",
        );
        assert_eq!(
            aliases(&p),
            [
                "f23-001",
                "PROJ-001",
                "PROJ-001-x",
                "EPIC-001",
                "EPIC-001-y",
                "FEAT-023",
                "FEAT-023-video",
                "f23"
            ]
        );
    }

    #[test]
    fn a_generic_folder_never_names_the_workflow() {
        let p = normalize_orchestration(
            "p/EPIC-001-t/plans/ORCHESTRATION.yaml",
            "p/EPIC-001-t/plans",
            "workflow: {id: w}\n",
        );
        assert_eq!(aliases(&p).last().map(String::as_str), Some("EPIC-001-t"));
        assert!(is_generic_folder("Plans") && !is_generic_folder("plans-v2"));
    }

    #[test]
    fn a_nexus_project_is_named_by_its_folder_and_ids() {
        let mut p = normalize_orchestration("x/O.yaml", "x", "workflow: {id: w}\n");
        p.kind = ProjectKind::Nexus;
        p.id = "onboarding".into();
        p.dir = "02-projects/05-onboarding-redesign/01-planning".into();
        p.manifest = Some(NexusManifest {
            project_id: Some("onboarding".into()),
            build_id: Some("b-7".into()),
            ..NexusManifest::default()
        });
        assert_eq!(aliases(&p), ["onboarding", "05-onboarding-redesign", "b-7"]);
    }
}
