//! Dashboard speed: the first frame over 1,000 projects (the dashboard's own load,
//! with content hashes, + model + draw) and drawing one frame of each tab. Two
//! workspaces: the demo's richest workflow copied 989 times (13 KB files, three
//! quarters of them `resumption:` sections, quality gates and decisions: the most
//! the dashboard reads per byte), and 1,000 projects generated like the corpus
//! (`benches/support/generate.rs`: median 24 KB, max 110 KB). Run with
//! `cargo bench --bench tui`.
//!
//! Both workspaces are left in `target/` so that time and memory can be measured
//! on the real binary, headless (see docs/performance.md):
//! `/usr/bin/time -v target/release/resume-tui --root target/tui-bench-1000 --render-once 120x40`

#[path = "support/generate.rs"]
mod generate;

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use resume_tui::config::Config;
use resume_tui::core::time::Timestamp;
use resume_tui::io::env::Env;
use resume_tui::tui::keymap::Keymap;
use resume_tui::tui::keymap::parse_key;
use resume_tui::tui::loader::{self, Pass};
use resume_tui::tui::theme::Theme;
use resume_tui::tui::{Model, Msg, update, view};

const NOW: Timestamp = Timestamp(1_771_331_696);
const PROJECTS: usize = 1_000;
const TEMPLATE_ID: &str = "payouts-v2-20260302-001";

/// The demo plus copies of its richest workflow, 1,000 projects in all.
fn workspace_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tui-bench-1000");
    let _ = std::fs::remove_dir_all(&dir);
    resume_tui::io::demo::unpack_into(&dir, NOW).expect("unpack the demo");
    let demo = resume_tui::io::load::load_workspace(&dir, &Env::default(), NOW, &Config::default());
    let template = demo
        .projects
        .iter()
        .find(|p| p.id == TEMPLATE_ID)
        .expect("the demo's payouts workflow");
    let text = std::fs::read_to_string(dir.join(&template.source)).expect("read the template");
    for i in 0..PROJECTS.saturating_sub(demo.projects.len()) {
        let folder = dir.join(format!(
            "projects/PROJ-{:04}-bench/orchestration/wf-{i:04}",
            100 + i
        ));
        std::fs::create_dir_all(&folder).expect("create a project folder");
        let copy = text.replace(TEMPLATE_ID, &format!("bench-wf-{i:04}"));
        std::fs::write(folder.join("ORCHESTRATION.yaml"), copy).expect("write a project");
    }
    dir
}

/// 1,000 projects generated like the corpus, in `target/tui-bench-generated-1000/`.
fn generated_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/tui-bench-generated-1000");
    let _ = std::fs::remove_dir_all(&dir);
    let made = generate::generate(&dir, PROJECTS, 42).expect("generate the workspace");
    eprintln!("generated: {made}");
    dir
}

/// What the dashboard does before its first frame with projects: discover, read
/// (hashing each state file), normalise (the preview pass), build the model, sort,
/// draw. The full pass follows in the background (`full_load_*`).
fn first_frame(dir: &Path) -> Model {
    let discovery = resume_tui::io::discover::discover(dir, &Env::default());
    let loaded = loader::load(
        dir,
        &Env::default(),
        &discovery,
        NOW,
        &Config::default(),
        Pass::Preview,
    );
    let mut model = Model::new(
        Config::default(),
        Theme::default_dark(),
        Keymap::defaults(),
        NOW,
    );
    update(&mut model, Msg::Resize(120, 40), NOW);
    update(&mut model, Msg::Loaded(Ok(Box::new(loaded))), NOW);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    terminal.draw(|f| view(&model, f)).expect("draw");
    model
}

fn key(model: &mut Model, notation: &str) {
    let k = parse_key(notation).expect("key");
    let event = crossterm::event::KeyEvent::new(k.code, k.mods);
    update(model, Msg::Key(event), NOW);
}

fn benches(c: &mut Criterion) {
    let dir = workspace_dir();
    let model = first_frame(&dir);
    assert_eq!(
        model.workspace.projects.len(),
        PROJECTS,
        "the generated workspace"
    );

    let mut group = c.benchmark_group("tui");
    group.sample_size(20);
    group.bench_function("first_frame_1000_projects", |b| {
        b.iter(|| first_frame(&dir))
    });
    let generated = generated_dir();
    assert_eq!(
        first_frame(&generated).workspace.projects.len(),
        PROJECTS,
        "the corpus-like workspace"
    );
    group.bench_function("first_frame_1000_generated_corpus_like", |b| {
        b.iter(|| first_frame(&generated))
    });
    // The full pass that follows the first frame, off the UI thread.
    for (name, workspace) in [
        ("full_load_1000_projects", &dir),
        ("full_load_1000_generated_corpus_like", &generated),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let discovery = resume_tui::io::discover::discover(workspace, &Env::default());
                loader::load(
                    workspace,
                    &Env::default(),
                    &discovery,
                    NOW,
                    &Config::default(),
                    Pass::Full,
                )
            })
        });
    }
    // The same, split: reading the files (io::load) and the dashboard's own share
    // (model, sort, first draw) over an already loaded workspace.
    group.bench_function("load_workspace_1000_projects", |b| {
        b.iter(|| {
            resume_tui::io::load::load_workspace(&dir, &Env::default(), NOW, &Config::default())
        })
    });
    let loaded = model.workspace.clone();
    group.bench_function("model_and_first_draw_1000_projects", |b| {
        b.iter(|| {
            let mut m = Model::new(
                Config::default(),
                Theme::default_dark(),
                Keymap::defaults(),
                NOW,
            );
            update(&mut m, Msg::Resize(120, 40), NOW);
            update(&mut m, Msg::loaded(loaded.clone()), NOW);
            let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
            terminal.draw(|f| view(&m, f)).expect("draw").area
        })
    });
    group.finish();

    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    let mut model = model;
    key(&mut model, "G");
    for (tab, name) in [
        ("1", "overview"),
        ("2", "quality"),
        ("3", "compaction"),
        ("4", "decisions"),
        ("5", "prompt"),
    ] {
        key(&mut model, tab);
        c.bench_function(
            &format!("tui/draw_frame_{name}_120x40_1000_projects"),
            |b| b.iter(|| terminal.draw(|f| view(&model, f)).expect("draw").area),
        );
    }
    c.bench_function("tui/update_move_selection_1000_projects", |b| {
        b.iter(|| {
            key(&mut model, "k");
            key(&mut model, "j");
        })
    });
}

criterion_group!(tui, benches);
criterion_main!(tui);
