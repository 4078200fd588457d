//! Which handler form a Claude Code version runs (reference claude-code-hooks.md
//! §4.2): exec form (`command` + `args`, no shell) from v2.1.139; before that
//! `args` is ignored and `command` runs alone through the shell, so older versions
//! get a shell command with the binary's absolute path quoted.

use serde_json::{Value, json};

use super::Spec;

/// The first Claude Code version that reads `args`.
pub const EXEC_FORM_SINCE: Version = Version(2, 1, 139);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u32, pub u32, pub u32);

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `{"command": "/abs/resume-tui", "args": ["hook", EVENT]}`.
    Exec,
    /// `{"command": "'/abs/resume-tui' hook EVENT"}`.
    Shell,
}

impl Form {
    /// The form for `version`; exec form when the version is not known (the bare
    /// binary still acts as `hook` when an older Claude Code drops the `args`).
    pub fn for_version(version: Option<Version>) -> Form {
        match version {
            Some(v) if v < EXEC_FORM_SINCE => Form::Shell,
            _ => Form::Exec,
        }
    }
}

/// `2.1.240 (Claude Code)` → 2.1.240: the first `N.N.N` in the text.
pub fn parse_version(text: &str) -> Option<Version> {
    text.split(|c: char| c.is_whitespace() || c == 'v' || c == '(')
        .find_map(|word| {
            let mut parts = word.split('.').map(|p| p.parse::<u32>().ok());
            let version = Version(parts.next()??, parts.next()??, parts.next()??);
            parts.next().is_none().then_some(version)
        })
}

/// The handler resume-tui registers for `spec`, in `form`.
pub fn handler(spec: &Spec, exe: &str, form: Form) -> Value {
    match form {
        Form::Exec => json!({
            "type": "command",
            "command": exe,
            "args": ["hook", spec.event],
            "timeout": spec.timeout,
        }),
        Form::Shell => json!({
            "type": "command",
            "command": format!("{} hook {}", shell_quote(exe), spec.event),
            "timeout": spec.timeout,
        }),
    }
}

/// `text` in single quotes for `sh -c` (and Git Bash), `'` written as `'\''`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The program of a shell command and the rest: its first word as `sh` reads it,
/// quotes and escapes undone (`'/a b/it'\\''s/resume-tui' hook X`, as
/// [`shell_quote`] writes it for older versions, is `/a b/it's/resume-tui`).
pub fn split_program(command: &str) -> (String, &str) {
    let command = command.trim_start();
    let mut program = String::new();
    let mut chars = command.char_indices();
    let mut end = command.len();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' => {
                for (_, c) in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    program.push(c);
                }
            }
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some((_, next)) = chars.next() {
                                if !matches!(next, '"' | '\\' | '$' | '`') {
                                    program.push('\\');
                                }
                                program.push(next);
                            }
                        }
                        _ => program.push(c),
                    }
                }
            }
            '\\' => {
                if let Some((_, next)) = chars.next() {
                    program.push(next);
                }
            }
            c if c.is_whitespace() => {
                end = at;
                break;
            }
            c => program.push(c),
        }
    }
    let rest = command.get(end..).unwrap_or("");
    (
        program,
        rest.strip_prefix(char::is_whitespace).unwrap_or(rest),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_and_forms() {
        assert_eq!(
            parse_version("2.1.240 (Claude Code)"),
            Some(Version(2, 1, 240))
        );
        assert_eq!(parse_version("claude v2.0.65"), Some(Version(2, 0, 65)));
        assert_eq!(parse_version("command not found"), None);
        assert_eq!(parse_version("1.2"), None);
        assert_eq!(Form::for_version(Some(Version(2, 1, 138))), Form::Shell);
        assert_eq!(Form::for_version(Some(Version(2, 1, 139))), Form::Exec);
        assert_eq!(Form::for_version(None), Form::Exec);
        assert_eq!(shell_quote("/a b/it's"), r"'/a b/it'\''s'");
        assert_eq!(
            split_program("'/a b/rt' hook X"),
            ("/a b/rt".into(), "hook X")
        );
        assert_eq!(split_program("rt hook"), ("rt".into(), "hook"));
        assert_eq!(split_program("rt"), ("rt".into(), ""));
        // What shell_quote writes comes back whole (issue 33.7).
        let quoted = format!("{} hook X", shell_quote("/a b/it's/resume-tui"));
        assert_eq!(
            split_program(&quoted),
            ("/a b/it's/resume-tui".into(), "hook X")
        );
        assert_eq!(
            split_program(r#""/a \"b\"/rt" hook"#),
            ("/a \"b\"/rt".into(), "hook")
        );
        assert_eq!(split_program(r"/a\ b/rt hook"), ("/a b/rt".into(), "hook"));
    }
}
