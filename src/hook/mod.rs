//! Headless hook mode: stdin → decide → write → stdout, one module per event.
//!
//! [`handle`] holds the logic and writes nothing: it returns a [`HookOutcome`]
//! (the exact stdout, the planned writes, log lines, the explanation), so it is
//! tested without a process. [`run_from_process`] reads stdin, calls it, carries
//! out the writes through `io::write`, prints, logs, and always exits 0: a panic is
//! caught and logged, and nothing but the event's documented output reaches stdout.

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::process::ExitCode;

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::io::fsync_later;
use crate::io::log::{self, Level};
use crate::io::write::WriteError;

pub mod args;
mod build;
pub mod caps;
mod checkpoint_budget;
mod checkpoints;
pub(crate) mod context;
mod deadline;
mod delivery;
mod detect;
pub mod doctor;
mod dropped_section;
mod execute;
pub mod input;
pub mod install;
mod lookup;
mod measure;
pub mod output;
mod post_tool_use;
mod postcompact;
mod precompact;
mod project;
mod prune_records;
mod resume_choice;
mod session_start;
pub mod statusline;
pub mod stdin;
mod steer;
mod user_prompt;

pub use args::HookArgs;
pub use context::HookContext;
pub use input::{Event, HookInput};
pub use output::{HookOutcome, PlannedWrite, WriteOp};

/// Decides what `event` calls for. Reads what it needs; writes nothing.
pub fn handle(event: &Event, input: &HookInput, ctx: &HookContext) -> HookOutcome {
    let mut outcome = match event {
        Event::PreCompact => precompact::handle(input, ctx),
        Event::PostCompact => postcompact::handle(input, ctx),
        Event::UserPromptSubmit => user_prompt::handle(input, ctx),
        Event::SessionStart => session_start::handle(input, ctx),
        Event::PostToolUse => post_tool_use::handle(input, ctx),
        Event::Other(name) => HookOutcome::nothing(format!("event {name:?}: nothing to do")),
    };
    if let Some(dir) = ctx.project_dir() {
        outcome
            .explain
            .insert(0, format!("project folder: {}", dir.display()));
    }
    outcome
}

/// Entry point for `resume-tui hook [EVENT]`: always exits 0. `config_file` is
/// the global `--config`.
pub fn run_from_process(args: &HookArgs, config_file: Option<&Path>) -> ExitCode {
    run_guarded(args, config_file, || {
        stdin::read_stdin(stdin::Wait::HOOK, stdin::MAX_BYTES)
    })
}

/// Whether a payload read from stdin is a Claude Code hook event: a JSON object
/// with a string `hook_event_name`.
pub fn is_hook_payload(payload: &stdin::Payload) -> bool {
    matches!(payload, stdin::Payload::Object(map)
        if map.get("hook_event_name").is_some_and(serde_json::Value::is_string))
}

/// The bare binary given a hook event on stdin (an install whose `args` an older
/// Claude Code ignored): acts as `hook` for that event, always exits 0.
pub fn run_bare(payload: stdin::Payload, config_file: Option<&Path>) -> ExitCode {
    let args = HookArgs {
        event: None,
        dry_run: false,
        explain: false,
    };
    let mut payload = Some(payload);
    run_guarded(&args, config_file, move || {
        payload.take().unwrap_or(stdin::Payload::Empty)
    })
}

fn run_guarded(
    args: &HookArgs,
    config_file: Option<&Path>,
    read: impl FnOnce() -> stdin::Payload,
) -> ExitCode {
    let env = Env::from_process();
    let now = crate::io::clock::now();
    install_panic_hook(&env, now);
    deadline::arm(&env, now);
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
        // A problem with the config is logged, and the defaults carry on.
        let (config, problem) = crate::app::context::load_config(config_file, &env);
        let payload = read();
        #[cfg(feature = "test-fault")]
        deadline::test_hang(&env);
        let mut stdout = std::io::stdout().lock();
        let mut stderr = std::io::stderr().lock();
        let run = Run {
            args,
            env: &env,
            now,
            config: &config,
        };
        if let Some(problem) = problem {
            run.log(
                None,
                Level::Error,
                &format!("config {problem}; defaults used"),
            );
        }
        run.payload(payload, &mut stdout, &mut stderr);
    }));
    ExitCode::SUCCESS
}

