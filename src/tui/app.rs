//! The run loop: sets up the terminal (and restores it on quit, error and panic),
//! turns terminal events, file changes and effect results into messages, and runs
//! the effects `update` asks for. It blocks on a channel: no polling while idle.

use std::io::{IsTerminal, Stdout, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::effect::Effect;
use super::keymap::Keymap;
use super::loader::Pass;
use super::model::{Model, StatusKind};
use super::msg::Msg;
use super::runner::Runner;
use super::test_fault::TestFault;
use super::theme;
use super::user_files::UserFiles;
use super::{update, view};
use crate::cli::Context;
use crate::io::clock;
use crate::{Error, Result};

/// Ages on screen are redrawn this often when nothing else happens.
const TICK: Duration = Duration::from_secs(30);

/// Opens the dashboard on `ctx.root`.
pub fn run(ctx: &Context, theme_override: Option<&str>) -> Result<ExitCode> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Error::Usage(
            "the dashboard needs a terminal; for scripts use `resume-tui list` or `show`".into(),
        ));
    }
    let (mut model, problems) = initial_model(ctx, theme_override);
    if let Ok((w, h)) = crossterm::terminal::size() {
        model.size = (w, h);
    }
    install_panic_hook();
    let mut terminal = enter().map_err(|e| Error::io("terminal", e))?;
    let result = event_loop(ctx, &mut terminal, &mut model, problems);
    let restored = leave(&mut terminal);
    result?;
    restored.map_err(|e| Error::io("terminal", e))?;
    Ok(ExitCode::SUCCESS)
}

/// The model before the first load, and the problems found reading the user's
/// config, theme and keymap (shown in the status bar; the defaults carry on).
pub fn initial_model(ctx: &Context, theme_override: Option<&str>) -> (Model, Vec<String>) {
    let mut problems: Vec<String> = ctx.config_problem.iter().cloned().collect();
    let no_color = ctx.env.get("NO_COLOR").is_some();
    let files = UserFiles::for_context(ctx);
    let (theme, problem) = theme::resolve(theme_override, &ctx.config.ui.theme, no_color, |path| {
        files.read_theme(path)
    });
    problems.extend(problem);
    let (keymap, problem) = load_keymap(&files);
    problems.extend(problem);
    let mut model = Model::new(ctx.config.clone(), theme, keymap, ctx.now);
    model.workspace.root = ctx.root.display().to_string();
    model.demo = ctx.is_demo();
    model.in_tmux = ctx.env.get("TMUX").is_some();
    model.editor = super::launch::editor_from(ctx.env.get("VISUAL"), ctx.env.get("EDITOR"));
    (model, problems)
}

/// The first `keymap.toml` of the user's folders, over the defaults.
fn load_keymap(files: &UserFiles) -> (Keymap, Option<String>) {
    match files.find("keymap.toml") {
        Ok(Some((path, text))) => Keymap::with_user(&text, &path.display().to_string()),
        Ok(None) => (Keymap::defaults(), None),
        Err(problem) => (Keymap::defaults(), Some(problem)),
    }
}

type Term = Terminal<CrosstermBackend<Stdout>>;

fn enter() -> std::io::Result<Term> {
    enable_raw_mode()?;
    let mut stdout = std::io::stdout();
    if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
        restore_terminal();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| restore_terminal())
}

fn leave(terminal: &mut Term) -> std::io::Result<()> {
    disable_raw_mode()?;
    execute!(
        terminal.backend_mut(),
        LeaveAlternateScreen,
        DisableMouseCapture
    )?;
    terminal.show_cursor()
}

/// Best effort, for the panic hook and failed set-up: nothing here may panic.
fn restore_terminal() {
    let _ = disable_raw_mode();
    let mut stdout = std::io::stdout();
    let _ = execute!(
        stdout,
        LeaveAlternateScreen,
        DisableMouseCapture,
        crossterm::cursor::Show
    );
    let _ = stdout.flush();
}

/// Restores the terminal before the previous hook (color-eyre's) reports the panic.
/// A panic on the UI thread then unwinds and ends the process; on any other thread
/// (a load or copy worker) the process ends here, as the dashboard cannot go on
/// drawing on a terminal it has given back.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    let ui_thread = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
        if std::thread::current().id() != ui_thread {
            std::process::exit(101);
        }
    }));
}

