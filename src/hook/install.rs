//! `hooks install`: the entries resume-tui needs, merged into a Claude Code
//! settings.json (reference claude-code-hooks.md §4). Exec form (`command` is the
//! absolute path of this binary, arguments in `args`, no shell), small timeouts in
//! seconds, the matchers each event needs. Existing keys, other tools' hooks and
//! key order are kept; an entry of ours that is already there is updated in place,
//! and extra copies of it are removed. Running it twice changes nothing.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::args::SettingsLevel;
use super::input::Event;
use crate::io::env::Env;

pub mod form;
pub mod own;
pub mod plugin;
pub mod probe;
pub mod statusline;

pub use form::{Form, Version};
pub use own::OwnExe;
pub use statusline::Shadowed;

/// One hook registration: event, matcher, timeout in seconds.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub event: &'static str,
    pub matcher: Option<&'static str>,
    /// Seconds (Claude Code reads `timeout` in seconds).
    pub timeout: u64,
    /// The matcher words that must be covered for the hook to do its job.
    pub required: &'static [&'static str],
    /// The first Claude Code version with this event. An older one rejects the
    /// whole settings file over an event key it does not know ("Invalid key in
    /// record"), so the event is left out for it.
    pub since: Version,
}

pub const SPECS: [Spec; 5] = [
    Spec {
        event: "SessionStart",
        matcher: Some("startup|resume|clear|compact|fork"),
        timeout: 10,
        // `fork` since Claude Code v2.1.214 (a fork was `resume` before).
        required: &["resume", "compact", "fork"],
        since: Version(0, 0, 0),
    },
    Spec {
        event: "UserPromptSubmit",
        matcher: None,
        timeout: 5,
        required: &[],
        since: Version(0, 0, 0),
    },
    Spec {
        event: "PreCompact",
        matcher: Some("manual|auto"),
        timeout: 10,
        required: &["manual", "auto"],
        since: Version(0, 0, 0),
    },
    Spec {
        event: "PostCompact",
        matcher: Some("manual|auto"),
        timeout: 5,
        required: &["manual", "auto"],
        since: Version(2, 1, 76),
    },
    Spec {
        event: "PostToolUse",
        matcher: Some("Write|Edit|MultiEdit"),
        timeout: 5,
        required: &["Write", "Edit", "MultiEdit"],
        since: Version(0, 0, 0),
    },
];

/// The settings file of a level: `$CLAUDE_CONFIG_DIR/settings.json` or
/// `~/.claude/settings.json` (user), `<root>/.claude/settings.json` (project),
/// `<root>/.claude/settings.local.json` (local).
pub fn settings_path(level: SettingsLevel, root: &Path, env: &Env) -> Option<PathBuf> {
    match level {
        SettingsLevel::User => crate::io::context_fill::user_settings_path(env),
        SettingsLevel::Project => Some(root.join(".claude").join("settings.json")),
        SettingsLevel::Local => Some(root.join(".claude").join("settings.local.json")),
    }
}

/// The result of merging: the new text (when anything changes) and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Merge {
    /// `None` when the file already holds exactly these entries.
    pub text: Option<String>,
    pub changes: Vec<String>,
}

/// A settings file that cannot be merged into, with its place (1-based).
#[derive(Debug, Clone, PartialEq)]
pub struct SettingsError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

/// Parses settings text with keys in file order; errors carry line and column.
pub fn parse(text: &str) -> Result<Map<String, Value>, SettingsError> {
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(SettingsError {
            line: Some(1),
            column: Some(1),
            message: "the top level is not a JSON object".into(),
        }),
        Err(e) => Err(SettingsError {
            line: Some(e.line()),
            column: Some(e.column().max(1)),
            message: e
                .to_string()
                .split(" at line ")
                .next()
                .unwrap_or_default()
                .to_string(),
        }),
    }
}

/// The levels whose settings a level's own take precedence over (Claude Code:
/// local over project over user), nearest first.
pub fn lower_levels(level: SettingsLevel) -> &'static [SettingsLevel] {
    match level {
        SettingsLevel::Local => &[SettingsLevel::Project, SettingsLevel::User],
        SettingsLevel::Project => &[SettingsLevel::User],
        SettingsLevel::User => &[],
    }
}

/// Merges resume-tui's entries, in exec form, into `existing` settings text
/// (`None`: no file).
pub fn merge(existing: Option<&str>, exe: &str) -> Result<Merge, SettingsError> {
    merge_in(existing, exe, Form::Exec)
}

