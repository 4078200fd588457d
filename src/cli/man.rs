//! `resume-tui man`: the manual page, in roff, written from the same clap
//! definitions as the parser and `--help`: the program and its options, then each
//! command with its usage, what it does, and its arguments and options (README,
//! "Install", says where to put it so that `man resume-tui` finds it).

use std::io::Write;

use clap::{Arg, Command, CommandFactory};

use super::Cli;

pub fn write(out: &mut dyn Write) -> std::io::Result<()> {
    let mut cmd = Cli::command();
    cmd.build();
    let name = cmd.get_name().to_string();
    let version = cmd.get_version().unwrap_or_default();
    let about = cmd.get_about().map(ToString::to_string).unwrap_or_default();
    let title = escape(&name.to_uppercase());
    writeln!(out, ".TH {title} 1 \"\" \"{} {version}\"", escape(&name))?;
    writeln!(out, ".SH NAME\n{} \\- {}", escape(&name), escape(&about))?;
    writeln!(out, ".SH SYNOPSIS\n{}", usage(&mut cmd))?;
    writeln!(out, ".SH DESCRIPTION\n{}", paragraphs(DESCRIPTION))?;
    writeln!(out, ".SH OPTIONS")?;
    arguments(&cmd, out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in cmd.get_subcommands_mut() {
        command(sub, out)?;
    }
    writeln!(out, ".SH SEE ALSO\n{}", paragraphs(SEE_ALSO))
}

const DESCRIPTION: &str = "Without a command, resume-tui opens the dashboard over the \
workspace: every project and its resumption state. The commands below read, render and \
edit the same files for scripts, and `hook` is what Claude Code runs.";

const SEE_ALSO: &str = "The README and docs/ of the resume-tui repository: \
docs/keybindings.md for the dashboard, docs/hooks.md for the hook mode, docs/formats.md \
for the files read and the --json output.";

/// One command (and, indented, its own subcommands).
fn command(cmd: &mut Command, out: &mut dyn Write) -> std::io::Result<()> {
    if cmd.is_hide_set() || cmd.get_name() == "help" {
        return Ok(());
    }
    writeln!(out, ".SS \"{}\"", usage(cmd))?;
    let about = cmd
        .get_long_about()
        .or(cmd.get_about())
        .map(ToString::to_string)
        .unwrap_or_default();
    writeln!(out, "{}", paragraphs(&about))?;
    writeln!(out, ".RS")?;
    arguments(cmd, out)?;
    writeln!(out, ".RE")?;
    for sub in cmd.get_subcommands_mut() {
        command(sub, out)?;
    }
    Ok(())
}

/// Each visible argument and option: its form, then its help (with the default
/// and the values it takes). The global options are listed once, at the top.
fn arguments(cmd: &Command, out: &mut dyn Write) -> std::io::Result<()> {
    let top = cmd.get_bin_name().is_none_or(|b| !b.contains(' '));
    let shown = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && (top || !a.is_global_set()))
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"));
    for arg in shown {
        writeln!(out, ".TP\n{}", form(arg))?;
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(ToString::to_string)
            .unwrap_or_default();
        writeln!(out, "{}", paragraphs(&help))?;
        let values: Vec<_> = arg
            .get_possible_values()
            .into_iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| match v.get_help() {
                Some(help) => format!("{}: {help}", v.get_name()),
                None => v.get_name().to_string(),
            })
            .collect();
        if !values.is_empty() {
            writeln!(out, ".br\nValues: {}.", escape(&values.join("; ")))?;
        }
        let defaults: Vec<_> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy())
            .collect();
        if !defaults.is_empty() && arg.get_action().takes_values() {
            writeln!(out, ".br\nDefault: {}.", escape(&defaults.join(", ")))?;
        }
    }
    Ok(())
}

/// `\fB--name\fR \fIVALUE\fR`, or `\fIPROJECT\fR` for a positional.
fn form(arg: &Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|names| names.first())
        .map(ToString::to_string)
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase());
    let takes_value = arg.get_action().takes_values();
    match (arg.get_short(), arg.get_long()) {
        (None, None) => format!("\\fI{}\\fR", escape(&value)),
        (short, long) => {
            let mut names = Vec::new();
            names.extend(short.map(|s| format!("\\fB\\-{s}\\fR")));
            names.extend(long.map(|l| format!("\\fB\\-\\-{}\\fR", escape(l))));
            let names = names.join(", ");
            if takes_value {
                format!("{names} \\fI{}\\fR", escape(&value))
            } else {
                names
            }
        }
    }
}

/// `resume-tui list [OPTIONS]`, without clap's "Usage: " label.
fn usage(cmd: &mut Command) -> String {
    let usage = cmd.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim();
    escape(usage)
}

/// Text as roff paragraphs: blank lines separate them, lines run on.
fn paragraphs(text: &str) -> String {
    text.split("\n\n")
        .map(|p| escape(&p.split_whitespace().collect::<Vec<_>>().join(" ")))
        .collect::<Vec<_>>()
        .join("\n.PP\n")
}

/// Escapes what roff would read as markup: backslashes, hyphens, and a leading
/// `.` or `'` (a request).
fn escape(text: &str) -> String {
    let text = text.replace('\\', "\\e").replace('-', "\\-");
    match text.chars().next() {
        Some('.' | '\'') => format!("\\&{text}"),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roff_markup_in_help_is_escaped() {
        assert_eq!(escape(".hidden"), "\\&.hidden");
        assert_eq!(escape("a\\b --json"), "a\\eb \\-\\-json");
        assert_eq!(paragraphs("one\ntwo\n\nthree"), "one two\n.PP\nthree");
    }
}
