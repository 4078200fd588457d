//! Discovering and loading workspaces: a generated one of 1,000 projects (sizes
//! drawn like the corpus: ORCHESTRATION.yaml median 24 KB, max 110 KB) and the
//! whole shared corpus. Run with `cargo bench --bench load`; numbers and the
//! whole-process timings are in docs/performance.md.

#[path = "support/generate.rs"]
mod generate;

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use resume_tui::config::Config;
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::time::Timestamp;
use resume_tui::io::discover::discover;
use resume_tui::io::env::Env;
use resume_tui::io::load::load_workspace;

fn corpus() -> PathBuf {
    std::env::var_os("RESUME_TUI_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn now() -> Timestamp {
    Timestamp::parse("2026-02-20T12:00:00Z").unwrap_or(Timestamp(0))
}

fn load(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary folder");
    let made = generate::generate(dir.path(), 1000, 42).expect("generate the workspace");
    eprintln!("generated: {made}");
    let env = Env::default();
    let config = Config::default();

    let mut group = c.benchmark_group("load");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("generated 1000 projects: discover", |b| {
        b.iter(|| discover(dir.path(), &env))
    });
    group.bench_function("generated 1000 projects: discover + load", |b| {
        b.iter(|| load_workspace(dir.path(), &env, now(), &config))
    });
    let corpus = corpus();
    if corpus.is_dir() {
        group.bench_function("shared corpus: discover + load", |b| {
            b.iter(|| load_workspace(&corpus, &env, now(), &config))
        });
    } else {
        eprintln!(
            "corpus not found at {}; set RESUME_TUI_CORPUS",
            corpus.display()
        );
    }
    let one = std::fs::read_to_string(
        dir.path()
            .join("projects/PROJ-0000-bench/orchestration/wf-0000/ORCHESTRATION.yaml"),
    )
    .expect("a generated workflow");
    group.bench_function(
        format!("normalise one {} KB ORCHESTRATION.yaml", one.len() / 1000),
        |b| b.iter(|| normalize_orchestration("ORCHESTRATION.yaml", "", &one)),
    );
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
