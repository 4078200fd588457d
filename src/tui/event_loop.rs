//! The run loop: sets up the terminal (and restores it on quit, error and panic),
//! turns terminal events, file changes and effect results into messages, and runs
//! the effects `update` asks for. It blocks on a channel: no polling while idle.

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{IsTerminal, Stdout, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;

use super::color_depth::ColorDepth;
use super::effect::Effect;
use super::glyphs::Glyphs;
use super::input;
use super::keymap::Keymap;
use super::loader::Pass;
use super::model::{Model, StatusKind};
use super::msg::Msg;
use super::runner::Runner;
use super::signals::{self, Signal};
use super::terminal::{self, HeldWriter, Modes};
#[cfg(feature = "test-fault")]
use super::test_fault::TestFault;
use super::theme;
use super::user_files::UserFiles;
use super::{update, view};
use crate::app::Context;
use crate::io::clock;
use crate::{Error, Result};

/// Opens the dashboard on `ctx.root`. A signal that ends it gives the shell's
/// exit code for the signal, after the same clean-up as a quit.
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
    if ctx.env.get("TERM") == Some("dumb") {
        return Err(Error::Usage(
            "TERM=dumb: the dashboard needs a terminal that can move the cursor; \
             for scripts use `resume-tui list` or `show`"
                .into(),
        ));
    }
    let modes = Modes::for_term(ctx.env.get("TERM"));
    install_panic_hook();
    terminal::take(modes).map_err(|e| Error::io("terminal", e))?;
    let result = Terminal::new(CrosstermBackend::new(std::io::stdout()))
        .map_err(|e| Error::io("terminal", e))
        .and_then(|mut term| {
            let ended = event_loop(ctx, &mut term, &mut model, problems, modes);
            // Not dropped: ratatui's drop shows the cursor again, and when it cannot
            // (the terminal hung up) it prints with eprintln, which panics with
            // stderr gone. Giving the terminal back shows the cursor.
            std::mem::forget(term);
            ended
        });
    let restored = terminal::give_back();
    match result? {
        Ended::Quit => {
            restored.map_err(|e| Error::io("terminal", e))?;
            if let Some(text) = model.farewell.take() {
                let mut stdout = std::io::stdout();
                stdout
                    .write_all(text.as_bytes())
                    .and_then(|()| stdout.flush())
                    .map_err(|e| Error::io("stdout", e))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        // The terminal may be gone (SIGHUP): giving it back was the best effort.
        Ended::Signal(signal) => Ok(ExitCode::from(Signal::exit_code(signal))),
    }
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
    let (depth, problem) = color_depth(ctx);
    problems.extend(problem);
    let theme = super::color_depth::adapt(theme, depth);
    let (keymap, problem) = load_keymap(&files);
    problems.extend(problem);
    let (glyphs, problem) = glyphs(ctx);
    problems.extend(problem);
    let mut model = Model::new(ctx.config.clone(), theme, keymap, ctx.now);
    model.glyphs = glyphs;
    model.workspace.root = ctx.root.display().to_string();
    model.demo = ctx.is_demo();
    model.in_tmux = ctx.env.get("TMUX").is_some();
    model.editor = super::launch::editor_from(ctx.env.get("VISUAL"), ctx.env.get("EDITOR"));
    (model, problems)
}

/// The colour depth: the config's `ui.colors`, else what the environment says.
fn color_depth(ctx: &Context) -> (ColorDepth, Option<String>) {
    let env = |name| ctx.env.get(name);
    let detected = || ColorDepth::detect(env("COLORTERM"), env("TERM"), env("STY").is_some());
    match ColorDepth::parse(&ctx.config.ui.colors) {
        Ok(Some(depth)) => (depth, None),
        Ok(None) => (detected(), None),
        Err(problem) => (detected(), Some(problem)),
    }
}

/// The glyph set: the config's `ui.glyphs`, else what the locale and `TERM` say.
pub fn glyphs(ctx: &Context) -> (Glyphs, Option<String>) {
    let env = |name| ctx.env.get(name);
    let detected = || Glyphs::detect([env("LC_ALL"), env("LC_CTYPE"), env("LANG")], env("TERM"));
    match Glyphs::parse(&ctx.config.ui.glyphs) {
        Ok(Some(glyphs)) => (glyphs, None),
        Ok(None) => (detected(), None),
        Err(problem) => (detected(), Some(problem)),
    }
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

/// How the run loop ended.
enum Ended {
    Quit,
    Signal(i32),
}

/// Gives the terminal back before the previous hook (color-eyre's) reports the
/// panic. A panic on the UI thread then unwinds and ends the process; on any other
/// thread (a load or copy worker) the process ends here, holding the terminal's
/// lock so that the UI thread cannot draw again after the restore.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    let ui_thread = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        let held = terminal::give_back_for_good();
        previous(info);
        if std::thread::current().id() != ui_thread {
            std::process::exit(101);
        }
        drop(held);
    }));
}

