//! Runs a `Plan`. The native clipboard and tmux are behind small traits so tests
//! can replace them (a backend that never answers exercises the timeout).

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use serde::Serialize;

use super::backend::{Backend, Plan, Platform, choose};
use super::osc52::{osc52, tmux_passthrough};
use crate::config::ClipboardConfig;
use crate::io::env::Env;

/// What happened, in words fit for a status line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopyOutcome {
    /// `native`, `osc52`, `osc52+tmux`, `tmux`, `file:PATH` or `off`.
    pub backend_used: String,
    /// True only when the copy was verified (read back, or written to a file/buffer).
    pub confirmed: bool,
    /// True when the text left resume-tui (verified, or OSC 52 written to the terminal).
    pub sent: bool,
    pub message: String,
}

pub trait NativeClipboard: Send + Sync {
    /// Sets the clipboard text; `Ok(true)` when reading it back gave the same text.
    fn set_text(&self, text: &str) -> Result<bool, String>;
}

pub trait TmuxBuffer: Send + Sync {
    /// Loads the text into a tmux paste buffer and asks it to set the terminal's
    /// clipboard too (`-w`).
    fn load(&self, text: &str) -> Result<TmuxDelivery, String>;
}

/// What tmux did with a text it was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TmuxDelivery {
    /// The top paste buffer, read back, holds the text.
    pub read_back: bool,
    /// tmux's `set-clipboard` option (`on`, `external`, `off`), when it answered:
    /// whether tmux passed the text on to the terminal's clipboard.
    pub set_clipboard: Option<String>,
}

/// The system clipboard through `clipboard-rs`.
pub struct SystemClipboard;

impl NativeClipboard for SystemClipboard {
    fn set_text(&self, text: &str) -> Result<bool, String> {
        use clipboard_rs::Clipboard as _;
        let ctx = clipboard_rs::ClipboardContext::new().map_err(|e| e.to_string())?;
        ctx.set_text(text.to_string()).map_err(|e| e.to_string())?;
        Ok(ctx.get_text().is_ok_and(|back| back == text))
    }
}

/// `tmux load-buffer -w -` (`-w` also sends it to the outer terminal's clipboard
/// when tmux's `set-clipboard` allows).
pub struct TmuxCommand;

impl TmuxBuffer for TmuxCommand {
    fn load(&self, text: &str) -> Result<TmuxDelivery, String> {
        load_buffer(text)?;
        let read_back = tmux_output(&["show-buffer"]).is_some_and(|back| back == text.as_bytes());
        let set_clipboard = tmux_output(&["show-options", "-gv", "set-clipboard"])
            .map(|v| String::from_utf8_lossy(&v).trim().to_string())
            .filter(|v| !v.is_empty());
        Ok(TmuxDelivery {
            read_back,
            set_clipboard,
        })
    }
}

/// What `tmux ARGS` prints, when it succeeds.
fn tmux_output(args: &[&str]) -> Option<Vec<u8>> {
    let out = std::process::Command::new("tmux")
        .args(args)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

fn load_buffer(text: &str) -> Result<(), String> {
    use std::process::{Command, Stdio};
    let mut child = Command::new("tmux")
        .args(["load-buffer", "-w", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run tmux: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| format!("cannot write to tmux: {e}"))?;
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("tmux load-buffer exited with {status}"))
    }
}

pub struct Copier {
    native: Arc<dyn NativeClipboard>,
    tmux: Arc<dyn TmuxBuffer>,
    timeout: Duration,
}

/// Copies with the real backends, choosing from `requested` and the environment.
pub fn copy(
    text: &str,
    requested: &Backend,
    env: &Env,
    config: &ClipboardConfig,
    terminal: &mut dyn Write,
) -> CopyOutcome {
    let plan = choose(requested, env, Platform::current());
    Copier::system(Duration::from_millis(config.native_timeout_ms)).run(text, &plan, terminal)
}

impl Copier {
    pub fn new(
        native: Arc<dyn NativeClipboard>,
        tmux: Arc<dyn TmuxBuffer>,
        timeout: Duration,
    ) -> Copier {
        Copier {
            native,
            tmux,
            timeout,
        }
    }

    pub fn system(timeout: Duration) -> Copier {
        Copier::new(Arc::new(SystemClipboard), Arc::new(TmuxCommand), timeout)
    }

