//! The effects run for real over a copy of the demo, as the event loop runs them:
//! load, edit, the refusal of a file changed meanwhile (without the watcher), and
//! the folders watched after each load.

use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use super::*;
use crate::app::Context;
use crate::core::time::Timestamp;
use crate::tui::action::Action;
use crate::tui::keymap::Keymap;
use crate::tui::model::{Model, Overlay, StatusKind, Tab};
use crate::tui::theme::Theme;
use crate::tui::update::{apply, update};

const NOW: Timestamp = Timestamp(1_771_331_696);
const PAYOUTS: &str = "payouts-v2-20260302-001";

struct Dashboard {
    _dir: tempfile::TempDir,
    root: PathBuf,
    runner: Runner,
    rx: Receiver<Msg>,
    model: Model,
}

impl Dashboard {
    /// The demo, loaded by the runner; the watcher is never started.
    fn open() -> Dashboard {
        let dir = tempfile::tempdir().unwrap();
        crate::io::demo::unpack_into(dir.path(), NOW).unwrap();
        let ctx = Context::for_root(dir.path(), Env::default(), NOW);
        let (tx, rx) = mpsc::channel();
        let model = Model::new(
            Config::default(),
            Theme::default_dark(),
            Keymap::defaults(),
            NOW,
        );
        let mut dashboard = Dashboard {
            root: dir.path().to_path_buf(),
            _dir: dir,
            runner: Runner::new(&ctx, tx),
            rx,
            model,
        };
        dashboard.run(vec![Effect::LoadAll]);
        dashboard
    }

    /// Runs `effects` and feeds every message they send back through `update`,
    /// running what that asks for in turn.
    fn run(&mut self, effects: Vec<Effect>) {
        let mut pending = effects;
        while !pending.is_empty() {
            let sent = pending.len();
            for effect in std::mem::take(&mut pending) {
                self.runner.run(effect, &mut Vec::new());
            }
            for _ in 0..sent {
                // A first load sends what discovery found, its preview, then its
                // full pass.
                loop {
                    let msg = self.rx.recv_timeout(Duration::from_secs(20)).unwrap();
                    let preview =
                        matches!(&msg, Msg::Loaded(Ok(loaded)) if loaded.preview || loaded.unread);
                    if let Msg::Loaded(Ok(loaded)) = &msg
                        && !preview
                    {
                        self.runner.watch_workspace(loaded);
                    }
                    pending.extend(update(&mut self.model, msg, NOW));
                    if !preview {
                        break;
                    }
                }
            }
        }
    }

    fn act(&mut self, action: Action) {
        let effects = apply(&mut self.model, action);
        self.run(effects);
    }

    fn payouts_file(&self) -> PathBuf {
        let project = self
            .model
            .workspace
            .projects
            .iter()
            .find(|p| p.id == PAYOUTS)
            .unwrap();
        self.root.join(&project.source)
    }

    fn first_decision_applied(&self) -> Option<bool> {
        self.model
            .project()
            .unwrap()
            .resumption
            .as_ref()
            .unwrap()
            .decisions[0]
            .applied
    }
}

#[test]
fn an_edit_of_a_file_changed_behind_the_dashboard_is_refused_until_reloaded() {
    let mut d = Dashboard::open();
    assert_eq!(d.model.selected.as_deref(), Some(PAYOUTS));
    d.act(Action::TabDecisions);
    d.act(Action::FocusDetail);
    assert_eq!(d.model.tab, Tab::Decisions);
    let applied = d.first_decision_applied();

    // Someone else edits the file; no watcher tells the dashboard.
    let file = d.payouts_file();
    let mut changed = std::fs::read_to_string(&file).unwrap();
    changed.push_str("# edited elsewhere\n");
    std::fs::write(&file, &changed).unwrap();

    d.act(Action::ToggleApplied);
    assert!(
        std::fs::read_to_string(&file).unwrap() == changed,
        "what the operator did not see is not overwritten"
    );
    assert!(
        matches!(&d.model.overlay, Overlay::ChangedOnDisk { path, .. } if file.ends_with(path)),
        "{:?}",
        d.model.overlay
    );
    let status = d.model.status.clone().unwrap();
    assert_eq!(status.kind, StatusKind::Error);
    assert!(
        status
            .text
            .contains("changed on disk since it was read; reload"),
        "{}",
        status.text
    );

    // `r` reloads what is on disk; the same edit then goes through.
    let key = crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('r'));
    let effects = update(&mut d.model, Msg::Key(key), NOW);
    d.run(effects);
    assert!(matches!(d.model.overlay, Overlay::None));
    d.act(Action::ToggleApplied);
    let status = d.model.status.clone().unwrap();
    assert_eq!(status.kind, StatusKind::Success, "{}", status.text);
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.ends_with("# edited elsewhere\n"), "{written}");
    assert_ne!(d.first_decision_applied(), applied);
}

