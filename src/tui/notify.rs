//! What a live refresh tells the operator: the rows whose files changed are
//! highlighted for a moment; a project turning CRITICAL and a compaction (a new
//! checkpoint) get an expiring status line and, when `ui.notify` asks for one, a
//! terminal notification (bell, OSC 9 or OSC 777).

use std::collections::HashSet;

use crate::config::Notify;
use crate::core::model::{Project, Shape, Workspace};
use crate::core::staleness::StalenessLevel;
use crate::core::time::Timestamp;

use super::effect::Effect;
use super::loader::StateHashes;
use super::model::{Model, StatusKind};

/// Something a refresh calls the operator about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// The project (by id) turned CRITICAL.
    TurnedCritical(String),
    /// A new checkpoint, in a project or tied to none.
    Compaction {
        project: Option<String>,
        checkpoint: String,
    },
    /// The project left the list: its state file (`source`) went.
    LeftTheList { id: String, source: String },
}

impl Event {
    /// The event in words: `compaction in PROJECT: cx-004`, `compaction: cx-004`
    /// for one tied to no project, `ID turned CRITICAL`, `ID left the list: …`.
    pub fn text(&self) -> String {
        match self {
            Event::TurnedCritical(id) => format!("{id} turned CRITICAL"),
            Event::Compaction {
                project: Some(id),
                checkpoint,
            } => format!("compaction in {id}: {checkpoint}"),
            Event::Compaction {
                project: None,
                checkpoint,
            } => format!("compaction: {checkpoint}"),
            Event::LeftTheList { id, source } => {
                format!("{id} left the list: {source} was deleted or moved")
            }
        }
    }

    pub fn compaction(project: Option<&str>, checkpoint: &str) -> Event {
        Event::Compaction {
            project: project.map(str::to_string),
            checkpoint: checkpoint.to_string(),
        }
    }
}

/// Seconds a changed row stays highlighted.
pub const HIGHLIGHT_SECONDS: i64 = 3;

/// What changed between two readings of the workspace.
#[derive(Debug, Default, PartialEq)]
pub struct Changes {
    /// Ids of projects whose state file or checkpoints changed.
    pub rows: Vec<String>,
    /// Things to call the operator about.
    pub events: Vec<Event>,
}

/// Compares a project before and after a refresh (`hash_changed`: its state file's
/// bytes differ).
pub fn project_changes(before: &Project, after: &Project, hash_changed: bool, out: &mut Changes) {
    project_changes_seen(before, after, hash_changed, &HashSet::new(), out);
}

/// Every checkpoint file the workspace held (a project's or tied to none).
pub fn checkpoint_paths(workspace: &Workspace) -> HashSet<String> {
    let held = workspace.projects.iter().flat_map(|p| &p.checkpoints);
    held.chain(&workspace.unassigned_checkpoints)
        .map(|c| c.path.clone())
        .collect()
}

/// [`project_changes`], where a checkpoint whose file was already `seen` in the
/// workspace (held by another project, or by none, and now claimed) is no new
/// compaction.
pub fn project_changes_seen(
    before: &Project,
    after: &Project,
    hash_changed: bool,
    seen: &HashSet<String>,
    out: &mut Changes,
) {
    let new_checkpoints: Vec<&str> = after
        .checkpoints
        .iter()
        .filter(|cp| !before.checkpoints.iter().any(|b| b.id == cp.id))
        .filter(|cp| !seen.contains(cp.path.as_str()))
        .map(|cp| cp.id.as_str())
        .collect();
    if hash_changed || !new_checkpoints.is_empty() || before.checkpoints != after.checkpoints {
        out.rows.push(after.id.clone());
    }
    // A file that never read had no state to turn from: mended, it is not news.
    let was_read = before.shape != Shape::Unreadable;
    if was_read
        && after.staleness.level == StalenessLevel::Critical
        && before.staleness.level != StalenessLevel::Critical
    {
        out.events.push(Event::TurnedCritical(after.id.clone()));
    }
    for id in new_checkpoints {
        out.events.push(Event::compaction(Some(&after.id), id));
    }
}

