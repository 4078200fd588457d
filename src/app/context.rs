//! What every command is given: the workspace root, the clock reading, the
//! environment snapshot and the settings.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::core::time::Timestamp;
use crate::io::env::Env;
use crate::{Error, Result};

pub struct Context {
    pub root: PathBuf,
    pub env: Env,
    pub now: Timestamp,
    pub config: Config,
    /// A problem with the user's config file; the defaults are in use.
    pub config_problem: Option<String>,
    /// The config file named by `--config`, if any (the dashboard also looks for
    /// `keymap.toml` and theme files beside it).
    pub config_file: Option<PathBuf>,
    /// Keeps the unpacked demo workspace alive for the life of the command.
    _demo: Option<tempfile::TempDir>,
}

impl Context {
    /// Resolves the root (`--demo`, then `--root`, then `$CLAUDE_PROJECT_DIR`, then the
    /// current directory) and reads the config.
    pub fn new(
        root: Option<PathBuf>,
        demo: bool,
        config_path: Option<PathBuf>,
        env: Env,
        now: Timestamp,
    ) -> Result<Context> {
        if let Some(path) = config_path.as_deref() {
            refuse_missing_config(path)?;
        }
        let (root, demo_dir) = if demo {
            let dir = crate::io::demo::unpack(now)?;
            (dir.path().to_path_buf(), Some(dir))
        } else {
            let root = match root {
                Some(root) => root,
                None => match env.get("CLAUDE_PROJECT_DIR") {
                    Some(dir) => PathBuf::from(dir),
                    None => std::env::current_dir().map_err(|e| Error::io(".", e))?,
                },
            };
            if !root.is_dir() {
                return Err(Error::Usage(format!(
                    "{}: not a folder; pass --root DIR or run inside a workspace",
                    root.display()
                )));
            }
            (root, None)
        };
        let (config, config_problem) = load_config(config_path.as_deref(), &env);
        Ok(Context {
            root,
            env,
            now,
            config,
            config_problem,
            config_file: config_path,
            _demo: demo_dir,
        })
    }

    /// The root is the demo's temporary copy (`--demo`), deleted on exit.
    pub fn is_demo(&self) -> bool {
        self._demo.is_some()
    }

    /// A context over an existing folder with default settings, for tests.
    pub fn for_root(root: impl Into<PathBuf>, env: Env, now: Timestamp) -> Context {
        Context {
            root: root.into(),
            env,
            now,
            config: Config::default(),
            config_problem: None,
            config_file: None,
            _demo: None,
        }
    }
}

/// `--config FILE` names a file that must be there: a typo would otherwise leave
/// the defaults in use without a word on the command line.
fn refuse_missing_config(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => Err(Error::Usage(format!(
            "--config {}: a folder, not a config file",
            path.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(Error::Usage(format!(
            "--config {}: no such file (leave --config out to use $RESUME_TUI_CONFIG, \
             then config.toml in the platform config folder, then the defaults)",
            path.display()
        ))),
        // Unreadable for another reason: reported by load_config, defaults carry on.
        _ => Ok(()),
    }
}

/// Where the user's config file lives unless `--config` names one.
pub fn default_config_path(env: &Env) -> Option<PathBuf> {
    if let Some(path) = env.get("RESUME_TUI_CONFIG") {
        return Some(PathBuf::from(path));
    }
    directories::ProjectDirs::from("", "", "resume-tui").map(|d| d.config_dir().join("config.toml"))
}

/// The config `--config` names, else the user's, else the defaults; with what went
/// wrong reading it, if anything.
pub(crate) fn load_config(explicit: Option<&Path>, env: &Env) -> (Config, Option<String>) {
    let path = match explicit
        .map(Path::to_path_buf)
        .or_else(|| default_config_path(env))
    {
        Some(path) => path,
        None => return (Config::default(), None),
    };
    match crate::io::load::read_settings_text(&path) {
        Ok(text) => Config::overlay(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && explicit.is_none() => {
            (Config::default(), None)
        }
        Err(e) => (Config::default(), Some(format!("{}: {e}", path.display()))),
    }
}
