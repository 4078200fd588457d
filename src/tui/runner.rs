//! Performs the effects `update` asks for and sends their results back as messages.
//! Loads run on a worker thread (one at a time; a request during a load runs after
//! it). Copies run on a worker thread too (a native clipboard may take seconds to
//! answer); what they leave for the terminal (OSC 52) comes back in the message and
//! is written here, on the UI thread, between frames. Writes run at once: they are
//! short, and the next edit must see their result.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::Sender;

use super::effect::Effect;
use super::loader;
use super::msg::{LoadedWorkspace, Msg};
use crate::config::{ClipboardConfig, Config};
use crate::io::env::Env;
use crate::io::{clipboard, clock, watch};

/// Copies a text, writing what is meant for the terminal to the given writer.
pub type CopyFn = dyn Fn(&str, &mut dyn Write) -> clipboard::CopyOutcome + Send + Sync;

pub struct Runner {
    root: PathBuf,
    env: Env,
    config: Config,
    tx: Sender<Msg>,
    copy: Arc<CopyFn>,
    watcher: Option<watch::Watcher>,
    planner: watch::Planner,
    /// The folders to watch were set after a load at least once.
    watching: bool,
    loading: bool,
    load_again: bool,
    /// The first load sends what discovery found, then a preview pass, before the
    /// full one (a quick first frame, then quick rows); later loads replace a full workspace, and send the full pass only.
    previewed: bool,
    /// The first load's passes wait on this until the folders discovery found
    /// are watched (see `watch_discovered`).
    release_reads: Option<std::sync::mpsc::Sender<()>>,
    problem: Option<String>,
}

impl Runner {
    pub fn new(ctx: &crate::app::Context, tx: Sender<Msg>) -> Runner {
        let copy = system_copy(ctx.env.clone(), ctx.config.clipboard.clone());
        Runner {
            root: ctx.root.clone(),
            env: ctx.env.clone(),
            config: ctx.config.clone(),
            tx,
            copy,
            watcher: None,
            planner: watch::Planner::default(),
            watching: false,
            loading: false,
            load_again: false,
            previewed: false,
            release_reads: None,
            problem: None,
        }
    }

    /// A problem met while running effects, for the status bar.
    pub fn take_problem(&mut self) -> Option<String> {
        self.problem.take()
    }

    pub fn start_watching(&mut self) {
        let tx = self.tx.clone();
        let started = watch::Watcher::start(&self.root, move |change| {
            let msg = match change {
                Ok(paths) => Msg::FilesChanged(paths),
                Err(problem) => Msg::Problem(problem),
            };
            let _ = tx.send(msg);
        });
        match started {
            Ok(watcher) => self.watcher = Some(watcher),
            Err(problem) => self.problem = Some(format!("{problem}; press r to reload by hand")),
        }
    }

    /// Called when the first load's preview is in: its folders are watched from
    /// then on, before its frame is drawn, so a change made once projects are on
    /// screen is not missed (the full pass running meanwhile may have read the
    /// file before the change).
    pub fn watch_preview(&mut self, loaded: &LoadedWorkspace) {
        self.set_watches(&loaded.workspace, &loaded.state_folders);
    }

    /// Watches the folders discovery found (once its frame is drawn), then lets
    /// the first load's passes walk the workspace again and read the files. The
    /// frame of unread rows can go first, since nothing in it was read from a
    /// file; every file is found and read after the folders are watched, so a
    /// project made or a file changed meanwhile is either read or reported.
    pub fn watch_discovered(
        &mut self,
        workspace: &crate::core::model::Workspace,
        state_folders: &[String],
    ) {
        self.set_watches(workspace, state_folders);
        if let Some(release) = self.release_reads.take() {
            let _ = release.send(());
        }
    }

    fn set_watches(&mut self, workspace: &crate::core::model::Workspace, state_folders: &[String]) {
        if let Some(watcher) = &mut self.watcher {
            let plan = self.planner.plan(workspace, state_folders);
            if let Some(problem) = watcher.set(plan).problem {
                self.problem = Some(problem);
            }
        }
    }

    /// Called when a load's full pass is in: adjusts the watched folders and
    /// starts a load that was asked for meanwhile.
    pub fn watch_workspace(&mut self, loaded: &LoadedWorkspace) {
        self.loading = false;
        if let Some(watcher) = &mut self.watcher {
            let plan = self.planner.plan(&loaded.workspace, &loaded.state_folders);
            let outcome = watcher.set(plan);
            if let Some(problem) = outcome.problem {
                self.problem = Some(problem);
            }
            // A folder made since the last load is watched only now: a state file
            // written into it after this load walked it was not seen. Once more.
            if self.watching && !outcome.added.is_empty() {
                self.load_again = true;
            }
            self.watching = true;
        }
        if std::mem::take(&mut self.load_again) {
            self.load_all();
        }
    }

