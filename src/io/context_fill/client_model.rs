//! The model Claude Code was started with (`--model`, e.g. `claude --model
//! 'claude-opus-4-6[1m]'`), read from its command line: the one place a 1M
//! selection made on the command line shows. The client sends the bare id and a
//! beta header, its transcript and hook inputs name the bare id (issue 32,
//! /work/findings-32.md §5). 2.1.332 gives its hooks `CLAUDE_PID`; 2.1.76 does
//! not, and there the hook's nearest ancestor (through `/bin/sh -c`) that is
//! Claude Code is taken. Linux only (`/proc`); elsewhere nothing is known.

use std::io::Read;

use crate::io::env::Env;

/// A command line longer than this is not read whole (real ones are short).
const MAX_CMDLINE_BYTES: u64 = 64 * 1024;
/// How far up from the hook Claude Code may be (`sh -c`, a wrapper).
const ANCESTORS_LOOKED_AT: usize = 3;

/// What the command line of the Claude Code process this hook runs under says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Launch {
    /// Its `--model`.
    Model(String),
    /// Read, and without `--model`.
    NoModel,
    /// Claude Code rewrote it (2.1.76 sets `process.title = "claude"`, which
    /// overwrites its arguments with NULs): whatever `--model` it had is gone.
    Rewritten,
    /// No Claude Code process found (not Linux, no `CLAUDE_PID`, not under one).
    NotFound,
}

impl Launch {
    pub fn model(&self) -> Option<&str> {
        match self {
            Launch::Model(id) => Some(id),
            _ => None,
        }
    }
}

/// The command line of the Claude Code process this hook runs under.
pub fn read(env: &Env) -> Launch {
    let line = match env.get("CLAUDE_PID").and_then(plain_pid) {
        Some(pid) => cmdline(pid),
        None => claude_ancestor(),
    };
    let Some(line) = line else {
        return Launch::NotFound;
    };
    if let Some(model) = model_argument(&line) {
        return Launch::Model(model);
    }
    match rewritten(&line) {
        true => Launch::Rewritten,
        false => Launch::NoModel,
    }
}

fn claude_ancestor() -> Option<Vec<u8>> {
    let mut pid = parent_of("self")?;
    for _ in 0..ANCESTORS_LOOKED_AT {
        let line = cmdline(pid)?;
        if is_claude_code(&line) {
            return Some(line);
        }
        pid = parent_of(&pid.to_string())?;
    }
    None
}

/// A command line overwritten in place: the program's name, then only NULs
/// (the old arguments' room), never what `execve` leaves (one NUL per argument).
pub fn rewritten(cmdline: &[u8]) -> bool {
    let Some(end) = cmdline.iter().position(|b| *b == 0) else {
        return false;
    };
    let rest = cmdline.get(end..).unwrap_or_default();
    rest.len() >= 2 && rest.iter().all(|b| *b == 0)
}

fn plain_pid(text: &str) -> Option<u32> {
    let text = text.trim();
    (text.len() <= 10 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
        .filter(|pid| *pid > 1)
}

fn cmdline(pid: u32) -> Option<Vec<u8>> {
    let file = std::fs::File::open(format!("/proc/{pid}/cmdline")).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_CMDLINE_BYTES).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// The parent of `/proc/<which>`: the field after the command name in `stat`
/// (the name may hold spaces and parentheses, so after the last `)`).
fn parent_of(which: &str) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{which}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    plain_pid(rest.split_whitespace().nth(1)?)
}

/// Claude Code's own command line: the native `claude`, or node running the
/// package's `claude` link or `cli.js`.
pub fn is_claude_code(cmdline: &[u8]) -> bool {
    cmdline.split(|b| *b == 0).take(2).any(|arg| {
        let name = arg.rsplit(|b| *b == b'/').next().unwrap_or_default();
        name == b"claude" || (name == b"cli.js" && arg.ends_with(b"claude-code/cli.js"))
    })
}

/// The value of the last `--model X` or `--model=X` among NUL-separated
/// arguments (the last one given wins, as in Claude Code's option parser).
pub fn model_argument(cmdline: &[u8]) -> Option<String> {
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    let mut found = None;
    for (i, arg) in args.iter().enumerate() {
        let value = if *arg == b"--model" {
            args.get(i + 1).copied()
        } else {
            arg.strip_prefix(b"--model=")
        };
        if let Some(value) = value.and_then(|v| std::str::from_utf8(v).ok()) {
            let value = value.trim();
            if !value.is_empty() && !value.starts_with('-') {
                found = Some(value.to_string());
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::model_argument;

    #[test]
    fn the_last_model_option_in_either_form() {
        let line = b"claude\0-p\0--model\0claude-opus-4-6[1m]\0--resume\0abc\0";
        assert_eq!(model_argument(line).as_deref(), Some("claude-opus-4-6[1m]"));
        let line = b"node\0cli.js\0--model=sonnet\0--model\0opus[1m]\0";
        assert_eq!(model_argument(line).as_deref(), Some("opus[1m]"));
        assert_eq!(model_argument(b"claude\0-p\0hi\0"), None);
        assert_eq!(model_argument(b"claude\0--model\0"), None);
        assert_eq!(model_argument(b"claude\0--model\0--resume\0x\0"), None);
        assert_eq!(model_argument(b""), None);
    }

    #[test]
    fn a_command_line_overwritten_by_a_process_title_is_told_apart() {
        use super::rewritten;
        assert!(rewritten(b"claude\0\0\0\0\0\0"));
        assert!(!rewritten(b"claude\0"));
        assert!(!rewritten(b"claude\0-p\0hi\0"));
        assert!(!rewritten(b"claude"));
    }

    #[test]
    fn claude_code_is_known_by_its_program() {
        use super::is_claude_code;
        assert!(is_claude_code(b"/usr/bin/claude\0-p\0"));
        assert!(is_claude_code(b"claude\0"));
        assert!(is_claude_code(
            b"node\0/x/node_modules/@anthropic-ai/claude-code/cli.js\0-p\0"
        ));
        assert!(is_claude_code(b"node\0/x/node_modules/.bin/claude\0"));
        assert!(!is_claude_code(b"/bin/sh\0-c\0claude --model x\0"));
        assert!(!is_claude_code(b"node\0server.js\0claude\0"));
    }
}
