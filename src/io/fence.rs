//! Paths taken from files (a checkpoint's files to read, a precompact state's
//! project id, a transcript's tool-call paths) resolved under the workspace root,
//! never outside it:
//! - lexically: `.` and `..` are resolved as text and may not climb above the
//!   root; `~` and absolute paths are outside, unless an absolute path lies under
//!   the root as given or under its canonical form;
//! - a symlinked *file* counts only when what it names lies under the root.
//!
//! Folders reached through a symlinked folder inside the root stay part of the
//! workspace, as discovery follows them (docs/architecture.md): the resolved path
//! is joined to the root as written, and the kernel is never given a `..`.

use std::cell::OnceCell;
use std::path::{Path, PathBuf};

use crate::io::load::{Resolved, resolve};

pub struct Fence<'a> {
    root: &'a Path,
    canonical: OnceCell<Option<PathBuf>>,
}

/// A file inside the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inside {
    /// The root joined with `rel`.
    pub path: PathBuf,
    /// Relative to the root, `/` separators, no `.` or `..`.
    pub rel: String,
}

impl<'a> Fence<'a> {
    pub fn new(root: &'a Path) -> Fence<'a> {
        Fence {
            root,
            canonical: OnceCell::new(),
        }
    }

    fn canonical_root(&self) -> Option<&Path> {
        self.canonical
            .get_or_init(|| std::fs::canonicalize(self.root).ok())
            .as_deref()
    }

    /// `path` (absolute, or relative to the root) as a root-relative path, judged
    /// by its text alone; `None` when it leads outside.
    pub fn relative(&self, path: &str) -> Option<String> {
        let given = Path::new(path);
        let rest = if given.is_absolute() {
            match text_under_root(self.root, path) {
                Some(rest) => rest,
                None => given
                    .strip_prefix(self.root)
                    .ok()
                    .or_else(|| given.strip_prefix(self.canonical_root()?).ok())?
                    .to_str()?,
            }
        } else {
            path
        };
        match resolve("", rest) {
            Resolved::Inside(rel) => Some(rel),
            Resolved::Outside | Resolved::Empty => None,
        }
    }

    /// The file `path` names, if it lies inside the root: [`Fence::relative`], and
    /// a symlink in its place must name a file under the root.
    pub fn file(&self, path: &str) -> Option<Inside> {
        self.inside(path, false)
    }

    /// [`Fence::file`] for a path that must name a regular file (itself, or
    /// through a symlink that stays under the root): one `lstat` when it is a
    /// plain file, where `is_file` and then `file` took two.
    pub fn existing_file(&self, path: &str) -> Option<Inside> {
        self.inside(path, true)
    }

    fn inside(&self, path: &str, must_exist: bool) -> Option<Inside> {
        let rel = self.relative(path)?;
        let full = self.root.join(&rel);
        let regular = match std::fs::symlink_metadata(&full) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::canonicalize(&full).ok()?;
                if !target.starts_with(self.canonical_root()?) {
                    return None;
                }
                !must_exist || target.is_file()
            }
            Ok(meta) => meta.is_file(),
            Err(_) => false,
        };
        (regular || !must_exist).then_some(Inside { path: full, rel })
    }
}

