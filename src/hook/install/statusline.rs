//! `hooks install --statusline`: the `statusLine` entry (reference
//! claude-code-hooks.md §6). A status line always runs through the shell, so the
//! command is the quoted absolute path plus `statusline`. Another tool's status
//! line is never replaced without `--force`.

use serde_json::{Map, Value, json};

use super::form::shell_quote;

/// Whether a `statusLine` value runs resume-tui's status line.
pub fn is_ours(value: &Value) -> bool {
    let Some(command) = value.get("command").and_then(Value::as_str) else {
        return false;
    };
    command.contains("resume-tui") && command.trim_end().ends_with("statusline")
}

pub fn entry(exe: &str) -> Value {
    json!({
        "type": "command",
        "command": format!("{} statusline", shell_quote(exe)),
        "padding": 0,
    })
}

/// Puts resume-tui's status line into `settings`, saying what happened in `changes`.
pub fn merge(settings: &mut Map<String, Value>, exe: &str, force: bool, changes: &mut Vec<String>) {
    let wanted = entry(exe);
    match settings.get("statusLine") {
        None => changes.push("statusLine: added".into()),
        Some(have) if is_ours(have) => {
            if have.get("command") == wanted.get("command") {
                return;
            }
            changes.push("statusLine: updated".into());
        }
        Some(have) if force => changes.push(format!(
            "statusLine: replaced (--force) {}",
            have.get("command")
                .and_then(Value::as_str)
                .unwrap_or("(no command)")
        )),
        Some(have) => {
            changes.push(format!(
                "statusLine: NOT installed: another status line is set ({}); --force replaces it",
                have.get("command")
                    .and_then(Value::as_str)
                    .unwrap_or("(no command)")
            ));
            return;
        }
    }
    settings.insert("statusLine".into(), wanted);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_kept_or_replaced_only_with_force() {
        let exe = "/opt/resume-tui";
        let mut changes = Vec::new();
        let mut settings = Map::new();
        merge(&mut settings, exe, false, &mut changes);
        assert!(is_ours(&settings["statusLine"]));
        assert_eq!(
            settings["statusLine"]["command"],
            "'/opt/resume-tui' statusline"
        );
        merge(&mut settings, exe, false, &mut changes);
        assert_eq!(changes, ["statusLine: added"]);

        let other = json!({"type": "command", "command": "ccstatusline"});
        let mut settings = Map::new();
        settings.insert("statusLine".into(), other.clone());
        let mut changes = Vec::new();
        merge(&mut settings, exe, false, &mut changes);
        assert_eq!(settings["statusLine"], other);
        assert!(changes[0].contains("NOT installed"), "{changes:?}");
        merge(&mut settings, exe, true, &mut changes);
        assert!(is_ours(&settings["statusLine"]));
    }
}
