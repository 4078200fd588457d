use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use resume_tui::app::Context;
use resume_tui::cli::{self, Cli, Command};
use resume_tui::core::time::Timestamp;
use resume_tui::hook::{HookArgs, stdin as hook_stdin};
use resume_tui::io::{clock, env::Env};

fn main() -> ExitCode {
    run()
}

fn run() -> ExitCode {
    // Claude Code runs `resume-tui hook [EVENT]` and `resume-tui statusline` on
    // every event: those exact forms skip building the whole command line parser
    // (a third of a do-nothing run's instructions). Anything else goes to clap.
    match hot_path_args() {
        Some(HotPath::Hook(args)) => return resume_tui::hook::run_from_process(&args, None),
        Some(HotPath::Statusline) => return resume_tui::hook::run_statusline(None),
        None => {}
    }
    let cli = Cli::parse();
    if let Some(Command::Hook(args)) = &cli.command {
        // Hook mode never reports to the terminal: every failure is logged and exit is 0.
        return resume_tui::hook::run_from_process(args, cli.config.as_deref());
    }
    if let Some(Command::Statusline) = &cli.command {
        return resume_tui::hook::run_statusline(cli.config.as_deref());
    }
    if cli.command.is_none() && cli.render_once.is_none() && !std::io::stdin().is_terminal() {
        // An older Claude Code ignores `args` and runs the bare binary: with a hook
        // event on stdin, act as `hook` for it (docs/hooks.md, "Claude Code versions").
        let payload = hook_stdin::read_stdin(hook_stdin::Wait::HOOK, hook_stdin::MAX_BYTES);
        if resume_tui::hook::is_hook_payload(&payload) {
            return resume_tui::hook::run_bare(payload, cli.config.as_deref());
        }
    }
    if color_eyre::install().is_err() {
        eprintln!("resume-tui: could not install error reporting");
    }
    // Not locked for the whole run: the dashboard's panic hook writes to stdout to
    // restore the terminal, and on a worker thread it would wait on this lock forever.
    let mut stdout = std::io::stdout();
    let (env, now) = (Env::from_process(), clock::now());
    let result = if cli.command.is_none() {
        run_dashboard(cli, env, now, &mut stdout)
    } else {
        cli::run(cli, env, now, &mut stdout)
    };
    match result {
        Ok(code) => code,
        // The reader went away (`resume-tui list | head -1`): nothing to report.
        Err(resume_tui::Error::Io { source, .. })
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            let message = err.to_string();
            let message = resume_tui::core::text::escape_controls(&message);
            // A closed stderr (`… 2>&1 | true`) must not turn the error into a
            // panic: the exit code still says what happened.
            let _ = writeln!(std::io::stderr(), "resume-tui: {message}");
            match err {
                resume_tui::Error::Ambiguous(_) => ExitCode::from(2),
                _ => ExitCode::from(1),
            }
        }
    }
}

/// No command: the dashboard, or with `--render-once` its first frame as text.
fn run_dashboard(
    cli: Cli,
    env: Env,
    now: Timestamp,
    out: &mut dyn std::io::Write,
) -> resume_tui::Result<ExitCode> {
    let mut ctx = Context::new(cli.root, cli.demo, cli.config, env, now)?;
    // The flags win over the config file.
    if cli.ascii {
        ctx.config.ui.glyphs = "ascii".to_string();
    }
    if let Some(depth) = cli.colors {
        ctx.config.ui.colors = depth;
    }
    if let Some(size) = cli.render_once.as_deref() {
        let until = if cli.render_first {
            resume_tui::tui::event_loop::Rendered::First
        } else {
            resume_tui::tui::event_loop::Rendered::AllRead
        };
        return resume_tui::tui::event_loop::render_once(
            &ctx,
            cli.theme.as_deref(),
            size,
            until,
            out,
        );
    }
    resume_tui::tui::run(&ctx, cli.theme.as_deref())
}

enum HotPath {
    Hook(HookArgs),
    Statusline,
}

/// `hook`, `hook EVENT` (an event name: letters only) or `statusline`, with no
/// option: what clap would parse them to.
fn hot_path_args() -> Option<HotPath> {
    let mut args = std::env::args_os().skip(1);
    let command = args.next()?;
    let event = args.next();
    if args.next().is_some() {
        return None;
    }
    match (command.to_str()?, event) {
        ("statusline", None) => Some(HotPath::Statusline),
        ("hook", None) => Some(HotPath::Hook(HookArgs {
            event: None,
            dry_run: false,
            explain: false,
        })),
        ("hook", Some(event)) => {
            let event = event.into_string().ok()?;
            let plain = !event.is_empty()
                && event != "help"
                && event.bytes().all(|b| b.is_ascii_alphabetic());
            plain.then_some(HotPath::Hook(HookArgs {
                event: Some(event),
                dry_run: false,
                explain: false,
            }))
        }
        _ => None,
    }
}
