//! The `statusLine` entries of the settings levels: resume-tui's (and whether it
//! can run) or another tool's, and which one Claude Code shows. Status lines do
//! not merge across levels like hooks: the file of highest precedence that sets
//! one wins (local, then project, then user), and the others are hidden.

use serde_json::Value;

use super::{Finding, Status, executable, finding, shell_program};
use crate::hook::install::{OwnExe, plugin, statusline::is_ours};
use crate::io::env::Env;

/// A `statusLine` value and the settings file that sets it.
#[derive(Debug, Clone)]
pub(super) struct StatusLineAt {
    pub scope: String,
    pub line: Value,
}

/// Checks the status lines of the levels, given lowest precedence first (user,
/// project, local): the last one is the one Claude Code shows.
pub(super) fn check(lines: &[StatusLineAt], own: &OwnExe, env: &Env, findings: &mut Vec<Finding>) {
    let shown = lines.last();
    let shown_is_ours = shown.is_some_and(|s| is_ours(&s.line, own));
    for (index, at) in lines.iter().enumerate() {
        let is_shown = index + 1 == lines.len();
        let below = lines.get(..index).unwrap_or_default();
        if is_ours(&at.line, own) {
            check_ours(at, is_shown, below, shown, (own, env), findings);
        } else if !is_shown && shown_is_ours {
            let by = shown.map(|s| s.scope.as_str()).unwrap_or_default();
            findings.push(finding(
                Status::Info,
                &at.scope,
                &format!(
                    "status line is another tool's ({}), hidden here by resume-tui's at {by}",
                    command_of(&at.line)
                ),
            ));
        } else {
            findings.push(finding(
                Status::Info,
                &at.scope,
                &format!(
                    "status line is another tool's ({}); resume-tui's records Claude Code's window size for the monitor (`hooks install --statusline --force`)",
                    command_of(&at.line)
                ),
            ));
        }
    }
}

fn check_ours(
    at: &StatusLineAt,
    is_shown: bool,
    below: &[StatusLineAt],
    shown: Option<&StatusLineAt>,
    (own, env): (&OwnExe, &Env),
    findings: &mut Vec<Finding>,
) {
    let scope = &at.scope;
    let program = shell_program(command_of(&at.line));
    // By name (`hooks install --project`): found through PATH at run time.
    let program = match program.contains('/') {
        true => program,
        false => {
            plugin::find_on_path(env, &program).map_or(program, |found| found.display().to_string())
        }
    };
    let runs = std::fs::metadata(&program).is_ok_and(|m| m.is_file() && executable(&m));
    if !runs {
        findings.push(finding(
            Status::Error,
            "statusLine",
            &format!(
                "registered at {scope}, but {program} cannot run; run `resume-tui hooks install --statusline` again"
            ),
        ));
        return;
    }
    let hidden = below.iter().rev().find(|b| !is_ours(&b.line, own));
    let over = shown.filter(|s| !is_shown && !is_ours(&s.line, own));
    let (status, message) = match (is_shown, hidden, over) {
        (true, Some(other), _) => (
            Status::Warning,
            format!(
                "resume-tui statusline registered at {scope} hides another tool's status line set at {} ({}): Claude Code shows only the one of the file with the highest precedence (local, project, user); remove one of them unless that is what you want",
                other.scope,
                command_of(&other.line)
            ),
        ),
        (false, _, Some(other)) => (
            Status::Info,
            format!(
                "resume-tui statusline registered at {scope}, but {} sets another status line ({}), which takes precedence: resume-tui's does not run here",
                other.scope,
                command_of(&other.line)
            ),
        ),
        _ => (
            Status::Ok,
            format!("resume-tui statusline registered at {scope}"),
        ),
    };
    findings.push(finding(status, "statusLine", &message));
}

fn command_of(line: &Value) -> &str {
    line.get("command").and_then(Value::as_str).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(scope: &str, command: &str) -> StatusLineAt {
        StatusLineAt {
            scope: scope.into(),
            line: json!({"type": "command", "command": command}),
        }
    }

    fn statuses(lines: &[StatusLineAt]) -> Vec<(Status, String)> {
        let mut findings = Vec::new();
        check(
            lines,
            &OwnExe::default(),
            &Env::from_pairs([]),
            &mut findings,
        );
        findings
            .into_iter()
            .map(|f| (f.status, f.message))
            .collect()
    }

    #[test]
    fn ours_over_another_tools_is_a_warning_and_under_it_does_not_run() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("resume-tui");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let ours = format!("'{}' statusline", exe.display());

        let found = statuses(&[at("user", "npx ccstatusline"), at("project", &ours)]);
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0].0, Status::Info);
        assert!(
            found[0]
                .1
                .contains("hidden here by resume-tui's at project"),
            "{found:?}"
        );
        assert_eq!(found[1].0, Status::Warning);
        assert!(
            found[1]
                .1
                .contains("hides another tool's status line set at user (npx ccstatusline)"),
            "{found:?}"
        );

        let found = statuses(&[at("user", &ours), at("local", "ccstatusline")]);
        assert_eq!(found[0].0, Status::Info);
        assert!(
            found[0].1.contains("resume-tui's does not run here"),
            "{found:?}"
        );
        assert_eq!(found[1].0, Status::Info);

        // Ours alone, or over ours: ok.
        let found = statuses(&[at("user", &ours), at("project", &ours)]);
        assert!(found.iter().all(|f| f.0 == Status::Ok), "{found:?}");
        // Another tool's over ours over another's: the shown one is theirs.
        let found = statuses(&[at("user", "a"), at("project", &ours), at("local", "b")]);
        assert_eq!(found[1].0, Status::Info, "{found:?}");
        assert!(found[1].1.contains("local sets another status line (b)"));
    }
}
