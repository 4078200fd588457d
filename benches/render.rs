//! Rendering speed: Template 1 for the largest corpus file (110 KB) and for a
//! 10 MB next step, Template 2,
//! the context monitor and the Nexus sequence. Run with `cargo bench --bench render`
//! (the corpus is read in place: `RESUME_TUI_CORPUS`, else `<repo>/../shared/corpus`).
//!
//! Normalising the file is measured separately from rendering it: the renderer
//! takes the normalised project, which the dashboard and hooks already hold.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use resume_tui::config::Config;
use resume_tui::core::normalize::checkpoint::normalize_checkpoint;
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::normalize::nexus::normalize_manifest;
use resume_tui::core::render::monitor::FillReading;
use resume_tui::core::render::nexus::{NexusInput, Style};
use resume_tui::core::render::{render_alert, render_monitor, render_nexus, render_prompt};
use resume_tui::core::time::Timestamp;

const LARGEST: &str = "projects/PROJ-001-oss-release/work/EPIC-001-oss-release/FEAT-002-research-and-preparation/orchestration/ORCHESTRATION.yaml";

fn corpus() -> PathBuf {
    std::env::var_os("RESUME_TUI_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/render")
        .join(name);
    std::fs::read_to_string(path).expect("read a render fixture")
}

fn bench(c: &mut Criterion) {
    let path = corpus().join("geekatron+jerry").join(LARGEST);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; set RESUME_TUI_CORPUS", path.display()));
    let dir = LARGEST.rsplit_once('/').map_or("", |(d, _)| d);
    let largest = normalize_orchestration(LARGEST, dir, &text);

    c.bench_function("template_1_largest_corpus_file_render", |b| {
        b.iter(|| render_prompt(std::hint::black_box(&largest)))
    });
    c.bench_function("template_1_largest_corpus_file_normalise_and_render", |b| {
        b.iter(|| {
            render_prompt(&normalize_orchestration(
                LARGEST,
                dir,
                std::hint::black_box(&text),
            ))
        })
    });

    // A 10 MB next step (the dashboard's Prompt tab renders it twice per key):
    // only what can be kept is redacted and folded (`core::text::cut`).
    let huge = normalize_orchestration(
        "projects/P1/ORCHESTRATION.yaml",
        "projects/P1",
        &format!(
            "workflow:\n  id: w-P1\nresumption:\n  recovery_state:\n    next_step: \"{}\"\n",
            "lorem ipsum dolor sit amet consectetur ".repeat(10_000_000 / 39)
        ),
    );
    c.bench_function("template_1_10mb_next_step_render", |b| {
        b.iter(|| render_prompt(std::hint::black_box(&huge)))
    });

    let golden = normalize_orchestration(
        "projects/PROJ-001-oss-release/ORCHESTRATION.yaml",
        "projects/PROJ-001-oss-release",
        &fixture("proj-001-qg2.yaml"),
    );
    let cx = normalize_checkpoint(
        ".jerry/checkpoints/cx-001-checkpoint.json",
        &fixture("cx-001-checkpoint.json"),
        false,
    )
    .expect("the fixture checkpoint");
    c.bench_function("template_2_render", |b| {
        b.iter(|| render_alert(&cx, Some(&golden), std::slice::from_ref(&cx)))
    });

    let config = Config::default();
    let now = Timestamp(1_771_331_696);
    let reading = FillReading {
        fill: Some(0.732),
        tokens_used: Some(146_400),
        window: Some(200_000),
        ..FillReading::default()
    };
    c.bench_function("context_monitor_render", |b| {
        b.iter(|| render_monitor(&golden, &reading, &config.context, now))
    });

    let nexus = normalize_manifest(
        "02-projects/24-x/01-planning/resume-context.md",
        "02-projects/24-x",
        &fixture("resume-context.md"),
    );
    let manifest = nexus.manifest.clone().expect("a manifest");
    c.bench_function("nexus_sequence_render", |b| {
        b.iter(|| {
            render_nexus(&NexusInput {
                project: &nexus,
                manifest: &manifest,
                abs_dir: "/home/op/nexus/02-projects/24-x",
                confidence: Some("medium"),
                style: Style::Emoji,
            })
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
