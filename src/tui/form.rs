//! The decision form (`n` new, `e` edit): five `ratatui-textarea` fields, validated
//! before anything is written; errors are shown beside the field they belong to.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::{TextArea, WrapMode};

use crate::core::edit::{DecisionFields, NewDecision};
use crate::core::model::Decision;
use crate::core::time::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Decision,
    Rationale,
    Affects,
    Gate,
    Iteration,
}

impl Field {
    pub const ALL: [Field; 5] = [
        Field::Decision,
        Field::Rationale,
        Field::Affects,
        Field::Gate,
        Field::Iteration,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Field::Decision => "Decision",
            Field::Rationale => "Rationale",
            Field::Affects => "Affects phases",
            Field::Gate => "Gate",
            Field::Iteration => "Iteration",
        }
    }

    /// Lines the field shows at least; a field of more than one takes several lines
    /// of text (Enter starts a new one), soft-wrapped, and grows with them where the
    /// screen has room.
    pub fn rows(self) -> u16 {
        match self {
            Field::Decision | Field::Rationale => 3,
            Field::Affects | Field::Gate | Field::Iteration => 1,
        }
    }

    pub fn multiline(self) -> bool {
        self.rows() > 1
    }

    pub fn hint(self) -> &'static str {
        match self {
            Field::Decision => "what was decided (required)",
            Field::Rationale => "why",
            Field::Affects => "phase numbers, e.g. 2, 3",
            Field::Gate => "e.g. qg-2",
            Field::Iteration => "a whole number ≥ 1",
        }
    }
}

/// A decision as the form produced it, validated.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DecisionDraft {
    pub decision: String,
    pub rationale: Option<String>,
    pub affects_phases: Vec<i64>,
    pub gate: Option<String>,
    pub iteration: Option<i64>,
}

impl DecisionDraft {
    /// A new decision dated `now`.
    pub fn to_new(&self, now: Timestamp) -> NewDecision {
        NewDecision {
            decision: self.decision.clone(),
            rationale: self.rationale.clone(),
            affects_phases: self.affects_phases.clone(),
            gate: self.gate.clone(),
            iteration: self.iteration,
            date: Some(now),
        }
    }

    /// Every field the form shows, as the edit of an existing decision.
    pub fn to_fields(&self) -> DecisionFields {
        DecisionFields {
            decision: Some(self.decision.clone()),
            rationale: self.rationale.clone(),
            affects_phases: Some(self.affects_phases.clone()),
            gate: self.gate.clone(),
            iteration: self.iteration,
        }
    }
}

#[derive(Debug, Clone)]
pub struct DecisionForm {
    pub project_id: String,
    /// `None` for a new decision; the id of the decision being edited otherwise.
    pub editing: Option<String>,
    pub fields: Vec<TextArea<'static>>,
    pub focus: usize,
    pub errors: Vec<(Field, String)>,
    /// Each field's value when the form opened.
    initial: Vec<String>,
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormOutcome {
    Editing,
    Cancel,
    Submit(DecisionDraft),
}

impl DecisionForm {
    pub fn new(project_id: &str) -> DecisionForm {
        DecisionForm::with_values(project_id, None, ["", "", "", "", ""])
    }

    /// A form filled with a decision from a file (sanitised; the lines of a
    /// multi-line text kept).
    pub fn edit(project_id: &str, decision: &Decision) -> DecisionForm {
        let affects = decision
            .affects_phases
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let iteration = decision
            .iteration
            .map(|i| i.to_string())
            .unwrap_or_default();
        DecisionForm::with_values(
            project_id,
            decision.id.clone(),
            [
                &decision.decision,
                decision.rationale.as_deref().unwrap_or(""),
                &affects,
                decision.gate.as_deref().unwrap_or(""),
                &iteration,
            ],
        )
    }

    fn with_values(project_id: &str, editing: Option<String>, values: [&str; 5]) -> DecisionForm {
        let fields = Field::ALL
            .iter()
            .zip(values)
            .map(|(field, value)| {
                let lines: Vec<String> = if field.multiline() {
                    value
                        .lines()
                        .map(|l| crate::core::text::clean(l).into_owned())
                        .collect()
                } else {
                    vec![crate::core::text::clean(value).into_owned()]
                };
                let mut area = TextArea::new(lines);
                if field.multiline() {
                    area.set_wrap_mode(WrapMode::WordOrGlyph);
                }
                area.set_placeholder_text(field.hint());
                area.move_cursor(ratatui_textarea::CursorMove::End);
                area
            })
            .collect();
        let mut form = DecisionForm {
            project_id: project_id.to_string(),
            editing,
            fields,
            focus: 0,
            errors: Vec::new(),
            initial: Vec::new(),
        };
        form.initial = Field::ALL.iter().map(|f| form.value(*f)).collect();
        form
    }