/// Entry point for `resume-tui statusline`: one line on stdout, always exit 0.
pub fn run_statusline(config_file: Option<&Path>) -> ExitCode {
    let env = Env::from_process();
    let now = crate::io::clock::now();
    install_panic_hook(&env, now);
    deadline::arm(&env, now);
    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let (config, _) = crate::app::context::load_config(config_file, &env);
        let read = stdin::read_stdin_for(
            stdin::Reader::StatusLine,
            stdin::Wait::HOOK,
            stdin::MAX_BYTES,
        );
        let status = match read {
            stdin::Payload::Object(map) => statusline::Status::from_map(&map),
            _ => statusline::Status::default(),
        };
        let line = statusline::line(&status, &env, &config, now);
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{line}");
    }));
    ExitCode::SUCCESS
}

/// Logs a panic's message and location, and prints nothing.
fn install_panic_hook(env: &Env, now: Timestamp) {
    let env = env.clone();
    std::panic::set_hook(Box::new(move |info| {
        let max = Config::default().log.max_bytes;
        let _ = log::append(&env, max, now, Level::Error, "panic", &info.to_string());
    }));
}

/// One invocation, after stdin was read: everything but the process itself.
pub struct Run<'a> {
    pub args: &'a HookArgs,
    pub env: &'a Env,
    pub now: Timestamp,
    pub config: &'a Config,
}

/// How many times a PreCompact that lost the race for a checkpoint number plans
/// again before giving up (and logging it).
const MAX_REPLANS: usize = 64;

