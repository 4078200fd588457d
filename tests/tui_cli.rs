//! The dashboard's entry from the command line: the headless first frame used for
//! measurements, and a clear refusal when there is no terminal.

use assert_cmd::Command;

#[test]
fn render_once_prints_one_frame_of_the_asked_size() {
    let out = Command::cargo_bin("resume-tui")
        .unwrap()
        .args(["--demo", "--render-once", "80x24"])
        .env_remove("NO_COLOR")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 24, "{text}");
    assert!(
        text.lines().all(|l| resume_tui::tui::text::width(l) <= 80),
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
