//! End to end: the real binary in a real terminal (tmux), on a copy of the demo
//! workspace. Navigates, filters, acknowledges a checkpoint (the flag appears on
//! disk), adds a decision (it appears in the YAML with every comment intact), copies
//! with the `file:` clipboard backend (the file holds Template 1), changes a file
//! from outside and sees the screen follow, then quits.
//!
//! Waits poll the screen with a generous deadline; running out of time is a
//! failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::{Path, PathBuf};

use resume_tui::config::Config;
use resume_tui::io::env::Env;
use tmux::{Tmux, quote, wait_until};

const PAYOUTS: &str = "payouts-v2-20260302-001";

/// Comment lines and trailing comments of a YAML text, in order.
fn comments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.find(" #")
                .or_else(|| l.trim_start().starts_with('#').then_some(0))
                .map(|i| l[i..].trim().to_string())
        })
        .collect()
}

fn find_file(root: &Path, name: &str, containing: &str) -> PathBuf {
    fn walk(dir: &Path, name: &str, containing: &str) -> Option<PathBuf> {
        for entry in std::fs::read_dir(dir).ok()? {
            let path = entry.ok()?.path();
            if path.is_dir() {
                if let Some(found) = walk(&path, name, containing) {
                    return Some(found);
                }
            } else if path.file_name().is_some_and(|n| n == name)
                && std::fs::read_to_string(&path).is_ok_and(|t| t.contains(containing))
            {
                return Some(path);
            }
        }
        None
    }
    walk(root, name, containing).unwrap_or_else(|| panic!("no {name} containing {containing}"))
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_dashboard_end_to_end_in_tmux() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workspace");
    let now = resume_tui::io::clock::now();
    resume_tui::io::demo::unpack_into(&root, now).unwrap();
    let clip = tmp.path().join("clipboard.txt");
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!("[clipboard]\nbackend = \"file:{}\"\n", clip.display()),
    )
    .unwrap();
    let xdg = tmp.path().join("xdg");
    let bin = env!("CARGO_BIN_EXE_resume-tui");
    let command = format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {} --config {} 2>{}",
        quote(&xdg),
        quote(Path::new(bin)),
        quote(&root),
        quote(&config),
        quote(&tmp.path().join("stderr.txt")),
    );
    let tmux = Tmux::start(&command);

    // The list, sorted by attention: the project with a waiting checkpoint first.
    tmux.wait_for_list(11);
    let screen = tmux.wait_for_text(PAYOUTS);
    assert!(screen.contains("Projects 11"), "{screen}");
    assert!(
        screen
            .lines()
            .any(|l| l.contains('▸') && l.contains("⚑1") && l.contains("payouts")),
        "{screen}"
    );

    // Navigate: down moves the marker; g returns.
    tmux.keys(&["j"]);
    tmux.wait_for("the marker on the second row", |s| {
        !s.lines().any(|l| l.contains('▸') && l.contains("payouts"))
    });
    tmux.keys(&["g"]);
    tmux.wait_for("the marker back on payouts", |s| {
        s.lines().any(|l| l.contains('▸') && l.contains("payouts"))
    });

    // Filter.
    tmux.keys(&["/"]);
    tmux.text("fraud");
    tmux.wait_for_text("Projects 1/11");
    tmux.keys(&["Escape"]);
    tmux.wait_for_list(11);
    tmux.keys(&["/"]);
    tmux.text("payv2");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Projects 1/11");

    // Acknowledge the waiting checkpoint (newest first in the timeline).
    tmux.keys(&["3"]);
    tmux.wait_for_text("NOT ACKNOWLEDGED");
    let checkpoint = root.join(".jerry/checkpoints/cx-002-checkpoint.json");
    assert!(
        !std::fs::read_to_string(&checkpoint)
            .unwrap()
            .contains("\"acknowledged\": true")
    );
    tmux.keys(&["a"]);
    tmux.wait_for_text("saved: acknowledged cx-002");
    let written = std::fs::read_to_string(&checkpoint).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(
        doc["metadata"]["acknowledged"],
        serde_json::Value::Bool(true),
        "{written}"
    );
    tmux.wait_for("the timeline to show it acknowledged", |s| {
        !s.contains("NOT ACKNOWLEDGED")
    });

    // Add a decision through the form.
    let yaml = find_file(&root, "ORCHESTRATION.yaml", PAYOUTS);
    let before = std::fs::read_to_string(&yaml).unwrap();
    tmux.keys(&["4", "n"]);
    tmux.wait_for_text("New decision");
    tmux.text("Retry webhooks with full jitter");
    tmux.keys(&["Tab"]);
    tmux.text("Avoids a thundering herd after outages");
    tmux.keys(&["Tab"]);
    tmux.text("2, 3");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("saved: added a decision");
    let after = std::fs::read_to_string(&yaml).unwrap();
    assert!(
        after.contains("Retry webhooks with full jitter"),
        "the decision is in the file"
    );
    assert!(after.contains("Avoids a thundering herd after outages"));
    assert_eq!(
        comments(&before),
        comments(&after),
        "every comment survives"
    );
    yaml_serde::from_str::<yaml_serde::Value>(&after).expect("the file still parses");
    tmux.wait_for_text("Retry webhooks with full");

    // Copy Template 1 with the file: backend.
    tmux.keys(&["y"]);
    tmux.wait_for_text("copied resumption prompt for");
    let copied = std::fs::read_to_string(&clip).unwrap();
    let ws = resume_tui::io::load::load_workspace(
        &root,
        &Env::default(),
        resume_tui::io::clock::now(),
        &Config::default(),
    );
    let project = ws.projects.iter().find(|p| p.id == PAYOUTS).unwrap();
    assert_eq!(
        copied,
        resume_tui::core::render::render_prompt(project).text
    );
    assert!(copied.contains(&format!("WORKFLOW: {PAYOUTS}")), "{copied}");

    // Change the file from outside (an atomic replace, as editors do): the screen follows.
    let text = std::fs::read_to_string(&yaml).unwrap();
    let changed = text.replacen("qg-2-iteration-2\"", "changed-from-outside\"", 1);
    assert_ne!(
        changed, text,
        "the demo's activity line is where the test expects it"
    );
    let temp = yaml.with_extension("yaml.new");
    std::fs::write(&temp, changed).unwrap();
    std::fs::rename(&temp, &yaml).unwrap();
    tmux.keys(&["1"]);
    tmux.wait_for_text("changed-from-outside");

    // Quit: Esc clears the filter (and never quits), then q leaves at once (nothing
    // would be lost: every change is on disk).
    tmux.keys(&["Escape"]);
    tmux.wait_for_list(11);
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("q quits");
    assert!(tmux.running());
    tmux.keys(&["q"]);
    wait_until("the dashboard to exit", || !tmux.running());
    let stderr = std::fs::read_to_string(tmp.path().join("stderr.txt")).unwrap_or_default();
    assert!(stderr.is_empty(), "nothing on stderr: {stderr}");
}