impl Run<'_> {
    pub fn payload(&self, payload: stdin::Payload, stdout: &mut dyn Write, stderr: &mut dyn Write) {
        let named = self.args.event.as_deref().map(Event::parse);
        let input = match payload {
            stdin::Payload::Object(map) => HookInput::from_map(map),
            // The cheapest path: no log line, nothing at all.
            stdin::Payload::Empty => return,
            stdin::Payload::Invalid(reason) => {
                return self.log(named.as_ref(), Level::Error, &reason);
            }
            stdin::Payload::Silent { bytes } => {
                let reason = format!(
                    "no complete JSON object on stdin after 2 s of silence ({bytes} bytes read)"
                );
                // Someone trying the hook at a terminal is not a failing hook.
                let typed = bytes == 0 && std::io::IsTerminal::is_terminal(&std::io::stdin());
                let level = if typed { Level::Info } else { Level::Error };
                return self.log(named.as_ref(), level, &reason);
            }
            stdin::Payload::Late { bytes } => {
                let reason = format!(
                    "no complete JSON object on stdin within {} s ({bytes} bytes read, still arriving)",
                    stdin::DEADLINE.as_secs()
                );
                return self.log(named.as_ref(), Level::Error, &reason);
            }
            stdin::Payload::TooLarge => {
                return self.log(
                    named.as_ref(),
                    Level::Error,
                    "stdin larger than 64 MB: ignored",
                );
            }
        };
        let event = named.or_else(|| input.hook_event_name.as_deref().map(Event::parse));
        let Some(event) = event else {
            self.log(
                None,
                Level::Error,
                "no hook_event_name on stdin and no event argument",
            );
            return;
        };
        self.input(&event, &input, stdout, stderr);
    }

    pub fn input(
        &self,
        event: &Event,
        input: &HookInput,
        stdout: &mut dyn Write,
        stderr: &mut dyn Write,
    ) {
        let ctx = HookContext::new(self.env, self.now, self.config, input);
        let mut outcome = handle(event, input, &ctx);
        if self.args.dry_run {
            let report = execute::describe(event.name(), &outcome, self.args.explain);
            let _ = stdout.write_all(report.as_bytes());
            return;
        }
        let mut done = execute::execute(&outcome.writes);
        let lost_race = |done: &execute::Executed| {
            done.failures.iter().any(|e| {
                matches!(
                    e,
                    WriteError::AlreadyExists { .. } | WriteError::ChangedOnDisk { .. }
                )
            })
        };
        // A sibling run created the same checkpoint number first, or rewrote the
        // workspace's precompact state after this run read it: plan again, so this
        // run takes the next free number (or updates its own session's checkpoint)
        // and decides on the state as it now is. Each round one of the racing runs
        // wins, so N sessions compacting together settle within N rounds.
        let mut replans = 0;
        while *event == Event::PreCompact && lost_race(&done) && replans < MAX_REPLANS {
            replans += 1;
            outcome = handle(event, input, &ctx);
            let retried = execute::execute(&outcome.writes);
            done.to_fsync.extend(retried.to_fsync);
            done.old_files.extend(retried.old_files);
            done.failures = retried.failures;
        }
        if !done.failures.is_empty() {
            // The info lines were written when the writes were planned: say so,
            // and which write failed.
            for (level, message) in &mut outcome.log {
                if *level == Level::Info {
                    message.push_str(" (planned; a write failed, below)");
                }
            }
        }
        for e in &done.failures {
            outcome.error(format!("write failed: {e}"));
        }
        if let Some(text) = &outcome.stdout {
            let _ = writeln!(stdout, "{text}");
            let _ = stdout.flush();
        }
        if outcome.log.is_empty() {
            let why = outcome
                .explain
                .last()
                .cloned()
                .unwrap_or_else(|| "nothing to do".into());
            outcome.info(why);
        }
        self.append_outcome_log(event, &outcome.log);
        // The fork comes last, once the output and the log are written: the
        // parent then only exits, and touches no page the child shares with it.
        let logged = outcome.log.len();
        self.fsync_after_exit(&mut outcome, &done.to_fsync);
        // The child holds its own handles on the replaced files now: it frees them.
        drop(done.old_files);
        self.append_outcome_log(event, outcome.log.get(logged..).unwrap_or_default());
        if self.args.explain {
            for line in &outcome.explain {
                let _ = writeln!(stderr, "resume-tui: {line}");
            }
        }
    }

    fn append_outcome_log(&self, event: &Event, log: &[(Level, String)]) {
        if log.is_empty() {
            return;
        }
        let lines: Vec<String> = log
            .iter()
            .map(|(level, message)| log::format_line(self.now, *level, event.name(), message))
            .collect();
        self.append(&lines);
    }

    /// Leaves the durable writes' fsyncs to a child that outlives this process, or
    /// does them here when there is none (`io::fsync_later`).
    fn fsync_after_exit(&self, outcome: &mut HookOutcome, paths: &[std::path::PathBuf]) {
        if paths.is_empty() {
            return;
        }
        let listed = list_paths(paths);
        let line = |message: &str| log::format_line(self.now, Level::Error, "fsync", message);
        let failures = fsync_later::FailureLog {
            path: log::log_path(self.env),
            max_bytes: self.config.log.max_bytes,
            line: &line,
        };
        match fsync_later::detach(paths, &failures) {
            fsync_later::Synced::Later { pid } => {
                outcome.explain(format!("fsync of {listed}: after exit, by process {pid}"));
            }
            fsync_later::Synced::Now { failures } => {
                outcome.explain(format!("fsync of {listed}: before exit (no fork)"));
                for failure in failures {
                    outcome.error(format!("fsync {failure}"));
                }
            }
        }
    }

    fn log(&self, event: Option<&Event>, level: Level, message: &str) {
        let name = event.map_or("hook", Event::name);
        self.append(&[log::format_line(self.now, level, name, message)]);
    }

    fn append(&self, lines: &[String]) {
        if self.args.dry_run {
            return;
        }
        append_log(self.env, self.config, lines);
    }
}

fn list_paths(paths: &[std::path::PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

fn append_log(env: &Env, config: &Config, lines: &[String]) {
    if let Some(path) = log::log_path(env) {
        let _ = log::append_lines(&path, config.log.max_bytes, lines);
    }
}
