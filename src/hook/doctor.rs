//! `doctor`: is the hook wiring right? Reads every settings level (user, project,
//! local) and reports missing events or matchers, duplicate registrations,
//! timeouts that look like milliseconds, commands that do not exist or cannot run;
//! then whether the log folder is writable and the last hook errors in the log.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::install::{self, OwnExe, SPECS, Spec, Version, is_ours, missing_words, plugin, probe};

mod passed_over;
mod session;
mod statusline;
mod version;

use statusline::StatusLineAt;

use version::{check_version, predates};

use super::args::SettingsLevel;
use crate::io::env::Env;
use crate::io::log::{self, Level};
pub use session::WindowReport;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Info,
    Warning,
    Error,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Info => "info",
            Status::Warning => "warning",
            Status::Error => "error",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    pub status: Status,
    /// The file or area the finding is about.
    pub scope: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SettingsFile {
    pub level: &'static str,
    pub path: String,
    pub exists: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub settings: Vec<SettingsFile>,
    pub log_file: Option<String>,
    pub log_writable: bool,
    pub recent_errors: Vec<String>,
    /// `claude --version`, when it answered.
    pub claude_version: Option<String>,
    /// Whether the folder is one the hooks act in.
    pub workspace: bool,
    /// The newest session of this folder, measured as the hooks would.
    pub context_window: Option<WindowReport>,
    pub findings: Vec<Finding>,
}

impl Report {
    pub fn worst(&self) -> Status {
        self.findings
            .iter()
            .map(|f| f.status)
            .max()
            .unwrap_or(Status::Ok)
    }
}

/// One registration of resume-tui found in a settings file.
#[derive(Debug, Clone)]
struct Registration {
    event: &'static str,
    scope: String,
    matcher: Option<Value>,
    /// Why its command cannot run, if it cannot.
    broken: Option<String>,
    /// Written with `args` (exec form), which Claude Code reads from v2.1.139.
    exec_form: bool,
    /// One of the resume-tui plugin's hooks.
    from_plugin: bool,
}

fn level_name(level: SettingsLevel) -> &'static str {
    match level {
        SettingsLevel::User => "user",
        SettingsLevel::Project => "project",
        SettingsLevel::Local => "local",
    }
}

