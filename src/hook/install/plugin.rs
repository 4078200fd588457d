//! The Claude Code plugin (`plugin/` in the repository, listed by the repository's
//! own `.claude-plugin/marketplace.json`): its `hooks/hooks.json` is [`hooks_json`],
//! the same events, matchers and timeouts as `hooks install` (a test compares the
//! file with it). Claude Code records an installed plugin as
//! `enabledPlugins: {"resume-tui@MARKETPLACE": true}` in a settings file (user,
//! project or local, the nearest level wins) and its copy in
//! `~/.claude/plugins/installed_plugins.json`; a session started with
//! `--plugin-dir` loads it for that session only and leaves no record.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::{SPECS, settings_path};
use crate::hook::args::SettingsLevel;
use crate::io::env::Env;

/// The plugin's name (`resume-tui@MARKETPLACE` once installed).
pub const NAME: &str = "resume-tui";

/// The command of each plugin hook: the script that runs `resume-tui hook EVENT`
/// when the binary is on PATH, and otherwise says how to install it.
pub fn command(event: &str) -> String {
    format!("sh \"${{CLAUDE_PLUGIN_ROOT}}/hooks/run.sh\" {event}")
}

/// `plugin/hooks/hooks.json`, from [`SPECS`].
pub fn hooks_json() -> Value {
    let mut hooks = Map::new();
    for spec in SPECS {
        let mut group = Map::new();
        if let Some(matcher) = spec.matcher {
            group.insert("matcher".into(), Value::String(matcher.into()));
        }
        group.insert(
            "hooks".into(),
            json!([{"type": "command", "command": command(spec.event), "timeout": spec.timeout}]),
        );
        hooks.insert(spec.event.into(), Value::Array(vec![Value::Object(group)]));
    }
    json!({
        "description": "resume-tui hook mode (the same events, matchers and timeouts as `resume-tui hooks install`)",
        "hooks": hooks,
    })
}

/// The plugin, enabled in a settings file.
#[derive(Debug, Clone, PartialEq)]
pub struct Enabled {
    /// `resume-tui@MARKETPLACE`.
    pub id: String,
    /// The settings file that enables it.
    pub settings: PathBuf,
}

/// Whether Claude Code runs the plugin in `root`: the nearest settings level that
/// names `resume-tui@…` in `enabledPlugins` says true.
pub fn enabled(root: &Path, env: &Env) -> Option<Enabled> {
    for level in [
        SettingsLevel::Local,
        SettingsLevel::Project,
        SettingsLevel::User,
    ] {
        let Some(path) = settings_path(level, root, env) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        if let Some((id, on)) = named_in(&text) {
            return on.then_some(Enabled { id, settings: path });
        }
    }
    None
}

/// The plugin's entry in a settings file's `enabledPlugins`, and its value.
fn named_in(settings: &str) -> Option<(String, bool)> {
    let settings = super::parse(settings).ok()?;
    let plugins = settings.get("enabledPlugins")?.as_object()?;
    plugins.iter().find_map(|(id, on)| {
        let name = id.split('@').next()?;
        (name == NAME).then(|| (id.clone(), on.as_bool() == Some(true)))
    })
}

/// Where `name` is found through the PATH of `env` (the dashboard asks too).
pub use crate::io::env::find_on_path;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugins_hooks_json_is_the_one_specs_make() {
        let file: Value = serde_json::from_str(include_str!("../../../plugin/hooks/hooks.json"))
            .expect("plugin/hooks/hooks.json is JSON");
        let made = serde_json::to_string_pretty(&hooks_json()).unwrap_or_default();
        assert_eq!(
            file,
            hooks_json(),
            "plugin/hooks/hooks.json differs from hook::install::SPECS; write this into it:\n{made}"
        );
    }

    #[test]
    fn the_plugin_and_marketplace_carry_the_crates_name_and_version() {
        let plugin: Value =
            serde_json::from_str(include_str!("../../../plugin/.claude-plugin/plugin.json"))
                .expect("plugin.json is JSON");
        assert_eq!(plugin["name"], NAME);
        assert_eq!(plugin["version"], env!("CARGO_PKG_VERSION"));
        let market: Value =
            serde_json::from_str(include_str!("../../../.claude-plugin/marketplace.json"))
                .expect("marketplace.json is JSON");
        assert_eq!(market["plugins"][0]["name"], NAME);
        assert_eq!(market["plugins"][0]["source"], "./plugin");
    }

    #[test]
    fn the_nearest_level_decides_whether_the_plugin_runs() {
        let home = tempfile::tempdir().unwrap();
        let root = tempfile::tempdir().unwrap();
        let env = Env::from_pairs([("HOME", home.path().to_str().unwrap())]);
        assert_eq!(enabled(root.path(), &env), None);
        let user = home.path().join(".claude/settings.json");
        std::fs::create_dir_all(user.parent().unwrap()).unwrap();
        std::fs::write(
            &user,
            r#"{"enabledPlugins": {"other@x": true, "resume-tui@resume-tui": true}}"#,
        )
        .unwrap();
        let found = enabled(root.path(), &env).unwrap();
        assert_eq!(found.id, "resume-tui@resume-tui");
        assert_eq!(found.settings, user);
        let local = root.path().join(".claude/settings.local.json");
        std::fs::create_dir_all(local.parent().unwrap()).unwrap();
        std::fs::write(
            &local,
            r#"{"enabledPlugins": {"resume-tui@resume-tui": false}}"#,
        )
        .unwrap();
        assert_eq!(enabled(root.path(), &env), None, "disabled nearer");
        std::fs::write(&local, "{ not json").unwrap();
        assert!(
            enabled(root.path(), &env).is_some(),
            "a broken file decides nothing"
        );
    }
}
