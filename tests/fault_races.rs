//! Races that a process cannot be timed into from outside, driven through the
//! library: a file deleted between discovery and load, a file changing while it is
//! read, and a file deleted or replaced by a folder between an edit's read and its
//! write (through the write path's injectable steps). Loading reports and goes on;
//! a write refuses and leaves nothing partial.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use hostile::{tree, write};
use resume_tui::config::Config;
use resume_tui::core::model::Shape;
use resume_tui::core::time::Timestamp;
use resume_tui::io::discover;
use resume_tui::io::env::Env;
use resume_tui::io::load::{LoadOptions, load_discovered, load_workspace};
use resume_tui::io::write::{Options, WriteError, WriteSteps, read_snapshot, replace_with};

const NOW: Timestamp = Timestamp(1_772_445_600);
const STATE: &str = "projects/PROJ-001/ORCHESTRATION.yaml";

fn state(next: &str, padding: usize) -> String {
    format!(
        "workflow:\n  id: wf-race\n  status: ACTIVE\nresumption:\n  recovery_state:\n    \
         next_step: \"{next}\"\n    updated_at: \"2026-01-01T00:00:00Z\"\n  notes: \"{}\"\n",
        "x".repeat(padding)
    )
}

#[test]
fn a_file_deleted_between_discovery_and_load_is_reported_and_the_rest_loads() {
    let ws = tempfile::tempdir().unwrap();
    let root = ws.path();
    write(root, STATE, state("one", 10));
    write(
        root,
        "projects/PROJ-002/ORCHESTRATION.yaml",
        state("two", 10).replace("wf-race", "wf-other"),
    );
    write(
        root,
        ".jerry/checkpoints/cx-001-checkpoint.json",
        "{\"event_id\": \"cx-001\"}",
    );
    let env = Env::from_pairs([]);
    let discovery = discover::discover(root, &env);
    assert_eq!(discovery.files.len(), 3);
    std::fs::remove_file(root.join(STATE)).unwrap();
    std::fs::remove_file(root.join(".jerry/checkpoints/cx-001-checkpoint.json")).unwrap();
    let ws = load_discovered(
        root,
        &discovery,
        NOW,
        &Config::default(),
        &LoadOptions::default(),
    );
    let gone = ws.projects.iter().find(|p| p.source == STATE).unwrap();
    assert_eq!(gone.shape, Shape::Unreadable);
    assert!(
        gone.diagnostics
            .iter()
            .any(|d| d.message.starts_with("cannot read:")),
        "{:?}",
        gone.diagnostics
    );
    assert!(
        ws.diagnostics
            .iter()
            .any(|d| d.file.ends_with("cx-001-checkpoint.json")),
        "{:?}",
        ws.diagnostics
    );
    let other = ws.projects.iter().find(|p| p.id == "wf-other").unwrap();
    assert_eq!(other.shape, Shape::V2Nested);
}

/// While one thread rewrites the state file (in place, so a read may see half of
/// it; and by atomic rename), loads see one version or the other, or report a
/// parse error: never a panic, never a mix passed off as the file.
#[test]
fn a_file_changing_while_it_is_read() {
    for atomic in [false, true] {
        let ws = tempfile::tempdir().unwrap();
        let root = ws.path().to_path_buf();
        let versions = [state("one", 10), state("two", 200_000)];
        write(&root, STATE, &versions[0]);
        let stop = Arc::new(AtomicBool::new(false));
        let writer = {
            let (root, stop, versions) = (root.clone(), stop.clone(), versions.clone());
            std::thread::spawn(move || {
                let mut i = 0;
                while !stop.load(Ordering::Relaxed) {
                    i += 1;
                    let text = &versions[i % 2];
                    if atomic {
                        let temp = root.join("projects/PROJ-001/.next.tmp");
                        std::fs::write(&temp, text).unwrap();
                        std::fs::rename(&temp, root.join(STATE)).unwrap();
                    } else {
                        std::fs::write(root.join(STATE), text).unwrap();
                    }
                }
            })
        };
        let (mut seen, mut torn) = ([0, 0], 0);
        for _ in 0..60 {
            let ws = load_workspace(&root, &Env::from_pairs([]), NOW, &Config::default());
            let Some(project) = ws.projects.iter().find(|p| p.source == STATE) else {
                continue;
            };
            match project.summary.next_step.as_deref() {
                Some("one") => seen[0] += 1,
                Some("two") => seen[1] += 1,
                None => {
                    assert!(!atomic, "an atomic rename never shows a torn file");
                    assert!(!project.diagnostics.is_empty(), "a torn read is reported");
                    torn += 1;
                }
                Some(other) => panic!("a mix passed off as the file: {other}"),
            }
        }
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap();
        println!(
            "atomic {atomic}: one {} two {} torn {torn}",
            seen[0], seen[1]
        );
    }
}

/// Replaces the file by a folder (or deletes it) once the lock is held.
struct Replace {
    by_folder: bool,
}

impl WriteSteps for Replace {
    fn before_check(&self, path: &Path) -> std::io::Result<()> {
        std::fs::remove_file(path)?;
        if self.by_folder {
            std::fs::create_dir(path)?;
        }
        Ok(())
    }
}

#[test]
fn a_file_deleted_or_replaced_by_a_folder_before_the_write_is_left_alone() {
    for by_folder in [false, true] {
        let ws = tempfile::tempdir().unwrap();
        let path = write(ws.path(), STATE, state("one", 10));
        let snapshot = read_snapshot(&path).unwrap();
        let options = Options {
            steps: &Replace { by_folder },
            ..Options::default()
        };
        let err = replace_with(&snapshot, state("two", 10).as_bytes(), &options).unwrap_err();
        assert!(
            matches!(
                err,
                WriteError::ChangedOnDisk { .. } | WriteError::Io { .. }
            ),
            "{err}"
        );
        assert_eq!(path.is_dir(), by_folder, "the folder is left alone");
        assert!(!path.is_file(), "nothing was written in its place");
        let left: Vec<String> = tree(&ws.path().join("projects/PROJ-001"));
        let expected: Vec<&str> = if by_folder {
            vec!["ORCHESTRATION.yaml"]
        } else {
            vec![]
        };
        assert_eq!(left, expected, "no temporary or lock file");
    }
}