    /// True when the operator changed a field since the form opened: closing it
    /// would lose that.
    pub fn changed(&self) -> bool {
        Field::ALL
            .iter()
            .zip(&self.initial)
            .any(|(f, initial)| self.value(*f) != *initial)
    }

    pub fn focused_field(&self) -> Field {
        Field::ALL
            .get(self.focus)
            .copied()
            .unwrap_or(Field::Decision)
    }

    /// The field's text: its lines (a one-line field's joined by spaces), trimmed.
    pub fn value(&self, field: Field) -> String {
        let index = Field::ALL.iter().position(|f| *f == field).unwrap_or(0);
        let separator = if field.multiline() { "\n" } else { " " };
        self.fields
            .get(index)
            .map(|area| {
                let lines: Vec<&str> = area.lines().iter().map(|l| l.trim_end()).collect();
                lines.join(separator).trim().to_string()
            })
            .unwrap_or_default()
    }

    /// Form keys are fixed: Tab/Shift-Tab move between fields (and Up/Down past a
    /// field's first or last line), Ctrl-S saves (Enter too in a one-line field;
    /// in the Decision and Rationale it starts a new line), Esc cancels;
    /// everything else edits the focused field.
    pub fn handle_key(&mut self, key: KeyEvent) -> FormOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let field = self.focused_field();
        let row = self
            .fields
            .get(self.focus)
            .map_or(0, |area| area.cursor().0);
        let last_row = self
            .fields
            .get(self.focus)
            .map_or(0, |area| area.lines().len().saturating_sub(1));
        match key.code {
            KeyCode::Esc => return FormOutcome::Cancel,
            KeyCode::Enter if !field.multiline() => return self.submit(),
            KeyCode::Char('s') if ctrl => return self.submit(),
            KeyCode::Tab => self.move_focus(1),
            KeyCode::BackTab => self.move_focus(-1),
            KeyCode::Down if row >= last_row => self.move_focus(1),
            KeyCode::Up if row == 0 => self.move_focus(-1),
            _ => {
                if let Some(area) = self.fields.get_mut(self.focus) {
                    area.input(key);
                }
            }
        }
        FormOutcome::Editing
    }

    fn move_focus(&mut self, by: isize) {
        let len = self.fields.len().max(1) as isize;
        self.focus = (self.focus as isize + by).rem_euclid(len) as usize;
    }

    fn submit(&mut self) -> FormOutcome {
        match self.validate() {
            Ok(draft) => {
                self.errors.clear();
                FormOutcome::Submit(draft)
            }
            Err(errors) => {
                if let Some((field, _)) = errors.first() {
                    self.focus = Field::ALL.iter().position(|f| f == field).unwrap_or(0);
                }
                self.errors = errors;
                FormOutcome::Editing
            }
        }
    }

    pub fn validate(&self) -> Result<DecisionDraft, Vec<(Field, String)>> {
        let mut errors = Vec::new();
        let decision = self.value(Field::Decision);
        if decision.is_empty() {
            errors.push((Field::Decision, "a decision cannot be empty".to_string()));
        }
        let affects_text = self.value(Field::Affects);
        let mut affects_phases = Vec::new();
        for part in affects_text.split([',', ' ']).filter(|p| !p.is_empty()) {
            match part.parse::<i64>() {
                Ok(n) if n >= 0 => affects_phases.push(n),
                _ => {
                    errors.push((
                        Field::Affects,
                        format!("{part:?} is not a phase number; write e.g. 2, 3"),
                    ));
                    break;
                }
            }
        }
        let iteration_text = self.value(Field::Iteration);
        let iteration = match iteration_text.as_str() {
            "" => None,
            text => match text.parse::<i64>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    errors.push((
                        Field::Iteration,
                        format!("{text:?} is not a whole number ≥ 1"),
                    ));
                    None
                }
            },
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let optional = |text: String| (!text.is_empty()).then_some(text);
        Ok(DecisionDraft {
            decision,
            rationale: optional(self.value(Field::Rationale)),
            affects_phases,
            gate: optional(self.value(Field::Gate)),
            iteration,
        })
    }

    pub fn error_for(&self, field: Field) -> Option<&str> {
        self.errors
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, e)| e.as_str())
    }
}
