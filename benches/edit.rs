//! Edit speed on the largest corpus file (110 KB): end to end (read, plan, splice,
//! re-parse and compare, locked atomic replace) and its parts. Run with
//! `cargo bench --bench edit` (the corpus is read in place: `RESUME_TUI_CORPUS`,
//! else `<repo>/../shared/corpus`). Each written iteration starts from the original
//! bytes (restored outside the measurement).

use std::path::{Path, PathBuf};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use resume_tui::core::edit::{CheckpointEvent, EditIntent, NewDecision};
use resume_tui::core::time::Timestamp;
use resume_tui::io::yaml_edit::{edit_file, edit_yaml};

const LARGEST: &str = "geekatron+jerry/projects/PROJ-001-oss-release/work/EPIC-001-oss-release/FEAT-002-research-and-preparation/orchestration/ORCHESTRATION.yaml";
const TYPICAL: &str = "geekatron+jerry/projects/PROJ-008-agentic-security/orchestration/agentic-sec-20260222-001/ORCHESTRATION.yaml";
const NOW: Timestamp = Timestamp(1_772_445_600);

fn corpus() -> PathBuf {
    std::env::var_os("RESUME_TUI_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn read(rel: &str) -> String {
    let path = corpus().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; set RESUME_TUI_CORPUS", path.display()))
}

fn add_decision() -> EditIntent {
    EditIntent::AddDecision(NewDecision {
        decision: "Benchmark decision: keep every comment".into(),
        rationale: Some("measured".into()),
        affects_phases: vec![2, 3],
        ..NewDecision::default()
    })
}

fn merge() -> EditIntent {
    EditIntent::MergeCheckpoint(CheckpointEvent {
        id: "cx-042".into(),
        fill: Some(0.88),
        timestamp: Some(NOW.to_iso()),
        ..CheckpointEvent::default()
    })
}

fn bench(c: &mut Criterion) {
    let largest = read(LARGEST);
    let typical = read(TYPICAL);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ORCHESTRATION.yaml");

    c.bench_function(
        "edit 110 KB: decision add, end to end (read → write)",
        |b| {
            b.iter_batched(
                || std::fs::write(&path, &largest).unwrap(),
                |()| edit_file(&path, "ORCHESTRATION.yaml", &add_decision(), false).unwrap(),
                BatchSize::PerIteration,
            )
        },
    );
    c.bench_function(
        "edit 110 KB: merge checkpoint, end to end (read → write)",
        |b| {
            b.iter_batched(
                || std::fs::write(&path, &largest).unwrap(),
                |()| edit_file(&path, "ORCHESTRATION.yaml", &merge(), false).unwrap(),
                BatchSize::PerIteration,
            )
        },
    );
    c.bench_function("edit 110 KB: decision add, in memory (no file)", |b| {
        b.iter(|| edit_yaml("ORCHESTRATION.yaml", &largest, &add_decision()).unwrap())
    });
    c.bench_function("edit 39 KB v2-nested: decision add, in memory", |b| {
        b.iter(|| edit_yaml("ORCHESTRATION.yaml", &typical, &add_decision()).unwrap())
    });
    c.bench_function(
        "write 110 KB: read_snapshot + replace (lock, temp, fsync, rename)",
        |b| {
            std::fs::write(&path, &largest).unwrap();
            b.iter(|| {
                let snapshot = resume_tui::io::write::read_snapshot(&path).unwrap();
                resume_tui::io::write::replace(&snapshot, largest.as_bytes()).unwrap()
            })
        },
    );
    c.bench_function("parse 110 KB: yaml_serde", |b| {
        b.iter(|| yaml_serde::from_str::<yaml_serde::Value>(&largest).unwrap())
    });
    c.bench_function("parse 110 KB: yaml-edit tree", |b| {
        b.iter(|| <yaml_edit::Document as std::str::FromStr>::from_str(&largest).unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
