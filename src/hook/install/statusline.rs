//! `hooks install --statusline`: the `statusLine` entry (reference
//! claude-code-hooks.md §6). A status line always runs through the shell, so the
//! command is the quoted absolute path plus `statusline`. Another tool's status
//! line is never replaced without `--force`, nor hidden: Claude Code shows the
//! status line of the settings file with the highest precedence (local, then
//! project, then user), so one added at the project level hides the user's.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::form::{shell_quote, split_program};
use super::{Extras, OwnExe, lower_levels, parse, settings_path};
use crate::hook::args::SettingsLevel;
use crate::io::env::Env;

/// Whether a `statusLine` value runs resume-tui's status line: a command naming
/// resume-tui that ends in `statusline`, or `own` (the running binary, whatever
/// its name) with the argument `statusline`.
pub fn is_ours(value: &Value, own: &OwnExe) -> bool {
    let Some(command) = value.get("command").and_then(Value::as_str) else {
        return false;
    };
    if command.contains("resume-tui") && command.trim_end().ends_with("statusline") {
        return true;
    }
    let (program, rest) = split_program(command);
    rest.trim() == "statusline" && own.is(&program)
}

/// Another tool's status line, in a settings file of lower precedence than the
/// one being installed into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadowed {
    /// The settings file that sets it.
    pub path: String,
    /// Its command.
    pub command: String,
}

/// The status line Claude Code shows now, when `level`'s file sets none, if it is
/// another tool's: the one of the nearest lower level that sets one. Files that
/// cannot be read or parsed are passed over (`doctor` reports them).
pub fn shadowed_below(
    level: SettingsLevel,
    root: &Path,
    env: &Env,
    own: &OwnExe,
) -> Option<Shadowed> {
    for lower in lower_levels(level) {
        let Some(path) = settings_path(*lower, root, env) else {
            continue;
        };
        let Ok(text) = crate::io::load::read_settings_text(&path) else {
            continue;
        };
        let Ok(settings) = parse(&text) else {
            continue;
        };
        if let Some(line) = settings.get("statusLine").filter(|v| !v.is_null()) {
            return (!is_ours(line, own)).then(|| Shadowed {
                path: path.display().to_string(),
                command: command_of(line).to_string(),
            });
        }
    }
    None
}

fn command_of(line: &Value) -> &str {
    line.get("command")
        .and_then(Value::as_str)
        .unwrap_or("(no command)")
}

pub fn entry(exe: &str) -> Value {
    json!({
        "type": "command",
        "command": format!("{} statusline", shell_quote(exe)),
        "padding": 0,
    })
}

/// Puts resume-tui's status line into `settings`, saying what happened in
/// `changes`. Without `extras.force`, another tool's status line is neither
/// replaced (in this file) nor hidden (`extras.shadows`, in a file of lower
/// precedence).
pub fn merge(
    settings: &mut Map<String, Value>,
    exe: &str,
    extras: Extras,
    changes: &mut Vec<String>,
) {
    let wanted = entry(exe);
    let force = extras.force;
    match settings.get("statusLine") {
        None => match extras.shadows {
            None => changes.push("statusLine: added".into()),
            Some(other) if force => changes.push(format!(
                "statusLine: added (--force); it hides the status line {} sets ({})",
                other.path, other.command
            )),
            Some(other) => {
                changes.push(format!(
                    "statusLine: NOT installed: {} sets another status line ({}), and one added here would take precedence over it; --force adds it anyway",
                    other.path, other.command
                ));
                return;
            }
        },
        Some(have) if is_ours(have, extras.own) => {
            if have.get("command") == wanted.get("command") {
                return;
            }
            changes.push("statusLine: updated".into());
        }
        Some(have) if force => changes.push(format!(
            "statusLine: replaced (--force) {}",
            command_of(have)
        )),
        Some(have) => {
            changes.push(format!(
                "statusLine: NOT installed: another status line is set ({}); --force replaces it",
                command_of(have)
            ));
            return;
        }
    }
    settings.insert("statusLine".into(), wanted);
}

#[cfg(test)]
mod tests {
    use super::super::Form;
    use super::*;

    fn extras<'a>(own: &'a OwnExe, force: bool, shadows: Option<&'a Shadowed>) -> Extras<'a> {
        Extras {
            form: Form::Exec,
            statusline: true,
            force,
            claude: None,
            own,
            shadows,
        }
    }

    /// `merge`, and what it said.
    fn run(settings: &mut Map<String, Value>, exe: &str, extras: Extras) -> Vec<String> {
        let mut changes = Vec::new();
        merge(settings, exe, extras, &mut changes);
        changes
    }

    #[test]
    fn added_kept_or_replaced_only_with_force() {
        let exe = "/opt/resume-tui";
        let own = OwnExe::default();
        let mut changes = Vec::new();
        let mut settings = Map::new();
        merge(&mut settings, exe, extras(&own, false, None), &mut changes);
        assert!(is_ours(&settings["statusLine"], &own));
        assert_eq!(
            settings["statusLine"]["command"],
            "'/opt/resume-tui' statusline"
        );
        merge(&mut settings, exe, extras(&own, false, None), &mut changes);
        assert_eq!(changes, ["statusLine: added"]);

        let other = json!({"type": "command", "command": "ccstatusline"});
        let mut settings = Map::new();
        settings.insert("statusLine".into(), other.clone());
        let mut changes = run(&mut settings, exe, extras(&own, false, None));
        assert_eq!(settings["statusLine"], other);
        assert!(changes[0].contains("NOT installed"), "{changes:?}");
        merge(&mut settings, exe, extras(&own, true, None), &mut changes);
        assert!(is_ours(&settings["statusLine"], &own));
    }

    #[test]
    fn another_tools_status_line_below_is_not_hidden_without_force() {
        let exe = "/opt/resume-tui";
        let own = OwnExe::default();
        let below = Shadowed {
            path: "/home/u/.claude/settings.json".into(),
            command: "npx ccstatusline".into(),
        };
        let mut settings = Map::new();
        let changes = run(&mut settings, exe, extras(&own, false, Some(&below)));
        assert!(settings.get("statusLine").is_none(), "{settings:?}");
        assert_eq!(
            changes,
            [
                "statusLine: NOT installed: /home/u/.claude/settings.json sets another status line (npx ccstatusline), and one added here would take precedence over it; --force adds it anyway"
            ]
        );

        let changes = run(&mut settings, exe, extras(&own, true, Some(&below)));
        assert!(is_ours(&settings["statusLine"], &own));
        assert!(
            changes[0].starts_with("statusLine: added (--force); it hides"),
            "{changes:?}"
        );

        // Ours already here: kept (and updated) as before, no refusal.
        let changes = run(
            &mut settings,
            "/new/resume-tui",
            extras(&own, false, Some(&below)),
        );
        assert_eq!(changes, ["statusLine: updated"]);
        assert_eq!(
            settings["statusLine"]["command"],
            "'/new/resume-tui' statusline"
        );
    }

    #[test]
    fn ours_under_another_name_is_ours() {
        let own = OwnExe::at(std::path::Path::new("/opt/rt-h15"));
        let line = entry("/opt/rt-h15");
        assert!(is_ours(&line, &own));
        assert!(!is_ours(&line, &OwnExe::default()));
        let theirs = json!({"command": "'/opt/rt-h15' other"});
        assert!(!is_ours(&theirs, &own));
        assert!(is_ours(&json!({"command": "resume-tui statusline"}), &own));
    }
}