/// Checks the wiring under `root` and the log named by `env`; `config_window` is
/// `context.window`; `own` is the running binary (an entry that runs it is
/// resume-tui's, whatever its name).
pub fn run(root: &Path, env: &Env, config_window: u64, own: &OwnExe) -> Report {
    let mut findings = Vec::new();
    let mut settings = Vec::new();
    let mut registrations = Vec::new();
    // Lowest precedence first, as the levels are visited.
    let mut status_lines = Vec::new();
    for level in [
        SettingsLevel::User,
        SettingsLevel::Project,
        SettingsLevel::Local,
    ] {
        let Some(path) = install::settings_path(level, root, env) else {
            findings.push(finding(
                Status::Info,
                level_name(level),
                "no HOME: user settings not checked",
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path);
        settings.push(SettingsFile {
            level: level_name(level),
            path: path.display().to_string(),
            exists: text.is_ok(),
        });
        match text {
            Ok(text) => {
                let line = check_file(&path, &text, own, env, &mut findings, &mut registrations);
                if let Some(line) = line {
                    status_lines.push(StatusLineAt {
                        scope: path.display().to_string(),
                        line,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => findings.push(finding(
                Status::Error,
                &path.display().to_string(),
                &format!("cannot read: {e}"),
            )),
        }
    }
    statusline::check(&status_lines, own, env, &mut findings);
    plugin_registrations(root, env, &mut registrations);
    let version = probe::claude_version(env);
    check_registrations(&registrations, version.as_ref().ok(), &mut findings);
    let claude_version = check_version(version, &registrations, &mut findings);
    let workspace = session::check_workspace(root, &mut findings);
    passed_over::check(root, env, &mut findings);
    let context_window = session::check_window(root, env, config_window, &mut findings);
    let (log_file, log_writable) = check_log(env, &mut findings);
    let recent_errors = log_file
        .as_ref()
        .map(|p| log::recent(Path::new(p), Level::Error, 5))
        .unwrap_or_default();
    if !recent_errors.is_empty() {
        findings.push(finding(
            Status::Info,
            "log",
            &format!("{} recent hook error(s); see below", recent_errors.len()),
        ));
    }
    Report {
        settings,
        log_file,
        log_writable,
        recent_errors,
        claude_version,
        workspace,
        context_window,
        findings,
    }
}

fn finding(status: Status, scope: &str, message: &str) -> Finding {
    Finding {
        status,
        scope: scope.to_string(),
        message: message.to_string(),
    }
}

/// Checks one settings file; returns its `statusLine`, checked with the other
/// levels' (which one Claude Code shows depends on all of them).
fn check_file(
    path: &Path,
    text: &str,
    own: &OwnExe,
    env: &Env,
    findings: &mut Vec<Finding>,
    registrations: &mut Vec<Registration>,
) -> Option<Value> {
    let shown = path.display().to_string();
    let settings = match install::parse(text) {
        Ok(settings) => settings,
        Err(e) => {
            let place = match (e.line, e.column) {
                (Some(l), Some(c)) => format!("{shown}:{l}:{c}"),
                _ => shown.clone(),
            };
            findings.push(finding(
                Status::Error,
                &place,
                &format!("not valid settings JSON: {}", e.message),
            ));
            return None;
        }
    };
    let status_line = settings.get("statusLine").cloned();
    if settings.get("disableAllHooks") == Some(&Value::Bool(true)) {
        findings.push(finding(
            Status::Warning,
            &shown,
            "disableAllHooks is true: no hook runs",
        ));
    }
    let Some(hooks) = settings.get("hooks") else {
        return status_line;
    };
    let Some(hooks) = hooks.as_object() else {
        findings.push(finding(Status::Error, &shown, "\"hooks\" is not an object"));
        return status_line;
    };
    for (event, groups) in hooks {
        let Some(groups) = groups.as_array() else {
            findings.push(finding(
                Status::Error,
                &shown,
                &format!("hooks.{event} is not a list"),
            ));
            continue;
        };
        for (g, group) in groups.iter().enumerate() {
            let handlers = group
                .get("hooks")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for (h, handler) in handlers.iter().enumerate() {
                let scope = format!("{shown}: hooks.{event}[{g}].hooks[{h}]");
                let broken = check_handler(handler, &scope, own, env, findings);
                if is_ours(handler, own) {
                    let spec = SPECS.iter().find(|s| s.event == event);
                    match spec {
                        Some(spec) => registrations.push(Registration {
                            event: spec.event,
                            scope,
                            matcher: group.get("matcher").cloned(),
                            broken,
                            exec_form: handler.get("args").is_some(),
                            from_plugin: false,
                        }),
                        None => findings.push(finding(
                            Status::Warning,
                            &scope,
                            &format!(
                                "resume-tui registered for {event}, which it does nothing for{}",
                                broken.map(|b| format!(" (and {b})")).unwrap_or_default()
                            ),
                        )),
                    }
                }
            }
        }
    }
    status_line
}

/// Checks one handler; a command that cannot run is a finding for other tools'
/// handlers and is returned for resume-tui's own (said once, with its registration).
fn check_handler(
    handler: &Value,
    scope: &str,
    own: &OwnExe,
    env: &Env,
    findings: &mut Vec<Finding>,
) -> Option<String> {
    if let Some(timeout) = handler.get("timeout").and_then(Value::as_f64)
        && timeout >= 1000.0
    {
        findings.push(finding(
            Status::Warning,
            scope,
            &format!(
                "timeout {timeout} looks like milliseconds; Claude Code reads seconds ({} s intended?)",
                timeout / 1000.0
            ),
        ));
    }
    if handler
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t != "command")
    {
        return None;
    }
    let command = handler.get("command").and_then(Value::as_str)?;
    let exec_form = handler.get("args").is_some();
    let program = if exec_form {
        command.to_string()
    } else {
        shell_program(command)
    };
    let path = PathBuf::from(&program);
    if !path.is_absolute() {
        // By name, found through PATH at run time (what `hooks install --project`
        // writes, so that it works in every clone).
        if is_ours(handler, own)
            && !program.contains('/')
            && plugin::find_on_path(env, &program).is_none()
        {
            return Some(format!("`{program}` is not on PATH"));
        }
        return None;
    }
    let broken = match std::fs::metadata(&path) {
        Err(_) => format!("command {program} does not exist"),
        Ok(meta) if !meta.is_file() => format!("command {program} is not a file"),
        Ok(meta) if !executable(&meta) => format!("command {program} is not executable"),
        Ok(_) => return None,
    };
    if is_ours(handler, own) {
        return Some(broken);
    }
    findings.push(finding(Status::Error, scope, &broken));
    None
}

/// The plugin's hooks, one registration an event, when a settings file enables
/// it (a session's `--plugin-dir` leaves no record to see).
fn plugin_registrations(root: &Path, env: &Env, registrations: &mut Vec<Registration>) {
    let Some(enabled) = plugin::enabled(root, env) else {
        return;
    };
    let broken = plugin::find_on_path(env, plugin::NAME).is_none().then(|| {
        format!(
            "`{}` is not on PATH (the plugin's hooks only say how to install it)",
            plugin::NAME
        )
    });
    for spec in SPECS {
        registrations.push(Registration {
            event: spec.event,
            scope: format!(
                "plugin {} (enabled in {})",
                enabled.id,
                enabled.settings.display()
            ),
            matcher: spec.matcher.map(Value::from),
            broken: broken.clone(),
            exec_form: false,
            from_plugin: true,
        });
    }
}

fn shell_program(command: &str) -> String {
    install::form::split_program(command).0
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_meta: &std::fs::Metadata) -> bool {
    true
}

fn check_registrations(
    registrations: &[Registration],
    claude: Option<&Version>,
    findings: &mut Vec<Finding>,
) {
    for spec in SPECS {
        let mine: Vec<&Registration> = registrations
            .iter()
            .filter(|r| r.event == spec.event)
            .collect();
        if let Some(version) = claude.filter(|v| **v < spec.since) {
            findings.push(predates(spec.event, spec.since, *version, !mine.is_empty()));
            continue;
        }
        match mine.as_slice() {
            [] => findings.push(finding(
                Status::Error,
                spec.event,
                "not registered in any settings file; run `resume-tui hooks install`",
            )),
            [one] => check_matcher(one, &spec, findings),
            several => {
                let places: Vec<&str> = several.iter().map(|r| r.scope.as_str()).collect();
                let doubled =
                    several.iter().any(|r| r.from_plugin) && several.iter().any(|r| !r.from_plugin);
                let message = if doubled {
                    format!(
                        "runs twice, from the plugin and from a settings file: {}; keep the plugin and remove resume-tui's entries from the settings file",
                        places.join("; ")
                    )
                } else {
                    format!(
                        "registered {} times (it may run more than once): {}",
                        several.len(),
                        places.join("; ")
                    )
                };
                findings.push(finding(Status::Warning, spec.event, &message));
                for r in several {
                    check_matcher(r, &spec, findings);
                }
            }
        }
    }
}

fn check_matcher(registration: &Registration, spec: &Spec, findings: &mut Vec<Finding>) {
    if let Some(broken) = &registration.broken {
        findings.push(finding(
            Status::Error,
            spec.event,
            &format!(
                "registered at {}, but {broken}: the hook cannot run; {}",
                registration.scope,
                if broken.contains("not on PATH") {
                    "install the binary on PATH (README, \"Install\")"
                } else {
                    "run `resume-tui hooks install` again"
                }
            ),
        ));
    }
    if install::matcher_fits(registration.matcher.as_ref(), spec) {
        // Never "ok" for an entry whose command cannot run.
        if registration.broken.is_none() {
            findings.push(finding(
                Status::Ok,
                spec.event,
                &format!("registered at {}", registration.scope),
            ));
        }
        return;
    }
    let matcher = registration
        .matcher
        .as_ref()
        .and_then(Value::as_str)
        .unwrap_or("(not a string)");
    let missing = missing_words(matcher, spec.required);
    findings.push(finding(
        Status::Error,
        &registration.scope,
        &format!(
            "matcher {matcher:?} leaves out {}; use {:?}",
            if missing.is_empty() {
                "some events".to_string()
            } else {
                missing.join(", ")
            },
            spec.matcher.unwrap_or("")
        ),
    ));
}

fn check_log(env: &Env, findings: &mut Vec<Finding>) -> (Option<String>, bool) {
    let Some(path) = log::log_path(env) else {
        findings.push(finding(
            Status::Error,
            "log",
            "no log folder (no HOME and no RESUME_TUI_LOG_DIR)",
        ));
        return (None, false);
    };
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let writable = std::fs::create_dir_all(&dir)
        .and_then(|()| tempfile::NamedTempFile::new_in(&dir).map(drop))
        .is_ok();
    if writable {
        findings.push(finding(
            Status::Ok,
            "log",
            &format!("log folder {} is writable", dir.display()),
        ));
    } else {
        findings.push(finding(
            Status::Error,
            "log",
            &format!(
                "log folder {} is not writable: hook failures cannot be recorded",
                dir.display()
            ),
        ));
    }
    (Some(path.display().to_string()), writable)
}

/// The report as text, one finding a line, worst first.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    out.push_str("Settings files:\n");
    for file in &report.settings {
        let state = if file.exists { "" } else { " (absent)" };
        out.push_str(&format!("  {:<8}{}{state}\n", file.level, file.path));
    }
    out.push_str(&format!(
        "Log: {}\n\n",
        report.log_file.as_deref().unwrap_or("(none)")
    ));
    let mut findings: Vec<&Finding> = report.findings.iter().collect();
    findings.sort_by_key(|f| std::cmp::Reverse(f.status));
    for f in findings {
        out.push_str(&format!(
            "{:<8}{}: {}\n",
            f.status.label(),
            f.scope,
            f.message
        ));
    }
    if !report.recent_errors.is_empty() {
        out.push_str("\nLast hook errors:\n");
        for line in &report.recent_errors {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}
