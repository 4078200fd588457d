//! The hook payload as the domain sees it: every field optional except the event,
//! each read leniently (a field of the wrong type is treated as absent), unknown
//! fields kept aside. Reference claude-code-hooks.md §2.

use std::path::PathBuf;

use serde_json::{Map, Value};

/// The events resume-tui acts on; anything else is nothing to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    SessionStart,
    PreCompact,
    PostCompact,
    UserPromptSubmit,
    PostToolUse,
    Other(String),
}

impl Event {
    /// `PreCompact`, `precompact`, `pre-compact`, `pre_compact` all name PreCompact.
    pub fn parse(name: &str) -> Event {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        match key.as_str() {
            "sessionstart" => Event::SessionStart,
            "precompact" => Event::PreCompact,
            "postcompact" => Event::PostCompact,
            "userpromptsubmit" => Event::UserPromptSubmit,
            "posttooluse" => Event::PostToolUse,
            _ => Event::Other(name.to_string()),
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::PreCompact => "PreCompact",
            Event::PostCompact => "PostCompact",
            Event::UserPromptSubmit => "UserPromptSubmit",
            Event::PostToolUse => "PostToolUse",
            Event::Other(name) => name,
        }
    }

    /// The five events `hooks install` registers, in registration order.
    pub const HANDLED: [Event; 5] = [
        Event::SessionStart,
        Event::UserPromptSubmit,
        Event::PreCompact,
        Event::PostCompact,
        Event::PostToolUse,
    ];
}

/// The longest `session_id` taken from stdin (Claude Code's are UUIDs).
pub const MAX_SESSION_ID_BYTES: usize = 256;
/// The longest `transcript_path` or `cwd` taken from stdin (Linux's `PATH_MAX`).
pub const MAX_PATH_BYTES: usize = 4096;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookInput {
    pub hook_event_name: Option<String>,
    pub session_id: Option<String>,
    pub transcript_path: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    /// SessionStart: `startup`, `resume`, `clear`, `compact`, `fork`.
    pub source: Option<String>,
    /// SessionStart only, and not always.
    pub model: Option<String>,
    /// PreCompact / PostCompact: `manual` or `auto`.
    pub trigger: Option<String>,
    pub custom_instructions: Option<String>,
    pub compact_summary: Option<String>,
    pub prompt: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Option<Map<String, Value>>,
    /// Fields not listed above.
    pub extra: Map<String, Value>,
}

const KNOWN: &[&str] = &[
    "hook_event_name",
    "session_id",
    "transcript_path",
    "cwd",
    "source",
    "model",
    "trigger",
    "custom_instructions",
    "compact_summary",
    "prompt",
    "tool_name",
    "tool_input",
];

impl HookInput {
    pub fn from_map(mut map: Map<String, Value>) -> HookInput {
        let mut take = |key: &str| map.remove(key);
        let text = |v: Option<Value>| match v {
            Some(Value::String(s)) => Some(s),
            _ => None,
        };
        // Longer ones are not what Claude Code sends (a session id is a UUID, a
        // path cannot be opened past `PATH_MAX`), and they would be copied into
        // the files the hooks write (checkpoints, the monitor and precompact
        // states), making them larger than the hooks then read: left out.
        let path = |v: Option<Value>| {
            text(v)
                .filter(|s| !s.is_empty() && s.len() <= MAX_PATH_BYTES)
                .map(PathBuf::from)
        };
        let input = HookInput {
            hook_event_name: text(take("hook_event_name")),
            session_id: text(take("session_id"))
                .filter(|s| !s.is_empty() && s.len() <= MAX_SESSION_ID_BYTES),
            transcript_path: path(take("transcript_path")),
            cwd: path(take("cwd")),
            source: text(take("source")),
            // `model` is a string in hook input; the status line sends an object.
            model: match take("model") {
                Some(Value::String(s)) => Some(s),
                Some(Value::Object(o)) => o.get("id").and_then(Value::as_str).map(str::to_string),
                _ => None,
            },
            trigger: text(take("trigger")),
            custom_instructions: text(take("custom_instructions")),
            compact_summary: text(take("compact_summary")),
            prompt: text(take("prompt")),
            tool_name: text(take("tool_name")),
            tool_input: match take("tool_input") {
                Some(Value::Object(o)) => Some(o),
                _ => None,
            },
            extra: Map::new(),
        };
        debug_assert!(KNOWN.iter().all(|k| !map.contains_key(*k)));
        HookInput {
            extra: map,
            ..input
        }
    }

    /// The file a tool call worked on (`tool_input.file_path`, or `notebook_path`).
    pub fn tool_file(&self) -> Option<PathBuf> {
        let input = self.tool_input.as_ref()?;
        ["file_path", "notebook_path"]
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str))
            .filter(|p| !p.is_empty())
            .map(PathBuf::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_names_are_matched_loosely() {
        for name in ["PreCompact", "precompact", "pre-compact", "PRE_COMPACT"] {
            assert_eq!(Event::parse(name), Event::PreCompact);
        }
        assert_eq!(Event::parse("Stop"), Event::Other("Stop".into()));
        assert_eq!(Event::parse("UserPromptSubmit").name(), "UserPromptSubmit");
    }

    #[test]
    fn wrong_types_read_as_absent_and_unknown_fields_are_kept() {
        let value = serde_json::json!({
            "hook_event_name": "PostToolUse",
            "session_id": 42,
            "cwd": "/w",
            "tool_input": {"file_path": "/w/ORCHESTRATION.yaml"},
            "brand_new_field": [1, 2]
        });
        let Value::Object(map) = value else {
            unreachable!()
        };
        let input = HookInput::from_map(map);
        assert_eq!(input.session_id, None);
        assert_eq!(input.cwd, Some(PathBuf::from("/w")));
        assert_eq!(
            input.tool_file(),
            Some(PathBuf::from("/w/ORCHESTRATION.yaml"))
        );
        assert!(input.extra.contains_key("brand_new_field"));
    }
}