/// Compares two whole workspaces, project by project (by state file).
pub fn workspace_changes(
    before: &Workspace,
    before_hashes: &StateHashes,
    after: &Workspace,
    after_hashes: &StateHashes,
) -> Changes {
    let mut out = Changes::default();
    let seen = checkpoint_paths(before);
    let by_source: std::collections::HashMap<&str, &Project> = before
        .projects
        .iter()
        .map(|p| (p.source.as_str(), p))
        .collect();
    for project in &after.projects {
        match by_source.get(project.source.as_str()).copied() {
            Some(old) => {
                let changed =
                    before_hashes.get(&project.source) != after_hashes.get(&project.source);
                project_changes_seen(old, project, changed, &seen, &mut out);
            }
            None => out.rows.push(project.id.clone()),
        }
    }
    // A project whose file went (its folder deleted or moved) leaves the list:
    // said, so a row does not vanish in silence.
    let after_sources: std::collections::HashSet<&str> =
        after.projects.iter().map(|p| p.source.as_str()).collect();
    for gone in before
        .projects
        .iter()
        .filter(|p| !after_sources.contains(p.source.as_str()))
    {
        out.events.push(Event::LeftTheList {
            id: gone.id.clone(),
            source: gone.source.clone(),
        });
    }
    // A checkpoint a project held before (its folder removed, say) is not news.
    let known = |path: &str| {
        before
            .projects
            .iter()
            .flat_map(|p| &p.checkpoints)
            .chain(&before.unassigned_checkpoints)
            .any(|b| b.path == path)
    };
    for cp in &after.unassigned_checkpoints {
        if !known(&cp.path) {
            out.events.push(Event::compaction(None, &cp.id));
        }
    }
    out
}

/// Events that are all new checkpoints are a flag (`⚑`: something waits for the
/// operator); any other (a project turning CRITICAL, leaving the list) an error.
fn kind_of(events: &[Event]) -> StatusKind {
    if events.iter().all(|e| matches!(e, Event::Compaction { .. })) {
        StatusKind::Flag
    } else {
        StatusKind::Error
    }
}

/// Highlights the changed rows and calls the operator about the events.
pub fn announce(model: &mut Model, changes: Changes) -> Vec<Effect> {
    let until = Timestamp(model.now.0.saturating_add(HIGHLIGHT_SECONDS));
    model.highlight.retain(|(id, _)| !changes.rows.contains(id));
    model
        .highlight
        .extend(changes.rows.into_iter().map(|id| (id, until)));
    let Some(first) = changes.events.first() else {
        return Vec::new();
    };
    let more = match changes.events.len() - 1 {
        0 => String::new(),
        n => format!(" (+{n} more)"),
    };
    let text = format!("{}{more}", first.text());
    model.report_status(kind_of(&changes.events), text.clone());
    let bytes = terminal_bytes(model.config.ui.notify, &text, model.in_tmux);
    if bytes.is_empty() {
        Vec::new()
    } else {
        vec![Effect::WriteTerminal(bytes)]
    }
}

/// The bytes that make the terminal notify: nothing for `off`. The text is
/// resume-tui's own (ids are cleaned of control characters first). Inside tmux an
/// OSC 9 or 777 goes through tmux's passthrough (`ESC P tmux; … ESC \`, every ESC
/// of the sequence doubled), which tmux hands to the outer terminal when
/// `allow-passthrough` is on; tmux itself would swallow the bare sequence. A bell
/// needs no wrapping: tmux passes it on by its own `bell-action`.
pub fn terminal_bytes(notify: Notify, text: &str, in_tmux: bool) -> Vec<u8> {
    let text: String = text
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == ';' { ',' } else { c })
        .collect();
    let osc = match notify {
        Notify::Off => return Vec::new(),
        Notify::Bell => return b"\x07".to_vec(),
        Notify::Osc9 => format!("\x1b]9;resume-tui: {text}\x07"),
        Notify::Osc777 => format!("\x1b]777;notify;resume-tui;{text}\x07"),
    };
    if in_tmux {
        tmux_passthrough(&osc)
    } else {
        osc.into_bytes()
    }
}

