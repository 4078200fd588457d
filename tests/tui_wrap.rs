//! Long values in the Compaction and Decisions details wrap under their own
//! column (a hanging indent), never back under their label, measured in display
//! cells: wide (CJK) text included, and nothing lost at the breaks.

mod tui_support;

use resume_tui::core::model::Workspace;
use resume_tui::tui::layout::areas;
use resume_tui::tui::theme::Theme;
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";
const NEXT_ACTION: &str = "次の手順：チェックポイントを再開セクションにマージしてから、\
    QG-2 の第二反復の S-004 事前検証を終えて handlers.md と batcher.md を再採点する。";
const RATIONALE: &str = "Per-merchant scope avoids cross-tenant collisions; \
    マーチャント単位のスコープはテナント間の衝突を避け、24 時間はログで見た最長の再試行方針をカバーする。";

fn workspace() -> Workspace {
    let mut ws = demo_workspace();
    let p = ws.projects.iter_mut().find(|p| p.id == PAYOUTS).unwrap();
    for cp in &mut p.checkpoints {
        cp.next_action = Some(NEXT_ACTION.into());
    }
    let decision = p
        .resumption
        .as_mut()
        .unwrap()
        .decisions
        .first_mut()
        .unwrap();
    decision.rationale = Some(RATIONALE.into());
    ws
}

/// The value of `label` as shown in the tab's pane: its first row after the label
/// column, then every row under it that starts at the value column.
fn value_rows(keys: &[&str], width: u16, label: &str, column: usize) -> Vec<String> {
    // Tall, so that the whole detail shows; the width is what the wrap depends on.
    let mut m = model_with(workspace(), Theme::default_dark(), width, 80);
    select(&mut m, PAYOUTS);
    press(&mut m, keys);
    let rows = area_rows(&draw(&m), areas(width, 80).body);
    let start = rows
        .iter()
        .position(|r| r.starts_with(label))
        .unwrap_or_else(|| panic!("no {label} row:\n{}", rows.join("\n")));
    let mut out = vec![rows[start].clone()];
    let indent = " ".repeat(column);
    for row in &rows[start + 1..] {
        let hangs = row.starts_with(&indent) && !row[column..].starts_with(' ');
        if !hangs {
            break;
        }
        out.push(row.clone());
    }
    out
}

fn check(keys: &[&str], label: &str, column: usize, text: &str) {
    for width in [80, 120] {
        let rows = value_rows(keys, width, label, column);
        let context = format!("{label} at width {width}:\n{}", rows.join("\n"));
        assert!(rows.len() >= 2, "the value wraps: {context}");
        let first = &rows[0];
        assert!(
            first[..column].trim_end() == label && !first[column..].starts_with(' '),
            "the value starts at column {column}: {context}"
        );
        let shown: String = rows.iter().map(|r| r[column..].to_string()).collect();
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        assert_eq!(squeeze(&shown), squeeze(text), "nothing lost: {context}");
    }
}

#[test]
fn a_checkpoints_next_action_hangs_under_its_value_column() {
    check(&["3"], "Next action", 16, NEXT_ACTION);
}

#[test]
fn a_decisions_rationale_hangs_under_its_value_column() {
    check(&["4"], "Rationale", 11, RATIONALE);
}
