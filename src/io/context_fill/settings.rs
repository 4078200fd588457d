//! The two Claude Code settings that bear on the window: `model` and
//! `autoCompactWindow`, read from the local, project and user settings files (the
//! first that sets each wins, as Claude Code's precedence has it). A file that is
//! missing, too large or not JSON counts as setting nothing.

use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use crate::io::env::Env;
use crate::io::load::{MAX_SETTINGS_BYTES, read_bytes_capped};

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
            let Some(keys) = read_keys(&file) else {
                continue;
            };
            if found.model.is_none()
                && let Some(Value::String(model)) = &keys.model
                && !model.trim().is_empty()
            {
                found.model = Some((model.trim().to_string(), file.display().to_string()));
            }
            if found.auto_compact_window.is_none() {
                found.auto_compact_window = match keys.auto_compact_window {
                    Some(Value::Number(n)) => Some(n.to_string()),
                    Some(Value::String(s)) => Some(s),
                    _ => None,
                };
            }
        }
        found
    }
}

/// The two keys of a settings file that is a JSON object, each the last given
/// (as `JSON.parse` has it). The rest (hooks, permissions) is skipped, its syntax
/// checked but not its values: like Claude Code's `JSON.parse`, and unlike a
/// whole `serde_json::Value`, a skipped value may nest past 128 levels, hold
/// `1e400`, a lone surrogate or bytes that are not UTF-8.
#[derive(Default)]
struct WindowKeys {
    model: Option<Value>,
    auto_compact_window: Option<Value>,
}

#[derive(Deserialize)]
#[serde(field_identifier)]
enum Key {
    #[serde(rename = "model")]
    Model,
    #[serde(rename = "autoCompactWindow")]
    AutoCompactWindow,
    #[serde(other)]
    Other,
}

impl<'de> Deserialize<'de> for WindowKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> Visitor<'de> for Keys {
            type Value = WindowKeys;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<WindowKeys, A::Error> {
                let mut keys = WindowKeys::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::Model => keys.model = Some(map.next_value()?),
                        Key::AutoCompactWindow => {
                            keys.auto_compact_window = Some(map.next_value()?)
                        }
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(keys)
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

fn read_keys(path: &Path) -> Option<WindowKeys> {
    serde_json::from_slice(&read_bytes_capped(path, MAX_SETTINGS_BYTES).ok()?).ok()
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

    /// The last of a repeated key counts; a file that is not a JSON object, or
    /// not JSON past the keys, sets nothing; what else it holds is skipped.
    #[test]
    fn the_last_repeated_key_counts_and_a_broken_file_sets_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().join("p");
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        let read = |text: &str| {
            std::fs::write(project.join(".claude/settings.json"), text).unwrap();
            ClaudeSettings::read(Some(&project), &Env::default())
        };
        let found = read(
            r#"{"model":"opus","hooks":{"PreCompact":[{"hooks":[{"type":"command","command":"x"}]}]},"autoCompactWindow":"300k","model":"sonnet[1m]","autoCompactWindow":250000}"#,
        );
        assert_eq!(found.model.unwrap().0, "sonnet[1m]");
        assert_eq!(found.auto_compact_window.as_deref(), Some("250000"));
        let found = read(r#"{"model":7,"autoCompactWindow":true,"env":{"a":[1,2,{"b":null}]}}"#);
        assert_eq!(found, ClaudeSettings::default());
        for broken in [
            r#"["model","opus"]"#,
            r#""opus""#,
            r#"{"model":"opus","x":[}"#,
            r#"{"model":"opus"} trailing"#,
        ] {
            assert_eq!(read(broken), ClaudeSettings::default(), "{broken}");
        }
        // What JSON.parse takes in a value the window does not read, this takes too.
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        for skipped in [deep.as_str(), "1e400", r#""\ud800""#] {
            let found = read(&format!(r#"{{"env":{{"N":{skipped}}},"model":"opus"}}"#));
            assert_eq!(found.model.unwrap().0, "opus", "{skipped}");
        }
        std::fs::write(
            project.join(".claude/settings.json"),
            b"{\"env\":{\"N\":\"\xff\xfe\"},\"model\":\"opus\"}",
        )
        .unwrap();
        let found = ClaudeSettings::read(Some(&project), &Env::default());
        assert_eq!(found.model.unwrap().0, "opus");
    }
}
