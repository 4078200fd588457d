//! New tmux windows: "resume now" (Claude Code in the project's folder with the
//! resumption prompt as its first message) and `$EDITOR` on the selected file at
//! the right line. The dashboard keeps running beside them, and the watcher
//! reloads what the editor writes. Outside tmux the editor runs in the
//! dashboard's own terminal, given back until it exits ([`run_here`]); resume now
//! quits and prints the command instead (`project_actions::resume_now`).

use std::process::{Command, Stdio};

use super::msg::Msg;
use crate::io::env::Env;

/// What to run in a new tmux window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// Says what was started, in the status bar.
    pub what: String,
    pub name: String,
    /// Absolute folder the window starts in.
    pub dir: String,
    pub program: Program,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// `claude <prompt>`.
    Claude { prompt: String },
    /// The operator's editor on `path` (absolute), at the first line holding
    /// `find` (line 1 when none does).
    Editor {
        editor: String,
        path: String,
        find: Option<String>,
    },
}

/// `$VISUAL`, else `$EDITOR`, else `vi`.
pub fn editor_from(visual: Option<&str>, editor: Option<&str>) -> String {
    [visual, editor]
        .into_iter()
        .flatten()
        .map(str::trim)
        .find(|e| !e.is_empty())
        .unwrap_or("vi")
        .to_string()
}

/// The words of the editor command opening `path` at `line`: `+N path` for the
/// editors that take it (vi, vim, nvim, nano, emacs, micro, helix, kakoune, …),
/// `--goto path:N` for VS Code, `path:N` for Sublime Text.
pub fn editor_command(editor: &str, path: &str, line: usize) -> Vec<String> {
    let mut words: Vec<String> = editor.split_whitespace().map(String::from).collect();
    let name = words
        .first()
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
        .unwrap_or_default();
    match name.as_str() {
        "code" | "codium" | "code-insiders" => {
            words.extend(["--goto".to_string(), format!("{path}:{line}")]);
        }
        "subl" | "zed" => words.push(format!("{path}:{line}")),
        _ => words.extend([format!("+{line}"), path.to_string()]),
    }
    words
}

/// The 1-based line of `text` where `needle` first appears (ignoring case).
pub fn line_of(text: &str, needle: &str) -> Option<usize> {
    let needle = needle.to_lowercase();
    text.lines()
        .position(|l| l.to_lowercase().contains(&needle))
        .map(|i| i + 1)
}

/// The words `tmux new-window` runs.
fn argv(window: &Window) -> Vec<String> {
    match &window.program {
        Program::Claude { prompt } => vec!["claude".into(), prompt.trim_end().to_string()],
        Program::Editor { editor, path, find } => {
            let line = find
                .as_deref()
                .and_then(|needle| {
                    let text = std::fs::read_to_string(path).ok()?;
                    line_of(&text, needle)
                })
                .unwrap_or(1);
            editor_command(editor, path, line)
        }
    }
}

/// Opens the window (`tmux new-window -c DIR -n NAME -- ARGV…`: no shell in
/// between, so the prompt needs no quoting) and says how it went. `claude` is
/// looked up on the dashboard's `PATH` first and run by that path: tmux starts a
/// missing program without complaint (the window just closes), so the status bar
/// would otherwise say it started.
pub fn open(window: Window, env: &Env) -> Msg {
    let mut args = argv(&window);
    if let Program::Claude { .. } = window.program {
        match crate::io::env::find_on_path(env, CLAUDE) {
            Some(found) => {
                if let Some(program) = args.first_mut() {
                    *program = found.display().to_string();
                }
            }
            None => return Msg::Launched(Err(claude_missing(env))),
        }
    }
    let result = Command::new("tmux")
        .args(["new-window", "-c", &window.dir, "-n", &window.name, "--"])
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    let result = match result {
        Ok(out) if out.status.success() => Ok(format!(
            "{} in a new tmux window ({})",
            window.what, window.name
        )),
        Ok(out) => Err(format!(
            "not started: tmux new-window failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Err(e) => Err(format!("not started: cannot run tmux: {e}")),
    };
    Msg::Launched(result)
}

const CLAUDE: &str = "claude";

/// What the status bar says when `claude` cannot be found, and what to do.
fn claude_missing(env: &Env) -> String {
    let where_ = if env.get("PATH").is_some() {
        "is not on the dashboard's PATH"
    } else {
        "cannot be found (PATH is not set)"
    };
    format!(
        "not started: claude {where_}; install Claude Code or start resume-tui with its \
         folder on PATH (Y copies the command to run by hand)"
    )
}

/// Runs the window's program in the dashboard's terminal (given back meanwhile)
/// and waits for it: outside tmux, where no window can be opened.
pub fn run_here(window: &Window) -> Result<String, String> {
    let args = argv(window);
    let Some((program, rest)) = args.split_first() else {
        return Err("nothing to run".to_string());
    };
    match Command::new(program)
        .args(rest)
        .current_dir(&window.dir)
        .status()
    {
        Ok(status) if status.success() => Ok(format!("{} closed; files read again", window.what)),
        Ok(status) => Err(format!("{} ended: {status}; files read again", window.what)),
        Err(e) => Err(format!("cannot run {program}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editors_get_the_line_their_own_way() {
        assert_eq!(
            editor_command("nvim", "/w/a.yaml", 12),
            ["nvim", "+12", "/w/a.yaml"]
        );
        assert_eq!(
            editor_command("/usr/bin/code --wait", "/w/a.yaml", 3),
            ["/usr/bin/code", "--wait", "--goto", "/w/a.yaml:3"]
        );
        assert_eq!(editor_command("subl", "/a", 2), ["subl", "/a:2"]);
        assert_eq!(editor_from(Some(" "), Some("nano")), "nano");
        assert_eq!(editor_from(None, None), "vi");
    }

    #[test]
    fn the_line_is_the_first_that_names_the_needle() {
        let text = "a: 1\nresumption:\n  decision_log:\n    - id: \"RD-002\"\n";
        assert_eq!(line_of(text, "rd-002"), Some(4));
        assert_eq!(line_of(text, "resumption:"), Some(2));
        assert_eq!(line_of(text, "RD-009"), None);
    }
}