    pub fn run(&mut self, effect: Effect, terminal: &mut dyn Write) {
        match effect {
            Effect::LoadAll => self.load_all(),
            Effect::ReloadProjects(sources) => self.reload(sources),
            Effect::ReloadCheckpoints(paths) => {
                let (root, env, _, tx) = self.for_worker();
                std::thread::spawn(move || {
                    let read = loader::reload_checkpoints(&root, &env, paths);
                    let _ = tx.send(Msg::CheckpointsLoaded(read));
                });
            }
            Effect::ReloadRecords(paths) => {
                let root = self.root.clone();
                let tx = self.tx.clone();
                std::thread::spawn(move || {
                    let read = paths
                        .into_iter()
                        .map(|rel| {
                            let state = super::live_records::read(&root, &rel);
                            (rel, state)
                        })
                        .collect();
                    let _ = tx.send(Msg::RecordsLoaded(read));
                });
            }
            Effect::Copy { what, text } => self.copy(what, text),
            Effect::WriteTerminal(bytes) => {
                if let Err(e) = terminal.write_all(&bytes).and_then(|()| terminal.flush()) {
                    self.problem = Some(format!("could not write to the terminal: {e}"));
                }
            }
            Effect::Write(request) => {
                let msg = super::write::perform(&self.root, request);
                let _ = self.tx.send(msg);
            }
            Effect::NewWindow(window) => {
                let _ = self.tx.send(super::launch::open(window, &self.env));
            }
            // The run loop does this one: it needs the terminal (see `event_loop::run_here`).
            Effect::RunHere(_) => {}
            Effect::Quit => {}
        }
    }

    #[cfg(test)]
    fn with_copy(mut self, copy: Arc<CopyFn>) -> Runner {
        self.copy = copy;
        self
    }

    fn copy(&self, what: String, text: String) {
        let (copy, tx) = (Arc::clone(&self.copy), self.tx.clone());
        std::thread::spawn(move || {
            let mut terminal = Vec::new();
            let outcome = copy(&text, &mut terminal);
            let _ = tx.send(Msg::Copied {
                what,
                backend: outcome.backend_used,
                copied: outcome.sent,
                message: outcome.message,
                terminal,
            });
        });
    }

    /// What a load on a worker thread needs: its own copies of the root, the
    /// environment, the settings, and where to send the result.
    fn for_worker(&self) -> (PathBuf, Env, Config, Sender<Msg>) {
        (
            self.root.clone(),
            self.env.clone(),
            self.config.clone(),
            self.tx.clone(),
        )
    }

    fn load_all(&mut self) {
        if self.loading {
            self.load_again = true;
            return;
        }
        self.loading = true;
        let passes: &[loader::Pass] = if std::mem::replace(&mut self.previewed, true) {
            &[loader::Pass::Full]
        } else {
            &[loader::Pass::Preview, loader::Pass::Full]
        };
        let first = passes.len() > 1;
        // With a watcher, the passes read nothing before discovery's folders are
        // watched (`watch_discovered`); a runner without one (tests) does not wait.
        let released = (first && self.watcher.is_some()).then(|| {
            let (release, released) = std::sync::mpsc::channel();
            self.release_reads = Some(release);
            released
        });
        let (root, env, config, tx) = self.for_worker();
        std::thread::spawn(move || {
            let mut discovery = crate::io::discover::discover(&root, &env);
            if first {
                let found = loader::discovered(&root, &discovery);
                if tx.send(Msg::Loaded(Ok(Box::new(found)))).is_err() {
                    return;
                }
                // Also when the runner is gone (the sender dropped): the send
                // below then fails and ends the thread.
                if let Some(released) = released {
                    let _ = released.recv();
                    // A project made between that walk and the watches raised no
                    // event: the passes read what a walk finds now that they are
                    // set, and anything made later is reported.
                    discovery = crate::io::discover::discover(&root, &env);
                }
                #[cfg(feature = "test-fault")]
                super::test_fault::hold_load(&env);
            }
            for &pass in passes {
                let loaded = loader::load(&root, &env, &discovery, clock::now(), &config, pass);
                if tx.send(Msg::Loaded(Ok(Box::new(loaded)))).is_err() {
                    return;
                }
            }
        });
    }

    fn reload(&mut self, sources: Vec<String>) {
        let (root, env, config, tx) = self.for_worker();
        std::thread::spawn(move || {
            let now = clock::now();
            let projects = sources
                .into_iter()
                .map(|source| loader::reload_project(&root, &env, source, now, &config))
                .collect();
            let _ = tx.send(Msg::ProjectsLoaded(projects));
        });
    }
}

/// The real clipboard, as configured; a bad backend name is the outcome's message.
fn system_copy(env: Env, config: ClipboardConfig) -> Arc<CopyFn> {
    Arc::new(move |text: &str, terminal: &mut dyn Write| {
        match clipboard::Backend::parse(&config.backend) {
            Ok(backend) => clipboard::copy(text, &backend, &env, &config, terminal),
            Err(problem) => clipboard::CopyOutcome {
                backend_used: config.backend.clone(),
                confirmed: false,
                sent: false,
                message: problem,
            },
        }
    })
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
