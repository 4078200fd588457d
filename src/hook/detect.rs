//! Which workflow was active when compaction came (seed 000 step 1, with the
//! confidence levels of seed 001 §4.3):
//! - `transcript`: recent Read/Write/Edit/MultiEdit paths that fall inside a
//!   project: `high` with edits, `medium` with reads only;
//! - `cache`: the project an earlier checkpoint of the same session (or an
//!   unconsumed precompact state) named: `medium`;
//! - `fallback`: the most recently updated ACTIVE ORCHESTRATION.yaml or Nexus
//!   manifest: `low`.

use std::path::Path;

use crate::core::model::{Project, ProjectKind};
use crate::core::wire::precompact::{Confidence, DetectionMethod};
use crate::core::workspace::may_be_active;
use crate::io::discover::{Discovery, FileKind, Found};
use crate::io::fence::Fence;
use crate::io::transcript::ToolUse;

/// How many candidates the fallback reads, newest first by modification time.
const FALLBACK_READS: usize = 12;

#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub found: Found,
    pub confidence: Confidence,
    pub method: DetectionMethod,
    /// One sentence: why this project.
    pub reason: String,
}

/// The projects the hooks may choose: each ORCHESTRATION.yaml and Nexus manifest,
/// and a Nexus build without a manifest by its overview (else its steps); none in
/// an archived folder (`core::workspace::may_be_active`).
pub fn candidates(discovery: &Discovery) -> Vec<&Found> {
    let mut found: Vec<&Found> = discovery
        .files
        .iter()
        .filter(|f| matches!(f.kind, FileKind::Orchestration | FileKind::NexusManifest))
        .collect();
    for kind in [FileKind::NexusOverview, FileKind::NexusSteps] {
        for file in discovery.of_kind(kind) {
            if !found
                .iter()
                .any(|f| f.dir == file.dir && f.kind != FileKind::Orchestration)
            {
                found.push(file);
            }
        }
    }
    found.retain(|f| may_be_active(&f.rel));
    found
}

/// The state files that own the folders of the tool calls' paths, found by
/// looking up from each path instead of walking the workspace: an
/// `ORCHESTRATION.yaml` or `01-planning/resume-context.md` (`_resume.md`) in an
/// ancestor folder, and the nested workflows of a `projects/<PROJ>` folder.
pub fn near(root: &Path, tool_uses: &[ToolUse]) -> Vec<Found> {
    let fence = Fence::new(root);
    let mut seen_dirs = std::collections::HashSet::new();
    let mut found: Vec<Found> = Vec::new();
    let add = |found: &mut Vec<Found>, rel: String| {
        if found.iter().any(|f| f.rel == rel) {
            return;
        }
        if let Some(f) = super::project::found_file_at(&fence, &rel) {
            found.push(f);
        }
    };
    for tool in tool_uses {
        let Some(rel) = fence.relative(&tool.path) else {
            continue;
        };
        let mut dir = rel
            .rsplit_once('/')
            .map_or(String::new(), |(d, _)| d.to_string());
        loop {
            if !seen_dirs.insert(dir.clone()) {
                break;
            }
            let prefix = if dir.is_empty() {
                String::new()
            } else {
                format!("{dir}/")
            };
            add(&mut found, format!("{prefix}ORCHESTRATION.yaml"));
            add(&mut found, format!("{prefix}01-planning/resume-context.md"));
            add(&mut found, format!("{prefix}01-planning/_resume.md"));
            // A build without a manifest, by its other planning files.
            if !found.iter().any(|f| f.dir == dir) {
                add(&mut found, format!("{prefix}01-planning/01-overview.md"));
            }
            if !found.iter().any(|f| f.dir == dir) {
                add(&mut found, format!("{prefix}01-planning/04-steps.md"));
            }
            if project_area(&format!("{prefix}x/y")).as_deref() == Some(dir.as_str()) {
                let nested = root.join(&dir).join("orchestration");
                for entry in std::fs::read_dir(nested).into_iter().flatten().flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    add(
                        &mut found,
                        format!("{prefix}orchestration/{name}/ORCHESTRATION.yaml"),
                    );
                }
            }
            match dir.rsplit_once('/') {
                Some((parent, _)) => dir = parent.to_string(),
                None if !dir.is_empty() => dir = String::new(),
                None => break,
            }
        }
    }
    found.retain(|f| may_be_active(&f.rel));
    found
}

#[derive(Default, Clone, Copy)]
struct Hits {
    edits: usize,
    reads: usize,
    newest: usize,
}

