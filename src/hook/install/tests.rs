use super::*;
use serde_json::json;

const EXE: &str = "/opt/bin/resume-tui";

fn value(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn installs_into_an_empty_or_missing_file() {
    let merged = merge(None, EXE).unwrap();
    let text = merged.text.unwrap();
    let v = value(&text);
    assert_eq!(
        v["hooks"]["SessionStart"][0],
        json!({"matcher": "startup|resume|clear|compact|fork", "hooks": [
            {"type": "command", "command": EXE, "args": ["hook", "SessionStart"], "timeout": 10}
        ]})
    );
    assert_eq!(v["hooks"]["PreCompact"][0]["matcher"], "manual|auto");
    assert!(v["hooks"]["UserPromptSubmit"][0].get("matcher").is_none());
    assert_eq!(
        v["hooks"]["PostToolUse"][0]["matcher"],
        "Write|Edit|MultiEdit"
    );
    assert_eq!(merged.changes.len(), 5);
    assert!(text.ends_with("}\n"));
    assert!(merge(Some(""), EXE).unwrap().text.is_some());
}

#[test]
fn keeps_other_keys_hooks_and_order_and_is_idempotent() {
    let existing = r#"{
  "model": "opus",
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    "SessionStart": [
      {"matcher": "startup", "hooks": [{"type": "command", "command": "/usr/bin/other-tool"}]}
    ]
  },
  "permissions": {"allow": ["Read"]}
}
"#;
    let merged = merge(Some(existing), EXE).unwrap();
    let text = merged.text.unwrap();
    let keys: Vec<String> = value(&text).as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["model", "hooks", "permissions"]);
    let v = value(&text);
    let hook_keys: Vec<&String> = v["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        hook_keys,
        [
            "Stop",
            "SessionStart",
            "UserPromptSubmit",
            "PreCompact",
            "PostCompact",
            "PostToolUse"
        ]
    );
    assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "say done");
    assert_eq!(
        v["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "/usr/bin/other-tool"
    );
    assert_eq!(v["hooks"]["SessionStart"][1]["hooks"][0]["command"], EXE);

    let again = merge(Some(&text), EXE).unwrap();
    assert_eq!(again.text, None, "second run changes nothing");
    assert!(again.changes.is_empty());
}

#[test]
fn updates_an_old_entry_of_ours_in_place_and_drops_duplicates() {
    let existing = r#"{"hooks": {
  "PreCompact": [
    {"matcher": "auto", "hooks": [{"type": "command", "command": "resume-tui hook", "timeout": 10000, "statusMessage": "saving"}]},
    {"hooks": [{"type": "command", "command": "/old/path/resume-tui", "args": ["hook"]}]}
  ]
}}"#;
    let merged = merge(Some(existing), "/new/resume-tui").unwrap();
    let v = value(&merged.text.unwrap());
    let groups = v["hooks"]["PreCompact"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(groups[0]["matcher"], "manual|auto");
    let h = &groups[0]["hooks"][0];
    assert_eq!(h["command"], "/new/resume-tui");
    assert_eq!(h["args"], json!(["hook", "PreCompact"]));
    assert_eq!(h["timeout"], 10, "milliseconds corrected to seconds");
    assert_eq!(h["statusMessage"], "saving", "other fields kept");
    assert!(merged.changes.iter().any(|c| c.contains("removed 1")));
}

