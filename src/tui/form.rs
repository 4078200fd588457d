//! The decision form (`n` new, `e` edit): five `ratatui-textarea` fields, validated
//! before anything is written; errors are shown beside the field they belong to.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui_textarea::TextArea;

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

    /// A form filled with a decision from a file (sanitised: one line per field).
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
                let mut area = TextArea::new(vec![super::text::clean(value).into_owned()]);
                area.set_placeholder_text(field.hint());
                area.move_cursor(ratatui_textarea::CursorMove::End);
                area
            })
            .collect();
        DecisionForm {
            project_id: project_id.to_string(),
            editing,
            fields,
            focus: 0,
            errors: Vec::new(),
        }
    }

    pub fn focused_field(&self) -> Field {
        Field::ALL
            .get(self.focus)
            .copied()
            .unwrap_or(Field::Decision)
    }

    pub fn value(&self, field: Field) -> String {
        let index = Field::ALL.iter().position(|f| *f == field).unwrap_or(0);
        self.fields
            .get(index)
            .map(|area| area.lines().join(" ").trim().to_string())
            .unwrap_or_default()
    }

    /// Form keys are fixed: Tab/Shift-Tab/Up/Down move between fields, Enter or
    /// Ctrl-S saves, Esc cancels; everything else edits the focused field.
    pub fn handle_key(&mut self, key: KeyEvent) -> FormOutcome {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        match key.code {
            KeyCode::Esc => return FormOutcome::Cancel,
            KeyCode::Char('c') if ctrl => return FormOutcome::Cancel,
            KeyCode::Enter => return self.submit(),
            KeyCode::Char('s') if ctrl => return self.submit(),
            KeyCode::Tab | KeyCode::Down => self.move_focus(1),
            KeyCode::BackTab | KeyCode::Up => self.move_focus(-1),
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
