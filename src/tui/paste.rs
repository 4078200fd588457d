//! A bracketed paste is text, never keys: it goes into the focused text field (the
//! filter, a field of the decision form) as one line, or is ignored with a message.
//! A paste never acknowledges, sorts, switches tabs or quits.

use super::effect::Effect;
use super::model::{Model, Overlay, StatusKind};

pub fn on_paste(model: &mut Model, text: &str) -> Vec<Effect> {
    let line = one_line(text);
    match &mut model.overlay {
        Overlay::Form(form) => {
            if let Some(field) = form.fields.get_mut(form.focus) {
                field.insert_str(&line);
            }
        }
        Overlay::None if model.filtering => {
            model.filter.push_str(&line);
            super::update::refresh_visible(model);
        }
        _ => model.set_status(
            StatusKind::Info,
            "paste ignored: no text field has the focus (/ opens the filter)",
        ),
    }
    Vec::new()
}

/// The pasted text as one line: line breaks become spaces, control characters and
/// escape sequences go.
fn one_line(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    crate::core::text::clean(&text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::form::DecisionForm;
    use crate::tui::input::test_model as model;
    use crate::tui::model::Tab;

    fn status(m: &Model) -> &str {
        m.status.as_ref().map_or("", |s| s.text.as_str())
    }

    #[test]
    fn a_paste_outside_a_text_field_changes_nothing_but_the_status() {
        let mut m = model();
        m.tab = Tab::Compaction;
        let effects = on_paste(&mut m, "A merge note: see cx-002\nq");
        assert!(effects.is_empty());
        assert_eq!(m.tab, Tab::Compaction);
        assert!(!m.quit && !m.filtering && m.filter.is_empty());
        assert!(status(&m).contains("paste ignored"), "{}", status(&m));
    }

    #[test]
    fn a_paste_goes_into_the_filter_as_one_clean_line() {
        let mut m = model();
        m.filtering = true;
        on_paste(&mut m, "aud\r\nit\x1b[31m q");
        assert_eq!(m.filter, "aud it q");
        assert!(!m.quit);
    }

    #[test]
    fn a_paste_goes_into_the_focused_field_of_the_form() {
        let mut m = model();
        m.overlay = Overlay::Form(Box::new(DecisionForm::new("p")));
        on_paste(&mut m, "Keep the v1 path\nuntil March");
        let Overlay::Form(form) = &m.overlay else {
            panic!("the form stays open");
        };
        assert_eq!(form.fields[0].lines(), ["Keep the v1 path until March"]);
    }
}
