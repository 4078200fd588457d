//! End to end, the operator's daily moves in the real binary inside tmux, on a copy
//! of the demo: `y` delivers through tmux (its paste buffer, read back here, and
//! the status bar says whether tmux passed it to the clipboard), the Nexus loading
//! sequence for a Nexus project, an acknowledgement that changes no byte but its
//! own, `R` starting `claude` in a new window in the project root with the prompt,
//! `o` opening `$EDITOR` at the line, `Esc` never quitting, and `q` asking before the
//! demo's changes are lost.
//!
//! `claude` and the editor are stand-in scripts that record their folder and
//! arguments. Waits poll the screen with a generous deadline; running out of time
//! is a failure that prints the screen, not a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use resume_tui::config::Config;
use resume_tui::core::model::Project;
use resume_tui::io::env::Env;
use tmux::{Tmux, quote, wait_until};

const PAYOUTS: &str = "payouts-v2-20260302-001";

fn project(root: &Path, id: &str) -> Project {
    let ws = resume_tui::io::load::load_workspace(
        root,
        &Env::default(),
        resume_tui::io::clock::now(),
        &Config::default(),
    );
    ws.projects.into_iter().find(|p| p.id == id).unwrap()
}

/// A script at `path` that writes its folder and each argument, one per line, to
/// `record`.
fn recorder(path: &Path, record: &Path) {
    let script = format!(
        "#!/bin/sh\n{{ pwd; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }} > {}\n",
        quote(record)
    );
    std::fs::write(path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn read_when_written(path: &Path) -> String {
    wait_until(&format!("{} to be written", path.display()), || {
        std::fs::read_to_string(path).is_ok_and(|t| !t.is_empty())
    });
    // The script writes in one go; give it the moment to finish.
    std::thread::sleep(std::time::Duration::from_millis(100));
    std::fs::read_to_string(path).unwrap()
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn copy_resume_edit_and_quit_inside_tmux() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("workspace");
    resume_tui::io::demo::unpack_into(&root, resume_tui::io::clock::now()).unwrap();
    let root = std::fs::canonicalize(&root).unwrap();
    let bin_dir = tmp.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    recorder(&bin_dir.join("claude"), &tmp.path().join("claude.txt"));
    let editor = bin_dir.join("editor");
    recorder(&editor, &tmp.path().join("editor.txt"));
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, "[clipboard]\nbackend = \"auto\"\n").unwrap();
    let command = format!(
        "env -u NO_COLOR -u VISUAL PATH={}:\"$PATH\" XDG_CONFIG_HOME={} EDITOR={} TERM=xterm-256color {} --root {} --config {} 2>{}",
        quote(&bin_dir),
        quote(&tmp.path().join("xdg")),
        quote(&editor),
        quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        quote(&root),
        quote(&config),
        quote(&tmp.path().join("stderr.txt")),
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_list(11);
    tmux.wait_for_text(PAYOUTS);
    // New windows get the server's environment: the stand-in claude comes first.
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    tmux.output(&["set-environment", "-g", "PATH", &path]);

    // y inside tmux: tmux's paste buffer holds Template 1, and with tmux's default
    // set-clipboard (external) the status bar says tmux passed it on.
    tmux.keys(&["y"]);
    tmux.wait_for_text("In tmux's buffer (read back) and, via tmux, the clipboard.");
    let payouts = project(&root, PAYOUTS);
    assert_eq!(
        tmux.output(&["show-buffer"]),
        resume_tui::core::render::render_prompt(&payouts).text
    );
    tmux.output(&["set-option", "-g", "set-clipboard", "off"]);
    tmux.keys(&["y"]);
    tmux.wait_for_text("only: tmux's set-clipboard is off");

    // A Nexus project: the loading sequence, not Template 1.
    tmux.keys(&["/"]);
    tmux.text("03-settle");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Projects 1/11");
    tmux.keys(&["y"]);
    tmux.wait_for_text("copied Nexus loading sequence");
    let buffer = tmux.output(&["show-buffer"]);
    assert!(buffer.contains("MANDATORY LOADING SEQUENCE"), "{buffer}");
    assert!(!buffer.contains("You are resuming a workflow"), "{buffer}");
    tmux.keys(&["Escape"]);
    tmux.wait_for_list(11);

    // Acknowledging changes its own line, and updated_at keeps its bytes.
    let yaml = root.join(&payouts.source);
    let before = std::fs::read_to_string(&yaml).unwrap();
    tmux.keys(&["g", "3", "a"]);
    tmux.wait_for_text("saved: acknowledged cx-002");
    let after = std::fs::read_to_string(&yaml).unwrap();
    let changed: Vec<(&str, &str)> = before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(changed[0].1.contains("acknowledged: true"), "{changed:?}");

    // R: claude in a new window, in the project root, with the prompt.
    tmux.keys(&["R"]);
    tmux.wait_for_text("in a new tmux window");
    let claude = read_when_written(&tmp.path().join("claude.txt"));
    let (dir, prompt) = claude.split_once('\n').unwrap();
    assert_eq!(dir, root.display().to_string());
    let payouts = project(&root, PAYOUTS);
    assert_eq!(
        prompt.trim_end(),
        resume_tui::core::render::render_prompt(&payouts)
            .text
            .trim_end()
    );

    // o in the Decisions tab: the editor at the selected decision's line (once
    // claude's window has closed and the keys reach the dashboard again).
    wait_until("claude's window to close", || {
        tmux.output(&["list-windows"]).lines().count() == 1
    });
    tmux.keys(&["4", "l", "o"]);
    tmux.wait_for_text("in a new tmux window (ORCHESTRATION.yaml)");
    let edited = read_when_written(&tmp.path().join("editor.txt"));
    let text = std::fs::read_to_string(&yaml).unwrap();
    let line = text.lines().position(|l| l.contains("\"RD-001\"")).unwrap() + 1;
    let args: Vec<&str> = edited.lines().skip(1).collect();
    assert_eq!(args, [format!("+{line}"), yaml.display().to_string()]);

    // Esc never quits; q quits at once when nothing would be lost.
    tmux.keys(&["Escape", "Escape", "Escape"]);
    tmux.wait_for_text("q quits");
    assert!(tmux.running());
    tmux.keys(&["q"]);
    wait_until("the dashboard to exit", || !tmux.running());
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn q_asks_before_the_demos_changes_are_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let command = format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --demo 2>{}",
        quote(&tmp.path().join("xdg")),
        quote(Path::new(env!("CARGO_BIN_EXE_resume-tui"))),
        quote(&tmp.path().join("stderr.txt")),
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_list(11);
    tmux.wait_for_text(PAYOUTS);
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("q quits");
    tmux.keys(&["4", "l", "Space"]);
    tmux.wait_for_text("saved: marked RD-001");
    tmux.keys(&["q"]);
    tmux.wait_for_text("Quitting now loses 1 change made to the demo");
    tmux.keys(&["n"]);
    tmux.wait_for("the question to close", |s| !s.contains("Quitting now"));
    assert!(tmux.running());
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("Quitting now loses");
    tmux.keys(&["y"]);
    wait_until("the dashboard to exit", || !tmux.running());
}
