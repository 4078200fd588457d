//! End to end in tmux, on a copy of the demo: the live context gauge reading the
//! status line's record (newest wins, the trend from the records), notifications
//! wrapped in tmux's passthrough so that they reach the terminal tmux runs in, and
//! outside tmux (`TMUX` unset) `R` quitting and printing a command that starts
//! `claude` as asked, `o` running `$EDITOR` in the dashboard's own terminal (every
//! key reaching the editor) and reading the files again after.
//!
//! `claude` and the editor are stand-in scripts. Waits poll the screen with a
//! generous deadline; running out of time is a failure that prints the screen, not
//! a timing assertion.

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use resume_tui::io::context_fill::statusline_record::{self, Record};
use tmux::{Tmux, demo_workspace, quote, wait_until};

const PAYOUTS: &str = "payouts-v2-20260302-001";
/// The session the demo's context record and payouts' cx-002 name.
const SESSION: &str = "7c1e5d2a-0b94-4f6e-a3d8-2e51c9f07b13";

fn script(path: &Path, body: &str) {
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn bin() -> String {
    quote(Path::new(env!("CARGO_BIN_EXE_resume-tui")))
}

fn status_record(root: &Path, percent: f64) {
    let record = Record {
        session_id: SESSION.into(),
        context_window_size: Some(200_000),
        used_percentage: Some(percent),
        model: Some("claude-sonnet-4-5".into()),
        updated_at: resume_tui::io::clock::now().to_iso(),
    };
    assert!(statusline_record::put(root, &record).unwrap());
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn the_gauge_reads_the_status_lines_record_and_its_trend() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let command = format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {}",
        quote(&tmp.path().join("xdg")),
        bin(),
        quote(&root)
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_text("context 63% (hooks, 1 min ago; no trend yet)");
    // The status line writes its first record: newer than the hooks' one, it wins,
    // and the hooks' older figure gives the trend.
    status_record(&root, 70.0);
    tmux.wait_for_text("context 70%↑ (was 63%; status line, just now)");
    status_record(&root, 58.0);
    tmux.wait_for_text("context 58%↓ (was 70%; status line");
    assert!(tmux.capture().contains(PAYOUTS));
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn notifications_reach_the_terminal_tmux_runs_in() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let config = tmp.path().join("config.toml");
    std::fs::write(&config, "[ui]\nnotify = \"osc9\"\n").unwrap();
    let command = format!(
        "env -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {} --config {}",
        quote(&tmp.path().join("xdg")),
        bin(),
        quote(&root),
        quote(&config)
    );
    let inner = Tmux::start(&command);
    inner.wait_for_list(11);
    inner.wait_for_text(PAYOUTS);
    inner.output(&["set-option", "-g", "allow-passthrough", "on"]);
    // The terminal tmux runs in: a client of the inner server inside another tmux,
    // whose pane's output (what the inner tmux sends its terminal) is kept.
    let outer = Tmux::start(&format!(
        "tmux -S {} -f /dev/null attach -t e2e",
        quote(inner.socket())
    ));
    outer.wait_for_text(PAYOUTS);
    let seen_outside = tmp.path().join("outer.out");
    outer.output(&[
        "pipe-pane",
        "-O",
        "-t",
        "e2e",
        &format!("cat > {}", quote(&seen_outside)),
    ]);
    let seen_inside = tmp.path().join("inner.out");
    inner.output(&[
        "pipe-pane",
        "-O",
        "-t",
        "e2e",
        &format!("cat > {}", quote(&seen_inside)),
    ]);
    // A compaction: a new checkpoint of payouts' session.
    let cx = std::fs::read_to_string(root.join(".jerry/checkpoints/cx-002-checkpoint.json"))
        .unwrap()
        .replace("cx-002", "cx-009");
    std::fs::write(root.join(".jerry/checkpoints/cx-009-checkpoint.json"), cx).unwrap();
    inner.wait_for_text(&format!("compaction in {PAYOUTS}: cx-009"));
    let osc = format!("\x1b]9;resume-tui: compaction in {PAYOUTS}: cx-009\x07");
    let wrapped = format!("\x1bPtmux;{}\x1b\\", osc.replace('\x1b', "\x1b\x1b"));
    let read = |path: &Path| {
        String::from_utf8_lossy(&std::fs::read(path).unwrap_or_default()).into_owned()
    };
    wait_until("the wrapped notification from the dashboard", || {
        read(&seen_inside).contains(&wrapped)
    });
    wait_until("the notification outside tmux", || {
        read(&seen_outside).contains(&osc)
    });
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn outside_tmux_r_quits_and_prints_a_command_that_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let command = format!(
        "env -u TMUX -u NO_COLOR XDG_CONFIG_HOME={} TERM=xterm-256color {} --root {}; echo \"exit=$?\"; sleep 60",
        quote(&tmp.path().join("xdg")),
        bin(),
        quote(&root)
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_list(11);
    tmux.wait_for_text(PAYOUTS);
    tmux.keys(&["R"]);
    tmux.wait_for_text("exit=0");
    // The whole printed text, wrapped lines joined.
    let printed = tmux.output(&["capture-pane", "-p", "-J", "-S", "-", "-t", "e2e"]);
    let start = printed
        .find(&format!("# resume-tui: resume {PAYOUTS}"))
        .unwrap_or_else(|| panic!("{printed}"));
    let end = printed.rfind("exit=0").unwrap();
    let lines: Vec<&str> = printed[start..end].lines().skip(1).collect();
    assert!(
        lines[0].starts_with(&format!("cd '{}' && claude '", root.display())),
        "{printed}"
    );
    // Run what was printed, with a stand-in claude that records its folder and
    // arguments.
    let bin_dir = tmp.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    let record = tmp.path().join("claude.txt");
    script(
        &bin_dir.join("claude"),
        &format!(
            "{{ pwd; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; }} > {}\n",
            quote(&record)
        ),
    );
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(lines.join("\n"))
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .status()
        .unwrap();
    assert!(status.success());
    let ran = std::fs::read_to_string(&record).unwrap();
    let (dir, prompt) = ran.split_once('\n').unwrap();
    assert_eq!(dir, root.display().to_string());
    let ws = resume_tui::io::load::load_workspace(
        &root,
        &resume_tui::io::env::Env::default(),
        resume_tui::io::clock::now(),
        &resume_tui::config::Config::default(),
    );
    let payouts = ws.projects.iter().find(|p| p.id == PAYOUTS).unwrap();
    let want = resume_tui::core::render::render_prompt(payouts).text;
    let trimmed = |t: &str| t.lines().map(str::trim_end).collect::<Vec<_>>().join("\n");
    assert_eq!(trimmed(prompt).trim_end(), trimmed(&want).trim_end());
}

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn outside_tmux_o_runs_the_editor_here_and_reloads_after() {
    let tmp = tempfile::tempdir().unwrap();
    let root = demo_workspace(tmp.path());
    let editor = tmp.path().join("editor");
    let record = tmp.path().join("editor.txt");
    // Reads a line from the terminal, records it and its arguments, then edits the
    // state file as an editor would.
    script(
        &editor,
        &format!(
            "echo 'EDITOR READY'\nread line\n{{ printf '%s\\n' \"$line\" \"$@\"; }} > {rec}\n\
             for f; do case $f in *.yaml) sed -i 's/Finish the S-004 pre-mortem/Edited in the editor/' \"$f\";; esac; done\n",
            rec = quote(&record)
        ),
    );
    let command = format!(
        "env -u TMUX -u NO_COLOR -u VISUAL XDG_CONFIG_HOME={} EDITOR={} TERM=xterm-256color {} --root {}",
        quote(&tmp.path().join("xdg")),
        quote(&editor),
        bin(),
        quote(&root)
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for_text("Finish the S-004 pre-mortem");
    tmux.keys(&["o"]);
    tmux.wait_for("the editor in the terminal", |s| {
        s.contains("EDITOR READY") && !s.contains(PAYOUTS)
    });
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the dashboard gave the screen back"
    );
    tmux.text("every key");
    tmux.keys(&["Enter"]);
    tmux.wait_for("the dashboard back, reloaded", |s| {
        s.contains("Edited in the editor") && s.contains("closed; files read again")
    });
    let args = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = args.lines().collect();
    assert_eq!(lines[0], "every key", "the editor got every key");
    assert!(
        lines[1].starts_with('+') && lines[2].ends_with("ORCHESTRATION.yaml"),
        "{args}"
    );
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    tmux.keys(&["q"]);
    wait_until("the dashboard to exit", || !tmux.running());
}
