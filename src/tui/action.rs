//! The keymap's vocabulary: every named thing a key can do in the dashboard.
//! The serde names are what `keymap.toml` writes in `run = "…"`.

use serde::Deserialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Close what is open (help, filter, detail focus); never quits.
    Back,
    /// Quit, asking first when something would be lost.
    Quit,
    Up,
    Down,
    Top,
    Bottom,
    PageUp,
    PageDown,
    /// Scroll the text under the Compaction and Decisions tables (the whole text in
    /// the other tabs), whatever has the focus.
    DetailDown,
    DetailUp,
    FocusList,
    FocusDetail,
    NextTab,
    PrevTab,
    TabOverview,
    TabQuality,
    TabCompaction,
    TabDecisions,
    TabPrompt,
    Filter,
    CycleSort,
    ReverseSort,
    /// Show only the projects of one header count (CRITICAL, STALE, …), in turn.
    CycleOnly,
    Help,
    /// The status bar's messages of the session, whole, with their times.
    Messages,
    /// Show or hide the timeline of every project's compactions.
    Timeline,
    Reload,
    Acknowledge,
    AcknowledgeAll,
    MergeCheckpoint,
    NewDecision,
    EditDecision,
    ToggleApplied,
    DeleteDecision,
    /// Take the last decision change back.
    Undo,
    CopyPrompt,
    CopyPromptWithCd,
    CopyAlert,
    /// What the compaction after the selected checkpoint dropped (`dropped`'s text).
    CopyDropped,
    /// Claude Code on the project in a new tmux window, the prompt its first message.
    ResumeNow,
    /// `$EDITOR` on the selected file at its line, in a new tmux window.
    OpenInEditor,
    /// Does nothing: bind a key to it to unbind a default.
    Noop,
}

/// Where an action belongs in the help screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Group {
    General,
    Navigation,
    Tabs,
    Compaction,
    Decisions,
    Prompt,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::General => "General",
            Group::Navigation => "Navigation",
            Group::Tabs => "Tabs",
            Group::Compaction => "Compaction tab",
            Group::Decisions => "Decisions tab",
            Group::Prompt => "Prompt and resuming",
        }
    }
}

impl Action {
    pub fn group(self) -> Group {
        use Action::*;
        match self {
            Back | Quit | Filter | CycleSort | ReverseSort | CycleOnly | Help | Messages
            | Timeline | Reload | Undo | Noop => Group::General,
            Up | Down | Top | Bottom | PageUp | PageDown | DetailDown | DetailUp | FocusList
            | FocusDetail => Group::Navigation,
            NextTab | PrevTab | TabOverview | TabQuality | TabCompaction | TabDecisions
            | TabPrompt => Group::Tabs,
            Acknowledge | AcknowledgeAll | MergeCheckpoint | CopyDropped => Group::Compaction,
            NewDecision | EditDecision | ToggleApplied | DeleteDecision => Group::Decisions,
            CopyPrompt | CopyPromptWithCd | CopyAlert | ResumeNow | OpenInEditor => Group::Prompt,
        }
    }

    /// Parses a `run` value as written in a keymap file.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(name))
            .ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_snake_case() {
        assert_eq!(
            Action::from_name("copy_prompt_with_cd"),
            Some(Action::CopyPromptWithCd)
        );
        assert_eq!(Action::from_name("tab_overview"), Some(Action::TabOverview));
        assert_eq!(Action::from_name("CopyPrompt"), None);
        assert_eq!(Action::from_name("launch_missiles"), None);
    }
}
