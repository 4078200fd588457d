//! Writes the load benchmark's synthetic workspace to a folder, to time the real
//! binary on it: `cargo run --release --example gen_workspace -- DIR [PROJECTS]`,
//! then `/usr/bin/time -v target/release/resume-tui list --root DIR`.

#[path = "../benches/support/generate.rs"]
mod generate;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: gen_workspace DIR [PROJECTS (default 1000)]");
        std::process::exit(2);
    };
    let projects = args.next().and_then(|n| n.parse().ok()).unwrap_or(1000);
    match generate::generate(std::path::Path::new(&dir), projects, 42) {
        Ok(g) => println!(
            "{dir}: {} projects, {} files, {:.1} MB; ORCHESTRATION.yaml median {} KB, max {} KB",
            g.projects,
            g.files,
            g.bytes as f64 / 1e6,
            g.median_workflow_bytes / 1000,
            g.max_workflow_bytes / 1000
        ),
        Err(e) => {
            eprintln!("{dir}: {e}");
            std::process::exit(1);
        }
    }
}
