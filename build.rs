//! Embeds `assets/demo/` into the binary as a list of (relative path, bytes).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
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