/// Draws the model, in ASCII when asked.
fn view_in(model: &Model, frame: &mut ratatui::Frame) {
    view::view(model, frame);
    if model.glyphs == Glyphs::Ascii {
        super::glyphs::to_ascii(frame.buffer_mut());
    }
}

/// Draws a frame, unless the terminal has been given back.
fn draw(terminal: &mut Term, model: &Model) -> Result<()> {
    match terminal::with_held(|| terminal.draw(|frame| view_in(model, frame))) {
        Some(drawn) => drawn.map(drop).map_err(|e| Error::io("terminal", e)),
        None => Ok(()),
    }
}

/// Clears the screen and starts a new `Terminal`, whose next frame is drawn whole
/// (Ctrl-L, after a resume). Not `Terminal::clear`: it asks the terminal for the
/// cursor position, and the input thread would take the answer.
fn redraw_whole(terminal: &mut Term) -> Result<()> {
    let fresh = || -> std::io::Result<()> {
        crossterm::execute!(
            terminal.backend_mut(),
            crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
        )?;
        // The old one is forgotten, not dropped (see `run`).
        let new_terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
        std::mem::forget(std::mem::replace(terminal, new_terminal));
        Ok(())
    };
    terminal::with_held(fresh)
        .unwrap_or(Ok(()))
        .map_err(|e| Error::io("terminal", e))
}

/// Ctrl-Z or SIGTSTP: gives the terminal back, stops until `fg`, then sets it up
/// again and redraws everything.
fn suspend(terminal: &mut Term, modes: Modes) -> Result<()> {
    let io = |e| Error::io("terminal", e);
    terminal::give_back().map_err(io)?;
    signals::stop_until_continued().map_err(io)?;
    terminal::take(modes).map_err(io)?;
    redraw_whole(terminal)
}

/// Outside tmux, `$EDITOR` in the dashboard's own terminal: the input reader
/// stops, the terminal is given back, the program runs to its end, then the
/// terminal is set up again, redrawn whole, and every file read again.
fn run_here(
    terminal: &mut Term,
    modes: Modes,
    gate: &input::ReaderGate,
    window: &super::launch::Window,
) -> Result<Msg> {
    let io = |e| Error::io("terminal", e);
    gate.close();
    terminal::give_back().map_err(io)?;
    let outcome = super::launch::run_here(window);
    let taken = terminal::take(modes).map_err(io);
    gate.open();
    taken?;
    redraw_whole(terminal)?;
    Ok(Msg::Launched(outcome))
}

