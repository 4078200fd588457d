//! What a newcomer reads: every argument's help (with its default), the shell
//! completions (sourced in a real bash and asked to complete), and the man page,
//! all from the one set of clap definitions.

#[path = "support/output.rs"]
mod output;

use std::path::Path;
use std::process::Command;

use clap::CommandFactory;
use resume_tui::cli::Cli;

fn run(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(args)
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .output()
        .unwrap();
    output::success_stdout(args, out)
}

/// Every command, with its path (`["decision", "add"]`).
fn commands(cmd: &clap::Command, path: Vec<String>, out: &mut Vec<(Vec<String>, clap::Command)>) {
    out.push((path.clone(), cmd.clone()));
    for sub in cmd.get_subcommands() {
        let mut path = path.clone();
        path.push(sub.get_name().to_string());
        commands(sub, path, out);
    }
}

#[test]
fn every_argument_has_one_line_of_help_and_an_optional_value_says_its_default() {
    let mut all = Vec::new();
    commands(&Cli::command(), Vec::new(), &mut all);
    let mut problems = Vec::new();
    for (path, cmd) in &all {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let name = format!("{} {}", path.join(" "), arg.get_id());
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            if help.trim().is_empty() {
                problems.push(format!("{name}: no help"));
            }
            let optional_value = arg.get_action().takes_values()
                && !arg.is_required_set()
                && arg.get_default_values().is_empty()
                && arg.get_possible_values().is_empty();
            let says_default = help.contains("[default:") || help.contains("[the default]");
            if optional_value && !says_default {
                problems.push(format!("{name}: optional, but no [default: …] in {help:?}"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn hooks_install_help_describes_each_level_and_the_default() {
    let help = run(&["hooks", "install", "--help"]);
    for (flag, words) in [
        ("--user", "~/.claude/settings.json"),
        ("--project", "[the default]"),
        ("--local", ".claude/settings.local.json"),
        ("--dry-run", "write nothing"),
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap_or_else(|| panic!("{flag} missing:\n{help}"));
        assert!(line.contains(words), "{flag}: {line:?}\n{help}");
    }
}

#[test]
fn the_theme_is_offered_for_the_dashboard_only_and_the_others_say_where_they_apply() {
    assert!(run(&["--help"]).contains("--theme"));
    let list = run(&["list", "--help"]);
    assert!(!list.contains("--theme"), "{list}");
    assert!(list.contains("--root"), "{list}");
    let hook = run(&["hook", "--help"]);
    assert!(hook.contains("the global options are ignored"), "{hook}");
}

/// What bash completes for `words` (the last one being completed), with the
/// script `resume-tui completions bash` prints sourced.
fn bash_complete(script: &Path, words: &[&str]) -> Vec<String> {
    let words_quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{script}'\n\
         COMP_WORDS=({words})\n\
         COMP_CWORD={cword}\n\
         COMP_LINE=\"${{COMP_WORDS[*]}}\"\n\
         COMP_POINT=${{#COMP_LINE}}\n\
         complete=$(complete -p resume-tui)\n\
         function=${{complete#*-F }}\n\
         \"${{function%% *}}\" resume-tui \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"\n\
         printf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        script = script.display(),
        words = words_quoted.join(" "),
        cword = words.len() - 1,
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn bash_completes_options_past_the_subcommand() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("resume-tui.bash");
    std::fs::write(&script, run(&["completions", "bash"])).unwrap();
    assert_eq!(
        bash_complete(&script, &["resume-tui", "list", "--j"]),
        ["--json"]
    );
    assert_eq!(
        bash_complete(&script, &["resume-tui", "hooks", "install", "--l"]),
        ["--local"]
    );
    assert_eq!(
        bash_complete(&script, &["resume-tui", "prompt", "x", "--style", ""]),
        ["emoji", "plain"]
    );
    let top = bash_complete(&script, &["resume-tui", "--r"]);
    assert_eq!(top, ["--root"], "the hidden --render-once is not offered");
}

#[test]
fn no_shell_is_offered_the_hidden_flag() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = run(&["completions", shell]);
        assert!(
            script.contains("--json") || script.contains("json"),
            "{shell}"
        );
        assert!(
            !script.contains("render-once"),
            "{shell} offers --render-once"
        );
    }
}

#[test]
fn the_man_page_has_every_command_and_option() {
    let page = run(&["man"]);
    assert!(page.starts_with(".TH RESUME\\-TUI 1 "), "{}", &page[..80]);
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH COMMANDS"] {
        assert!(page.contains(section), "{section}");
    }
    let mut all = Vec::new();
    commands(&Cli::command(), Vec::new(), &mut all);
    for (path, cmd) in all.iter().filter(|(p, _)| !p.is_empty()) {
        let usage = format!(".SS \"resume\\-tui {}", path.join(" ").replace('-', "\\-"));
        assert!(page.contains(&usage), "{usage} missing");
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            if let Some(long) = arg.get_long() {
                let form = format!("\\fB\\-\\-{}\\fR", long.replace('-', "\\-"));
                assert!(page.contains(&form), "{path:?}: {form} missing");
            }
        }
    }
    assert!(
        !page.contains("render\\-once"),
        "the hidden flag is left out"
    );
    assert!(page.contains("Default: emoji."), "defaults are shown");
}

/// The binary's output (status, stdout, stderr) for `args`, with no user config.
fn attempt(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_resume-tui"))
        .args(args)
        .env("RESUME_TUI_CONFIG", "/nonexistent/config.toml")
        .env_remove("CLAUDE_PROJECT_DIR")
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_command_lists_its_own_options_before_the_global_ones() {
    let mut all = Vec::new();
    commands(&Cli::command(), Vec::new(), &mut all);
    for (path, _) in all
        .iter()
        .filter(|(p, _)| p.first().is_some_and(|c| c != "help"))
    {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = run(&args);
        let own = help.find("\nOptions:\n");
        let global = help.find("\nGlobal options:\n");
        let global = global.unwrap_or_else(|| panic!("{path:?}: no global options\n{help}"));
        if let Some(own) = own {
            assert!(own < global, "{path:?}: global options first\n{help}");
        }
        let globals = help.get(global..).unwrap_or_default();
        for flag in ["--root", "--demo", "--config"] {
            let before = help.get(..global).unwrap_or_default();
            assert!(
                !before.lines().any(|l| l.trim_start().starts_with(flag)),
                "{path:?}: {flag} among the command's own options\n{help}"
            );
            assert!(globals.contains(flag), "{path:?}: {flag} missing\n{help}");
        }
    }
}

#[test]
fn a_global_option_that_makes_no_sense_for_the_command_is_refused() {
    for (args, says) in [
        (
            &["hooks", "install", "--demo", "--dry-run"][..],
            "--demo makes no sense with `hooks install`",
        ),
        (
            &["--demo", "init", "--dry-run"],
            "--demo makes no sense with `init`",
        ),
        (
            &["completions", "bash", "--root", "/"],
            "--root makes no sense with `completions`",
        ),
        (
            &["man", "--config", "x.toml"],
            "--config makes no sense with `man`",
        ),
    ] {
        let (ok, stdout, stderr) = attempt(args);
        assert!(!ok, "{args:?} succeeded:\n{stdout}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    // The same options where they do make sense.
    assert!(attempt(&["--demo", "list"]).0);
    assert!(attempt(&["hooks", "install", "--root", "/tmp", "--dry-run", "--local"]).0);
}

#[test]
fn a_missing_config_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("typo.toml");
    let missing = missing.to_str().unwrap();
    for args in [
        vec![
            "--config",
            missing,
            "--root",
            dir.path().to_str().unwrap(),
            "list",
        ],
        vec!["--config", missing, "--demo", "--render-once", "80x24"],
    ] {
        let (ok, stdout, stderr) = attempt(&args);
        assert!(!ok, "{args:?} succeeded:\n{stdout}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(
            stderr.contains(&format!("--config {missing}: no such file")),
            "{args:?}: {stderr}"
        );
    }
    let (ok, _, stderr) = attempt(&["--config", dir.path().to_str().unwrap(), "--demo", "list"]);
    assert!(
        !ok && stderr.contains("a folder, not a config file"),
        "{stderr}"
    );
}
