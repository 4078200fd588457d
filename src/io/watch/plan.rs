//! Which folders the live refresh watches.
//!
//! Jerry allows an `ORCHESTRATION.yaml` at any depth, so the only way to see every
//! state file the moment it is written would be a watch on every folder of the
//! workspace: one inotify watch each (notify's recursive mode adds one per folder,
//! `.git`, `target` and `node_modules` included), against a per-user limit that is
//! 8192 on kernels before 5.11 and shared with every editor's watcher; a workspace
//! holding repositories has tens of thousands of folders. Instead this watches:
//!
//! - each loaded project's folder, recursively (tens of folders, not thousands),
//!   and the folders with its checkpoints;
//! - every folder a state file was read from during the session, even after the
//!   project is gone: a state file deleted and written again (a `git checkout`, an
//!   editor's save-as, the hook writing it anew) comes back by itself;
//! - the places where new state files appear, as discovery found them
//!   (`discover::is_state_folder`: `projects/` and its project folders, every
//!   `orchestration/` and its workflow folders, `.jerry/checkpoints/`, the Nexus
//!   areas, project folders and `01-planning/`), whether or not one is there yet;
//! - every folder between those and the root, flat, so that a folder made or made
//!   again under them is seen, and watched after the load that change asks for.
//!
//! That is a few watches per project besides its own folder's, not one per folder
//! of the tree. A state file written anywhere else (an `ORCHESTRATION.yaml` in a
//! new, unusual place) is found by the next full load: `r`, or any change the
//! watcher sees that it cannot pin to one project.

use crate::core::normalize::nexus::decisions::RESOURCES_DIR;
use std::collections::BTreeSet;

use super::WatchDir;
use crate::core::model::Workspace;

/// The folders to watch, load after load: [`plan`] for the workspace loaded, the
/// state folders its discovery found, and the folders of every state file read
/// since the session began.
#[derive(Debug, Clone, Default)]
pub struct Planner {
    state_file_folders: BTreeSet<String>,
}

impl Planner {
    /// The folders to watch after a load of `workspace`, whose discovery found
    /// `state_folders` (empty for a load that did not walk the tree).
    pub fn plan(&mut self, workspace: &Workspace, state_folders: &[String]) -> Vec<WatchDir> {
        self.state_file_folders
            .extend(workspace.projects.iter().map(|p| parent(&p.source)));
        plan(
            workspace,
            self.state_file_folders.iter().chain(state_folders),
        )
    }
}

/// The folders to watch for `workspace`: each project's folder recursively, the
/// folders with its checkpoints, the precompact and context state, the folders
/// `also` names, and every folder between those and the root, flat.
pub fn plan<'a>(
    workspace: &Workspace,
    also: impl IntoIterator<Item = &'a String>,
) -> Vec<WatchDir> {
    let mut recursive = BTreeSet::new();
    let mut flat = BTreeSet::from([String::new()]);
    for dir in also {
        add_chain(&mut flat, dir);
    }
    let mut bases = BTreeSet::new();
    for project in &workspace.projects {
        // The live context records, watched even before the first is written.
        let base = crate::core::launch::launch_base(project);
        if !bases.contains(&base) {
            add_chain(
                &mut flat,
                &crate::core::launch::join(&base, ".jerry/context-window"),
            );
            bases.insert(base);
        }
        let dir = parent(&project.source);
        add_chain(&mut flat, &dir);
        // The root itself is watched flat already.
        if !dir.is_empty() {
            recursive.insert(dir);
        }
        for cp in &project.checkpoints {
            add_chain(&mut flat, &parent(&cp.path));
        }
        // A Nexus build's decisions, beside its manifest's folder.
        if project.kind == crate::core::model::ProjectKind::Nexus {
            add_chain(
                &mut flat,
                &crate::core::launch::join(&project.dir, RESOURCES_DIR),
            );
        }
    }
    for cp in &workspace.unassigned_checkpoints {
        add_chain(&mut flat, &parent(&cp.path));
    }
    if let Some(pre) = &workspace.precompact {
        add_chain(&mut flat, &parent(&pre.path));
    }
    for state in &workspace.context_states {
        // Context state outside the root (`~/.jerry/local`) is not watched.
        if !state.path.starts_with('/') && !state.path.starts_with("..") {
            add_chain(&mut flat, &parent(&state.path));
        }
    }
    // A folder under a recursively watched one needs no watch of its own.
    // By the folder's ancestors, not by every folder of the set: at 10,000 projects
    // the pairwise test took minutes.
    let under = |dir: &str, set: &BTreeSet<String>| {
        dir.match_indices('/').any(|(i, _)| set.contains(&dir[..i]))
    };
    let nested: Vec<String> = recursive
        .iter()
        .filter(|d| under(d, &recursive))
        .cloned()
        .collect();
    for d in nested {
        recursive.remove(&d);
    }
    let covered = |dir: &str| recursive.contains(dir) || under(dir, &recursive);
    let mut out: Vec<WatchDir> = recursive
        .iter()
        .map(|rel| WatchDir {
            rel: rel.clone(),
            recursive: true,
        })
        .collect();
    out.extend(
        flat.into_iter()
            .filter(|d| !covered(d))
            .map(|rel| WatchDir {
                rel,
                recursive: false,
            }),
    );
    out.sort();
    out
}