/// `sequence` wrapped for tmux's passthrough: `ESC P tmux;`, the sequence with each
/// ESC doubled, `ESC \`.
pub fn tmux_passthrough(sequence: &str) -> Vec<u8> {
    let mut out = b"\x1bPtmux;".to_vec();
    for byte in sequence.bytes() {
        if byte == 0x1b {
            out.push(0x1b);
        }
        out.push(byte);
    }
    out.extend_from_slice(b"\x1b\\");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_a_project_claims_now_is_no_new_compaction() {
        let now = crate::core::time::Timestamp(1_771_331_696);
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), now).unwrap();
        let env = crate::io::env::Env::default();
        let config = crate::config::Config::default();
        let after = crate::io::load::load_workspace(dir.path(), &env, now, &config);
        // Before, docs' cx-004 was tied to no project (its file did not read, say).
        let mut before = after.clone();
        let docs = before
            .projects
            .iter_mut()
            .find(|p| p.checkpoints.iter().any(|c| c.id == "cx-004"))
            .unwrap();
        let at = docs
            .checkpoints
            .iter()
            .position(|c| c.id == "cx-004")
            .unwrap();
        let cp = docs.checkpoints.remove(at);
        before.unassigned_checkpoints.push(cp);
        let hashes = StateHashes::default();
        let changes = workspace_changes(&before, &hashes, &after, &hashes);
        assert!(
            !changes.events.iter().any(|e| e.text().contains("cx-004")),
            "{:?}",
            changes.events
        );
        // Not there before at all: a compaction.
        before.unassigned_checkpoints.clear();
        let changes = workspace_changes(&before, &hashes, &after, &hashes);
        let texts: Vec<String> = changes.events.iter().map(Event::text).collect();
        assert_eq!(texts, ["compaction in docs-rewrite-20260225-001: cx-004"]);
        assert_eq!(kind_of(&changes.events), StatusKind::Flag);
    }

    #[test]
    fn a_file_that_never_read_is_not_said_to_turn_critical_when_mended() {
        let at = |shape, level| {
            let mut p = crate::core::model::Project::at(
                crate::core::model::ProjectKind::Jerry,
                "a",
                "p/a.yaml",
                "p",
                shape,
            );
            p.staleness.level = level;
            p
        };
        let mended = at(Shape::V2Nested, StalenessLevel::Critical);
        let mut out = Changes::default();
        let never_read = at(Shape::Unreadable, StalenessLevel::Unknown);
        project_changes(&never_read, &mended, true, &mut out);
        assert!(out.events.is_empty(), "{:?}", out.events);
        assert_eq!(out.rows, ["a"], "its row is still highlighted");
        let fresh = at(Shape::V2Nested, StalenessLevel::Fresh);
        project_changes(&fresh, &mended, true, &mut out);
        assert_eq!(out.events, [Event::TurnedCritical("a".into())]);
    }

    #[test]
    fn a_project_whose_file_went_is_said_to_have_left_the_list() {
        let project = |id: &str, source: &str| {
            crate::core::model::Project::at(
                crate::core::model::ProjectKind::Jerry,
                id,
                source,
                "p",
                crate::core::model::Shape::V2Nested,
            )
        };
        let before = Workspace {
            projects: vec![project("a", "p/a.yaml"), project("b", "p/b.yaml")],
            ..Workspace::default()
        };
        let after = Workspace {
            projects: vec![project("b", "p/b.yaml")],
            ..Workspace::default()
        };
        let hashes = StateHashes::default();
        let changes = workspace_changes(&before, &hashes, &after, &hashes);
        let left = Event::LeftTheList {
            id: "a".into(),
            source: "p/a.yaml".into(),
        };
        assert_eq!(changes.events, [left]);
        assert_eq!(
            changes.events[0].text(),
            "a left the list: p/a.yaml was deleted or moved"
        );
        let same = workspace_changes(&after, &hashes, &after, &hashes);
        assert!(same.events.is_empty());
    }

    #[test]
    fn notifications_carry_no_control_characters() {
        assert!(terminal_bytes(Notify::Off, "x", false).is_empty());
        assert_eq!(terminal_bytes(Notify::Bell, "x", false), b"\x07");
        assert_eq!(
            terminal_bytes(Notify::Osc9, "a\x1b]0;b turned CRITICAL", false),
            b"\x1b]9;resume-tui: a]0,b turned CRITICAL\x07"
        );
        assert_eq!(
            terminal_bytes(Notify::Osc777, "x; y", false),
            b"\x1b]777;notify;resume-tui;x, y\x07"
        );
    }

    #[test]
    fn inside_tmux_desktop_notifications_go_through_its_passthrough() {
        assert_eq!(terminal_bytes(Notify::Bell, "x", true), b"\x07");
        assert!(terminal_bytes(Notify::Off, "x", true).is_empty());
        assert_eq!(
            terminal_bytes(Notify::Osc9, "p turned CRITICAL", true),
            b"\x1bPtmux;\x1b\x1b]9;resume-tui: p turned CRITICAL\x07\x1b\\"
        );
        assert_eq!(
            terminal_bytes(Notify::Osc777, "x", true),
            b"\x1bPtmux;\x1b\x1b]777;notify;resume-tui;x\x07\x1b\\"
        );
    }
}