/// What to install besides the hooks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Extras<'a> {
    /// The handler form the Claude Code version runs.
    pub form: Form,
    /// Add the `statusLine` entry.
    pub statusline: bool,
    /// Replace another tool's status line.
    pub force: bool,
    /// The Claude Code version, when known: events it predates are left out.
    pub claude: Option<Version>,
    /// The running binary: an entry whose program is this file is ours, whatever
    /// its name.
    pub own: &'a OwnExe,
    /// Another tool's status line in a settings file this one takes precedence
    /// over: a status line here would hide it, so not without `--force`.
    pub shadows: Option<&'a Shadowed>,
}

/// `merge` in the handler form a Claude Code version runs. An entry is ours when
/// named resume-tui or when its program is `exe`, as written.
pub fn merge_in(existing: Option<&str>, exe: &str, form: Form) -> Result<Merge, SettingsError> {
    let own = OwnExe::at(Path::new(exe));
    merge_with(
        existing,
        exe,
        Extras {
            form,
            statusline: false,
            force: false,
            claude: None,
            own: &own,
            shadows: None,
        },
    )
}

/// `merge_in`, with the status line when asked for.
pub fn merge_with(
    existing: Option<&str>,
    exe: &str,
    extras: Extras,
) -> Result<Merge, SettingsError> {
    let form = extras.form;
    let original = match existing {
        Some(text) => parse(text)?,
        None => Map::new(),
    };
    let mut settings = original.clone();
    let mut changes = Vec::new();
    let hooks = settings
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err(shape_error("\"hooks\" is not an object"));
    };
    for spec in SPECS {
        if let Some(version) = extras.claude.filter(|v| *v < spec.since) {
            remove_ours(hooks, &spec, version, extras.own, &mut changes);
            continue;
        }
        let groups = hooks
            .entry(spec.event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            return Err(shape_error(&format!(
                "\"hooks.{}\" is not a list",
                spec.event
            )));
        };
        merge_event(groups, &spec, exe, form, extras.own, &mut changes);
    }
    if extras.statusline {
        statusline::merge(&mut settings, exe, extras, &mut changes);
    }
    if settings == original && existing.is_some() {
        // Only notes can be left (a status line kept without --force).
        return Ok(Merge {
            text: None,
            changes,
        });
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(settings))
        .map_err(|e| shape_error(&e.to_string()))?;
    text.push('\n');
    Ok(Merge {
        text: Some(text),
        changes,
    })
}

/// Takes resume-tui's entries out of an event that `version` predates (the key
/// goes too when nothing else is left under it), and says so.
fn remove_ours(
    hooks: &mut Map<String, Value>,
    spec: &Spec,
    version: Version,
    own: &OwnExe,
    changes: &mut Vec<String>,
) {
    let mut removed = 0;
    if let Some(Value::Array(groups)) = hooks.get_mut(spec.event) {
        for group in groups.iter_mut() {
            if let Some(Value::Array(handlers)) = group.get_mut("hooks") {
                let before = handlers.len();
                handlers.retain(|h| !is_ours(h, own));
                removed += before - handlers.len();
            }
        }
        groups.retain(|g| {
            g.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|h| !h.is_empty())
        });
    }
    let others_left = hooks
        .get(spec.event)
        .and_then(Value::as_array)
        .is_some_and(|g| !g.is_empty());
    if !others_left {
        hooks.remove(spec.event);
    }
    let gone = if removed > 0 {
        "removed"
    } else {
        "not installed"
    };
    let warning = if others_left {
        format!(
            "; other tools' {} entries remain, which it rejects",
            spec.event
        )
    } else {
        String::new()
    };
    changes.push(format!(
        "{}: {gone}: Claude Code {version} predates it ({}) and would reject the whole settings file{warning}",
        spec.event, spec.since
    ));
}

fn shape_error(message: &str) -> SettingsError {
    SettingsError {
        line: None,
        column: None,
        message: message.to_string(),
    }
}

/// The handler resume-tui registers for `spec`, in exec form.
pub fn handler(spec: &Spec, exe: &str) -> Value {
    form::handler(spec, exe, Form::Exec)
}

/// Whether a handler runs resume-tui's hook mode (exec or shell form): its
/// program is named resume-tui (any path), or is `own`, the running binary,
/// under whatever name.
pub fn is_ours(handler: &Value, own: &OwnExe) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    let args: Vec<&str> = handler
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let (program, rest) = if args.is_empty() {
        form::split_program(command)
    } else {
        (command.to_string(), "")
    };
    let hook_mode = if args.is_empty() {
        rest.split_whitespace().next() == Some("hook")
    } else {
        args.first() == Some(&"hook")
    };
    hook_mode && is_our_program(&program, own)
}

/// Whether a program, as a settings entry names it, is resume-tui: named so, or
/// the running binary (`own`) under another name.
pub fn is_our_program(program: &str, own: &OwnExe) -> bool {
    let program = program.trim_matches(['"', '\'']);
    let name = program.rsplit(['/', '\\']).next().unwrap_or_default();
    name == "resume-tui" || name == "resume-tui.exe" || own.is(program)
}