fn event_loop(
    ctx: &Context,
    terminal: &mut Term,
    model: &mut Model,
    mut problems: Vec<String>,
    modes: Modes,
) -> Result<Ended> {
    let (tx, rx) = mpsc::channel::<Msg>();
    let gate = input::ReaderGate::default();
    input::spawn_reader(tx.clone(), gate.clone());
    problems.extend(signals::listen(tx.clone()).err());
    let mut runner = Runner::new(ctx, tx.clone());
    runner.start_watching();
    // Every problem with the user's files at once: the status bar has one line.
    if !problems.is_empty() {
        update::update(model, Msg::Problem(problems.join(" · ")), clock::now());
    }
    if let Some(problem) = runner.take_problem() {
        update::update(model, Msg::Problem(problem), clock::now());
    }
    runner.run(Effect::LoadAll, &mut HeldWriter(terminal.backend_mut()));
    #[cfg(feature = "test-fault")]
    let fault = TestFault::from_env(&ctx.env);
    loop {
        draw(terminal, model)?;
        let Some(batch) = input::next_batch(&rx, model) else {
            return Ok(Ended::Quit);
        };
        for mut msg in batch {
            match msg {
                Msg::Signal(Signal::End(signal)) => return Ok(Ended::Signal(signal)),
                Msg::Signal(Signal::Suspend) => {
                    suspend(terminal, modes)?;
                    continue;
                }
                _ if input::is_ctrl(&msg, 'z') => {
                    suspend(terminal, modes)?;
                    continue;
                }
                _ if input::is_ctrl(&msg, 'l') => {
                    redraw_whole(terminal)?;
                    continue;
                }
                _ => {}
            }
            #[cfg(feature = "test-fault")]
            if let (Some(fault), Msg::Key(_)) = (fault, &msg) {
                fault.strike(&tx)?;
            }
            let (mut watch_after_frame, mut read_all) = (None, false);
            if let Msg::Loaded(Ok(loaded)) = &mut msg {
                if loaded.unread {
                    // Drawn before its folders are planned and watched: tens of
                    // thousands of watches at 10,000 projects (`Runner::watch_discovered`).
                    watch_after_frame = Some(std::mem::take(&mut loaded.state_folders));
                } else if loaded.preview {
                    runner.watch_preview(loaded);
                } else {
                    runner.watch_workspace(loaded);
                    read_all = true;
                }
            }
            let effects = update::update(model, msg, clock::now());
            if read_all {
                // The workspace it replaced was dropped just now.
                super::heap::tidy_after_load();
            }
            if let Some(state_folders) = watch_after_frame {
                draw(terminal, model)?;
                #[cfg(feature = "test-fault")]
                super::test_fault::hold_watch(&ctx.env);
                // The discovered rows are the model's workspace now (or, were
                // they ignored, what it read: its folders are as good).
                runner.watch_discovered(&model.workspace, &state_folders);
            }
            for effect in effects {
                if effect == Effect::Quit {
                    return Ok(Ended::Quit);
                }
                if let Effect::RunHere(window) = &effect {
                    let done = run_here(terminal, modes, &gate, window)?;
                    let _ = tx.send(done);
                    runner.run(Effect::LoadAll, &mut HeldWriter(terminal.backend_mut()));
                    continue;
                }
                runner.run(effect, &mut HeldWriter(terminal.backend_mut()));
            }
            if let Some(problem) = runner.take_problem() {
                model.report_status(StatusKind::Error, problem);
            }
        }
        if model.quit {
            return Ok(Ended::Quit);
        }
    }
}

/// Which frame `render_once` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rendered {
    /// The dashboard's first: what discovery found, rows still loading.
    First,
    /// The one drawn when the preview pass has read every file.
    AllRead,
}

/// Discovers the workspace (and reads it, for `Rendered::AllRead`) and draws one
/// frame of `width`×`height` as text to `out`: the hidden `--render-once WxH`
/// flag (`--render-first` for the first frame), for time and memory measurements.
pub fn render_once(
    ctx: &Context,
    theme_override: Option<&str>,
    size: &str,
    until: Rendered,
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
    // The same messages, in the same order, as the dashboard's first load (see
    // `loader`).
    let root = Path::new(&ctx.root);
    let discovery = crate::io::discover::discover(root, &ctx.env);
    let found = super::loader::discovered(root, &discovery);
    update::update(&mut model, Msg::Loaded(Ok(Box::new(found))), ctx.now);
    if until == Rendered::AllRead {
        let loaded = super::loader::load(
            root,
            &ctx.env,
            &discovery,
            ctx.now,
            &ctx.config,
            Pass::Preview,
        );
        update::update(&mut model, Msg::Loaded(Ok(Box::new(loaded))), ctx.now);
    }
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

/// Draws the model (in its glyph set) into an off-screen buffer and returns its
/// text, one line per row.
pub fn draw_to_text(model: &Model, width: u16, height: u16) -> std::io::Result<String> {
    let mut terminal = Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    terminal
        .draw(|frame| view_in(model, frame))
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
            skip = crate::core::text::width(symbol).saturating_sub(1);
            line.push_str(symbol);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
