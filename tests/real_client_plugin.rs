//! The plugin (`plugin/`, listed by `.claude-plugin/marketplace.json`) in the real
//! Claude Code client (`RESUME_TUI_CLAUDE`; tests/support/real_client.rs), each
//! test once per version, against the stand-in Messages API: loaded for a session
//! with `--plugin-dir`, and installed from the repository as a local marketplace,
//! its hooks run and their context reaches the model's request; without the binary
//! on PATH it fails nothing; uninstalled, nothing of it runs or stays enabled.
//! What was seen: docs/hooks.md, "The plugin".

#[path = "support/real_client.rs"]
mod real_client;
#[path = "support/real_client_api.rs"]
mod real_client_api;

use std::path::{Path, PathBuf};

use real_client::{Client, World, clients, text};

fn each(test: impl Fn(&Client)) {
    for client in clients() {
        eprintln!("-- Claude Code {}", client.label());
        test(&client);
    }
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn plugin_dir() -> String {
    repository().join("plugin").display().to_string()
}

/// `resume-tui` on the world's PATH, as `cargo install` puts it there (every
/// world has it: `hooks install --project` names the binary found on PATH).
fn install_binary(world: &World) {
    assert!(world.home.path().join("bin/resume-tui").exists());
}

/// The world without `resume-tui` on its PATH.
fn uninstall_binary(world: &World) {
    std::fs::remove_file(world.home.path().join("bin/resume-tui")).unwrap();
}

/// `claude ARGS` (not a session): its output, failing the test unless it succeeded.
fn claude_ok(world: &World, args: &[&str]) -> String {
    let out = world.claude(args);
    assert!(
        out.status.success(),
        "claude {} {args:?}: {}",
        world.client.label(),
        text(&out)
    );
    text(&out)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// A session, then a resumed one: the hooks' contexts of the resumed session's
/// model request.
/// Whether resume-tui's SessionStart(resume) context is in `contexts`: a session
/// that works on no workflow of its own (this "Hello." one) is told of the demo's
/// other session's checkpoint, never told to resume it.
fn from_resume_tui(contexts: &str) -> bool {
    contexts.contains("<other-session-checkpoint>") || contexts.contains("NEXT ACTION")
}

fn resumed_contexts(world: &World, extra: &[&str]) -> String {
    let session = world.print("Hello.", extra);
    world.api.clear();
    let mut args = vec!["--resume", session.as_str()];
    args.extend_from_slice(extra);
    world.print("Go on.", &args);
    world.last_contexts()
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn the_plugin_dir_runs_the_hooks_and_their_context_reaches_the_model() {
    each(|client| {
        let world = World::bare(client);
        install_binary(&world);
        let said = claude_ok(&world, &["plugin", "validate", &plugin_dir()]);
        assert!(said.contains("Validation passed"), "{said}");
        let repo = repository().display().to_string();
        let said = claude_ok(&world, &["plugin", "validate", &repo]);
        assert!(said.contains("Validation passed"), "marketplace: {said}");

        let contexts = resumed_contexts(&world, &["--plugin-dir", &plugin_dir()]);
        assert!(
            from_resume_tui(&contexts),
            "{}: the plugin's SessionStart context is not in the request: {contexts:?}\nlog:\n{}",
            client.label(),
            world.hook_log()
        );
        let log = world.hook_log();
        assert!(log.contains("SessionStart: source resume"), "{log}");
        assert!(log.contains("UserPromptSubmit"), "{log}");

        // The slash commands are one call of the binary each.
        world.api.clear();
        world.print("/resume-tui:timeline", &["--plugin-dir", &plugin_dir()]);
        let sent = world.api.messages_text();
        assert!(
            sent.contains("payouts-v2-20260302-001"),
            "{}: /resume-tui:timeline did not bring the timeline: {}",
            client.label(),
            sent.chars().rev().take(2000).collect::<String>()
        );
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn without_the_binary_the_plugin_fails_nothing() {
    each(|client| {
        let world = World::bare(client);
        uninstall_binary(&world);
        // `print` fails the test on a client error; the hooks exit 0 silently.
        let contexts = resumed_contexts(&world, &["--plugin-dir", &plugin_dir()]);
        assert!(contexts.is_empty(), "{}: {contexts:?}", client.label());
        assert!(world.hook_log().is_empty(), "{}", world.hook_log());
    });
}

#[test]
#[cfg_attr(
    not(resume_tui_claude),
    ignore = "needs RESUME_TUI_CLAUDE=<claude binary>[:<another>…]"
)]
fn installed_from_the_repository_as_a_marketplace_and_uninstalled_without_a_trace() {
    each(|client| {
        let world = World::bare(client);
        install_binary(&world);
        let repo = repository().display().to_string();
        claude_ok(&world, &["plugin", "marketplace", "add", &repo]);
        claude_ok(&world, &["plugin", "install", "resume-tui@resume-tui"]);
        let claude_dir = world.home.path().join(".claude");
        let settings = claude_dir.join("settings.json");
        let installed = claude_dir.join("plugins/installed_plugins.json");
        assert!(
            read(&settings).contains("\"resume-tui@resume-tui\": true"),
            "{}",
            read(&settings)
        );
        assert!(read(&installed).contains("resume-tui@resume-tui"));
        let listed = claude_ok(&world, &["plugin", "list"]);
        assert!(listed.contains("resume-tui@resume-tui"), "{listed}");
        if claude_ok(&world, &["plugin", "--help"]).contains("details") {
            let details = claude_ok(&world, &["plugin", "details", "resume-tui@resume-tui"]);
            assert!(
                details.contains(
                    "Hooks (5)  SessionStart, UserPromptSubmit, PreCompact, PostCompact, PostToolUse"
                ),
                "{details}"
            );
        }

        // resume-tui sees the plugin, and will not double it.
        let doctor = text(&world.resume_tui(&["doctor"]));
        assert!(
            doctor.contains("ok      SessionStart: registered at plugin resume-tui@resume-tui"),
            "{doctor}"
        );
        let refused = world.resume_tui(&["hooks", "install"]);
        assert!(!refused.status.success(), "{}", text(&refused));
        assert!(text(&refused).contains("run every event twice"));

        let contexts = resumed_contexts(&world, &[]);
        assert!(
            from_resume_tui(&contexts),
            "{}: the installed plugin's context is not in the request: {contexts:?}",
            client.label()
        );

        claude_ok(&world, &["plugin", "uninstall", "resume-tui@resume-tui"]);
        claude_ok(&world, &["plugin", "marketplace", "remove", "resume-tui"]);
        assert!(
            !read(&settings).contains("resume-tui"),
            "{}",
            read(&settings)
        );
        assert!(
            !read(&installed).contains("resume-tui"),
            "{}",
            read(&installed)
        );
        let log_before = world.hook_log();
        let contexts = resumed_contexts(&world, &[]);
        assert!(contexts.is_empty(), "{}: {contexts:?}", client.label());
        assert_eq!(
            world.hook_log(),
            log_before,
            "a hook ran after the uninstall"
        );
    });
}