fn merge_event(
    groups: &mut Vec<Value>,
    spec: &Spec,
    exe: &str,
    form: Form,
    own: &OwnExe,
    changes: &mut Vec<String>,
) {
    let wanted = form::handler(spec, exe, form);
    let mut placed = false;
    let mut removed = 0;
    let mut index = 0;
    while index < groups.len() {
        let Some(Value::Object(group)) = groups.get_mut(index) else {
            index += 1;
            continue;
        };
        let matcher_ok = matcher_fits(group.get("matcher"), spec);
        let Some(Value::Array(handlers)) = group.get_mut("hooks") else {
            index += 1;
            continue;
        };
        let before = handlers.len();
        let alone = handlers.iter().all(|h| is_ours(h, own));
        let mut kept = Vec::with_capacity(before);
        for mut h in handlers.drain(..) {
            if !is_ours(&h, own) {
                kept.push(h);
            } else if !placed && (matcher_ok || alone) {
                update_handler(&mut h, &wanted, spec.event, changes);
                kept.push(h);
                placed = true;
            } else {
                removed += 1;
            }
        }
        *handlers = kept;
        let emptied = handlers.is_empty() && before > 0;
        if placed && alone && !matcher_ok {
            set_matcher(group, spec, changes);
        }
        if emptied {
            groups.remove(index);
        } else {
            index += 1;
        }
    }
    if removed > 0 {
        changes.push(format!(
            "{}: removed {removed} extra resume-tui entr{}",
            spec.event,
            if removed == 1 { "y" } else { "ies" }
        ));
    }
    if !placed {
        let mut group = Map::new();
        if let Some(matcher) = spec.matcher {
            group.insert("matcher".into(), Value::String(matcher.into()));
        }
        group.insert("hooks".into(), Value::Array(vec![wanted]));
        groups.push(Value::Object(group));
        changes.push(format!(
            "{}: added{}",
            spec.event,
            spec.matcher
                .map(|m| format!(" (matcher {m})"))
                .unwrap_or_default()
        ));
    }
}

/// Sets our fields on an existing handler, keeping any others (e.g. `statusMessage`).
fn update_handler(handler: &mut Value, wanted: &Value, event: &str, changes: &mut Vec<String>) {
    let (Value::Object(have), Value::Object(want)) = (handler, wanted) else {
        return;
    };
    let mut changed = Vec::new();
    // Shell form has no `args`: one left over would turn it back into exec form.
    if !want.contains_key("args") && have.remove("args").is_some() {
        changed.push("args (removed)");
    }
    for (key, value) in want {
        if have.get(key) != Some(value) {
            have.insert(key.clone(), value.clone());
            changed.push(key.as_str());
        }
    }
    if !changed.is_empty() {
        changes.push(format!("{event}: updated {}", changed.join(", ")));
    }
}

fn set_matcher(group: &mut Map<String, Value>, spec: &Spec, changes: &mut Vec<String>) {
    match spec.matcher {
        Some(matcher) => {
            group.insert("matcher".into(), Value::String(matcher.into()));
        }
        None => {
            group.remove("matcher");
        }
    }
    changes.push(format!("{}: matcher set", spec.event));
}

/// Whether a group's matcher sends every event `spec` needs to the hook.
pub fn matcher_fits(matcher: Option<&Value>, spec: &Spec) -> bool {
    let text = match matcher {
        None | Some(Value::Null) => return true,
        Some(Value::String(s)) => s.trim(),
        Some(_) => return false,
    };
    if text.is_empty() || text == "*" || spec.required.is_empty() {
        return true;
    }
    missing_words(text, spec.required).is_empty()
}

/// Required words a matcher does not cover. Plain matchers are lists split on `|`
/// or `,`; anything else is a regex, judged by whether each word appears in it.
pub fn missing_words(matcher: &str, required: &[&'static str]) -> Vec<&'static str> {
    let plain = matcher
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' ' | ',' | '|'));
    let words: Vec<&str> = matcher.split(['|', ',']).map(str::trim).collect();
    required
        .iter()
        .copied()
        .filter(|word| {
            if plain {
                !words.contains(word)
            } else {
                !matcher.contains(word)
            }
        })
        .collect()
}

/// Whether the hooks act in `root` (it is a workspace): `hooks install` says so
/// when they would run there and do nothing.
pub fn acts_in(root: &Path) -> bool {
    super::context::is_workspace(root)
}

/// The events resume-tui registers, in order.
pub fn events() -> impl Iterator<Item = Event> {
    SPECS.iter().map(|s| Event::parse(s.event))
}

#[cfg(test)]
mod tests;