/// The project the tool calls work in, among the state files that own their
/// folders (`near`, no walk of the workspace): `from_transcript` on those.
pub fn in_transcript(root: &Path, tool_uses: &[ToolUse]) -> Option<Detection> {
    let near = near(root, tool_uses);
    let refs: Vec<&Found> = near.iter().collect();
    from_transcript(root, &refs, tool_uses)
}

/// Matches tool-call paths to candidates. A path belongs to the candidate whose
/// folder is its longest prefix; failing that, to the newest candidate under the
/// same `projects/<PROJ>` folder (nested workflows keep their work files beside
/// the project, not beside the ORCHESTRATION.yaml).
pub fn from_transcript(root: &Path, found: &[&Found], tool_uses: &[ToolUse]) -> Option<Detection> {
    let fence = Fence::new(root);
    let mut hits = vec![Hits::default(); found.len()];
    for (age, tool) in tool_uses.iter().enumerate() {
        let Some(rel) = fence.relative(&tool.path) else {
            continue;
        };
        let Some(index) = owner(found, &rel) else {
            continue;
        };
        let Some(hit) = hits.get_mut(index) else {
            continue;
        };
        if hit.edits + hit.reads == 0 {
            hit.newest = age;
        }
        if tool.is_edit {
            hit.edits += 1;
        } else {
            hit.reads += 1;
        }
    }
    let (index, best) = hits
        .iter()
        .enumerate()
        .filter(|(_, h)| h.edits + h.reads > 0)
        .max_by_key(|(_, h)| (h.edits > 0, h.edits + h.reads, std::cmp::Reverse(h.newest)))?;
    let chosen = (*found.get(index)?).clone();
    let (confidence, what) = if best.edits > 0 {
        (
            Confidence::High,
            format!("{} edits, {} reads", best.edits, best.reads),
        )
    } else {
        (
            Confidence::Medium,
            format!("{} reads, no edits", best.reads),
        )
    };
    Some(Detection {
        reason: format!(
            "{what} of files under {} among the last {} file tool calls of the transcript",
            display_dir(&chosen.dir),
            tool_uses.len()
        ),
        found: chosen,
        confidence,
        method: DetectionMethod::Transcript,
    })
}

fn display_dir(dir: &str) -> &str {
    if dir.is_empty() {
        "the workspace root"
    } else {
        dir
    }
}

