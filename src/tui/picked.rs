//! The item the operator chose inside the details pane: a checkpoint of the
//! Compaction timeline, a decision, a checkpoint tied to no project. Each is
//! held by what it is (a checkpoint by its file, a decision by its id, else by
//! its place and text), not by its row, so a reload that adds or removes rows
//! before it keeps it selected. When it is gone, the row the cursor fell onto
//! is not the operator's choice: nothing is written to it until they move the
//! selection, and the status bar says why (as `chosen` does for projects).

use super::chosen::{IS_GONE, say_with_report};
use super::model::{Model, Tab};

/// The three choices, and the rows as the operator last left them.
#[derive(Debug, Clone, Default)]
pub struct Picks {
    timeline: Pick,
    decision: Pick,
    loose: Pick,
    rows: Option<Rows>,
}

#[derive(Debug, Clone, Default)]
struct Pick {
    /// What the item is; `None` when nothing is chosen yet.
    key: Option<String>,
    /// What the status bar calls it.
    label: String,
    /// The item is gone since a reload: nothing is written until a move.
    gone: bool,
}

/// The selection as rows: a change made by a key or a click is a new choice.
#[derive(Debug, Clone, PartialEq)]
struct Rows {
    selected: Option<String>,
    on_loose: bool,
    timeline: usize,
    decision: usize,
    loose: usize,
}

impl Rows {
    fn of(model: &Model) -> Rows {
        Rows {
            selected: model.selected.clone(),
            on_loose: model.on_loose,
            timeline: model.timeline_row,
            decision: model.decision_row,
            loose: model.loose_row,
        }
    }
}

fn row_in(rows: &Rows, kind: Kind) -> usize {
    match kind {
        Kind::Timeline => rows.timeline,
        Kind::Decision => rows.decision,
        Kind::Loose => rows.loose,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Timeline,
    Decision,
    Loose,
}

const KINDS: [Kind; 3] = [Kind::Timeline, Kind::Decision, Kind::Loose];

fn pick(model: &mut Model, kind: Kind) -> &mut Pick {
    match kind {
        Kind::Timeline => &mut model.picks.timeline,
        Kind::Decision => &mut model.picks.decision,
        Kind::Loose => &mut model.picks.loose,
    }
}

fn row(model: &Model, kind: Kind) -> usize {
    match kind {
        Kind::Timeline => model.timeline_row,
        Kind::Decision => model.decision_row,
        Kind::Loose => model.loose_row,
    }
}

/// Every item of `kind`'s list as (key, label), in row order.
fn items(model: &Model, kind: Kind) -> Vec<(String, String)> {
    match kind {
        Kind::Timeline => model
            .timeline()
            .iter()
            .map(|r| match r.checkpoint {
                Some(cp) => (format!("file {}", cp.path), cp.id.clone()),
                None => (format!("event {}", r.id), r.id.clone()),
            })
            .collect(),
        Kind::Decision => model.project().map_or_else(Vec::new, |p| {
            let decisions = p.decisions().iter().enumerate();
            decisions
                .map(|(i, d)| match &d.id {
                    Some(id) => (format!("id {id}"), id.clone()),
                    None => (
                        format!("#{i} {}", d.decision),
                        format!("decision {}", i + 1),
                    ),
                })
                .collect()
        }),
        Kind::Loose => super::loose::newest_first(model)
            .iter()
            .map(|cp| (format!("file {}", cp.path), cp.id.clone()))
            .collect(),
    }
}

/// The item now on `kind`'s row becomes the choice.
pub(crate) fn take(model: &mut Model, kind: Kind) {
    let item = items(model, kind).into_iter().nth(row(model, kind));
    let (key, label) = item.map_or((None, String::new()), |(k, l)| (Some(k), l));
    *pick(model, kind) = Pick {
        key,
        label,
        gone: false,
    };
}

/// No item of `kind` is held: the next reload keeps the row (after the
/// operator's own delete, the row takes the next item).
pub(crate) fn forget(model: &mut Model, kind: Kind) {
    *pick(model, kind) = Pick::default();
}

/// After the operator's key, click or paste: rows they moved are their choice.
pub(crate) fn after_input(model: &mut Model) {
    let rows = Rows::of(model);
    let before = model.picks.rows.take();
    let elsewhere = before
        .as_ref()
        .is_none_or(|b| b.selected != rows.selected || b.on_loose != rows.on_loose);
    for kind in KINDS {
        let moved =
            elsewhere || before.as_ref().map(|b| row_in(b, kind)) != Some(row_in(&rows, kind));
        let held = pick(model, kind);
        if moved || (held.key.is_none() && !held.gone) {
            take(model, kind);
        }
    }
    model.picks.rows = Some(rows);
}

/// After a load or a reload: each chosen item is selected again on its new row;
/// one that is gone is reported once and refuses writes until a move.
pub(crate) fn after_background(model: &mut Model, was_read: bool) {
    let on_chosen = model.selected.is_some() && model.selected == model.chosen;
    for kind in KINDS {
        if !was_read || pick(model, kind).key.is_none() {
            take(model, kind);
        } else if kind == Kind::Loose || on_chosen {
            restore(model, kind);
        }
    }
    model.picks.rows = Some(Rows::of(model));
}

fn restore(model: &mut Model, kind: Kind) {
    let Some(key) = pick(model, kind).key.clone() else {
        return;
    };
    match items(model, kind).iter().position(|(k, _)| *k == key) {
        Some(at) => {
            match kind {
                Kind::Timeline => model.timeline_row = at,
                Kind::Decision => model.decision_row = at,
                Kind::Loose => model.loose_row = at,
            }
            pick(model, kind).gone = false;
        }
        None if !pick(model, kind).gone => {
            pick(model, kind).gone = true;
            if shown(model, kind) {
                let label = pick(model, kind).label.clone();
                say_with_report(model, format!("{label} {IS_GONE}; {MOVE}"));
            }
        }
        None => {}
    }
}

const MOVE: &str = "nothing is done to another row until you pick one (j/k)";

/// Whether `kind`'s list is the one on screen.
fn shown(model: &Model, kind: Kind) -> bool {
    match kind {
        Kind::Loose => model.on_loose,
        Kind::Timeline => !model.on_loose && model.tab == Tab::Compaction,
        Kind::Decision => !model.on_loose && model.tab == Tab::Decisions,
    }
}

/// Why nothing may be written to `kind`'s selected item (the chosen one is gone), if so.
pub(crate) fn refusal(model: &Model, kind: Kind) -> Option<String> {
    let held = match kind {
        Kind::Timeline => &model.picks.timeline,
        Kind::Decision => &model.picks.decision,
        Kind::Loose => &model.picks.loose,
    };
    held.gone
        .then(|| format!("not done: {} {IS_GONE}; {MOVE}", held.label))
}
