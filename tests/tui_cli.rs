//! The dashboard's entry from the command line: the headless first frame used for
//! measurements, and a clear refusal when there is no terminal.

use assert_cmd::Command;

/// The demo's first frame of `size` as text; `setup` adds arguments and variables.
fn first_frame(size: &str, setup: impl FnOnce(&mut Command)) -> String {
    let mut command = Command::cargo_bin("resume-tui").unwrap();
    command
        .args(["--demo", "--render-once", size])
        .env_remove("NO_COLOR");
    setup(&mut command);
    let out = command.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

#[test]
fn render_once_prints_one_frame_of_the_asked_size() {
    let text = first_frame("80x24", |_| {});
    assert_eq!(text.lines().count(), 24, "{text}");
    assert!(
        text.lines().all(|l| resume_tui::core::text::width(l) <= 80),
        "{text}"
    );
    assert!(text.contains("Projects 11"), "{text}");
}

#[test]
fn a_bad_size_is_a_usage_error() {
    let assert = Command::cargo_bin("resume-tui")
        .unwrap()
        .args(["--demo", "--render-once", "wide"])
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("expected WIDTHxHEIGHT"), "{stderr}");
}

#[test]
fn without_a_terminal_the_dashboard_says_what_to_use_instead() {
    let assert = Command::cargo_bin("resume-tui")
        .unwrap()
        .arg("--demo")
        .write_stdin("")
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("needs a terminal"), "{stderr}");
}

/// The first frame's status line with the user's files in `config_dir`, passing
/// `--config config_dir/resume.toml`; `$RESUME_TUI_CONFIG` points at `elsewhere`.
fn status_with_config(config_dir: &std::path::Path, elsewhere: &std::path::Path) -> String {
    let text = first_frame("400x24", |command| {
        command
            .arg("--config")
            .arg(config_dir.join("resume.toml"))
            .env("RESUME_TUI_CONFIG", elsewhere.join("config.toml"));
    });
    text.lines().nth(22).unwrap_or_default().to_string()
}

#[test]
fn keymap_and_theme_files_are_read_beside_the_config_flag_file() {
    let dir = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("resume.toml"),
        "[ui]\ntheme = \"mine.toml\"\n",
    )
    .unwrap();
    // Both files have a mistake, so that the status line proves they were read.
    std::fs::write(
        dir.path().join("keymap.toml"),
        "keymap = [ { on = \"x\", run = \"launch\" } ]\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("mine.toml"),
        "extends = \"light\"\n[styles]\nsparkle = { fg = \"red\" }\n",
    )
    .unwrap();
    let status = status_with_config(dir.path(), elsewhere.path());
    assert!(
        status.contains("keymap.toml:1:") && status.contains("unknown action \"launch\""),
        "{status}"
    );
    assert!(
        status.contains("mine.toml: styles.sparkle: unknown style"),
        "{status}"
    );

    // Without them beside --config, those in $RESUME_TUI_CONFIG's folder are used.
    std::fs::remove_file(dir.path().join("keymap.toml")).unwrap();
    std::fs::write(
        elsewhere.path().join("keymap.toml"),
        "keymap = [ { on = \"x\", run = \"fly\" } ]\n",
    )
    .unwrap();
    let status = status_with_config(dir.path(), elsewhere.path());
    assert!(status.contains("unknown action \"fly\""), "{status}");
}