    /// Copies `text` (control characters other than newline and tab, and invisible
    /// characters removed; secrets redacted).
    /// OSC 52 bytes go to `terminal`.
    pub fn run(&self, text: &str, plan: &Plan, terminal: &mut dyn Write) -> CopyOutcome {
        let text = crate::core::redact::scrub(text).into_owned();
        match plan {
            Plan::Off => outcome("off", false, "Clipboard is off; nothing was copied."),
            Plan::File(path) => write_file(&text, path),
            Plan::Osc52 { tmux } => send_osc52(&text, *tmux, terminal, ""),
            Plan::Tmux => match self.with_timeout(&self.tmux, text.clone(), |t, s| t.load(&s)) {
                Some(Ok(delivery)) => tmux_outcome(&delivery),
                Some(Err(e)) => outcome("tmux", false, &format!("Not copied: {e}.")),
                None => outcome(
                    "tmux",
                    false,
                    &format!(
                        "Not copied: tmux did not answer within {}.",
                        secs(self.timeout)
                    ),
                ),
            },
            Plan::Native { fallback } => {
                let result = self.with_timeout(&self.native, text.clone(), |n, s| n.set_text(&s));
                let problem = match result {
                    Some(Ok(true)) => {
                        return outcome(
                            "native",
                            true,
                            "Copied to the system clipboard (read back and verified).",
                        );
                    }
                    Some(Ok(false)) => {
                        "the system clipboard did not return the text when read back".to_string()
                    }
                    Some(Err(e)) => format!("the system clipboard failed ({e})"),
                    None => format!(
                        "the system clipboard did not answer within {}",
                        secs(self.timeout)
                    ),
                };
                match fallback {
                    Some(tmux) => send_osc52(
                        &text,
                        *tmux,
                        terminal,
                        &format!("{}; ", crate::core::text::capitalised(&problem)),
                    ),
                    None => outcome("native", false, &format!("Not confirmed: {problem}.")),
                }
            }
        }
    }

    /// Runs `call` on a worker thread; `None` when it has not finished in time
    /// (the thread is left behind: a stuck clipboard call cannot be cancelled).
    fn with_timeout<B: ?Sized + Send + Sync + 'static, T: Send + 'static>(
        &self,
        backend: &Arc<B>,
        text: String,
        call: fn(&B, String) -> T,
    ) -> Option<T> {
        let (tx, rx) = mpsc::channel();
        let backend = Arc::clone(backend);
        std::thread::Builder::new()
            .name("clipboard".into())
            .spawn(move || {
                let _ = tx.send(call(&backend, text));
            })
            .ok()?;
        rx.recv_timeout(self.timeout).ok()
    }
}

/// Says where the text went: tmux's paste buffer (checked by reading it back), and
/// the terminal's clipboard only when tmux's `set-clipboard` passes it on.
fn tmux_outcome(delivery: &TmuxDelivery) -> CopyOutcome {
    let buffer = if delivery.read_back {
        "in tmux's buffer (read back)"
    } else {
        "given to tmux's buffer (not read back)"
    };
    let clipboard = match delivery.set_clipboard.as_deref() {
        Some("on" | "external") => " and, via tmux, the clipboard".to_string(),
        Some("off") => " only: tmux's set-clipboard is off".to_string(),
        Some(other) => format!("; tmux's set-clipboard is {other:?}"),
        None => "; tmux did not say whether it set the clipboard".to_string(),
    };
    let passed_on = matches!(delivery.set_clipboard.as_deref(), Some("on" | "external"));
    outcome(
        if passed_on { "tmux+clipboard" } else { "tmux" },
        delivery.read_back,
        &format!("{buffer}{clipboard}."),
    )
}

fn send_osc52(text: &str, tmux: bool, terminal: &mut dyn Write, before: &str) -> CopyOutcome {
    let sequence = osc52(text);
    let (bytes, name, via) = if tmux {
        (
            tmux_passthrough(&sequence),
            "osc52+tmux",
            "through tmux passthrough (tmux needs `set -g allow-passthrough on`)",
        )
    } else {
        (sequence, "osc52", "to the terminal")
    };
    match terminal
        .write_all(bytes.as_bytes())
        .and_then(|()| terminal.flush())
    {
        Ok(()) => CopyOutcome {
            sent: true,
            ..outcome(
                name,
                false,
                &format!(
                    "{before}sent with OSC 52 {via}; this cannot be confirmed, so paste to check (the terminal must allow clipboard writes)."
                ),
            )
        },
        Err(e) => outcome(
            name,
            false,
            &format!("{before}could not write OSC 52 to the terminal: {e}."),
        ),
    }
}

fn write_file(text: &str, path: &Path) -> CopyOutcome {
    let name = format!("file:{}", path.display());
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let result = tempfile::NamedTempFile::new_in(dir)
        .and_then(|mut tmp| {
            tmp.write_all(text.as_bytes())?;
            tmp.flush()?;
            Ok(tmp)
        })
        .and_then(|tmp| tmp.persist(path).map_err(|e| e.error));
    match result {
        Ok(_) => outcome(
            &name,
            true,
            &format!(
                "Written to {} ({} characters).",
                path.display(),
                text.chars().count()
            ),
        ),
        Err(e) => outcome(
            &name,
            false,
            &format!("Not copied: cannot write {}: {e}.", path.display()),
        ),
    }
}

fn outcome(backend: &str, confirmed: bool, message: &str) -> CopyOutcome {
    CopyOutcome {
        backend_used: backend.to_string(),
        confirmed,
        sent: confirmed,
        message: crate::core::text::capitalised(message),
    }
}

fn secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

#[cfg(test)]
#[path = "copier_tests.rs"]
mod tests;