/// `path`'s text after `root`'s and a `/`: the usual case, a path built by
/// joining onto the root, without the component walk of `Path::strip_prefix`
/// (a compaction resolves every path of its last 32 tool calls). `None` when the
/// text does not start so, or when what follows starts with another `/` (that
/// would read as absolute): the component walk decides those.
pub fn text_under_root<'p>(root: &Path, path: &'p str) -> Option<&'p str> {
    let root = root.to_str()?.trim_end_matches('/');
    let rest = path.strip_prefix(root)?.strip_prefix('/')?;
    (!rest.starts_with('/')).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text shortcut gives what the component walk gives.
    #[test]
    fn the_text_shortcut_agrees_with_the_component_walk() {
        let walk = |root: &str, path: &str| {
            let rest = Path::new(path)
                .strip_prefix(root)
                .ok()?
                .to_str()?
                .to_string();
            match resolve("", &rest) {
                Resolved::Inside(rel) => Some(rel),
                Resolved::Outside | Resolved::Empty => None,
            }
        };
        for (root, path) in [
            ("/ws", "/ws/a/b.md"),
            ("/ws/", "/ws/a/b.md"),
            ("/ws", "/ws//a/./b.md"),
            ("/ws", "/ws/a/../b.md"),
            ("/ws", "/ws/../b.md"),
            ("/ws", "/ws/"),
            ("/ws", "/ws"),
            ("/", "/a/b.md"),
            ("/ws", "/wsx/a.md"),
        ] {
            let fence = Fence::new(Path::new(root));
            assert_eq!(fence.relative(path), walk(root, path), "{root} {path}");
        }
    }

    /// `existing_file` takes what `is_file` and then `file` took, with one
    /// `lstat` for a plain file.
    #[cfg(unix)]
    #[test]
    fn an_existing_file_is_what_is_file_and_then_file_accept() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(root.join("folder")).unwrap();
        std::fs::write(root.join("plain.yaml"), "a: 1").unwrap();
        std::fs::write(dir.path().join("outside.yaml"), "a: 1").unwrap();
        let link = |target: &Path, name: &str| {
            std::os::unix::fs::symlink(target, root.join(name)).unwrap();
        };
        link(&root.join("plain.yaml"), "inside-link.yaml");
        link(&dir.path().join("outside.yaml"), "outside-link.yaml");
        link(&root.join("folder"), "folder-link");
        link(&root.join("gone.yaml"), "dangling.yaml");
        let fence = Fence::new(&root);
        for name in [
            "plain.yaml",
            "inside-link.yaml",
            "outside-link.yaml",
            "folder",
            "folder-link",
            "dangling.yaml",
            "missing.yaml",
        ] {
            let before = root
                .join(name)
                .is_file()
                .then(|| fence.file(name))
                .flatten();
            let now = fence.existing_file(name);
            assert_eq!(
                now.as_ref().map(|i| (&i.path, &i.rel)),
                before.as_ref().map(|i| (&i.path, &i.rel)),
                "{name}"
            );
        }
        assert!(fence.existing_file("plain.yaml").is_some());
        assert!(fence.existing_file("inside-link.yaml").is_some());
    }

    #[test]
    fn paths_resolve_under_the_root_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        let fence = Fence::new(&root);
        let at = |rel: &str| format!("{}/{rel}", root.display());
        let cases = [
            (
                "projects/P/ORCHESTRATION.yaml",
                Some("projects/P/ORCHESTRATION.yaml"),
            ),
            ("./a/../b.md", Some("b.md")),
            ("projects/../../outside/x", None),
            ("../outside/x", None),
            ("~/x", None),
            ("/etc/passwd", None),
            ("", None),
        ];
        for (path, expected) in cases {
            assert_eq!(fence.relative(path).as_deref(), expected, "{path}");
        }
        assert_eq!(fence.relative(&at("a/b.md")).as_deref(), Some("a/b.md"));
        assert_eq!(fence.relative(&at("a/../../outside/x")), None);
        assert_eq!(fence.relative(&at("../ws/a")).as_deref(), None);
        // The root reached by its canonical path (a symlinked root, macOS /tmp).
        let link = dir.path().join("ws-link");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        let through_link = Fence::new(&link);
        assert_eq!(
            through_link.relative(&at("a/b.md")).as_deref(),
            Some("a/b.md")
        );
    }

    #[test]
    fn a_symlinked_file_counts_only_when_it_names_a_file_under_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ws");
        let outside = dir.path().join("outside");
        for folder in [root.join("p"), outside.clone()] {
            std::fs::create_dir_all(folder).unwrap();
        }
        std::fs::write(outside.join("ORCHESTRATION.yaml"), "x: 1\n").unwrap();
        std::fs::write(root.join("p/real.yaml"), "x: 1\n").unwrap();
        let link = |name: &str, to: &Path| std::os::unix::fs::symlink(to, root.join(name)).unwrap();
        link("p/out.yaml", &outside.join("ORCHESTRATION.yaml"));
        link("p/in.yaml", &root.join("p/real.yaml"));
        link("linked", &outside);
        let fence = Fence::new(&root);
        assert_eq!(fence.file("p/out.yaml"), None);
        assert_eq!(fence.file("p/in.yaml").unwrap().rel, "p/in.yaml");
        // A file in a symlinked folder is part of the workspace, as for discovery.
        let inside = fence.file("linked/ORCHESTRATION.yaml").unwrap();
        assert_eq!(inside.path, root.join("linked/ORCHESTRATION.yaml"));
        assert_eq!(fence.file("p/missing.yaml").unwrap().rel, "p/missing.yaml");
    }
}