#[test]
fn edits_go_through_when_the_file_is_as_loaded_and_the_hash_follows_each_save() {
    let mut d = Dashboard::open();
    d.act(Action::TabDecisions);
    d.act(Action::FocusDetail);
    let file = d.payouts_file();
    let source = d.model.project().unwrap().source.clone();
    let loaded = d.model.hashes.get(&source).copied();
    assert_eq!(
        loaded,
        Some(crate::io::write::ContentHash::of(
            &std::fs::read(&file).unwrap()
        ))
    );
    for _ in 0..2 {
        d.act(Action::ToggleApplied);
        let status = d.model.status.clone().unwrap();
        assert_eq!(status.kind, StatusKind::Success, "{}", status.text);
        assert!(
            status.text.contains("ORCHESTRATION.yaml: "),
            "{}",
            status.text
        );
        let now_on_disk = crate::io::write::ContentHash::of(&std::fs::read(&file).unwrap());
        assert_eq!(d.model.hashes.get(&source), Some(&now_on_disk));
    }
    assert_eq!(
        d.model.hashes.get(&source).copied(),
        loaded,
        "toggling twice gives back the very bytes read: only the flag changed, never updated_at"
    );
}

#[test]
fn a_reload_by_the_watcher_takes_the_new_hash() {
    let mut d = Dashboard::open();
    let file = d.payouts_file();
    let source = d.model.project().unwrap().source.clone();
    let mut changed = std::fs::read_to_string(&file).unwrap();
    changed.push_str("# edited elsewhere\n");
    std::fs::write(&file, &changed).unwrap();
    // What the watcher sends when the file changes.
    let effects = update(&mut d.model, Msg::FilesChanged(vec![source.clone()]), NOW);
    assert_eq!(effects, [Effect::ReloadProjects(vec![source.clone()])]);
    d.run(effects);
    assert_eq!(
        d.model.hashes.get(&source),
        Some(&crate::io::write::ContentHash::of(changed.as_bytes()))
    );
}

