//! Embeds `assets/demo/` into the binary as a list of (relative path, bytes),
//! turns the variables that ask for the opt-in test suites into cfgs
//! (tests/support/needs.rs), and names the commit the binary is built from for
//! `--version` (`RESUME_TUI_VERSION`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Each variable asks for the tests marked `#[cfg_attr(not(CFG), ignore = …)]`.
const OPT_IN_SUITES: [(&str, &str); 4] = [
    ("RESUME_TUI_CORPUS", "resume_tui_corpus"),
    ("RESUME_TUI_TMUX", "resume_tui_tmux"),
    ("RESUME_TUI_ROOT", "resume_tui_root"),
    ("RESUME_TUI_CLAUDE", "resume_tui_claude"),
];

fn main() {
    version();
    for (var, cfg) in OPT_IN_SUITES {
        println!("cargo:rustc-check-cfg=cfg({cfg})");
        println!("cargo:rerun-if-env-changed={var}");
        let asked = std::env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0");
        if asked {
            println!("cargo:rustc-cfg={cfg}");
        }
    }
    let root = PathBuf::from("assets/demo");
    println!("cargo:rerun-if-changed=assets/demo");
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut code = String::from("pub static DEMO_FILES: &[(&str, &[u8])] = &[\n");
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let rel = file.strip_prefix(&root).unwrap_or(file);
        let rel = rel.to_string_lossy().replace('\\', "/");
        let abs = std::fs::canonicalize(file).unwrap_or_else(|_| file.clone());
        let _ = writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    let _ = std::fs::write(out.join("demo_files.rs"), code);
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        println!("cargo:rerun-if-changed={}", path.display());
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// `0.1.0 (commit 0123abcd4567)`, the commit checked out at build time, or
/// `0.1.0 (built outside git: commit unknown)` (the packaged crate, a source
/// archive).
fn version() {
    let package = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    // Only this crate's own repository: a crate unpacked inside another
    // repository's folder (cargo package's check) is built outside git.
    let toplevel = git(&["rev-parse", "--show-toplevel"]).map(PathBuf::from);
    let here = std::env::var("CARGO_MANIFEST_DIR").map(PathBuf::from).ok();
    let own = matches!((&toplevel, &here), (Some(top), Some(here))
        if std::fs::canonicalize(top).ok() == std::fs::canonicalize(here).ok());
    let commit = own
        .then(|| git(&["rev-parse", "--short=12", "HEAD"]))
        .flatten();
    let text = match commit {
        Some(commit) => format!("{package} (commit {commit})"),
        None => format!("{package} (built outside git: commit unknown)"),
    };
    println!("cargo:rustc-env=RESUME_TUI_VERSION={text}");
    if !own {
        return;
    }
    // A new commit moves HEAD or the branch it names (a loose ref, or packed).
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name])
            && Path::new(&path).exists()
        {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
