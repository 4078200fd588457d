//! `doctor`'s view of the Claude Code on PATH: whether the installed form runs on
//! it, and events it predates (docs/hooks.md, "Claude Code versions").

use super::{Finding, Registration, Status, finding};
use crate::hook::install::Version;
use crate::hook::install::form::EXEC_FORM_SINCE;

/// An event newer than the Claude Code on PATH: registering it makes that
/// version reject the whole settings file.
pub fn predates(event: &str, since: Version, version: Version, registered: bool) -> Finding {
    if registered {
        return finding(
            Status::Error,
            event,
            &format!(
                "registered, but Claude Code {version} predates {event} ({since}) and rejects the whole settings file over it; run `resume-tui hooks install` to take it out"
            ),
        );
    }
    finding(
        Status::Ok,
        event,
        &format!("not registered, as Claude Code {version} predates it ({since})"),
    )
}

/// The Claude Code on PATH, and exec-form entries it would not run as written.
pub fn check_version(
    version: Result<Version, String>,
    registrations: &[Registration],
    findings: &mut Vec<Finding>,
) -> Option<String> {
    let version = match version {
        Ok(version) => version,
        Err(reason) => {
            findings.push(finding(
                Status::Info,
                "claude",
                &format!("{reason}; the install form was not checked against a version"),
            ));
            return None;
        }
    };
    let old = version < EXEC_FORM_SINCE;
    let exec: Vec<&str> = registrations
        .iter()
        .filter(|r| r.exec_form)
        .map(|r| r.event)
        .collect();
    if old && !exec.is_empty() {
        findings.push(finding(
            Status::Warning,
            "claude",
            &format!(
                "Claude Code {version} ignores `args` (read from {EXEC_FORM_SINCE}): {} run the bare binary, which acts as `hook` only by reading the event from stdin; run `resume-tui hooks install` to write the shell form",
                exec.join(", ")
            ),
        ));
    } else {
        findings.push(finding(
            Status::Ok,
            "claude",
            &format!("Claude Code {version}: the installed form runs on it"),
        ));
    }
    Some(version.to_string())
}
