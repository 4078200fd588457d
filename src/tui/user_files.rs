//! Where the dashboard finds the operator's own files (`keymap.toml`, theme files):
//! beside the file `--config` names, then in the config folder (the folder of
//! `$RESUME_TUI_CONFIG` when set, else the platform's). The first one found wins.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use crate::app::Context;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserFiles {
    /// The folders to look in, in order, without repeats.
    pub dirs: Vec<PathBuf>,
}

impl UserFiles {
    /// The folders of `config_file` (`--config`) and of `default_config` (the
    /// config file used without `--config`).
    pub fn new(config_file: Option<&Path>, default_config: Option<&Path>) -> UserFiles {
        let mut dirs: Vec<PathBuf> = Vec::new();
        for file in [config_file, default_config].into_iter().flatten() {
            let dir = match file.parent() {
                Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        UserFiles { dirs }
    }

    pub fn for_context(ctx: &Context) -> UserFiles {
        let default = crate::app::context::default_config_path(&ctx.env);
        UserFiles::new(ctx.config_file.as_deref(), default.as_deref())
    }

    /// The first file called `name` in the folders, with its text; `Ok(None)` when
    /// no folder has one, `Err` (naming the file) when one cannot be read.
    pub fn find(&self, name: &str) -> Result<Option<(PathBuf, String)>, String> {
        for dir in &self.dirs {
            let path = dir.join(name);
            match crate::io::load::read_settings_text(&path) {
                Ok(text) => return Ok(Some((path, text))),
                Err(e) if e.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(format!("{}: {e}", path.display())),
            }
        }
        Ok(None)
    }

    /// Reads a theme file: an absolute path as it is; a relative one from the
    /// first of the folders that has it, else from the current folder.
    pub fn read_theme(&self, path: &str) -> std::io::Result<String> {
        let given = Path::new(path);
        if given.is_absolute() {
            return crate::io::load::read_settings_text(given);
        }
        match self.find(path) {
            Ok(Some((_, text))) => Ok(text),
            Err(message) => Err(std::io::Error::other(message)),
            Ok(None) => crate::io::load::read_settings_text(given).map_err(|e| {
                if e.kind() == ErrorKind::NotFound {
                    std::io::Error::new(ErrorKind::NotFound, self.not_found())
                } else {
                    e
                }
            }),
        }
    }

    fn not_found(&self) -> String {
        let mut places: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        places.push("the current folder".to_string());
        format!("not found in {}", places.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_flag_folder_comes_first_and_folders_are_not_repeated() {
        let files = UserFiles::new(
            Some(Path::new("/etc/op/resume.toml")),
            Some(Path::new("/home/op/.config/resume-tui/config.toml")),
        );
        assert_eq!(
            files.dirs,
            [
                PathBuf::from("/etc/op"),
                PathBuf::from("/home/op/.config/resume-tui")
            ]
        );
        let same = UserFiles::new(Some(Path::new("/a/x.toml")), Some(Path::new("/a/y.toml")));
        assert_eq!(same.dirs, [PathBuf::from("/a")]);
        let bare = UserFiles::new(Some(Path::new("x.toml")), None);
        assert_eq!(bare.dirs, [PathBuf::from(".")]);
        assert!(UserFiles::new(None, None).dirs.is_empty());
    }

    #[test]
    fn files_are_found_beside_the_config_flag_first_then_in_the_config_folder() {
        let flag = tempfile::tempdir().unwrap();
        let platform = tempfile::tempdir().unwrap();
        let files = UserFiles::new(
            Some(&flag.path().join("config.toml")),
            Some(&platform.path().join("config.toml")),
        );
        assert_eq!(files.find("keymap.toml").unwrap(), None);
        std::fs::write(platform.path().join("keymap.toml"), "platform").unwrap();
        let (path, text) = files.find("keymap.toml").unwrap().unwrap();
        assert_eq!(
            (path, text.as_str()),
            (platform.path().join("keymap.toml"), "platform")
        );
        std::fs::write(flag.path().join("keymap.toml"), "beside --config").unwrap();
        let (_, text) = files.find("keymap.toml").unwrap().unwrap();
        assert_eq!(text, "beside --config");
    }

    #[test]
    fn theme_files_are_read_from_the_folders_and_missing_ones_say_where_they_were_sought() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("mine.toml"), "extends = \"light\"").unwrap();
        let files = UserFiles::new(Some(&dir.path().join("config.toml")), None);
        assert_eq!(
            files.read_theme("mine.toml").unwrap(),
            "extends = \"light\""
        );
        let absolute = dir.path().join("mine.toml");
        assert!(files.read_theme(&absolute.display().to_string()).is_ok());
        let err = files.read_theme("nowhere-7f3a.toml").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound);
        assert!(
            err.to_string().contains(&dir.path().display().to_string())
                && err.to_string().contains("the current folder"),
            "{err}"
        );
    }
}