#[test]
fn malformed_settings_are_reported_with_line_and_column() {
    let err = merge(Some("{\n  \"hooks\": {,\n}"), EXE).unwrap_err();
    assert_eq!((err.line, err.column), (Some(2), Some(13)));
    let err = merge(Some("[1]"), EXE).unwrap_err();
    assert!(err.message.contains("not a JSON object"));
    let err = merge(Some(r#"{"hooks": []}"#), EXE).unwrap_err();
    assert!(err.message.contains("\"hooks\" is not an object"));
    let err = merge(Some(r#"{"hooks": {"PreCompact": {}}}"#), EXE).unwrap_err();
    assert!(err.message.contains("hooks.PreCompact"));
}

#[test]
fn recognises_our_handlers_only() {
    let ours = [
        json!({"command": "/a/resume-tui", "args": ["hook", "PreCompact"]}),
        json!({"command": "resume-tui hook"}),
        json!({"command": "C:\\tools\\resume-tui.exe", "args": ["hook"]}),
    ];
    for h in &ours {
        assert!(is_ours(h, &OwnExe::default()), "{h}");
    }
    let theirs = [
        json!({"command": "/a/resume-tui", "args": ["list"]}),
        json!({"command": "resume-tui-fork hook"}),
        json!({"command": "python3 hook.py"}),
        json!({"type": "http"}),
    ];
    for h in &theirs {
        assert!(!is_ours(h, &OwnExe::default()), "{h}");
    }
}

#[test]
fn matcher_coverage() {
    let spec = SPECS[0];
    assert!(matcher_fits(None, &spec));
    assert!(matcher_fits(Some(&json!("*")), &spec));
    assert!(matcher_fits(Some(&json!("resume,compact,fork")), &spec));
    assert!(
        !matcher_fits(Some(&json!("resume,compact")), &spec),
        "fork left out"
    );
    assert!(!matcher_fits(Some(&json!("startup")), &spec));
    assert_eq!(
        missing_words("startup|resume", spec.required),
        ["compact", "fork"]
    );
    assert!(missing_words("^(resume|compact|fork)$", spec.required).is_empty());
}

#[test]
fn shell_form_for_older_versions_replaces_an_exec_form_entry() {
    let exec = merge(None, EXE).unwrap().text.unwrap();
    let merged = merge_in(Some(&exec), "/opt/my tools/resume-tui", Form::Shell).unwrap();
    let v = value(&merged.text.unwrap());
    let h = &v["hooks"]["SessionStart"][0]["hooks"][0];
    assert_eq!(h["command"], "'/opt/my tools/resume-tui' hook SessionStart");
    assert!(h.get("args").is_none(), "{h}");
    assert_eq!(
        v["hooks"]["SessionStart"][0]["hooks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert!(is_ours(h, &OwnExe::default()));
}

#[test]
fn a_binary_under_another_name_recognises_its_own_entries() {
    // A release download or a copy: not named resume-tui, but the running binary.
    let exe = "/opt/bin/resume-tui-x86_64-linux";
    let first = merge(None, exe).unwrap().text.unwrap();
    let again = merge(Some(&first), exe).unwrap();
    assert_eq!(
        again.text, None,
        "second run changes nothing: {:?}",
        again.changes
    );

    let own = OwnExe::at(std::path::Path::new(exe));
    let h = json!({"command": exe, "args": ["hook", "PreCompact"]});
    assert!(is_ours(&h, &own));
    assert!(!is_ours(&h, &OwnExe::default()), "by name alone it is not");
    let shell = json!({"command": format!("'{exe}' hook PreCompact")});
    assert!(is_ours(&shell, &own));
    let not_hook = json!({"command": exe, "args": ["list"]});
    assert!(!is_ours(&not_hook, &own));
    let other = json!({"command": "/opt/bin/other-tool", "args": ["hook", "PreCompact"]});
    assert!(!is_ours(&other, &own));

    // An older Claude Code: the exec-form entries become shell form in place.
    let shell = merge_in(Some(&first), exe, Form::Shell).unwrap();
    let v = value(&shell.text.unwrap());
    let groups = v["hooks"]["SessionStart"].as_array().unwrap();
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(
        groups[0]["hooks"][0]["command"],
        format!("'{exe}' hook SessionStart")
    );

    // One that predates PostCompact: ours is taken out.
    let merged = merge_with(
        Some(&first),
        exe,
        Extras {
            form: Form::Shell,
            statusline: false,
            force: false,
            claude: Some(Version(2, 1, 50)),
            own: &own,
            shadows: None,
        },
    )
    .unwrap();
    let v = value(&merged.text.unwrap());
    assert!(v["hooks"].get("PostCompact").is_none(), "{v}");
    assert!(
        merged
            .changes
            .iter()
            .any(|c| c.starts_with("PostCompact: removed")),
        "{:?}",
        merged.changes
    );
}

#[test]
fn lower_levels_follow_claude_codes_precedence() {
    use crate::hook::args::SettingsLevel::{Local, Project, User};
    assert_eq!(lower_levels(Local), [Project, User]);
    assert_eq!(lower_levels(Project), [User]);
    assert!(lower_levels(User).is_empty());
}

#[test]
fn a_shell_form_install_from_a_path_with_a_quote_is_idempotent() {
    // Issue 33.7: the `'\''` that shell_quote writes made the entry unrecognised,
    // so every run added another copy.
    let exe = "/home/o'brien/bin/rt-renamed";
    let first = merge_in(None, exe, Form::Shell).unwrap().text.unwrap();
    assert!(
        first.contains(r"'/home/o'\\''brien/bin/rt-renamed' hook SessionStart"),
        "{first}"
    );
    let second = merge_in(Some(&first), exe, Form::Shell).unwrap();
    assert_eq!(
        second.text, None,
        "second run changes nothing: {:?}",
        second.changes
    );
}
