//! `hook` and `statusline` typed at a terminal (in tmux): each says what it
//! reads on stdin, in its own words, and trying a hook by hand is not logged as
//! a failing hook (`doctor` would count it as an error).

#[path = "support/needs.rs"]
mod needs;
#[path = "support/tmux.rs"]
mod tmux;

use std::path::Path;

use tmux::{Tmux, quote};

#[test]
#[cfg_attr(not(resume_tui_tmux), ignore = "needs RESUME_TUI_TMUX=1 (and tmux)")]
fn hook_and_statusline_at_a_terminal_say_what_they_read_and_log_no_error() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let bin = quote(Path::new(env!("CARGO_BIN_EXE_resume-tui")));
    // No history file: bash writes one into HOME when tmux hangs it up, which
    // raced the removal of the temporary folder (a file left behind in CI).
    let command = format!(
        "env PS1='$ ' HISTFILE= HOME={home} XDG_DATA_HOME={data} XDG_CONFIG_HOME={home} \
         bash --norc --noprofile -i",
        home = quote(tmp.path()),
        data = quote(&data),
    );
    let tmux = Tmux::start_sized(&command, 120, 30);
    tmux.wait_for_text("$");
    tmux.text(&format!(
        "cd {} && {bin} hook SessionStart; echo hook-ended",
        quote(tmp.path())
    ));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the hook's notice, then its end", |s| {
        s.contains("reading one event as JSON on standard input")
            && s.contains("| resume-tui hook --dry-run --explain")
            && s.lines().any(|l| l == "hook-ended")
    });
    let log = std::fs::read_to_string(data.join("resume-tui/hook.log")).unwrap_or_default();
    assert!(!log.contains("ERROR"), "{log}");
    assert!(
        log.contains("INFO") && log.contains("no complete JSON object"),
        "{log}"
    );

    tmux.keys(&["C-l"]);
    tmux.text(&format!("{bin} statusline; echo statusline-ended"));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for("the status line's notice, then its end", |s| {
        s.contains("statusline-ended") && s.contains("status-line JSON on standard input")
    });
    assert!(screen.contains("| resume-tui statusline"), "{screen}");
    assert!(!screen.contains("hook_event_name"), "{screen}");
}
