//! Reading one state file as text: capped in size, refused when binary or not UTF-8,
//! every failure a diagnostic naming the file (and line and column when it helps).

use std::io::Read;
use std::path::Path;

use crate::config::line_col;
use crate::core::model::Diagnostic;

/// Files larger than this are not read; real state files are under 200 KB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads `path` (named `rel` in diagnostics) as UTF-8 text without a BOM.
pub fn read_text(path: &Path, rel: &str) -> Result<String, Diagnostic> {
    read_text_capped(path, rel, MAX_FILE_BYTES)
}

pub fn read_text_capped(path: &Path, rel: &str, cap: u64) -> Result<String, Diagnostic> {
    decode(rel, read_bytes_or_say_why(path, rel, cap)?)
}

/// The bytes of `path` (at most `cap`), or a diagnostic naming `rel` and why not.
pub fn read_bytes_or_say_why(path: &Path, rel: &str, cap: u64) -> Result<Vec<u8>, Diagnostic> {
    read_bytes_capped(path, cap).map_err(|refused| {
        let message = match refused {
            NotRead::Io(e) => format!("cannot read: {e}"),
            NotRead::Folder => refused.to_string(),
            _ => format!("{refused}: not read"),
        };
        Diagnostic::error(rel, message)
    })
}

/// Settings files (config, theme, keymap) are small; anything larger is refused.
pub const MAX_SETTINGS_BYTES: u64 = 1024 * 1024;

/// Reads a settings file the user points at (config, theme, keymap) as UTF-8,
/// like `std::fs::read_to_string` but never blocking on a FIFO and refusing
/// files over [`MAX_SETTINGS_BYTES`]. A missing file keeps `NotFound`. Text is
/// decoded as [`decode`] does (a BOM dropped; bad bytes located by line and
/// column, which the error names; callers add the path).
pub fn read_settings_text(path: &Path) -> std::io::Result<String> {
    let bytes = read_bytes_capped(path, MAX_SETTINGS_BYTES).map_err(|refused| match refused {
        NotRead::Io(e) => e,
        other => std::io::Error::other(other.to_string()),
    })?;
    decode("", bytes).map_err(|d| {
        let at = match (d.line, d.column) {
            (Some(line), Some(column)) => format!("line {line}, column {column}: "),
            _ => String::new(),
        };
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{at}{}", d.message),
        )
    })
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum NotRead {
    #[error("not a regular file (a pipe, socket or device)")]
    NotRegular,
    #[error("is a folder, not a file")]
    Folder,
    #[error("{}", super::regular::ON_PSEUDO_FS)]
    PseudoFile,
    #[error("file too large ({}); limit {}", megabytes(*size), megabytes(*cap))]
    TooLarge { size: u64, cap: u64 },
    #[error("{0}")]
    Io(std::io::Error),
}

/// Reads the whole of `path` (through symlinks), at most `cap` bytes. Anything
/// but a regular file is refused without being opened (opening a FIFO blocks
/// until a writer comes), and a file over `cap` is refused unread; a file that
/// grows past `cap` while being read is refused after `cap + 1` bytes. (A FIFO
/// put in the file's place between the look and the open opens without waiting,
/// `O_NONBLOCK`, and is refused as opened; so is a file on procfs or sysfs.)
pub fn read_bytes_capped(path: &Path, cap: u64) -> Result<Vec<u8>, NotRead> {
    let meta = std::fs::metadata(path).map_err(NotRead::Io)?;
    check_kind_and_size(&meta, cap)?;
    let file = super::regular::open_nonblocking(path).map_err(NotRead::Io)?;
    read_opened(file, cap)
}

/// [`read_bytes_capped`] for a file its folder's listing called regular (a
/// directory entry's type, read with the name): opened without the look before,
/// never following a last symlink and never waiting (`O_NOFOLLOW | O_NONBLOCK`),
/// then checked as opened. A symlink there now is read through
/// [`read_bytes_capped`], as before. The look spared is a `stat` of the whole
/// path per file: a hook reads every checkpoint of a folder.
pub fn read_bytes_listed_regular(path: &Path, cap: u64) -> Result<Vec<u8>, NotRead> {
    #[cfg(unix)]
    return match crate::io::write::open_read_only(path) {
        Ok(file) => read_opened(file, cap),
        // A symlink there now (`EMLINK` on FreeBSD): read through, as before.
        Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::EMLINK)) => {
            read_bytes_capped(path, cap)
        }
        Err(e) => Err(NotRead::Io(e)),
    };
    #[cfg(not(unix))]
    read_bytes_capped(path, cap)
}

