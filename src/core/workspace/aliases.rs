//! The names a project's owner uses for it besides its id: the Jerry project
//! reference (`PROJ-010`) and project folder (`PROJ-010-cyber-ops`), the
//! workflow's folder, a Nexus project or build folder and its `project_id` /
//! `build_id`. Derived from the path and the file, never guessed.

use crate::core::model::{Project, ProjectKind};

/// Every name of `project`, its id first, without repeats (ignoring case).
pub fn aliases(project: &Project) -> Vec<String> {
    let mut names = vec![project.id.clone()];
    names.extend(project.project_ref.clone());
    let folders: Vec<&str> = project.dir.split('/').filter(|s| !s.is_empty()).collect();
    match project.kind {
        ProjectKind::Jerry => {
            for folder in &folders {
                if let Some(reference) = jerry_reference(folder) {
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

/// `PROJ-010` of a folder named `PROJ-010` or `PROJ-010-cyber-ops`.
fn jerry_reference(folder: &str) -> Option<&str> {
    let rest = folder.strip_prefix("PROJ-")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest.as_bytes().get(digits);
    (digits > 0 && matches!(after, None | Some(b'-'))).then(|| folder.get(..5 + digits))?
}

/// The innermost folder that is not a generic `orchestration` folder.
fn workflow_folder(folders: &[&str]) -> Option<String> {
    folders
        .iter()
        .rev()
        .find(|f| !f.eq_ignore_ascii_case("orchestration"))
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
        assert_eq!(jerry_reference("PROJ-0x"), None);
        assert_eq!(jerry_reference("PROJ-12"), Some("PROJ-12"));
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
