//! Everything the dashboard shows and remembers. `update` changes it; `view` draws it.

use crate::config::Config;
use crate::core::model::{Project, Workspace};
use crate::core::time::Timestamp;

use super::form::DecisionForm;
use super::keymap::Keymap;
use super::live::FillHistory;
use super::loader::StateHashes;
use super::theme::Theme;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Overview,
    Quality,
    Compaction,
    Decisions,
    Prompt,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Overview,
        Tab::Quality,
        Tab::Compaction,
        Tab::Decisions,
        Tab::Prompt,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Overview => "Overview",
            Tab::Quality => "Quality",
            Tab::Compaction => "Compaction",
            Tab::Decisions => "Decisions",
            Tab::Prompt => "Prompt",
        }
    }

    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    pub fn offset(self, by: isize) -> Tab {
        let len = Tab::ALL.len() as isize;
        let next = (self.index() as isize + by).rem_euclid(len);
        Tab::ALL
            .get(next as usize)
            .copied()
            .unwrap_or(Tab::Overview)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    List,
    Detail,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// Unacknowledged checkpoints, CRITICAL, STALE first; then the latest update.
    Attention,
    Updated,
    Id,
    /// Lowest last gate score first.
    Score,
}

impl Sort {
    pub fn next(self) -> Sort {
        match self {
            Sort::Attention => Sort::Updated,
            Sort::Updated => Sort::Id,
            Sort::Id => Sort::Score,
            Sort::Score => Sort::Attention,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Sort::Attention => "attention",
            Sort::Updated => "updated",
            Sort::Id => "id",
            Sort::Score => "score",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusKind {
    Info,
    Success,
    Error,
    /// A checkpoint waits for the operator (a compaction): drawn with `⚑`.
    Flag,
}

impl StatusKind {
    /// How long a message of this kind stays in the status bar, in seconds:
    /// errors long enough to read twice.
    pub fn lasts(self) -> i64 {
        match self {
            StatusKind::Info | StatusKind::Success => 6,
            StatusKind::Error | StatusKind::Flag => 20,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub kind: StatusKind,
    pub text: String,
    /// The message is gone from this moment on.
    pub until: Timestamp,
    /// A report of a pass in the background (files read, changed, gone), not the
    /// outcome of something the operator did.
    pub background: bool,
    /// The file problems it is about (diagnostics as printed): it goes as soon
    /// as none of them stands (`Model::drop_mended_status`).
    pub problems: Vec<String>,
}

/// A background report waiting for the operator's message to go.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldReport {
    pub kind: StatusKind,
    pub text: String,
    /// The file problems it reports (empty: a report that always stands).
    pub problems: Vec<String>,
}

/// Where the last edit the dashboard asked for stands. A new edit waits until
/// the last one is written and read back: until then the screen (and the hash an
/// edit expects) is behind the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saving {
    Idle,
    Writing,
    /// Written; the files are being read again.
    Reloading,
    /// Refused because the file changed on disk; it is being read again (`r`), and
    /// an edit would still apply to what the screen showed before.
    Rereading,
}

/// What is drawn over the main screen and takes the keys first.
#[derive(Debug, Clone)]
pub enum Overlay {
    None,
    Help {
        scroll: u16,
    },
    Form(Box<DecisionForm>),
    /// Every project's compactions on one time axis (`view::timeline_lanes`).
    Timeline {
        /// The entry selected (`view::timeline_lanes::entries`, newest first).
        selected: usize,
    },
    /// The status bar's messages of the session, whole, with their times (`M`).
    Messages {
        scroll: u16,
    },
    /// A write was refused because the file changed on disk; `r` reloads.
    ChangedOnDisk {
        path: String,
        form: Option<Box<DecisionForm>>,
    },
    /// `q` or Ctrl-C when quitting would lose something: `y` quits, any other key
    /// stays. `lost` says what would be lost; `previous` is what the question
    /// covers, given back when the operator stays.
    ConfirmQuit {
        lost: String,
        previous: Box<Overlay>,
    },
}

#[derive(Debug, Clone)]
pub struct Model {
    pub workspace: Workspace,
    /// The content hash of each state file as it was read for the screen, by
    /// source: an edit expects to find exactly these bytes on disk.
    pub hashes: StateHashes,
    /// False until the first load finished.
    pub loaded: bool,
    /// The list holds only what discovery found (`LoadedWorkspace::unread`):
    /// the rows say they are loading, and no project action runs on them.
    pub unread: bool,
    pub config: Config,
    pub theme: Theme,
    /// Unicode, or ASCII only (`glyphs`): what the screen is finally drawn in.
    pub glyphs: super::glyphs::Glyphs,
    pub keymap: Keymap,
    pub now: Timestamp,
    pub size: (u16, u16),

    /// Indices into `workspace.projects`, filtered and sorted.
    pub visible: Vec<usize>,
    /// What the filter searches in each project, kept between refreshes.
    pub haystacks: super::list::Haystacks,
    /// The header's counts and the widest id as drawn, kept as what each project
    /// adds to them: taken when the list is refreshed rather than on every frame
    /// (both go over every project), and for a reload of a few projects redone
    /// only for theirs.
    pub tally: super::list_change::Tally,
    /// The selected project, by id, so a reload keeps it.
    pub selected: Option<String>,
    /// The project the operator chose (`chosen`): the selection unless a reload
    /// moved it off a project that left the list. Writes and launches refuse
    /// any other project.
    pub chosen: Option<String>,
    /// The chosen project's state file: an id shared by several projects is
    /// told apart by a suffix (`@folder`) that a reload may hand to another, so
    /// the choice is held by file as well as by id.
    pub chosen_source: Option<String>,
    /// The chosen project's file is no project now, and the status bar said so.
    pub chosen_gone: bool,
    /// State files that no longer read, by source, with the errors: their
    /// projects are shown as last read (`last_known`).
    pub unreadable: std::collections::BTreeMap<String, Vec<crate::core::model::Diagnostic>>,
    pub list_offset: usize,
    /// The cursor is on the list's last row, the checkpoints tied to no project
    /// (`tui::loose`): no project is selected then.
    pub on_loose: bool,
    /// The checkpoint selected there, newest first.
    pub loose_row: usize,
    pub sort: Sort,
    /// The sort's order turned around (`S`).
    pub reverse: bool,
    /// The header count the list is narrowed to (`F`, or a click on the count).
    pub only: Option<super::only::Only>,
    pub filter: String,
    pub filtering: bool,

    pub focus: Focus,
    pub tab: Tab,
    /// Scroll of the text tabs (Overview, Quality, Prompt), in lines.
    pub scroll: u16,
    /// Selected row of the Compaction timeline and the Decisions table.
    pub timeline_row: usize,
    pub decision_row: usize,
    /// The items those rows (and `loose_row`) were chosen on, held by what they
    /// are so a reload keeps them (`picked`).
    pub(crate) picks: super::picked::Picks,

    pub overlay: Overlay,
    pub saving: Saving,
    /// The operator asked for a full load (`r`): when it comes, the status bar
    /// sums the workspace up again, problems included.
    pub reload_asked: bool,
    pub status: Option<Status>,
    /// Every message the status bar showed, for `M` (`tui::messages`).
    pub messages: super::messages::MessageLog,
    /// A background report that came while the operator's own message was up:
    /// shown when that one is gone (`show_held_report`).
    pub held_report: Option<HeldReport>,
    pub quit: bool,
    /// Printed on the terminal once the dashboard has given it back (`R` outside
    /// tmux: the command that resumes the project).
    pub farewell: Option<String>,
    /// The workspace is the demo's temporary copy: what is written to it is gone
    /// when the dashboard closes.
    pub demo: bool,
    /// Changes written to the files since the dashboard opened.
    pub writes: usize,
    /// The last change `u` can take back.
    pub undo: Option<super::msg::Undo>,
    /// The dashboard runs inside tmux: resume-now and the editor open windows.
    pub in_tmux: bool,
    /// The operator's editor command (`$VISUAL`, `$EDITOR`, else `vi`).
    pub editor: String,
    /// Rows a live refresh changed, by project id, highlighted until the time given.
    pub highlight: Vec<(String, Timestamp)>,
    /// The fills the hooks recorded, for the live gauge's trend.
    pub fills: FillHistory,
}

impl Model {
    pub fn new(config: Config, theme: Theme, keymap: Keymap, now: Timestamp) -> Model {
        Model {
            workspace: Workspace::default(),
            hashes: StateHashes::new(),
            loaded: false,
            unread: false,
            config,
            theme,
            glyphs: super::glyphs::Glyphs::Unicode,
            keymap,
            now,
            size: (80, 24),
            visible: Vec::new(),
            haystacks: super::list::Haystacks::default(),
            tally: super::list_change::Tally::default(),
            selected: None,
            chosen: None,
            chosen_source: None,
            chosen_gone: false,
            unreadable: std::collections::BTreeMap::new(),
            list_offset: 0,
            on_loose: false,
            loose_row: 0,
            sort: Sort::Attention,
            reverse: false,
            only: None,
            filter: String::new(),
            filtering: false,
            focus: Focus::List,
            tab: Tab::Overview,
            scroll: 0,
            timeline_row: 0,
            decision_row: 0,
            picks: Default::default(),
            overlay: Overlay::None,
            saving: Saving::Idle,
            reload_asked: false,
            held_report: None,
            status: None,
            messages: Default::default(),
            quit: false,
            farewell: None,
            demo: false,
            writes: 0,
            undo: None,
            in_tmux: false,
            editor: "vi".to_string(),
            highlight: Vec::new(),
            fills: FillHistory::default(),
        }
    }

    /// True while project `id`'s row shows that a live refresh changed it.
    pub fn highlighted(&self, id: &str) -> bool {
        self.highlight
            .iter()
            .any(|(h, until)| h == id && self.now < *until)
    }

    /// The context fill to show for `project`: the live one the hooks recorded for
    /// its session, with its trend, else the one its state file recorded.
    pub fn fill(&self, project: &Project) -> (Option<f64>, &'static str) {
        match super::live::gauge(&self.workspace, &self.fills, project) {
            Some(gauge) => (Some(gauge.fill), gauge.trend()),
            None => (project.summary.fill_at_update, " "),
        }
    }

    /// The tier Jerry last recorded for a session of `project`, when no fill is
    /// known (`context-state.json` keeps a tier, not a fill).
    pub fn tier(&self, project: &Project) -> Option<&str> {
        crate::core::workspace::last_tier(&self.workspace.context_states, project)
            .filter(|t| t.this_project)
            .map(|t| t.tier)
    }

    pub fn project(&self) -> Option<&Project> {
        if self.on_loose {
            return None;
        }
        let id = self.selected.as_deref()?;
        self.workspace.projects.iter().find(|p| p.id == id)
    }

    /// Position of the selected project in `visible`.
    pub fn selected_row(&self) -> Option<usize> {
        let id = self.selected.as_deref()?;
        self.visible
            .iter()
            .position(|&i| self.workspace.projects.get(i).is_some_and(|p| p.id == id))
    }

    pub fn visible_projects(&self) -> impl Iterator<Item = &Project> {
        self.visible
            .iter()
            .filter_map(|&i| self.workspace.projects.get(i))
    }

    /// Shows `text` in the status bar for `kind.lasts()` seconds.
    /// The operator's own message: the outcome of what they just did.
    pub fn set_status(&mut self, kind: StatusKind, text: impl Into<String>) {
        self.show(kind, text.into(), false);
    }

    /// What a pass in the background found. It does not replace the operator's
    /// own message while that is up (a late pass about another file would hide
    /// "saved: …"): it is held and shown after it. A newer report replaces a
    /// held one.
    pub fn report_status(&mut self, kind: StatusKind, text: impl Into<String>) {
        self.report_problems(kind, text, Vec::new());
    }

    /// [`Model::report_status`] for a report of these file problems (diagnostics
    /// as printed): held, it is shown only if one of them still stands then (a
    /// file mended meanwhile is not reported as broken).
    pub fn report_problems(
        &mut self,
        kind: StatusKind,
        text: impl Into<String>,
        problems: Vec<String>,
    ) {
        if self.live_status().is_some_and(|s| !s.background) {
            self.held_report = Some(HeldReport {
                kind,
                text: text.into(),
                problems,
            });
        } else {
            self.held_report = None;
            self.show_about(kind, text.into(), true, problems);
        }
    }

    /// The answer to what the operator asked for (`asked`), else a report of
    /// `problems` (see [`Model::report_problems`]).
    pub fn answer_or_report(
        &mut self,
        asked: bool,
        kind: StatusKind,
        text: String,
        problems: Vec<String>,
    ) {
        if asked {
            self.set_status(kind, text);
        } else {
            self.report_problems(kind, text, problems);
        }
    }

    /// A held background report, once the operator's message is gone.
    pub fn show_held_report(&mut self) {
        if self.live_status().is_none()
            && let Some(held) = self.held_report.take()
            && (held.problems.is_empty() || self.any_still_stands(&held.problems))
        {
            self.show_about(held.kind, held.text, true, held.problems);
        }
    }

    /// Whether one of `problems` is among the workspace's diagnostics now.
    fn any_still_stands(&self, problems: &[String]) -> bool {
        let ws = &self.workspace;
        ws.diagnostics
            .iter()
            .chain(ws.projects.iter().flat_map(|p| &p.diagnostics))
            .any(|d| problems.contains(&d.to_string()))
    }

    fn show(&mut self, kind: StatusKind, text: String, background: bool) {
        self.show_about(kind, text, background, Vec::new());
    }

    fn show_about(
        &mut self,
        kind: StatusKind,
        text: String,
        background: bool,
        problems: Vec<String>,
    ) {
        self.messages.push(self.now, kind, &text);
        self.status = Some(Status {
            kind,
            text,
            until: Timestamp(self.now.0.saturating_add(kind.lasts())),
            background,
            problems,
        });
    }

    /// The operator's message about these file problems: it goes when they are mended.
    pub fn set_status_about(
        &mut self,
        kind: StatusKind,
        text: impl Into<String>,
        problems: Vec<String>,
    ) {
        self.show_about(kind, text.into(), false, problems);
    }

    /// A message about file problems none of which stands any more is gone:
    /// an error does not outlive its fix.
    pub fn drop_mended_status(&mut self) {
        let mended = self
            .live_status()
            .is_some_and(|s| !s.problems.is_empty() && !self.any_still_stands(&s.problems));
        if mended {
            self.status = None;
        }
    }

    /// The status message, while it lasts.
    pub fn live_status(&self) -> Option<&Status> {
        self.status.as_ref().filter(|s| self.now < s.until)
    }

    /// Seconds until something on screen changes by itself (a message expires),
    /// for the run loop to wake then.
    pub fn wake_in(&self) -> Option<u64> {
        let highlights = self.highlight.iter().map(|(_, until)| *until);
        let until = self
            .live_status()
            .map(|s| s.until)
            .into_iter()
            .chain(highlights)
            .filter(|until| self.now < *until)
            .min()?;
        u64::try_from(until.0.saturating_sub(self.now.0)).ok()
    }

    /// The Compaction timeline of the selected project.
    pub fn timeline(&self) -> Vec<crate::core::timeline::Row<'_>> {
        match self.project() {
            Some(p) => crate::core::timeline::rows(p, &self.workspace.unassigned_checkpoints),
            None => Vec::new(),
        }
    }

    pub fn pass_threshold(&self) -> f64 {
        self.config.quality.pass_threshold
    }
}
