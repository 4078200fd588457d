//! The hook log: one line per event or failure, in `hook.log` under the platform
//! data folder (or `$RESUME_TUI_LOG_DIR`), mode 0600, capped at `log.max_bytes`
//! and rotated once to `hook.log.1`.
//!
//! Line format: `<ISO time> <LEVEL> <event>: <message>`, with newlines and
//! control characters in the message escaped so that one entry is one line.

use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::core::invisible::is_hidden;
use crate::core::redact::redact_beneath_controls;
use crate::core::text::is_unsafe_char;
use crate::core::time::Timestamp;
use crate::io::env::Env;

pub const FILE_NAME: &str = "hook.log";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Info,
    Error,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Info => "INFO",
            Level::Error => "ERROR",
        }
    }
}

/// The log folder: `$RESUME_TUI_LOG_DIR`, else the platform data folder.
pub fn log_dir(env: &Env) -> Option<PathBuf> {
    if let Some(dir) = env.get("RESUME_TUI_LOG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "resume-tui").map(|d| d.data_dir().to_path_buf())
}

pub fn log_path(env: &Env) -> Option<PathBuf> {
    log_dir(env).map(|d| d.join(FILE_NAME))
}

/// One formatted log line (without the newline).
pub fn format_line(now: Timestamp, level: Level, event: &str, message: &str) -> String {
    // Secrets are found as if the controls were not there (a token split by a
    // BEL is one token), then what remains is escaped.
    let message = redact_beneath_controls(message);
    let mut line = format!("{} {} {}: ", now.to_iso(), level.label(), clean(event));
    line.push_str(&clean(&message));
    line
}

/// One line, every control, bidirectional and invisible character visible as an
/// escape.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut before = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push(' '),
            c if is_unsafe_char(c) || is_hidden(before, c, chars.peek().copied()) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
        before = Some(c);
    }
    out
}

/// Appends `lines` to the log at `path`, rotating first when it would pass `max_bytes`.
pub fn append_lines(path: &Path, max_bytes: u64, lines: &[String]) -> std::io::Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        create_private_dir(dir)?;
    }
    let mut text = lines.join("\n");
    text.push('\n');
    // The length of the log itself, never of what a link in its place names.
    let current = fs::symlink_metadata(path)
        .ok()
        .filter(fs::Metadata::is_file)
        .map_or(0, |m| m.len());
    if current > 0 && current + text.len() as u64 > max_bytes {
        let mut rotated = path.as_os_str().to_owned();
        rotated.push(".1");
        fs::rename(path, PathBuf::from(rotated))?;
    }
    let mut file = open_private_append(path)?;
    file.write_all(text.as_bytes())
}

/// Appends one line to the log named by `env`; errors are returned, not raised.
pub fn append(
    env: &Env,
    max_bytes: u64,
    now: Timestamp,
    level: Level,
    event: &str,
    message: &str,
) -> std::io::Result<()> {
    let path = log_path(env).ok_or_else(|| std::io::Error::other("no log folder"))?;
    append_lines(&path, max_bytes, &[format_line(now, level, event, message)])
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// The log, opened as the sidecar lock is (`io::write::open_regular`): never
/// through a symbolic link, never blocking on a FIFO, only a regular file.
fn open_private_append(path: &Path) -> std::io::Result<File> {
    let file = crate::io::write::open_regular(path, true)?;
    #[cfg(unix)]
    {
        // A file created by something else keeps its mode; tighten it.
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = file.metadata()
            && meta.permissions().mode() & 0o077 != 0
        {
            let _ = file.set_permissions(fs::Permissions::from_mode(0o600));
        }
    }
    Ok(file)
}

/// The last `count` lines at `level` or above, oldest first, read from the last
/// 64 KB of the log (and of `hook.log.1` when the log itself has too few).
pub fn recent(path: &Path, level: Level, count: usize) -> Vec<String> {
    let mut found = tail_lines(path, level);
    if found.len() < count {
        let mut rotated = path.as_os_str().to_owned();
        rotated.push(".1");
        let mut older = tail_lines(Path::new(&rotated), level);
        older.append(&mut found);
        found = older;
    }
    let skip = found.len().saturating_sub(count);
    found.into_iter().skip(skip).collect()
}

fn tail_lines(path: &Path, level: Level) -> Vec<String> {
    const TAIL: u64 = 64 * 1024;
    // A FIFO in the log's place would block the open.
    let regular = fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    let Some(mut file) = regular.then(|| File::open(path).ok()).flatten() else {
        return Vec::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let start = len.saturating_sub(TAIL);
    let mut bytes = Vec::new();
    if file.seek(SeekFrom::Start(start)).is_err() || file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.lines().collect();
    if start > 0 && !lines.is_empty() {
        lines.remove(0); // cut in the middle
    }
    lines
        .into_iter()
        .filter(|line| line_level(line).is_some_and(|l| l >= level))
        .map(str::to_string)
        .collect()
}

fn line_level(line: &str) -> Option<Level> {
    match line.split(' ').nth(1)? {
        "INFO" => Some(Level::Info),
        "ERROR" => Some(Level::Error),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_single_lines_and_redacted() {
        let line = format_line(
            Timestamp(0),
            Level::Error,
            "PreCompact",
            "bad\nthing\u{7} password=hunter2",
        );
        assert_eq!(
            line,
            "1970-01-01T00:00:00Z ERROR PreCompact: bad\\nthing\\u{7} password=[REDACTED]"
        );
    }

    /// Issue 33 item 5: a token split by a BEL, and a line separator.
    #[test]
    fn a_token_split_by_a_control_is_redacted_and_separators_escaped() {
        let line = format_line(
            Timestamp(0),
            Level::Info,
            "PreCompact",
            "x gh\u{7}p_16C7e42F292c6912E7710c838347Ae178B4a\u{2028}y",
        );
        assert_eq!(
            line,
            "1970-01-01T00:00:00Z INFO PreCompact: x [REDACTED]\\u{2028}y"
        );
    }

    #[test]
    fn rotates_at_the_cap_and_keeps_mode_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join(FILE_NAME);
        let line = |n: usize| format_line(Timestamp(n as i64), Level::Error, "E", &"x".repeat(40));
        for n in 0..10 {
            append_lines(&path, 300, &[line(n)]).unwrap();
        }
        let size = fs::metadata(&path).unwrap().len();
        assert!(size <= 300, "{size}");
        let rotated = dir.path().join("sub").join("hook.log.1");
        assert!(rotated.exists());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let last = recent(&path, Level::Error, 3);
        assert_eq!(last.len(), 3);
        assert!(last[2].starts_with("1970-01-01T00:00:09Z"), "{last:?}");
        assert!(
            recent(&path, Level::Error, 100).len() < 10,
            "only two files are kept"
        );
    }

    #[test]
    fn recent_filters_by_level_and_tolerates_a_missing_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        assert!(recent(&path, Level::Error, 5).is_empty());
        let lines = [
            format_line(Timestamp(1), Level::Info, "SessionStart", "ok"),
            format_line(Timestamp(2), Level::Error, "PreCompact", "boom"),
        ];
        append_lines(&path, 1 << 20, &lines).unwrap();
        assert_eq!(recent(&path, Level::Error, 5), [lines[1].clone()]);
        assert_eq!(recent(&path, Level::Info, 5).len(), 2);
    }

    #[test]
    fn env_overrides_the_folder() {
        let env = Env::from_pairs([("RESUME_TUI_LOG_DIR", "/tmp/x")]);
        assert_eq!(log_path(&env), Some(PathBuf::from("/tmp/x/hook.log")));
    }
}
