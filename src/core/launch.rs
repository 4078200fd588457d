//! Where Claude Code starts for a project, and the shell command that starts it
//! with the resumption prompt: shared by `resume-tui prompt --cd` and the dashboard.

use crate::core::model::{ContextState, Project, ProjectKind, Workspace};

/// Where the hooks record the fill, relative to the folder Claude Code runs in.
pub const MONITOR_RECORD: &str = ".jerry/context-monitor-state.json";

/// The folder Claude Code should start in, relative to the workspace root: the
/// repository holding `projects/` for Jerry (listed paths are relative to it), the
/// folder holding `02-projects/`, `02-builds/` or `05-archived/` for Nexus, else
/// the workspace root itself (`""`).
pub fn launch_base(project: &Project) -> String {
    let markers: &[&str] = match project.kind {
        ProjectKind::Jerry => &["projects"],
        ProjectKind::Nexus => &["02-projects", "02-builds", "05-archived"],
    };
    let parts: Vec<&str> = project.dir.split('/').collect();
    parts
        .iter()
        .position(|p| markers.contains(p))
        .and_then(|i| parts.get(..i))
        .map(|p| p.join("/"))
        .unwrap_or_default()
}

/// The fill record the hooks keep for the Claude Code session running on
/// `project`, if it holds a fill: `.jerry/context-monitor-state.json` in the folder
/// Claude Code runs in, when its session works on the project (`session_works_on`).
/// Several projects share a folder. The dashboard's live gauge, `show` and
/// `monitor` read this one record.
pub fn live_fill_record<'a>(
    workspace: &'a Workspace,
    project: &Project,
) -> Option<&'a ContextState> {
    let path = join(&launch_base(project), MONITOR_RECORD);
    workspace.context_states.iter().find(|s| {
        s.path == path
            && s.fill.is_some_and(f64::is_finite)
            && s.session_id
                .as_deref()
                .is_some_and(|id| session_works_on(workspace, project, id))
    })
}

/// Whether session `id` works on `project`: the project records it (a
/// checkpoint's `session_id`, a Nexus manifest's `session_ids`), or the hooks'
/// record in the folder Claude Code runs in names the project for that session
/// (`project`: the hook found the session working in it before any checkpoint).
pub fn session_works_on(workspace: &Workspace, project: &Project, id: &str) -> bool {
    if crate::core::workspace::works_on(project, id) {
        return true;
    }
    let base = launch_base(project);
    let path = join(&base, MONITOR_RECORD);
    workspace.context_states.iter().any(|s| {
        s.path == path
            && s.session_id.as_deref() == Some(id)
            && s.other
                .get("project")
                .and_then(|v| v.as_str())
                .is_some_and(|rel| join(&base, rel) == project.source)
    })
}

/// `root/rel`, written with `/`; `rel` empty or `.` is the root.
pub fn join(root: &str, rel: &str) -> String {
    match (root.trim_end_matches('/'), rel.trim_matches('/')) {
        (root, "" | ".") => root.to_string(),
        ("", rel) => rel.to_string(),
        (root, rel) => format!("{root}/{rel}"),
    }
}

/// `cd '<dir>' && claude '<prompt>'`, one line plus the prompt's own lines,
/// quoted for a POSIX shell.
pub fn command(dir: &str, prompt: &str) -> String {
    format!(
        "cd {} && claude {}\n",
        shell_quote(dir),
        shell_quote(prompt.trim_end())
    )
}

/// POSIX single quoting: `it's` → `'it'\''s'`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(kind: ProjectKind, dir: &str) -> Project {
        let mut project = crate::core::normalize::jerry::normalize_orchestration(
            &format!("{dir}/ORCHESTRATION.yaml"),
            dir,
            "workflow:\n  id: w\n",
        );
        project.kind = kind;
        project
    }

    #[test]
    fn the_launch_folder_is_above_the_projects_folder() {
        let jerry = project(
            ProjectKind::Jerry,
            "repo/projects/PROJ-002/orchestration/wf-001",
        );
        assert_eq!(launch_base(&jerry), "repo");
        let top = project(ProjectKind::Jerry, "projects/PROJ-002/orchestration/wf");
        assert_eq!(launch_base(&top), "");
        let nexus = project(ProjectKind::Nexus, "ws/02-builds/active/07-x");
        assert_eq!(launch_base(&nexus), "ws");
        let loose = project(ProjectKind::Jerry, "somewhere/else");
        assert_eq!(launch_base(&loose), "");
        assert_eq!(join("/w/", launch_base(&jerry).as_str()), "/w/repo");
        assert_eq!(join("/w", ""), "/w");
    }

    #[test]
    fn shell_quoting_survives_quotes_and_newlines() {
        assert_eq!(shell_quote("plain"), "'plain'");
        assert_eq!(shell_quote("it's\nok"), "'it'\\''s\nok'");
        assert_eq!(
            command("/w/it's", "go\n\n"),
            "cd '/w/it'\\''s' && claude 'go'\n"
        );
    }
}