fn parent(rel: &str) -> String {
    match rel.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => String::new(),
    }
}

/// `a/b/c` adds `a`, `a/b` and `a/b/c`.
fn add_chain(set: &mut BTreeSet<String>, dir: &str) {
    let mut acc = String::new();
    for part in dir.split('/').filter(|p| !p.is_empty()) {
        if !acc.is_empty() {
            acc.push('/');
        }
        acc.push_str(part);
        set.insert(acc.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::watch::tests::ws;

    #[test]
    fn plan_watches_project_folders_recursively_and_their_parents_flat() {
        let plan = plan(
            &ws(&[
                "projects/PROJ-001/ORCHESTRATION.yaml",
                "projects/PROJ-001/sub/ORCHESTRATION.yaml",
                "02-projects/04-x/01-planning/resume-context.md",
            ]),
            &[],
        );
        let show: Vec<String> = plan
            .iter()
            .map(|d| format!("{}{}", d.rel, if d.recursive { " (r)" } else { "" }))
            .collect();
        assert_eq!(
            show,
            [
                "",
                ".jerry",
                ".jerry/context-window",
                "02-projects",
                "02-projects/04-x",
                "02-projects/04-x/01-planning (r)",
                "projects",
                "projects/PROJ-001 (r)",
            ]
        );
    }

    #[test]
    fn a_nexus_builds_decisions_folder_is_watched() {
        let mut workspace = ws(&["02-projects/04-x/01-planning/resume-context.md"]);
        for project in &mut workspace.projects {
            project.kind = crate::core::model::ProjectKind::Nexus;
            project.dir = "02-projects/04-x".into();
        }
        let shown = show(&plan(&workspace, &[]));
        assert!(
            shown.contains(&"02-projects/04-x/02-resources".to_string()),
            "{shown:?}"
        );
    }

    #[test]
    fn a_project_at_the_root_does_not_watch_the_whole_tree() {
        let plan = plan(&ws(&["ORCHESTRATION.yaml"]), &[]);
        assert_eq!(show(&plan), ["", ".jerry", ".jerry/context-window"]);
    }

    fn show(plan: &[WatchDir]) -> Vec<String> {
        plan.iter()
            .map(|d| format!("{}{}", d.rel, if d.recursive { " (r)" } else { "" }))
            .collect()
    }

    #[test]
    fn the_folder_of_a_project_gone_from_the_workspace_stays_watched() {
        let mut planner = Planner::default();
        let both = ws(&[
            "projects/A/ORCHESTRATION.yaml",
            "projects/B/wf/ORCHESTRATION.yaml",
        ]);
        assert_eq!(
            show(&planner.plan(&both, &[])),
            [
                "",
                ".jerry",
                ".jerry/context-window",
                "projects",
                "projects/A (r)",
                "projects/B",
                "projects/B/wf (r)"
            ]
        );
        let without_b = ws(&["projects/A/ORCHESTRATION.yaml"]);
        assert_eq!(
            show(&planner.plan(&without_b, &[])),
            [
                "",
                ".jerry",
                ".jerry/context-window",
                "projects",
                "projects/A (r)",
                "projects/B",
                "projects/B/wf"
            ],
            "B's folder and those above it, flat"
        );
        assert_eq!(
            show(&plan(&without_b, &[])),
            [
                "",
                ".jerry",
                ".jerry/context-window",
                "projects",
                "projects/A (r)"
            ],
            "what the workspace alone asks for"
        );
    }

    #[test]
    fn the_state_folders_discovery_found_are_watched_flat_with_their_parents() {
        let mut planner = Planner::default();
        let found = [
            "projects/A".to_string(),
            "projects/A/orchestration".to_string(),
            "projects/C".to_string(),
            "x/02-projects/10-new/01-planning".to_string(),
        ];
        assert_eq!(
            show(&planner.plan(&ws(&["projects/A/ORCHESTRATION.yaml"]), &found)),
            [
                "",
                ".jerry",
                ".jerry/context-window",
                "projects",
                "projects/A (r)",
                "projects/C",
                "x",
                "x/02-projects",
                "x/02-projects/10-new",
                "x/02-projects/10-new/01-planning",
            ]
        );
    }
}
