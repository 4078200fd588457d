//! The dashboard in ASCII (`--ascii`, `[ui] glyphs = "ascii"`, or a terminal
//! without Unicode): every cell is ASCII, and the Quality tab's chart tells its
//! gates apart by mark, with its axes labelled (ratatui's Braille lines would all
//! have become `*`).

mod tui_support;

use resume_tui::tui::glyphs::Glyphs;
use tui_support::*;

fn ascii_screen(w: u16, h: u16, keys: &[&str]) -> String {
    let mut m = demo_model(w, h);
    m.glyphs = Glyphs::Ascii;
    select(&mut m, "payouts-v2-20260302-001");
    press(&mut m, keys);
    resume_tui::tui::event_loop::draw_to_text(&m, w, h).unwrap()
}

#[test]
fn the_quality_chart_in_ascii_marks_each_gate_and_keeps_its_axes() {
    let text = ascii_screen(120, 40, &["2"]);
    assert!(text.is_ascii(), "{text}");
    for expected in ["*.. qg-1", "o:: qg-2", "- pass 0.92", "1.00|", "iteration"] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    insta::assert_snapshot!("quality_ascii_120x40", text);
}

#[test]
fn every_screen_is_ascii_at_every_width() {
    for (w, h) in [(30, 24), (80, 24), (120, 40)] {
        for tab in ["1", "2", "3", "4", "5"] {
            let text = ascii_screen(w, h, &[tab]);
            assert!(text.is_ascii(), "{w}x{h} tab {tab}:\n{text}");
        }
    }
}

/// `resume-tui --demo [FLAGS] --render-once 120x40`: the first frame as text.
fn first_frame(flags: &[&str], env: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("resume-tui")
        .unwrap()
        .env_clear()
        .env("HOME", dir.path())
        .env("RESUME_TUI_CONFIG", dir.path().join("none.toml"))
        .envs(env.iter().copied())
        .arg("--demo")
        .args(flags)
        .args(["--render-once", "120x40"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_ascii_flag_forces_ascii_in_a_utf8_terminal_and_the_default_stays_unicode() {
    let utf8 = [("LANG", "en_US.UTF-8"), ("TERM", "xterm-256color")];
    let unicode = first_frame(&[], &utf8);
    assert!(unicode.contains('┌') && unicode.contains('⚑'), "{unicode}");
    let ascii = first_frame(&["--ascii"], &utf8);
    assert!(ascii.is_ascii(), "{ascii}");
    assert!(ascii.starts_with("+ Projects"), "{ascii}");
}

#[test]
fn the_colors_flag_takes_only_a_depth() {
    let out = assert_cmd::Command::cargo_bin("resume-tui")
        .unwrap()
        .args(["--demo", "--colors", "millions", "--render-once", "80x24"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("truecolor, 256, 16, none"), "{err}");
}