/// The whole of an opened file, if it is a regular one of at most `cap` bytes.
fn read_opened(mut file: std::fs::File, cap: u64) -> Result<Vec<u8>, NotRead> {
    // What was opened may have replaced what was looked at: look again.
    let opened = file.metadata().map_err(NotRead::Io)?;
    check_kind_and_size(&opened, cap)?;
    if super::regular::on_pseudo_fs(&file) {
        return Err(NotRead::PseudoFile);
    }
    let expected = usize::try_from(opened.len()).unwrap_or_default();
    let mut bytes = vec![0; expected.saturating_add(1)];
    // One read with a byte to spare: a file that gives exactly the size it was
    // just seen to have has ended (a regular file reads short only at its end),
    // which spares the read that finds the end, for every small file a hook reads.
    let first = loop {
        match file.read(&mut bytes) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            read => break read.map_err(NotRead::Io)?,
        }
    };
    bytes.truncate(first);
    if first != expected {
        (&mut file)
            .take(cap.saturating_add(1).saturating_sub(first as u64))
            .read_to_end(&mut bytes)
            .map_err(NotRead::Io)?;
    }
    if bytes.len() as u64 > cap {
        return Err(NotRead::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(bytes)
}

fn check_kind_and_size(meta: &std::fs::Metadata, cap: u64) -> Result<(), NotRead> {
    if meta.is_dir() {
        return Err(NotRead::Folder);
    }
    if !meta.is_file() {
        return Err(NotRead::NotRegular);
    }
    if meta.len() > cap {
        return Err(NotRead::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    Ok(())
}

/// UTF-8 text without a BOM, or an error located at the first bad byte.
pub fn decode(rel: &str, bytes: Vec<u8>) -> Result<String, Diagnostic> {
    // `contains` is a vectorised search; the position only matters when there is one.
    if bytes.contains(&0)
        && let Some(nul) = bytes.iter().position(|b| *b == 0)
    {
        let (line, column) = position(&bytes, nul);
        return Err(Diagnostic::error(
            rel,
            "binary file (it contains a NUL byte), not YAML, JSON or markdown text",
        )
        .at(line, column));
    }
    match String::from_utf8(bytes) {
        Ok(mut text) => {
            if text.starts_with('\u{feff}') {
                text.drain(..'\u{feff}'.len_utf8());
            }
            Ok(text)
        }
        Err(err) => {
            let at = err.utf8_error().valid_up_to();
            let bytes = err.as_bytes();
            let byte = bytes.get(at).copied().unwrap_or_default();
            let (line, column) = position(bytes, at);
            Err(Diagnostic::error(
                rel,
                format!("not UTF-8 text: byte 0x{byte:02X} cannot start a character; save the file as UTF-8"),
            )
            .at(line, column))
        }
    }
}

/// 1-based line and column (in characters) of byte `offset`.
fn position(bytes: &[u8], offset: usize) -> (usize, usize) {
    let before = bytes.get(..offset).unwrap_or(bytes);
    let text = String::from_utf8_lossy(before);
    line_col(&text, text.len())
}

fn megabytes(bytes: u64) -> String {
    let mb = bytes as f64 / (1024.0 * 1024.0);
    if mb >= 10.0 {
        format!("{mb:.0} MB")
    } else {
        format!("{mb:.1} MB")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], cap: u64) -> Result<String, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, bytes).unwrap();
        read_text_capped(&path, "f", cap).map_err(|d| d.to_string())
    }

    #[test]
    fn text_is_read_and_a_bom_dropped() {
        assert_eq!(read(b"a: 1\n", 100).unwrap(), "a: 1\n");
        assert_eq!(read("\u{feff}a: é\n".as_bytes(), 100).unwrap(), "a: é\n");
        assert_eq!(read(b"", 100).unwrap(), "");
    }

    #[test]
    fn bad_bytes_are_located() {
        assert_eq!(
            read(b"a: 1\nb: \x00\x01", 100).unwrap_err(),
            "f:2:4: error: binary file (it contains a NUL byte), not YAML, JSON or markdown text"
        );
        assert_eq!(
            read(b"a: 1\nbb: \xE9t\xE9\n", 100).unwrap_err(),
            "f:2:5: error: not UTF-8 text: byte 0xE9 cannot start a character; save the file as UTF-8"
        );
    }

    #[test]
    fn large_files_are_refused_unread() {
        assert_eq!(read(&[b'a'; 100], 100).unwrap().len(), 100);
        let err = read(&[b'a'; 101], 100).unwrap_err();
        assert_eq!(
            err,
            "f: error: file too large (0.0 MB); limit 0.0 MB: not read"
        );
        assert_eq!(megabytes(100 * 1024 * 1024), "100 MB");
        assert_eq!(megabytes(3 * 1024 * 1024 / 2), "1.5 MB");
    }

    #[test]
    fn a_settings_file_is_decoded_like_any_other_and_bad_bytes_are_located() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        std::fs::write(&path, b"\xEF\xBB\xBF[log]\nmax_bytes = 1\n").unwrap();
        assert_eq!(read_settings_text(&path).unwrap(), "[log]\nmax_bytes = 1\n");
        std::fs::write(&path, b"[log]\nname = \"caf\xE9\"\n").unwrap();
        let err = read_settings_text(&path).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert!(
            err.to_string()
                .starts_with("line 2, column 12: not UTF-8 text: byte 0xE9"),
            "{err}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn pipes_and_devices_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("ORCHESTRATION.yaml");
        crate::io::test_support::mkfifo(&fifo);
        let err = read_text(&fifo, "p/ORCHESTRATION.yaml").unwrap_err();
        assert_eq!(
            err.to_string(),
            "p/ORCHESTRATION.yaml: error: not a regular file (a pipe, socket or device): not read"
        );
        let err = read_text(Path::new("/dev/zero"), "zero").unwrap_err();
        assert!(err.message.starts_with("not a regular file"), "{err}");
    }

    #[test]
    fn missing_files_and_folders_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let err = read_text(&dir.path().join("nope"), "nope").unwrap_err();
        assert!(
            err.to_string().starts_with("nope: error: cannot read: "),
            "{err}"
        );
        let err = read_text(dir.path(), "d").unwrap_err();
        assert_eq!(err.to_string(), "d: error: is a folder, not a file");
    }
}
