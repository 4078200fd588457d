//! Redaction through the hook binary: every text copied from a project or a hook
//! payload into a checkpoint, the log, or an injection (and the prompt the operator
//! copies) loses its secrets, while text that only looks like one stays as written.
//! Also: the log is created owner-only.

#[path = "support/hook_fixture.rs"]
mod hook_fixture;
#[path = "support/hostile.rs"]
mod hostile;
#[path = "support/needs.rs"]
mod needs;
#[path = "support/transcript.rs"]
mod transcript;

use hook_fixture::{Fixture, WORKFLOW, context_of, iso, payload};
use serde_json::json;

/// (text holding a secret, the part that must never be copied).
const SECRETS: [(&str, &str); 12] = [
    (
        "key sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh end",
        "AbCdEf0123456789_xyzXYZ",
    ),
    (
        "openai sk-proj-1234567890abcdefghijKLMN",
        "1234567890abcdefghijKLMN",
    ),
    ("aws AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
    (
        "gh ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    (
        "pat github_pat_11ABCDEFG0123456789_abcdefghijklmnop",
        "11ABCDEFG0123456789_abcdefghijklmnop",
    ),
    (
        "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
        "123456789012-1234567890123",
    ),
    (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig",
        "eyJhbGciOiJIUzI1NiJ9",
    ),
    ("db password=hunter2hunter2 ok", "hunter2hunter2"),
    ("client_secret: 'abcdefghijkl'", "abcdefghijkl"),
    (
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCY",
        "wJalrXUtnFEMI",
    ),
    ("url?token=abcdef123&x=1", "abcdef123"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
        "MIIEowIBAAKCAQEA",
    ),
];

/// Round 2 (issue 16): the families that leaked, after gitleaks' rule list.
const ROUND_TWO: [(&str, &str); 12] = [
    (
        "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "eyJzdWIiOiIxMjM0NTY3ODkwIn0",
    ),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI",
    ),
    ("PGPASSWORD=s3cretpgpw psql -h db", "s3cretpgpw"),
    (
        "DATABASE_URL=postgres://app:hunter22pw@db.internal:5432/x",
        "hunter22pw",
    ),
    (
        "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc",
        "4eC39HqLyjWDarjtT1zdp7dc",
    ),
    (
        "google AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
        "SyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
    ),
    (
        "npm npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    ("gitlab glpat-xxxxABCDEFGHIJ123456", "xxxxABCDEFGHIJ123456"),
    (
        "x-sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh",
        "AbCdEf0123456789_xyzXYZ",
    ),
    (
        "KEY_sk-ant-api03-ZyXwVu9876543210_abcABC-hgfedcba",
        "ZyXwVu9876543210_abcABC",
    ),
    (
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "dXNlcjpwYXNzd29yZA",
    ),
    (
        "hf hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
        "AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
    ),
];

/// Round 3 (issue 16, item 3): families still copied as written after round 2 —
/// npm tokens with capitals, webhooks, keyword-less and keyword-bound shapes,
/// command lines, `Authorization: token`, `*_PASS=` and prefixed tokens right
/// after a letter.
const ROUND_THREE: [(&str, &str); 12] = [
    (
        "npm npm_XeeSaOcAa2qtQPoOAST0VqJ8vmTByO9mQB5J",
        "XeeSaOcAa2qtQPoOAST0VqJ8vmTByO9mQB5J",
    ),
    (
        "hook https://hooks.slack.com/services/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",
        "GfdsaKXhPZKFRvqXKuec9D96",
    ),
    (
        "https://discord.com/api/webhooks/485927577030445371/uE5sQkbJcH99SrBRImM7nFp-laaoOscCefC2iZYbvq4Tf4WUksXYP1q8rv0toW5J59Lk",
        "uE5sQkbJcH99SrBRImM7nFp",
    ),
    (
        "twilio SK0ee979b8d2bfd591920b7f499aee25f0",
        "0ee979b8d2bfd591920b7f499aee25f0",
    ),
    (
        "databricks dapief0f3e2f047cb11caf27a32370c131c4",
        "ef0f3e2f047cb11caf27a32370c131c4",
    ),
    (
        "azure bP88Q~rcBcYjzzOhg1Hnn76Wm3jGgakZiZ.8vMgR",
        "rcBcYjzzOhg1Hnn76Wm3jGgakZiZ",
    ),
    (
        "mailgun key-0jwg0y5wjyp11lm19ey80ga7p3uw3e9l",
        "0jwg0y5wjyp11lm19ey80ga7p3uw3e9l",
    ),
    (
        "telegram 411955984:AHa3Ni3epJ26fvjuo4LfrBfL4mtUvLxr-QT",
        "AHa3Ni3epJ26fvjuo4LfrBfL4mtUvLxr",
    ),
    ("curl -u admin:Pa55word https://x", "Pa55word"),
    (
        "abcsk-ant-api03-QwErTy0123456789_abcXYZ-zyxwvuts",
        "QwErTy0123456789_abcXYZ",
    ),
    ("DB_PASS=dbpass1234 ./migrate", "dbpass1234"),
    (
        "Authorization: token 0123456789abcdef0123",
        "0123456789abcdef0123",
    ),
];

/// Look like secrets, are not: copied as written.
const NEAR_MISSES: [&str; 12] = [
    "use sk-learn for models",
    "task-ant-colony-simulation-notes-round-2",
    "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39",
    "a key-value store",
    "the --password option",
    "the task-list-of-things",
    "AKIA is a prefix",
    "max_tokens: 4096",
    "password: <your password>",
    "TOKEN=${GITHUB_TOKEN}",
    "the bearer of bad news",
    "QG-1: 0.941, QG-2: 0.9505",
];

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// The fixture's workflow with a secret (or a near miss) in every copied field.
fn workflow() -> String {
    workflow_with(&SECRETS)
}

fn workflow_with(secrets: &[(&str, &str)]) -> String {
    let near = quoted(&NEAR_MISSES.join(" | "));
    let mut text = WORKFLOW_FIELDS
        .replace("{near}", &near)
        .replace("{at}", &iso(60));
    // `{p0}` to `{p11}`: the secrets in turn (no secret holds a placeholder).
    for i in 0..12 {
        let secret = quoted(secrets[i % secrets.len()].0);
        text = text.replace(&format!("{{p{i}}}"), &secret);
    }
    text
}

/// The workflow `workflow_with` fills in: `{pN}` a secret, `{near}` the near
/// misses, `{at}` a minute ago.
const WORKFLOW_FIELDS: &str = r#"workflow:
  id: "demo-wf-001"
  status: "ACTIVE"
resumption:
  recovery_state:
    last_checkpoint: "CP-001"
    current_phase: 2
    current_phase_name: {p0}
    workflow_status: "ACTIVE"
    current_activity: {p1}
    next_step: {p2}
    context_fill_at_update: 0.5
    updated_at: "{at}"
  files_to_read:
    - path: "projects/PROJ-001-demo/plan.md"
      purpose: {p3}
  quality:
    lowest_dimension: {p4}
  defects:
    recurring_patterns:
      - pattern: {p5}
        resolution: {p6}
  agent_summaries:
    writer: {p7}
    reviewer: {p8}
    near: {near}
  decision_log:
    - id: "RD-001"
      decision: {p9}
      rationale: {p10}
      affects_phases: [3]
      applied: false
    - id: "RD-002"
      decision: {p11}
      affects_phases: [3]
      applied: false
"#;

fn assert_no_secret(what: &str, text: &str) {
    for (_, body) in SECRETS.iter().chain(&ROUND_TWO).chain(&ROUND_THREE) {
        assert!(
            !text.contains(body),
            "{what} holds the secret {body:?}:\n{text}"
        );
    }
}

fn all_secrets() -> String {
    SECRETS
        .iter()
        .chain(&ROUND_TWO)
        .chain(&ROUND_THREE)
        .map(|(s, _)| *s)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn checkpoints_injections_and_the_prompt_copy_lose_every_secret() {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &workflow());
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    let stdin = payload(
        "PreCompact",
        Some(&transcript),
        json!({"trigger": "manual", "custom_instructions": all_secrets()}),
    );
    assert_eq!(fx.run(&["PreCompact"], &stdin).0, "");
    let names = fx.checkpoints();
    assert_eq!(names.len(), 1, "{names:?}");
    let checkpoint = fx.read(&format!(".jerry/checkpoints/{}", names[0]));
    assert_no_secret("the checkpoint", &checkpoint);
    let decoded = serde_json::from_str::<serde_json::Value>(&checkpoint)
        .unwrap()
        .to_string();
    assert!(decoded.contains("[REDACTED]"));
    for near in NEAR_MISSES {
        assert!(
            decoded.contains(&quoted(near)[1..quoted(near).len() - 1]),
            "{near:?} lost:\n{checkpoint}"
        );
    }

    let summary = format!("Summary. {}", all_secrets());
    let stdin = payload(
        "PostCompact",
        Some(&transcript),
        json!({"trigger": "manual", "compact_summary": summary}),
    );
    fx.run(&["PostCompact"], &stdin);
    let checkpoint = fx.read(&format!(".jerry/checkpoints/{}", names[0]));
    assert!(checkpoint.contains("Summary."), "{checkpoint}");
    assert_no_secret("the checkpoint after PostCompact", &checkpoint);

    let out = fx.prompt_submitted(&transcript);
    assert!(out.contains("compaction-alert"), "{out}");
    assert_no_secret(
        "the UserPromptSubmit injection",
        &context_of(&out, "UserPromptSubmit"),
    );

    let context = fx.context_after_compaction();
    assert!(context.contains("demo-wf-001"), "{context}");
    assert_no_secret("the SessionStart injection", &context);
    assert_no_secret("the log", &fx.log());

    let (run, copied) = hostile::copy_prompt(fx.root(), "demo-wf-001");
    assert_no_secret("the prompt", &run.stdout);
    assert_no_secret("the clipboard", &copied);
}

/// `secrets` in every field of the workflow, then in every copy: the checkpoint
/// PreCompact writes, the UserPromptSubmit stdout (its whole line, not only the
/// decoded injection), the SessionStart injection, the prompt and the
/// clipboard, and the log; each copy that shows the workflow shows a `[REDACTED]`.
fn every_copy_loses(secrets: &[(&str, &str)]) {
    let fx = Fixture::new();
    fx.write(WORKFLOW, &workflow_with(secrets));
    let transcript = fx.edits_in("projects/PROJ-001-demo");
    let stdin = payload(
        "PreCompact",
        Some(&transcript),
        json!({"trigger": "manual"}),
    );
    assert_eq!(fx.run(&["PreCompact"], &stdin).0, "");
    let names = fx.checkpoints();
    let checkpoint = fx.read(&format!(".jerry/checkpoints/{}", names[0]));
    assert!(checkpoint.contains("[REDACTED]"), "{checkpoint}");
    assert_no_secret("the checkpoint", &checkpoint);
    let out = fx.prompt_submitted(&transcript);
    assert!(out.contains("[REDACTED]"), "{out}");
    assert_no_secret("the UserPromptSubmit stdout", &out);
    assert_no_secret(
        "the UserPromptSubmit injection",
        &context_of(&out, "UserPromptSubmit"),
    );
    let context = fx.context_after_compaction();
    assert!(context.contains("[REDACTED]"), "{context}");
    assert_no_secret("the SessionStart injection", &context);
    let (run, copied) = hostile::copy_prompt(fx.root(), "demo-wf-001");
    assert!(run.stdout.contains("[REDACTED]"), "{}", run.stdout);
    assert!(run.stdout.contains("a key-value store"), "{}", run.stdout);
    assert_no_secret("the prompt", &run.stdout);
    assert_no_secret("the clipboard", &copied);
    assert_no_secret("the log", &fx.log());
}

/// Round 2's families in every field a copy takes: the prompt, the clipboard,
/// both injections and the checkpoint.
#[test]
fn round_two_families_are_redacted_in_every_copy() {
    every_copy_loses(&ROUND_TWO);
}

/// Round 3's families in every copy: the prompt (its output and the
/// clipboard), both hooks' stdout, the checkpoint and the log.
#[test]
fn round_three_families_are_redacted_in_every_copy() {
    every_copy_loses(&ROUND_THREE);
}

/// A failure naming a path that holds round 3's shapes is logged without them.
#[test]
fn round_three_families_never_reach_the_log() {
    let fx = Fixture::new();
    let missing = fx.root().join(
        "xnpm_XeeSaOcAa2qtQPoOAST0VqJ8vmTByO9mQB5J/hooks.slack.com/services/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/telegram 411955984:AHa3Ni3epJ26fvjuo4LfrBfL4mtUvLxr-QT/session.jsonl",
    );
    let out = fx.prompt_submitted(&missing);
    assert_no_secret("the UserPromptSubmit stdout", &out);
    let log = fx.log();
    assert!(
        log.contains("hooks.slack.com/services/[REDACTED]"),
        "the failure was logged: {log}"
    );
    assert_no_secret("the log", &log);
}

/// The log once printed an `sk-ant` key that a `-` preceded.
#[test]
fn an_sk_ant_key_after_a_dash_never_reaches_the_log() {
    let fx = Fixture::new();
    let missing = fx
        .root()
        .join("x-sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh/session.jsonl");
    fx.prompt_submitted(&missing);
    let log = fx.log();
    assert!(
        log.contains("x-[REDACTED]"),
        "the failure was logged: {log}"
    );
    assert_no_secret("the log", &log);
}

#[test]
fn log_lines_are_redacted_and_the_log_is_owner_only() {
    let fx = Fixture::new();
    let missing = fx
        .root()
        .join("password=hunter2hunter2/token=abcdef123/session.jsonl");
    let out = fx.prompt_submitted(&missing);
    assert!(!out.contains("hunter2"));
    let log = fx.log();
    assert!(
        log.contains("password=[REDACTED]"),
        "the failure was logged: {log}"
    );
    assert_no_secret("the log", &log);
    let path = fx.log.path().join("hook.log");
    assert_eq!(hostile::mode_of(&path), 0o600, "the log is owner-only");
}