fn event_loop(
    ctx: &Context,
    terminal: &mut Term,
    model: &mut Model,
    problems: Vec<String>,
) -> Result<()> {
    let (tx, rx) = mpsc::channel::<Msg>();
    spawn_input(tx.clone());
    let mut runner = Runner::new(ctx, tx.clone());
    runner.start_watching();
    // Every problem with the user's files at once: the status bar has one line.
    if !problems.is_empty() {
        update::update(model, Msg::Problem(problems.join(" · ")), clock::now());
    }
    if let Some(problem) = runner.take_problem() {
        update::update(model, Msg::Problem(problem), clock::now());
    }
    runner.run(Effect::LoadAll, terminal.backend_mut());
    let fault = TestFault::from_env(&ctx.env);
    loop {
        terminal
            .draw(|frame| view::view(model, frame))
            .map_err(|e| Error::io("terminal", e))?;
        let Some(first) = next(&rx, model.wake_in()) else {
            return Ok(());
        };
        let mut batch = vec![first];
        batch.extend(rx.try_iter());
        for msg in coalesce(batch) {
            if let (Some(fault), Msg::Key(_)) = (fault, &msg) {
                fault.strike()?;
            }
            if let Msg::Loaded(Ok(loaded)) = &msg
                && !loaded.preview
            {
                runner.watch_workspace(loaded);
            }
            let effects = update::update(model, msg, clock::now());
            for effect in effects {
                if effect == Effect::Quit {
                    return Ok(());
                }
                runner.run(effect, terminal.backend_mut());
            }
            if let Some(problem) = runner.take_problem() {
                model.set_status(StatusKind::Error, problem);
            }
        }
        if model.quit {
            return Ok(());
        }
    }
}

/// The next message, or a Tick after a quiet while (or when the screen changes by
/// itself, `wake_in` seconds from now); `None` when every sender is gone.
fn next(rx: &Receiver<Msg>, wake_in: Option<u64>) -> Option<Msg> {
    let wait = wake_in.map_or(TICK, |s| TICK.min(Duration::from_secs(s)));
    match rx.recv_timeout(wait) {
        Ok(msg) => Some(msg),
        Err(RecvTimeoutError::Timeout) => Some(Msg::Tick),
        Err(RecvTimeoutError::Disconnected) => None,
    }
}

/// Merges bursts: all file changes in one message, only the last resize.
fn coalesce(batch: Vec<Msg>) -> Vec<Msg> {
    let mut out = Vec::with_capacity(batch.len());
    let mut changed: Vec<String> = Vec::new();
    let mut resize = None;
    for msg in batch {
        match msg {
            Msg::FilesChanged(paths) => changed.extend(paths),
            Msg::Resize(w, h) => resize = Some((w, h)),
            other => out.push(other),
        }
    }
    if let Some((w, h)) = resize {
        out.insert(0, Msg::Resize(w, h));
    }
    if !changed.is_empty() {
        changed.sort();
        changed.dedup();
        out.push(Msg::FilesChanged(changed));
    }
    out
}

/// Reads terminal events on their own thread (blocking, so no polling).
fn spawn_input(tx: Sender<Msg>) {
    std::thread::spawn(move || {
        loop {
            let msg = match event::read() {
                Ok(Event::Key(key)) => Msg::Key(key),
                Ok(Event::Mouse(mouse)) => Msg::Mouse(mouse),
                Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                Ok(_) => continue,
                Err(e) => Msg::Problem(format!("reading the terminal: {e}")),
            };
            if tx.send(msg).is_err() {
                return;
            }
        }
    });
}

/// Loads the workspace and draws one frame of `width`×`height` as text to `out`:
/// the hidden `--render-once WxH` flag, for first-frame time and memory measurements.
pub fn render_once(
    ctx: &Context,
    theme_override: Option<&str>,
    size: &str,
    out: &mut dyn Write,
) -> Result<ExitCode> {
    let (w, h) = parse_size(size).ok_or_else(|| {
        Error::Usage(format!(
            "--render-once {size}: expected WIDTHxHEIGHT, e.g. 120x40"
        ))
    })?;
    let (mut model, problems) = initial_model(ctx, theme_override);
    model.size = (w, h);
    if !problems.is_empty() {
        update::update(&mut model, Msg::Problem(problems.join(" · ")), ctx.now);
    }
    // The first frame with projects is the preview pass's (see `loader`).
    let root = Path::new(&ctx.root);
    let discovery = crate::io::discover::discover(root, &ctx.env);
    let loaded = super::loader::load(root, &discovery, ctx.now, &ctx.config, Pass::Preview);
    update::update(&mut model, Msg::Loaded(Ok(Box::new(loaded))), ctx.now);
    let text = draw_to_text(&model, w, h).map_err(|e| Error::io("render", e))?;
    out.write_all(text.as_bytes())
        .map_err(|e| Error::io("stdout", e))?;
    Ok(ExitCode::SUCCESS)
}

fn parse_size(text: &str) -> Option<(u16, u16)> {
    let (w, h) = text.split_once(['x', 'X'])?;
    let (w, h) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}

/// Draws the model into an off-screen buffer and returns its text, one line per row.
pub fn draw_to_text(model: &Model, width: u16, height: u16) -> std::io::Result<String> {
    let mut terminal = Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    terminal
        .draw(|frame| view::view(model, frame))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(buffer_text(terminal.backend().buffer()))
}

/// The symbols of a buffer, one line per row, trailing spaces trimmed.
pub fn buffer_text(buffer: &ratatui::buffer::Buffer) -> String {
    let width = usize::from(buffer.area.width).max(1);
    let mut out = String::new();
    for row in buffer.content().chunks(width) {
        let mut line = String::new();
        let mut skip = 0;
        for cell in row {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = cell.symbol();
            skip = crate::tui::text::width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
