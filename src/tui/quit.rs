//! Quitting: `q` and Ctrl-C quit at once unless something would be lost (a form
//! with text in it, a change still being written, changes written to the demo's
//! temporary copy); then they ask, and only `y` quits. Esc never quits.

use crossterm::event::{KeyCode, KeyEvent};

use super::effect::Effect;
use super::model::{Model, Overlay, Saving};

/// `q` / Ctrl-C: quits, or asks first.
pub fn request(model: &mut Model) -> Vec<Effect> {
    match would_lose(model) {
        None => now(model),
        Some(lost) => {
            let previous = std::mem::replace(&mut model.overlay, Overlay::None);
            model.overlay = Overlay::ConfirmQuit {
                lost,
                previous: Box::new(previous),
            };
            Vec::new()
        }
    }
}

pub fn now(model: &mut Model) -> Vec<Effect> {
    model.quit = true;
    vec![Effect::Quit]
}

/// A key while the question is open: `y` quits; anything else puts back what the
/// question covered.
pub fn on_confirm_key(model: &mut Model, key: KeyEvent) -> Vec<Effect> {
    if matches!(key.code, KeyCode::Char('y' | 'Y')) {
        return now(model);
    }
    model.farewell = None;
    if let Overlay::ConfirmQuit { previous, .. } =
        std::mem::replace(&mut model.overlay, Overlay::None)
    {
        model.overlay = *previous;
    }
    Vec::new()
}

/// What quitting now would lose, in words; `None` when nothing.
pub fn would_lose(model: &Model) -> Option<String> {
    let mut lost = Vec::new();
    let form = match &model.overlay {
        Overlay::Form(form) => Some(form),
        Overlay::ChangedOnDisk { form, .. } => form.as_ref(),
        _ => None,
    };
    if form.is_some_and(|f| f.changed()) {
        lost.push("the decision form's changes".to_string());
    }
    if model.saving == Saving::Writing {
        lost.push("the change being written".to_string());
    }
    if model.demo && model.writes > 0 {
        let changes = if model.writes == 1 {
            "1 change".to_string()
        } else {
            format!("{} changes", model.writes)
        };
        lost.push(format!(
            "{changes} made to the demo (its copy is deleted on exit)"
        ));
    }
    (!lost.is_empty()).then(|| lost.join(" and "))
}
