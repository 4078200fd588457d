//! Settings files the user points at (the config, and the keymap and theme beside
//! it) at the limits, through the binary: a FIFO (which used to block every
//! command, the dashboard and every hook until killed) and a 1 GB sparse file are
//! refused unread with a message naming the file, and the defaults carry on.

#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;

use std::path::{Path, PathBuf};

use hostile::{capped, cli_capped, fifo, hook, sparse, write};

const GB: u64 = 1024 * 1024 * 1024;

#[derive(Clone, Copy, Debug)]
enum Hostile {
    Fifo,
    Sparse,
}

impl Hostile {
    fn plant(self, root: &Path, rel: &str) -> PathBuf {
        match self {
            Hostile::Fifo => fifo(root, rel),
            Hostile::Sparse => sparse(root, rel, "[ui]\ntheme = \"light\"\n", GB),
        }
    }

    fn reason(self) -> &'static str {
        match self {
            Hostile::Fifo => "not a regular file (a pipe, socket or device)",
            Hostile::Sparse => "file too large (1024 MB); limit 1.0 MB",
        }
    }
}

fn workspace() -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    write(
        ws.path(),
        "projects/PROJ-001/ORCHESTRATION.yaml",
        "workflow:\n  id: wf-settings-001\n  status: ACTIVE\nresumption:\n  next_step: carry on\n",
    );
    ws
}

#[test]
fn a_fifo_or_huge_config_is_refused_and_the_defaults_carry_on() {
    for kind in [Hostile::Fifo, Hostile::Sparse] {
        let ws = workspace();
        let config = kind.plant(ws.path(), "settings/config.toml");
        let config_arg = config.to_str().unwrap();
        let listed = cli_capped(ws.path(), &["--config", config_arg, "list"]);
        assert_eq!(listed.code, Some(0), "{kind:?}: {}", listed.stderr);
        assert!(
            listed.stdout.contains("wf-settings-001"),
            "{kind:?}: {}",
            listed.stdout
        );
        let said = format!(
            "config: {config_arg}: {} (using the defaults)",
            kind.reason()
        );
        assert!(listed.stderr.contains(&said), "{kind:?}: {}", listed.stderr);

        // The dashboard's first frame, with a keymap and a theme beside the config.
        kind.plant(ws.path(), "settings/keymap.toml");
        let frame = cli_capped(
            ws.path(),
            &["--config", config_arg, "--render-once", "100x30"],
        );
        assert_eq!(frame.code, Some(0), "{kind:?}: {}", frame.stderr);
        assert!(
            frame.stdout.contains("wf-settings-001"),
            "{kind:?}: {}",
            frame.stdout
        );
        assert!(
            frame.stdout.contains("config.toml"),
            "{kind:?}:\n{}",
            frame.stdout
        );
    }
}

#[test]
fn a_fifo_or_huge_keymap_or_theme_is_refused_and_named_on_the_frame() {
    for kind in [Hostile::Fifo, Hostile::Sparse] {
        let ws = workspace();
        let config = write(ws.path(), "settings/config.toml", "[ui]\n");
        let config_arg = config.to_str().unwrap();
        kind.plant(ws.path(), "settings/keymap.toml");
        let frame = cli_capped(
            ws.path(),
            &["--config", config_arg, "--render-once", "160x30"],
        );
        assert_eq!(frame.code, Some(0), "{kind:?}: {}", frame.stderr);
        assert!(frame.stdout.contains("wf-settings-001"), "{kind:?}");
        let said = format!("keymap.toml: {}", kind.reason());
        assert!(frame.stdout.contains(&said), "{kind:?}:\n{}", frame.stdout);

        let ws = workspace();
        let config = write(ws.path(), "settings/config.toml", "[ui]\n");
        let theme = kind.plant(ws.path(), "settings/mine.toml");
        let frame = cli_capped(
            ws.path(),
            &[
                "--config",
                config.to_str().unwrap(),
                "--theme",
                theme.to_str().unwrap(),
                "--render-once",
                "300x30",
            ],
        );
        assert_eq!(frame.code, Some(0), "{kind:?}: {}", frame.stderr);
        assert!(frame.stdout.contains("wf-settings-001"), "{kind:?}");
        let said = format!("mine.toml: {}; using the default theme", kind.reason());
        assert!(frame.stdout.contains(&said), "{kind:?}:\n{}", frame.stdout);
    }
}

#[test]
fn a_fifo_or_huge_config_never_holds_up_a_hook() {
    for kind in [Hostile::Fifo, Hostile::Sparse] {
        let ws = workspace();
        let log = tempfile::tempdir().unwrap();
        // Where the hook looks for its config: $HOME/.config/resume-tui/.
        kind.plant(log.path(), "home/.config/resume-tui/config.toml");
        let event = serde_json::json!({
            "hook_event_name": "PreCompact",
            "session_id": "sess-settings",
            "trigger": "auto",
        });
        let done = hook(
            &capped(),
            ws.path(),
            log.path(),
            &["PreCompact"],
            &event.to_string(),
        );
        assert_eq!(done.code, Some(0), "{kind:?}: {}", done.stderr);
        assert_eq!(done.stdout, "", "{kind:?}");
        assert_eq!(done.stderr, "", "{kind:?}");
        assert!(
            ws.path()
                .join(".jerry/checkpoints/cx-001-checkpoint.json")
                .is_file(),
            "{kind:?}: the checkpoint was written with the defaults"
        );
    }
}
