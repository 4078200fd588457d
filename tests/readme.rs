//! What the README claims, checked: its Commands block names every command clap
//! knows and only options they take; it links every document; its picture of the
//! dashboard is what the binary draws now (docs/img/generate.sh redraws it).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use clap::CommandFactory;
use resume_tui::cli::Cli;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

fn repo_file(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The first fenced block after the heading `heading`.
fn block_after(text: &str, heading: &str) -> String {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"));
    let rest = text.get(start..).unwrap();
    let open = rest.find("```").unwrap();
    let body = rest.get(open..).unwrap();
    let body = body.get(body.find('\n').unwrap() + 1..).unwrap();
    body.get(..body.find("```").unwrap()).unwrap().to_string()
}

/// Every command as typed (`hooks install`), with the options it and its parents take.
fn clap_commands(
    cmd: &clap::Command,
    path: Vec<String>,
    inherited: &BTreeSet<String>,
    out: &mut Vec<(String, BTreeSet<String>)>,
) {
    let mut options = inherited.clone();
    for arg in cmd.get_arguments() {
        if let Some(long) = arg.get_long() {
            options.insert(format!("--{long}"));
        }
    }
    let subs: Vec<_> = cmd
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if subs.is_empty() && !path.is_empty() {
        out.push((path.join(" "), options.clone()));
    }
    for sub in subs {
        let mut path = path.clone();
        path.push(sub.get_name().to_string());
        let globals: BTreeSet<String> = cmd
            .get_arguments()
            .filter(|a| a.is_global_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .chain(inherited.iter().cloned())
            .collect();
        clap_commands(sub, path, &globals, out);
    }
}

/// The README's commands (`hooks install`) with the options each line shows.
fn readme_commands() -> Vec<(String, BTreeSet<String>)> {
    let block = block_after(&readme(), "## Commands");
    let mut found: Vec<(String, BTreeSet<String>)> = Vec::new();
    for line in block.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let usage = line.split("  #").next().unwrap_or_default();
        let options: BTreeSet<String> = usage
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|w| w.starts_with("--") && w.len() > 2)
            .map(String::from)
            .collect();
        let Some(rest) = usage.trim_start().strip_prefix("resume-tui ") else {
            if let Some(last) = found.last_mut() {
                last.1.extend(options);
            }
            continue;
        };
        let words: Vec<&str> = rest
            .split_whitespace()
            .take_while(|w| w.chars().all(|c| c.is_ascii_lowercase()))
            .collect();
        found.push((words.join(" "), options));
    }
    found
}

#[test]
fn the_commands_block_names_every_command_and_only_options_they_take() {
    let mut known = Vec::new();
    clap_commands(&Cli::command(), Vec::new(), &BTreeSet::new(), &mut known);
    let mut dashboard = BTreeSet::new();
    for arg in Cli::command().get_arguments().filter(|a| !a.is_hide_set()) {
        if let Some(long) = arg.get_long() {
            dashboard.insert(format!("--{long}"));
        }
    }
    known.push((String::new(), dashboard));

    let listed = readme_commands();
    let names = |list: &[(String, BTreeSet<String>)]| -> BTreeSet<String> {
        list.iter().map(|(name, _)| name.clone()).collect()
    };
    let (known_names, listed_names) = (names(&known), names(&listed));
    let missing: Vec<_> = known_names.difference(&listed_names).collect();
    let extra: Vec<_> = listed_names.difference(&known_names).collect();
    assert!(
        missing.is_empty(),
        "the README's Commands block lacks {missing:?}"
    );
    assert!(
        extra.is_empty(),
        "the README names unknown commands {extra:?}"
    );
    for (name, options) in &listed {
        let (_, takes) = known.iter().find(|(n, _)| n == name).unwrap();
        let unknown: Vec<_> = options.difference(takes).collect();
        assert!(
            unknown.is_empty(),
            "README: `resume-tui {name}` shows {unknown:?}, which it does not take"
        );
    }
}

/// Every relative link target in `text`.
fn links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .map(|target| target.split('#').next().unwrap_or_default().to_string())
        .filter(|target| !target.is_empty() && !target.contains("://"))
        .collect()
}

#[test]
fn every_document_and_the_demo_guide_are_linked_and_every_link_resolves() {
    let text = readme();
    let linked = links(&text);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for target in &linked {
        assert!(
            root.join(target).exists(),
            "README links {target}, which is missing"
        );
    }
    let mut docs: Vec<String> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.push("assets/demo/README.md".to_string());
    for doc in docs {
        assert!(linked.contains(&doc), "README does not link {doc}");
    }
}

/// The demo's temporary folder has a random name, in the temporary folder of the
/// run (`$TMPDIR`, which CI sets); the picture shows `/tmp/resume-tui-demo-XXXXXX`.
fn masked(text: &str) -> String {
    let marker = "resume-tui-demo-";
    let tmp = std::env::temp_dir().display().to_string();
    let text = text.replace(
        &format!("{}/{marker}", tmp.trim_end_matches('/')),
        &format!("/tmp/{marker}"),
    );
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(marker) {
        let (before, after) = rest.split_at(at + marker.len());
        out.push_str(before);
        let random = after
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .count();
        out.push_str("XXXXXX");
        rest = after.get(random..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

#[test]
fn the_picture_is_what_the_binary_draws_now() {
    let stored = repo_file("docs/img/dashboard.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(["--demo", "--render-once", "120x40"])
        .env("LANG", "C.UTF-8")
        .env("TERM", "xterm-256color")
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .env_remove("NO_COLOR")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let drawn = masked(&String::from_utf8(out.stdout).unwrap());
    let trimmed =
        |text: &str| -> Vec<String> { text.lines().map(|l| l.trim_end().to_string()).collect() };
    assert_eq!(
        trimmed(&drawn),
        trimmed(&stored),
        "the dashboard no longer draws docs/img/dashboard.txt: run docs/img/generate.sh \
         (README, \"What it looks like\") and commit the new picture"
    );
    assert_eq!(
        trimmed(&block_after(&readme(), "## What it looks like")),
        trimmed(&stored),
        "the README's text screen differs from docs/img/dashboard.txt"
    );
    let png = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img/dashboard.png"))
        .unwrap();
    assert_eq!(png.get(..8), Some(&b"\x89PNG\r\n\x1a\n"[..]), "not a PNG");
    let be32 = |at: usize| u32::from_be_bytes(png.get(at..at + 4).unwrap().try_into().unwrap());
    assert_eq!(
        (be32(16), be32(20)),
        (1200, 800),
        "120x40 cells of 10x20 pixels"
    );
}
