//! Performs the effects `update` asks for and sends their results back as messages.
//! Loads run on a worker thread (one at a time; a request during a load runs after
//! it); copies and writes run at once, since OSC 52 goes to the terminal we own.

use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::Sender;

use super::effect::Effect;
use super::loader;
use super::msg::Msg;
use crate::config::Config;
use crate::core::model::Workspace;
use crate::io::env::Env;
use crate::io::{clipboard, clock, watch};

pub struct Runner {
    root: PathBuf,
    env: Env,
    config: Config,
    tx: Sender<Msg>,
    watcher: Option<watch::Watcher>,
    loading: bool,
    load_again: bool,
    problem: Option<String>,
}

impl Runner {
    pub fn new(ctx: &crate::cli::Context, tx: Sender<Msg>) -> Runner {
        Runner {
            root: ctx.root.clone(),
            env: ctx.env.clone(),
            config: ctx.config.clone(),
            tx,
            watcher: None,
            loading: false,
            load_again: false,
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

    /// Called for every finished load: adjusts the watched folders and starts a
    /// load that was asked for meanwhile.
    pub fn watch_workspace(&mut self, workspace: &Workspace) {
        self.loading = false;
        if let Some(watcher) = &mut self.watcher
            && let Err(problem) = watcher.set(watch::plan(workspace))
        {
            self.problem = Some(problem);
        }
        if std::mem::take(&mut self.load_again) {
            self.load_all();
        }
    }

    pub fn run(&mut self, effect: Effect, terminal: &mut dyn Write) {
        match effect {
            Effect::LoadAll => self.load_all(),
            Effect::ReloadProjects(sources) => self.reload(sources),
            Effect::Copy { what, text } => {
                let msg = copy(&self.env, &self.config, what, &text, terminal);
                let _ = self.tx.send(msg);
            }
            Effect::Write(request) => {
                let msg = super::write::perform(&self.root, request);
                let _ = self.tx.send(msg);
            }
            Effect::Quit => {}
        }
    }

    fn load_all(&mut self) {
        if self.loading {
            self.load_again = true;
            return;
        }
        self.loading = true;
        let (root, env, config, tx) = (
            self.root.clone(),
            self.env.clone(),
            self.config.clone(),
            self.tx.clone(),
        );
        std::thread::spawn(move || {
            let loaded = loader::load_workspace(&root, &env, clock::now(), &config);
            let _ = tx.send(Msg::Loaded(Ok(Box::new(loaded))));
        });
    }

    fn reload(&mut self, sources: Vec<String>) {
        let (root, env, config, tx) = (
            self.root.clone(),
            self.env.clone(),
            self.config.clone(),
            self.tx.clone(),
        );
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

fn copy(env: &Env, config: &Config, what: String, text: &str, terminal: &mut dyn Write) -> Msg {
    let backend = match clipboard::Backend::parse(&config.clipboard.backend) {
        Ok(backend) => backend,
        Err(problem) => {
            return Msg::Copied {
                what,
                backend: config.clipboard.backend.clone(),
                copied: false,
                message: problem,
            };
        }
    };
    let outcome = clipboard::copy(text, &backend, env, &config.clipboard, terminal);
    let _ = terminal.flush();
    let copied = outcome.backend_used != "off" && !outcome.message.starts_with("Not");
    Msg::Copied {
        what,
        backend: outcome.backend_used,
        copied,
        message: outcome.message,
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