#[test]
fn a_copy_runs_off_the_ui_thread_and_its_osc52_is_written_by_the_ui_thread() {
    let (release, wait) = mpsc::channel::<()>();
    let wait = std::sync::Mutex::new(wait);
    // A clipboard that answers only when the test lets it (a native copy can take
    // seconds), then leaves an OSC 52 sequence for the terminal.
    let slow: Arc<CopyFn> = Arc::new(move |text: &str, terminal: &mut dyn Write| {
        let _ = wait.lock().unwrap().recv();
        terminal.write_all(b"\x1b]52;c;").unwrap();
        terminal.write_all(text.as_bytes()).unwrap();
        clipboard::CopyOutcome {
            backend_used: "osc52".into(),
            confirmed: false,
            sent: true,
            message: "Sent with OSC 52".into(),
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let ctx = Context::for_root(dir.path(), Env::default(), NOW);
    let (tx, rx) = mpsc::channel();
    let mut runner = Runner::new(&ctx, tx).with_copy(slow);
    let mut terminal = Vec::new();
    let copy = Effect::Copy {
        what: "Template 1".into(),
        text: "prompt".into(),
    };
    runner.run(copy, &mut terminal);
    assert!(
        rx.try_recv().is_err(),
        "run returned while the clipboard is still busy"
    );
    assert!(
        terminal.is_empty(),
        "nothing reaches the terminal from the worker"
    );
    release.send(()).unwrap();
    let msg = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    let Msg::Copied {
        copied,
        backend,
        terminal: bytes,
        ..
    } = msg.clone()
    else {
        panic!("{msg:?}")
    };
    assert!(copied);
    assert_eq!(backend, "osc52");
    assert_eq!(bytes, b"\x1b]52;c;prompt", "carried back for the UI thread");
    let mut model = Model::new(
        Config::default(),
        Theme::default_dark(),
        Keymap::defaults(),
        NOW,
    );
    for effect in update(&mut model, msg, NOW) {
        runner.run(effect, &mut terminal);
    }
    assert_eq!(terminal, b"\x1b]52;c;prompt");
}

#[test]
fn a_bad_clipboard_backend_is_reported_not_copied() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = Context::for_root(dir.path(), Env::default(), NOW);
    ctx.config.clipboard.backend = "carrier-pigeon".into();
    let (tx, rx) = mpsc::channel();
    let mut runner = Runner::new(&ctx, tx);
    let copy = Effect::Copy {
        what: "Template 1".into(),
        text: "prompt".into(),
    };
    runner.run(copy, &mut Vec::new());
    let msg = rx.recv_timeout(Duration::from_secs(20)).unwrap();
    assert!(
        matches!(&msg, Msg::Copied { copied: false, backend, message, terminal, .. }
            if backend == "carrier-pigeon" && message.contains("unknown clipboard backend") && terminal.is_empty()),
        "{msg:?}"
    );
}

/// A first load sends what discovery found (the project by its folder, nothing
/// read), a preview (the pruned parse: the same project, no warnings about what it
/// skips), then the full pass, which brings those warnings; a load asked for
/// meanwhile waits for the full pass.
#[test]
fn the_first_load_sends_discovery_the_preview_then_the_full_pass_and_later_loads_the_full_pass() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("projects/PROJ-001/ORCHESTRATION.yaml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    // Large enough for the preview to cut it (small files are parsed whole).
    let history: String = (0..1200).map(|i| format!("  - step {i} done\n")).collect();
    let text = format!(
        "workflow:\n  id: wf-two-passes\n  status: ACTIVE\n\
         notes:\n  owner: a\n  owner: b\nhistory:\n{history}\
         resumption:\n  next_step: carry on\n"
    );
    assert!(text.len() > 16 * 1024);
    std::fs::write(&file, text).unwrap();
    let ctx = Context::for_root(dir.path(), Env::default(), NOW);
    let (tx, rx) = mpsc::channel();
    let mut runner = Runner::new(&ctx, tx);
    runner.run(Effect::LoadAll, &mut Vec::new());
    runner.run(Effect::LoadAll, &mut Vec::new());

    let next = || match rx.recv_timeout(Duration::from_secs(20)).unwrap() {
        Msg::Loaded(Ok(loaded)) => *loaded,
        other => panic!("expected a load, got {other:?}"),
    };
    let found = next();
    assert!(found.unread && !found.preview);
    let row = &found.workspace.projects[0];
    assert_eq!(row.id, "PROJ-001");
    assert_eq!(row.source, "projects/PROJ-001/ORCHESTRATION.yaml");
    assert_eq!(row.summary, Default::default(), "nothing read");
    assert!(found.hashes.is_empty());
    let preview = next();
    let full = next();
    assert!(preview.preview && !full.preview);
    assert!(!preview.unread && !full.unread);
    let (quick, whole) = (&preview.workspace.projects[0], &full.workspace.projects[0]);
    assert_eq!(quick.id, "wf-two-passes");
    assert_eq!(quick.summary, whole.summary);
    let duplicate = |p: &crate::core::model::Project| {
        p.diagnostics
            .iter()
            .any(|d| d.message.contains("notes.owner"))
    };
    assert!(!duplicate(quick), "{:?}", quick.diagnostics);
    assert!(duplicate(whole), "{:?}", whole.diagnostics);
    assert_eq!(preview.hashes, full.hashes);
    assert_eq!(preview.hashes.len(), 1);
    // The second LoadAll came during the first: it runs once the full pass is in.
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
    runner.watch_workspace(&full);
    // A later load replaces a full workspace: no preview (its warnings would
    // vanish for a moment), and the files are read once.
    assert!(!next().preview);
    assert!(rx.recv_timeout(Duration::from_millis(200)).is_err());
}

/// The next finished load the runner sends: its full pass (previews and what the
/// watcher reports meanwhile are passed over).
fn next_load(rx: &Receiver<Msg>) -> LoadedWorkspace {
    loop {
        match rx.recv_timeout(Duration::from_secs(20)).unwrap() {
            Msg::Loaded(Ok(loaded)) if loaded.preview || loaded.unread => {}
            Msg::Loaded(Ok(loaded)) => return *loaded,
            Msg::FilesChanged(_) => {}
            other => panic!("expected a load, got {other:?}"),
        }
    }
}

#[test]
fn a_folder_watched_only_after_a_load_is_looked_in_once_more() {
    let mut d = Dashboard::open();
    d.runner.start_watching();
    d.runner.run(Effect::LoadAll, &mut Vec::new());
    let first = next_load(&d.rx);
    d.runner.watch_workspace(&first);
    assert!(
        !d.runner.loading,
        "the first folders set ask for no second look"
    );

    // A project folder made since: the load walked it before it was watched, so
    // a state file written into it in between would be missed.
    std::fs::create_dir(d.root.join("projects/PROJ-009-new")).unwrap();
    d.runner.run(Effect::LoadAll, &mut Vec::new());
    let with_folder = next_load(&d.rx);
    assert!(
        with_folder
            .state_folders
            .contains(&"projects/PROJ-009-new".to_string())
    );
    d.runner.watch_workspace(&with_folder);
    assert!(d.runner.loading, "one more load");
    let again = next_load(&d.rx);
    d.runner.watch_workspace(&again);
    assert!(!d.runner.loading, "nothing newly watched: no further load");
}
