//! Checkpoints tied to no project (`Workspace::unassigned_checkpoints`): a
//! section under the project rows, so they are seen in the dashboard as `list`
//! and `timeline` show them. Newest first, as many as the pane has room for.

use ratatui::text::{Line, Span};

use super::badges::short_age;
use super::clean;
use crate::core::text::fit;
use crate::tui::model::Model;

/// How many checkpoints no project holds, and how many of them are unacknowledged.
pub fn counts(model: &Model) -> (usize, usize) {
    let loose = &model.workspace.unassigned_checkpoints;
    (
        loose.len(),
        loose.iter().filter(|c| !c.acknowledged).count(),
    )
}

/// The section, in at most `room` lines of `w` cells; empty when there are none.
pub fn lines(model: &Model, w: usize, room: usize) -> Vec<Line<'static>> {
    let (n, waiting) = counts(model);
    if n == 0 || room < 2 {
        return Vec::new();
    }
    let t = &model.theme;
    let noun = if n == 1 { "checkpoint" } else { "checkpoints" };
    let title = format!("── {n} {noun} tied to no project ({waiting} unacknowledged) ");
    let mut out = vec![Line::from(Span::styled(fit(&title, w), t.dim))];
    let mut newest: Vec<_> = model.workspace.unassigned_checkpoints.iter().collect();
    newest.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
    let shown = room - 1;
    for (i, cp) in newest.iter().enumerate().take(shown) {
        if i + 1 == shown && n > shown {
            let more = format!("   … {} more: resume-tui list, resume-tui timeline", n - i);
            out.push(Line::from(Span::styled(fit(&more, w), t.dim)));
            break;
        }
        let flag = if cp.acknowledged { "  " } else { "⚑ " };
        let age = short_age(cp.created_at.map(|at| model.now.seconds_since(at)));
        let trigger = cp.trigger.as_deref().unwrap_or("-");
        let text = format!(
            " {flag}{:<10} {age:>4}  {}  {}",
            clean(&cp.id),
            clean(trigger),
            clean(&cp.path)
        );
        let style = if cp.acknowledged { t.dim } else { t.unacked };
        out.push(Line::from(Span::styled(fit(&text, w), style)));
    }
    out
}
