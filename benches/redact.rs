//! What cleaning a copied text costs (`core::redact::scrub`: invisible characters
//! removed, secrets redacted), on the texts the hooks and the prompt clean: the
//! largest corpus file's rendered prompt (at most 10,000 characters, no secret),
//! the same with a secret of every family in it, that file itself (110 KB), and a
//! 1 MB text (a long PostCompact summary). Run with `cargo bench --bench redact`; figures in docs/performance.md.

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use resume_tui::core::normalize::jerry::normalize_orchestration;
use resume_tui::core::redact::scrub;
use resume_tui::core::render::render_prompt;

const LARGEST: &str = "projects/PROJ-001-oss-release/work/EPIC-001-oss-release/FEAT-002-research-and-preparation/orchestration/ORCHESTRATION.yaml";

const SECRETS: &str = "sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh ghp_16C7e42F292c6912E7710c838347Ae178B4a \
AKIAIOSFODNN7EXAMPLE eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig_value_here \
PGPASSWORD=s3cret postgres://app:pw@db/x sk_live_4eC39HqLyjWDarjtT1zdp7dc \
AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe npm_abcdefghijklmnopqrstuvwxyz0123456789 glpat-xxxxABCDEFGHIJ123456 \
https://hooks.slack.com/services/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 SK0ee979b8d2bfd591920b7f499aee25f0 \
bP88Q~rcBcYjzzOhg1Hnn76Wm3jGgakZiZ.8vMgR curl -u admin:pw mailgun key-0jwg0y5wjyp11lm19ey80ga7p3uw3e9l \
abcsk-ant-api03-QwErTy0123456789_abcXYZ-zyxwvuts Authorization: token 0123456789abcdef0123";

fn corpus() -> PathBuf {
    std::env::var_os("RESUME_TUI_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

fn bench(c: &mut Criterion) {
    let path = corpus().join("geekatron+jerry").join(LARGEST);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; set RESUME_TUI_CORPUS", path.display()));
    let dir = LARGEST.rsplit_once('/').map_or("", |(d, _)| d);
    let project = normalize_orchestration(LARGEST, dir, &text);
    let prompt = render_prompt(&project).text;
    let with_secrets = format!("{prompt}\n{SECRETS}\n");
    let megabyte = prompt.repeat((1 << 20) / prompt.len().max(1) + 1);
    let mut group = c.benchmark_group("scrub");
    group.bench_function("prompt, no secret", |b| b.iter(|| scrub(&prompt).len()));
    group.bench_function("prompt + every family", |b| {
        b.iter(|| scrub(&with_secrets).len())
    });
    group.bench_function("the 110 KB state file", |b| b.iter(|| scrub(&text).len()));
    group.sample_size(20);
    group.bench_function("1 MB", |b| b.iter(|| scrub(&megabyte).len()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
