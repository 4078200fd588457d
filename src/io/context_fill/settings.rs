//! The two Claude Code settings that bear on the window: `model` and
//! `autoCompactWindow`, read from the local, project and user settings files (the
//! first that sets each wins, as Claude Code's precedence has it). A file that is
//! missing, too large or not JSON counts as setting nothing.

use std::path::Path;

use serde_json::Value;

use crate::io::env::Env;

/// Settings files larger than this are not read for the window evidence.
const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ClaudeSettings {
    /// `model` and the file that set it.
    pub model: Option<(String, String)>,
    /// `autoCompactWindow` as written (a number or a string such as `500k`).
    pub auto_compact_window: Option<String>,
}

impl ClaudeSettings {
    pub fn read(project_dir: Option<&Path>, env: &Env) -> ClaudeSettings {
        let mut files = Vec::new();
        if let Some(dir) = project_dir {
            files.push(dir.join(".claude").join("settings.local.json"));
            files.push(dir.join(".claude").join("settings.json"));
        }
        files.extend(super::user_settings_path(env));
        let mut found = ClaudeSettings::default();
        for file in files {
            let Some(Value::Object(map)) = read_json(&file) else {
                continue;
            };
            if found.model.is_none()
                && let Some(Value::String(model)) = map.get("model")
                && !model.trim().is_empty()
            {
                found.model = Some((model.trim().to_string(), file.display().to_string()));
            }
            if found.auto_compact_window.is_none() {
                found.auto_compact_window = match map.get("autoCompactWindow") {
                    Some(Value::Number(n)) => Some(n.to_string()),
                    Some(Value::String(s)) => Some(s.clone()),
                    _ => None,
                };
            }
        }
        found
    }
}

fn read_json(path: &Path) -> Option<Value> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_SETTINGS_BYTES {
        return None;
    }
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_beats_project_beats_user_and_bad_files_set_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let user = dir.path().join("user");
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::create_dir_all(&user).unwrap();
        std::fs::write(
            user.join("settings.json"),
            r#"{"model":"opus","autoCompactWindow":400000}"#,
        )
        .unwrap();
        std::fs::write(
            project.join(".claude/settings.json"),
            r#"{"model":"sonnet[1m]"}"#,
        )
        .unwrap();
        std::fs::write(project.join(".claude/settings.local.json"), "{not json").unwrap();
        let env = Env::from_pairs([("CLAUDE_CONFIG_DIR", user.to_str().unwrap())]);
        let found = ClaudeSettings::read(Some(&project), &env);
        assert_eq!(found.model.as_ref().unwrap().0, "sonnet[1m]");
        assert!(found.model.as_ref().unwrap().1.ends_with("settings.json"));
        assert_eq!(found.auto_compact_window.as_deref(), Some("400000"));
        assert_eq!(
            ClaudeSettings::read(None, &Env::default()),
            ClaudeSettings::default()
        );
    }
}