fn inside(rel: &str, dir: &str) -> bool {
    dir.is_empty()
        || rel == dir
        || rel
            .strip_prefix(dir)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn owner(found: &[&Found], rel: &str) -> Option<usize> {
    let longest = found
        .iter()
        .enumerate()
        .filter(|(_, f)| inside(rel, &f.dir))
        .max_by_key(|(_, f)| f.dir.len())
        .map(|(i, _)| i);
    if let Some(i) = longest.filter(|i| found.get(*i).is_some_and(|f| !f.dir.is_empty())) {
        return Some(i);
    }
    // `projects/<PROJ>/…`: the newest workflow of that project.
    let Some(area) = project_area(rel) else {
        return longest;
    };
    found
        .iter()
        .enumerate()
        .filter(|(_, f)| inside(&f.dir, &area))
        .max_by_key(|(_, f)| modified(&f.path))
        .map(|(i, _)| i)
        .or(longest)
}

fn project_area(rel: &str) -> Option<String> {
    let parts: Vec<&str> = rel.split('/').collect();
    let at = parts.iter().position(|p| *p == "projects")?;
    let id = parts.get(at + 1)?;
    // A file directly in `projects/` is not inside a project.
    parts.get(at + 2)?;
    Some(
        parts
            .get(..=at)?
            .iter()
            .chain(std::iter::once(id))
            .copied()
            .collect::<Vec<_>>()
            .join("/"),
    )
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The candidate an earlier run named: a state file path (root-relative) or a
/// Nexus project id (the project folder's name).
pub fn from_cache(found: &[&Found], hint: &str, why: &str) -> Option<Detection> {
    let hint = hint.trim().trim_start_matches("./");
    let chosen = found.iter().find(|f| f.rel == hint).or_else(|| {
        found
            .iter()
            .find(|f| f.kind == FileKind::NexusManifest && f.dir.rsplit('/').next() == Some(hint))
    })?;
    Some(Detection {
        found: (*chosen).clone(),
        confidence: Confidence::Medium,
        method: DetectionMethod::Cache,
        reason: format!("{why} named {hint}"),
    })
}

/// The most recently updated ACTIVE workflow among the newest files. `load` reads
/// one candidate.
pub fn fallback(
    found: &[&Found],
    load: impl Fn(&Found) -> Option<Project>,
) -> Option<(Detection, Project)> {
    let mut by_mtime: Vec<&Found> = found
        .iter()
        .copied()
        .filter(|f| may_be_active(&f.rel))
        .collect();
    by_mtime.sort_by_key(|f| std::cmp::Reverse(modified(&f.path)));
    let (chosen, project) = by_mtime
        .into_iter()
        .take(FALLBACK_READS)
        .filter_map(|f| load(f).map(|p| (f, p)))
        .filter(|(_, p)| is_active(p))
        .enumerate()
        // A file that reads over one that does not (a YAML error leaves no state
        // to resume); then the newest `updated_at`; without one, the file's
        // modification order.
        .max_by_key(|(order, (_, p))| {
            (readable(p), p.summary.updated_at, std::cmp::Reverse(*order))
        })
        .map(|(_, pair)| pair)?;
    let updated = project
        .summary
        .updated_at_raw
        .clone()
        .unwrap_or_else(|| "no updated_at; newest file".into());
    let detection = Detection {
        found: chosen.clone(),
        confidence: Confidence::Low,
        method: DetectionMethod::Fallback,
        reason: format!(
            "no project in the transcript; the most recently updated active workflow ({updated})"
        ),
    };
    Some((detection, project))
}

/// The Nexus build whose manifest records `session_id` (`session_id` or
/// `session_ids`, which Nexus's PreCompact keeps), if it is still under way:
/// Nexus's own way of knowing a session's build. Only manifests that hold the id
/// as text are loaded. Several: the most recently updated.
pub fn by_session(
    found: &[&Found],
    session_id: &str,
    load: impl Fn(&Found) -> Option<Project>,
) -> Option<(Detection, Project)> {
    let session_id = session_id.trim();
    if session_id.is_empty() {
        return None;
    }
    let (chosen, project) = found
        .iter()
        .filter(|f| f.kind == FileKind::NexusManifest && may_be_active(&f.rel))
        .filter(|f| mentions(&f.path, session_id))
        .filter_map(|f| load(f).map(|p| (*f, p)))
        .filter(|(_, p)| {
            p.kind == ProjectKind::Nexus
                && is_active(p)
                && p.manifest
                    .as_ref()
                    .is_some_and(|m| m.session_ids.iter().any(|s| s.trim() == session_id))
        })
        .max_by_key(|(_, p)| p.summary.updated_at)?;
    let detection = Detection {
        found: chosen.clone(),
        confidence: Confidence::High,
        method: DetectionMethod::Cache,
        reason: format!("its manifest records this session ({session_id}) in session_ids"),
    };
    Some((detection, project))
}

fn mentions(path: &Path, needle: &str) -> bool {
    crate::io::load::read_text(path, "")
        .map(|text| text.contains(needle))
        .unwrap_or(false)
}

/// ACTIVE (or in progress); a workflow with no status counts unless its prose or
/// phase says it is complete.
/// Whether the project's file was read without an error (a YAML syntax error
/// leaves its state unknown).
fn readable(project: &Project) -> bool {
    !project
        .diagnostics
        .iter()
        .any(|d| d.severity == crate::core::model::Severity::Error)
}

pub fn is_active(project: &Project) -> bool {
    let done = |text: &str| {
        let upper = text.to_uppercase();
        [
            "COMPLETE",
            "DONE",
            "CANCELLED",
            "CANCELED",
            "FAILED",
            "ARCHIVED",
        ]
        .iter()
        .any(|w| upper.contains(w))
    };
    match project.summary.status.as_deref() {
        Some(status) => {
            let upper = status.trim().to_uppercase().replace([' ', '-'], "_");
            // PLANNING: a Nexus build being planned is under way.
            matches!(
                upper.as_str(),
                "ACTIVE" | "IN_PROGRESS" | "RUNNING" | "EXECUTING" | "PLANNING"
            )
        }
        None => {
            let prose = project
                .resumption
                .as_ref()
                .and_then(|r| r.recovery.current_state.as_deref())
                .unwrap_or_default();
            let phase = project.summary.phase.as_deref().unwrap_or_default();
            !done(prose) && !done(phase)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn found(rel: &str, dir: &str) -> Found {
        Found {
            kind: if rel.ends_with(".md") {
                FileKind::NexusManifest
            } else {
                FileKind::Orchestration
            },
            path: PathBuf::from("/nonexistent").join(rel),
            rel: rel.into(),
            dir: dir.into(),
        }
    }

    fn tool(path: &str, is_edit: bool) -> ToolUse {
        ToolUse {
            tool: if is_edit { "Edit" } else { "Read" }.into(),
            path: path.into(),
            is_edit,
            sidechain: false,
        }
    }

    #[test]
    fn edits_beat_reads_and_the_longest_folder_owns_a_path() {
        let files = [
            found("ORCHESTRATION.yaml", ""),
            found("projects/P1/ORCHESTRATION.yaml", "projects/P1"),
            found(
                "projects/P2/orchestration/wf/ORCHESTRATION.yaml",
                "projects/P2/orchestration/wf",
            ),
            found(
                "02-projects/07-x/01-planning/resume-context.md",
                "02-projects/07-x",
            ),
        ];
        let refs: Vec<&Found> = files.iter().collect();
        let root = Path::new("/w");
        let tools = [
            tool("/w/projects/P1/a.md", false),
            tool("/w/projects/P1/b.md", false),
            tool("/w/projects/P1/c.md", false),
            tool("/w/projects/P2/work/out.md", true),
            tool("/elsewhere/x.md", true),
        ];
        let d = from_transcript(root, &refs, &tools).unwrap();
        assert_eq!(d.found.dir, "projects/P2/orchestration/wf", "{d:?}");
        assert_eq!(d.confidence, Confidence::High);
        assert_eq!(d.method, DetectionMethod::Transcript);

        let reads = [tool("/w/02-projects/07-x/02-working/n.md", false)];
        let d = from_transcript(root, &refs, &reads).unwrap();
        assert_eq!(
            (d.found.dir.as_str(), d.confidence),
            ("02-projects/07-x", Confidence::Medium)
        );

        let root_only = [tool("/w/README.md", true)];
        let d = from_transcript(root, &refs, &root_only).unwrap();
        assert_eq!(d.found.rel, "ORCHESTRATION.yaml");

        assert!(from_transcript(root, &refs, &[tool("/other/x", true)]).is_none());
        assert!(from_transcript(root, &refs, &[]).is_none());
    }

    #[test]
    fn near_finds_the_owners_of_tool_paths_without_a_walk() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "projects/P1/orchestration/wf-a/ORCHESTRATION.yaml",
            "projects/P1/orchestration/wf-b/ORCHESTRATION.yaml",
            "projects/P2/ORCHESTRATION.yaml",
            "02-projects/07-x/01-planning/resume-context.md",
            "elsewhere/ORCHESTRATION.yaml",
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x: 1\n").unwrap();
        }
        let at = |rel: &str| root.join(rel).display().to_string();
        let tools = [
            tool(&at("projects/P1/work/notes.md"), true),
            tool(&at("02-projects/07-x/02-working/a.md"), false),
            tool(&at("projects/P2/deep/er/file.md"), false),
            tool("/outside/root.md", true),
        ];
        let mut rels: Vec<String> = near(root, &tools).into_iter().map(|f| f.rel).collect();
        rels.sort();
        assert_eq!(
            rels,
            [
                "02-projects/07-x/01-planning/resume-context.md",
                "projects/P1/orchestration/wf-a/ORCHESTRATION.yaml",
                "projects/P1/orchestration/wf-b/ORCHESTRATION.yaml",
                "projects/P2/ORCHESTRATION.yaml",
            ]
        );
    }

    /// A workflow file with a YAML error has no state to resume: the fallback
    /// takes a readable active one over it, newer or not.
    #[test]
    fn the_fallback_takes_a_readable_workflow_over_a_broken_one() {
        let files = [
            found("projects/BROKEN/ORCHESTRATION.yaml", "projects/BROKEN"),
            found("projects/OK/ORCHESTRATION.yaml", "projects/OK"),
        ];
        let refs: Vec<&Found> = files.iter().collect();
        let load = |f: &Found| {
            let text = if f.rel.contains("BROKEN") {
                "workflow: [\n"
            } else {
                "workflow:\n  id: ok\n  status: ACTIVE\n"
            };
            Some(crate::core::normalize::jerry::normalize_orchestration(
                &f.rel, &f.dir, text,
            ))
        };
        let (detection, project) = fallback(&refs, load).unwrap();
        assert_eq!(detection.found.dir, "projects/OK", "{project:?}");
    }

    #[test]
    fn cache_hints_name_a_file_or_a_nexus_id() {
        let files = [
            found("projects/P1/ORCHESTRATION.yaml", "projects/P1"),
            found(
                "02-builds/active/12-b/01-planning/resume-context.md",
                "02-builds/active/12-b",
            ),
        ];
        let refs: Vec<&Found> = files.iter().collect();
        let d = from_cache(&refs, "projects/P1/ORCHESTRATION.yaml", "checkpoint cx-002").unwrap();
        assert_eq!(
            (d.method, d.confidence),
            (DetectionMethod::Cache, Confidence::Medium)
        );
        let d = from_cache(&refs, "12-b", "precompact state").unwrap();
        assert_eq!(d.found.dir, "02-builds/active/12-b");
        assert!(from_cache(&refs, "nope", "x").is_none());
    }
}
