//! Opening a file that must be a regular one without ever waiting on it. A FIFO
//! blocks its open until a writer comes; `/proc/kmsg` is a "regular" file of
//! size 0 whose read blocks until the kernel logs something. So files are opened
//! `O_NONBLOCK` (a FIFO opens at once, `/proc/kmsg` reads `EAGAIN`), checked as
//! opened, and refused when they live on procfs or sysfs, whose files are
//! generated on read and are never a workspace's.

use std::fs::File;
use std::path::Path;

/// Why an opened file is not read.
pub const ON_PSEUDO_FS: &str = "a kernel pseudo-file (procfs or sysfs), not a workspace file";

/// Opens `path` (through symlinks) read-only and without blocking.
pub fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    options.open(path)
}

/// Whether an opened file lives on procfs or sysfs.
pub fn on_pseudo_fs(file: &File) -> bool {
    #[cfg(target_os = "linux")]
    {
        // sysfs's magic ("SYSf"), which rustix does not name.
        const SYSFS_MAGIC: rustix::fs::FsWord = 0x6265_6572;
        rustix::fs::fstatfs(file)
            .is_ok_and(|fs| fs.f_type == rustix::fs::PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        false
    }
}

/// Opens `path` only if it is a regular file off procfs and sysfs, never waiting.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let file = open_nonblocking(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a folder, pipe, socket or device)",
        ));
    }
    if on_pseudo_fs(&file) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            ON_PSEUDO_FS,
        ));
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO opens at once and is refused; a procfs file is refused.
    #[test]
    fn fifos_and_procfs_files_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("cx-001.json");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        let e = open_regular(&fifo).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        if Path::new("/proc/self/status").exists() {
            let e = open_regular(Path::new("/proc/self/status")).unwrap_err();
            assert!(e.to_string().contains("procfs"), "{e}");
        }
        let file = dir.path().join("ok.json");
        std::fs::write(&file, "{}").unwrap();
        assert!(open_regular(&file).is_ok());
    }
}
