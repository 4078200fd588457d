//! Pure `update` tests: every action, message and overlay, over the demo workspace.
//! No terminal, no clock: effects are checked as data.

mod tui_support;

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use resume_tui::io::write::ContentHash;
use resume_tui::tui::effect::{Effect, StateChange};
use resume_tui::tui::keymap::Keymap;
use resume_tui::tui::model::{Focus, Overlay, Saving, Sort, StatusKind, Tab};
use resume_tui::tui::msg::{LoadedWorkspace, Msg, NotWritten, ReloadedProject};
use resume_tui::tui::update;
use tui_support::*;

const PAYOUTS: &str = "payouts-v2-20260302-001";

fn status_text(model: &resume_tui::tui::Model) -> String {
    model
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

/// The demo at 120×40 with the payouts workflow selected.
fn payouts_selected() -> resume_tui::tui::Model {
    let mut m = demo_model(120, 40);
    select(&mut m, PAYOUTS);
    m
}

/// The payouts workflow's new-decision form (Decisions tab, `n`) with `text` typed.
fn new_decision_typed(text: &str) -> resume_tui::tui::Model {
    let mut m = payouts_selected();
    press(&mut m, &["4", "n"]);
    type_text(&mut m, text);
    m
}

/// The runner's answer to a write: saved, then the workspace read again.
fn saved_and_reloaded(m: &mut resume_tui::tui::Model) {
    let effects = update(
        m,
        Msg::Written {
            what: "edited".into(),
            undo: None,
            result: Ok("x".into()),
        },
        NOW,
    );
    assert_eq!(effects, [Effect::LoadAll]);
    let workspace = m.workspace.clone();
    update(m, Msg::loaded(workspace), NOW);
}

#[test]
fn moving_the_selection_stops_at_both_ends() {
    let mut m = demo_model(120, 40);
    let first = m.selected.clone();
    assert!(
        first.is_some(),
        "the first project is selected after loading"
    );
    press(&mut m, &["k"]);
    assert_eq!(m.selected, first, "up at the top stays");
    press(&mut m, &["j"]);
    assert_eq!(m.selected_row(), Some(1));
    press(&mut m, &["<Down>", "<Up>", "<Down>"]);
    assert_eq!(m.selected_row(), Some(2));
    press(&mut m, &["G"]);
    assert_eq!(m.selected_row(), Some(m.visible.len() - 1));
    press(&mut m, &["j"]);
    assert_eq!(
        m.selected_row(),
        Some(m.visible.len() - 1),
        "down at the bottom stays"
    );
    press(&mut m, &["g"]);
    assert_eq!(m.selected_row(), Some(0));
    press(&mut m, &["<End>", "<Home>"]);
    assert_eq!(m.selected_row(), Some(0));
}

#[test]
fn half_pages_move_by_half_the_visible_rows() {
    let mut m = demo_model(80, 24);
    let rows = resume_tui::tui::layout::list_rows(&resume_tui::tui::layout::areas(80, 24));
    press(&mut m, &["<C-d>"]);
    assert_eq!(m.selected_row(), Some((rows / 2).max(1)));
    press(&mut m, &["<C-u>"]);
    assert_eq!(m.selected_row(), Some(0));
    press(&mut m, &["<PageDown>", "<PageDown>", "<PageUp>"]);
    assert_eq!(m.selected_row(), Some((rows / 2).max(1)));
}

#[test]
fn the_list_scrolls_to_keep_the_selection_visible() {
    let mut m = demo_model(80, 24);
    let rows = resume_tui::tui::layout::list_rows(&resume_tui::tui::layout::areas(80, 24));
    assert!(
        m.visible.len() > rows,
        "the demo has more projects than an 80x24 list shows"
    );
    press(&mut m, &["G"]);
    assert_eq!(m.list_offset, m.visible.len() - rows);
    press(&mut m, &["g"]);
    assert_eq!(m.list_offset, 0);
}

#[test]
fn esc_backs_out_detail_then_filter_and_never_quits() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["l"]);
    assert_eq!(m.focus, Focus::Detail);
    press(&mut m, &["<Esc>"]);
    assert_eq!(m.focus, Focus::List);
    press(&mut m, &["/", "p", "a", "y", "<Enter>"]);
    assert_eq!(m.filter, "pay");
    press(&mut m, &["<Esc>"]);
    assert_eq!(m.filter, "", "esc clears a kept filter first");
    for _ in 0..3 {
        assert!(press(&mut m, &["<Esc>"]).is_empty());
    }
    assert!(!m.quit, "esc at the top level does not quit");
    assert_eq!(status_text(&m), "q quits");
    let effects = press(&mut m, &["q"]);
    assert!(m.quit);
    assert_eq!(effects, [Effect::Quit]);
}

#[test]
fn ctrl_c_quits_from_anywhere_when_nothing_would_be_lost() {
    for setup in [&[][..], &["?"][..], &["/"][..], &["4", "n"][..], &["l"][..]] {
        let mut m = payouts_selected();
        press(&mut m, setup);
        let effects = press(&mut m, &["<C-c>"]);
        assert_eq!(effects, [Effect::Quit], "{setup:?}");
        assert!(m.quit, "{setup:?}");
    }
}

#[test]
fn quitting_asks_first_when_something_would_be_lost() {
    // A decision form with text in it: ctrl-c asks; any key but y goes back to it.
    let mut m = new_decision_typed("Half typed");
    assert!(press(&mut m, &["<C-c>"]).is_empty());
    let Overlay::ConfirmQuit { lost, .. } = &m.overlay else {
        panic!("{:?}", m.overlay);
    };
    assert_eq!(lost, "the decision form's changes");
    assert!(screen(&m).contains("Quitting now loses the decision form's changes."));
    press(&mut m, &["n"]);
    assert!(!m.quit);
    let Overlay::Form(form) = &m.overlay else {
        panic!("the form comes back: {:?}", m.overlay);
    };
    assert_eq!(
        form.value(resume_tui::tui::form::Field::Decision),
        "Half typed"
    );
    press(&mut m, &["<C-c>", "y"]);
    assert!(m.quit);

    // Changes written to the demo's temporary copy: q asks, y quits.
    let mut m = demo_model(120, 40);
    m.demo = true;
    update(
        &mut m,
        Msg::Written {
            what: "deleted RD-001".into(),
            undo: None,
            result: Ok("ORCHESTRATION.yaml: 7 lines changed".into()),
        },
        NOW,
    );
    assert!(press(&mut m, &["q"]).is_empty());
    assert!(matches!(&m.overlay, Overlay::ConfirmQuit { lost, .. }
        if lost == "1 change made to the demo (its copy is deleted on exit)"));
    press(&mut m, &["<Esc>"]);
    assert!(matches!(m.overlay, Overlay::None) && !m.quit);
    assert_eq!(press(&mut m, &["q", "y"]), [Effect::Quit]);

    // The same changes to a real workspace are on disk: q quits at once.
    let mut m = demo_model(120, 40);
    m.writes = 3;
    assert_eq!(press(&mut m, &["q"]), [Effect::Quit]);
}

#[test]
fn tabs_cycle_and_jump_and_reset_the_scroll() {
    let mut m = demo_model(120, 40);
    assert_eq!(m.tab, Tab::Overview);
    press(&mut m, &["<Tab>"]);
    assert_eq!(m.tab, Tab::Quality);
    press(&mut m, &["<BackTab>", "<BackTab>"]);
    assert_eq!(m.tab, Tab::Prompt, "shift-tab wraps around");
    for (key, tab) in [
        ("1", Tab::Overview),
        ("2", Tab::Quality),
        ("3", Tab::Compaction),
        ("4", Tab::Decisions),
        ("5", Tab::Prompt),
    ] {
        press(&mut m, &[key]);
        assert_eq!(m.tab, tab);
    }
    press(&mut m, &["1", "l", "j", "j"]);
    assert_eq!(
        m.scroll, 2,
        "j scrolls the overview when the detail has the focus"
    );
    press(&mut m, &["2"]);
    assert_eq!(m.scroll, 0);
}

#[test]
fn the_filter_is_fuzzy_over_id_name_phase_and_status() {
    let mut m = demo_model(120, 40);
    let all = m.visible.len();
    press(&mut m, &["/"]);
    assert!(m.filtering);
    type_text(&mut m, "pyv2");
    assert!(
        m.visible_projects().all(|p| p.id.contains("payouts")),
        "{:?}",
        m.visible
    );
    assert_eq!(
        m.selected.as_deref(),
        Some(PAYOUTS),
        "the selection moves to a match"
    );
    press(
        &mut m,
        &["<Backspace>", "<Backspace>", "<Backspace>", "<Backspace>"],
    );
    assert_eq!(m.visible.len(), all);
    type_text(&mut m, "paused");
    assert!(!m.visible.is_empty());
    assert!(
        m.visible_projects().all(|p| p
            .summary
            .status
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case("paused"))
            || p.id.contains('p')),
        "status matches"
    );
    press(&mut m, &["<Esc>"]);
    assert!(!m.filtering);
    assert_eq!(m.visible.len(), all);
    press(&mut m, &["/"]);
    type_text(&mut m, "zzzzqq");
    assert!(m.visible.is_empty());
    assert_eq!(m.selected, None);
    press(&mut m, &["<Enter>", "l"]);
    assert_eq!(m.focus, Focus::List, "nothing to open when nothing matches");
}

#[test]
fn sorting_cycles_and_attention_puts_unacknowledged_then_critical_first() {
    let mut m = demo_model(120, 40);
    assert_eq!(m.sort, Sort::Attention);
    let waiting = resume_tui::tui::list::urgency_inputs(&m.workspace, &m.config.context);
    let ranks: Vec<u8> = m
        .visible_projects()
        .map(|p| resume_tui::tui::list::attention_rank(p, &waiting))
        .collect();
    let mut sorted = ranks.clone();
    sorted.sort();
    assert_eq!(ranks, sorted, "attention order");
    assert_eq!(
        ranks.first(),
        Some(&0),
        "a project with unacknowledged checkpoints comes first"
    );
    let selected = m.selected.clone();
    for expected in [Sort::Updated, Sort::Id, Sort::Score, Sort::Attention] {
        press(&mut m, &["s"]);
        assert_eq!(m.sort, expected);
        assert_eq!(m.selected, selected, "sorting keeps the selection");
    }
    press(&mut m, &["s", "s"]);
    let ids: Vec<&str> = m.visible_projects().map(|p| p.id.as_str()).collect();
    let mut by_id = ids.clone();
    by_id.sort();
    assert_eq!(ids, by_id);
    assert!(status_text(&m).contains("sorted by id"));
}

#[test]
fn help_opens_scrolls_and_closes() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["?"]);
    assert!(matches!(m.overlay, Overlay::Help { scroll: 0 }));
    press(&mut m, &["j", "j"]);
    assert!(matches!(m.overlay, Overlay::Help { scroll: 2 }));
    press(&mut m, &["?"]);
    assert!(matches!(m.overlay, Overlay::None));
    press(&mut m, &["?", "<Esc>"]);
    assert!(matches!(m.overlay, Overlay::None));
    assert!(!m.quit, "esc closes help, it does not quit");
}

#[test]
fn reload_asks_for_a_full_load() {
    let mut m = demo_model(120, 40);
    assert_eq!(press(&mut m, &["r"]), [Effect::LoadAll]);
}

#[test]
fn acknowledging_works_in_the_compaction_tab_on_the_selected_checkpoint() {
    let mut m = payouts_selected();
    assert!(
        press(&mut m, &["a"]).is_empty(),
        "not outside the Compaction tab"
    );
    assert!(
        status_text(&m).contains("Compaction tab"),
        "{}",
        status_text(&m)
    );
    let project = m.project().unwrap();
    let waiting = project.unacknowledged_checkpoints().next().unwrap().clone();
    press(&mut m, &["3", "l"]);
    let rows = m.timeline();
    let row = rows.iter().position(|r| r.id == waiting.id).unwrap();
    let acked = rows
        .iter()
        .position(|r| r.acknowledged == Some(true))
        .unwrap();
    press(&mut m, &["g"]);
    for _ in 0..acked {
        press(&mut m, &["j"]);
    }
    assert!(
        press(&mut m, &["a"]).is_empty(),
        "an acknowledged checkpoint is not written again"
    );
    assert!(status_text(&m).contains("already acknowledged"));
    press(&mut m, &["g"]);
    for _ in 0..row {
        press(&mut m, &["j"]);
    }
    let effects = press(&mut m, &["a"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let target = request.target.as_ref().unwrap();
    assert_eq!(target.project_id, PAYOUTS);
    assert!(target.source.ends_with("ORCHESTRATION.yaml"));
    assert_eq!(
        request.op,
        StateChange::Acknowledge {
            checkpoint: Box::new(waiting.clone())
        }
    );
    saved_and_reloaded(&mut m);
    let effects = press(&mut m, &["m"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Write(r)] if r.op == StateChange::Merge { checkpoint: Box::new(waiting.clone()) })
    );
    saved_and_reloaded(&mut m);
    let effects = press(&mut m, &["A"]);
    assert!(
        matches!(effects.as_slice(), [Effect::Write(r)] if r.op == StateChange::AcknowledgeAll { checkpoints: vec![waiting.clone()] })
    );
}

#[test]
fn acknowledge_all_says_when_there_is_nothing_to_do() {
    let mut m = demo_model(120, 40);
    let ids: Vec<String> = m.workspace.projects.iter().map(|p| p.id.clone()).collect();
    let calm = ids
        .into_iter()
        .find(|id| {
            select(&mut m, id);
            m.timeline().iter().all(|r| r.acknowledged != Some(false))
        })
        .unwrap();
    select(&mut m, &calm);
    press(&mut m, &["3"]);
    assert!(press(&mut m, &["A"]).is_empty());
    assert!(status_text(&m).contains("already acknowledged"));
}

#[test]
fn a_new_decision_is_validated_in_the_form_before_it_is_written() {
    let mut m = payouts_selected();
    press(&mut m, &["4", "n"]);
    let Overlay::Form(form) = &m.overlay else {
        panic!("no form")
    };
    assert_eq!(form.editing, None);
    assert!(
        press(&mut m, &["<C-s>"]).is_empty(),
        "an empty decision is not saved"
    );
    let Overlay::Form(form) = &m.overlay else {
        panic!("the form closed")
    };
    assert!(
        form.errors
            .iter()
            .any(|(_, e)| e.contains("cannot be empty"))
    );
    type_text(&mut m, "Retry webhooks with jitter");
    press(&mut m, &["<Tab>"]);
    type_text(&mut m, "Thundering herd");
    press(&mut m, &["<Tab>"]);
    type_text(&mut m, "2, x");
    press(&mut m, &["<Tab>"]);
    type_text(&mut m, "qg-2");
    press(&mut m, &["<Tab>"]);
    type_text(&mut m, "0");
    assert!(press(&mut m, &["<Enter>"]).is_empty());
    let Overlay::Form(form) = &m.overlay else {
        panic!()
    };
    assert_eq!(form.errors.len(), 2, "{:?}", form.errors);
    assert_eq!(
        form.focused_field(),
        resume_tui::tui::form::Field::Affects,
        "the first bad field gets the focus"
    );
    press(&mut m, &["<Backspace>"]);
    type_text(&mut m, "3");
    press(&mut m, &["<Tab>", "<Tab>", "<Backspace>"]);
    type_text(&mut m, "2");
    let effects = press(&mut m, &["<C-s>"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let StateChange::AddDecision(draft) = &request.op else {
        panic!()
    };
    assert_eq!(draft.decision, "Retry webhooks with jitter");
    assert_eq!(draft.rationale.as_deref(), Some("Thundering herd"));
    assert_eq!(draft.affects_phases, [2, 3]);
    assert_eq!(draft.gate.as_deref(), Some("qg-2"));
    assert_eq!(draft.iteration, Some(2));
    assert!(
        matches!(m.overlay, Overlay::Form(_)),
        "the form stays until the write is confirmed"
    );
    let effects = update(
        &mut m,
        Msg::Written {
            what: "added a decision".into(),
            undo: None,
            result: Ok("x.yaml".into()),
        },
        NOW,
    );
    assert_eq!(effects, [Effect::LoadAll]);
    assert!(matches!(m.overlay, Overlay::None));
    assert_eq!(m.status.as_ref().unwrap().kind, StatusKind::Success);
}

#[test]
fn escape_cancels_the_form_without_writing() {
    let mut m = new_decision_typed("half typed");
    assert!(press(&mut m, &["<Esc>"]).is_empty());
    assert!(matches!(m.overlay, Overlay::None));
    assert!(!m.quit);
}

#[test]
fn editing_prefills_the_form_and_toggling_flips_applied() {
    let mut m = payouts_selected();
    press(&mut m, &["4", "l"]);
    let first = m.project().unwrap().resumption.as_ref().unwrap().decisions[0].clone();
    press(&mut m, &["e"]);
    let Overlay::Form(form) = &m.overlay else {
        panic!()
    };
    assert_eq!(form.editing, first.id);
    assert_eq!(
        form.value(resume_tui::tui::form::Field::Decision),
        first.decision
    );
    let effects = press(&mut m, &["<C-s>"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(
        matches!(&request.op, StateChange::EditDecision { id, draft } if Some(id) == first.id.as_ref() && draft.decision == first.decision)
    );
    saved_and_reloaded(&mut m);
    let effects = press(&mut m, &["<Space>"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        request.op,
        StateChange::SetApplied {
            id: first.id.clone().unwrap(),
            applied: !first.applied.unwrap_or(false)
        }
    );
    press(&mut m, &["j"]);
    assert_eq!(m.decision_row, 1);
}

#[test]
fn decisions_without_an_id_are_not_changed_from_the_dashboard() {
    let mut m = demo_model(120, 40);
    let (project, row) = m
        .workspace
        .projects
        .iter()
        .find_map(|p| {
            let row = p
                .resumption
                .as_ref()?
                .decisions
                .iter()
                .position(|d| d.id.is_none())?;
            Some((p.id.clone(), row))
        })
        .expect("the demo has a decision without an id");
    select(&mut m, &project);
    press(&mut m, &["4", "l"]);
    for _ in 0..row {
        press(&mut m, &["j"]);
    }
    assert!(press(&mut m, &["<Space>"]).is_empty());
    assert!(press(&mut m, &["e"]).is_empty());
    assert!(status_text(&m).contains("no id"));
}

#[test]
fn nexus_projects_have_no_decision_log_to_add_to() {
    let mut m = demo_model(120, 40);
    let nexus = m
        .workspace
        .projects
        .iter()
        .find(|p| p.kind == resume_tui::core::model::ProjectKind::Nexus)
        .unwrap()
        .id
        .clone();
    select(&mut m, &nexus);
    press(&mut m, &["4"]);
    assert!(press(&mut m, &["n"]).is_empty());
    assert!(matches!(m.overlay, Overlay::None));
}

#[test]
fn copies_render_template_1_with_or_without_cd_and_template_2() {
    let mut m = payouts_selected();
    let project = m.project().unwrap().clone();
    let expected = resume_tui::core::render::render_prompt(&project).text;
    let effects = press(&mut m, &["y"]);
    assert_eq!(
        effects,
        [Effect::Copy {
            what: format!("resumption prompt for {PAYOUTS}"),
            text: expected.clone()
        }]
    );
    let effects = press(&mut m, &["Y"]);
    let [Effect::Copy { text, .. }] = effects.as_slice() else {
        panic!()
    };
    assert!(
        text.starts_with("cd '/demo' && claude '"),
        "the project root, not the workflow folder {}: {}",
        project.dir,
        &text[..80]
    );
    press(&mut m, &["3"]);
    let effects = press(&mut m, &["c"]);
    let [Effect::Copy { what, text }] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(what.starts_with("compaction alert for cx-"), "{what}");
    assert!(!text.is_empty());
    let sequence = b"\x1b]52;c;aGk=\x07".to_vec();
    let effects = update(
        &mut m,
        Msg::Copied {
            what: what.clone(),
            backend: "osc52".into(),
            copied: true,
            message: "Sent with OSC 52 to the terminal".into(),
            terminal: sequence.clone(),
        },
        NOW,
    );
    assert!(
        status_text(&m).ends_with(": Sent with OSC 52 to the terminal"),
        "the status bar says where the text went: {}",
        status_text(&m)
    );
    assert_eq!(
        effects,
        [Effect::WriteTerminal(sequence)],
        "the copy's OSC 52 goes to the terminal from the UI thread"
    );
    let effects = update(
        &mut m,
        Msg::Copied {
            what: what.clone(),
            backend: "off".into(),
            copied: false,
            message: "Clipboard is off".into(),
            terminal: Vec::new(),
        },
        NOW,
    );
    assert!(effects.is_empty());
    assert_eq!(m.status.as_ref().unwrap().kind, StatusKind::Error);
}

#[test]
fn changed_on_disk_keeps_the_form_and_offers_a_reload() {
    let mut m = new_decision_typed("Keep me");
    press(&mut m, &["<C-s>"]);
    let path = "projects/x/ORCHESTRATION.yaml".to_string();
    update(
        &mut m,
        Msg::Written {
            what: "added a decision".into(),
            undo: None,
            result: Err(NotWritten::ChangedOnDisk { path: path.clone() }),
        },
        NOW,
    );
    assert!(matches!(&m.overlay, Overlay::ChangedOnDisk { path: p, form: Some(_) } if *p == path));
    assert!(status_text(&m).contains("changed on disk"));
    let effects = press(&mut m, &["r"]);
    assert_eq!(effects, [Effect::LoadAll]);
    let Overlay::Form(form) = &m.overlay else {
        panic!("the form comes back after reloading")
    };
    assert_eq!(
        form.value(resume_tui::tui::form::Field::Decision),
        "Keep me"
    );
    // Saving again before the file is read again would still apply to the old
    // screen: it waits for the load.
    assert!(press(&mut m, &["<C-s>"]).is_empty());
    assert!(status_text(&m).contains("still reading the file again"));
    let ws = m.workspace.clone();
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(status_text(&m), "reloaded from disk; save again to apply");
    assert!(matches!(
        press(&mut m, &["<C-s>"]).as_slice(),
        [Effect::Write(_)]
    ));
    update(
        &mut m,
        Msg::Written {
            what: "x".into(),
            undo: None,
            result: Err(NotWritten::Failed("disk full".into())),
        },
        NOW,
    );
    let Overlay::Form(form) = &m.overlay else {
        panic!()
    };
    assert!(
        form.errors.iter().any(|(_, e)| e == "disk full"),
        "a failure shows in the form"
    );
    press(&mut m, &["<Esc>"]);
    update(
        &mut m,
        Msg::Written {
            what: "ack".into(),
            undo: None,
            result: Err(NotWritten::ChangedOnDisk { path: path.clone() }),
        },
        NOW,
    );
    assert!(matches!(
        m.overlay,
        Overlay::ChangedOnDisk { form: None, .. }
    ));
    assert!(press(&mut m, &["<Esc>"]).is_empty());
    assert!(matches!(m.overlay, Overlay::None));
}

#[test]
fn a_reload_keeps_the_selection_tab_and_scroll() {
    let mut m = payouts_selected();
    press(&mut m, &["1", "l", "j", "j", "j"]);
    let ws = m.workspace.clone();
    update(&mut m, Msg::loaded(ws), NOW);
    assert_eq!(m.selected.as_deref(), Some(PAYOUTS));
    assert_eq!(m.scroll, 3);
    assert_eq!(m.focus, Focus::Detail);
    let mut ws = m.workspace.clone();
    ws.projects.retain(|p| p.id != PAYOUTS);
    update(&mut m, Msg::loaded(ws), NOW);
    assert!(
        m.selected.is_some() && m.selected.as_deref() != Some(PAYOUTS),
        "a vanished project gives way to the first"
    );
}

#[test]
fn file_changes_reload_only_the_projects_whose_files_changed() {
    let mut m = payouts_selected();
    let source = m.project().unwrap().source.clone();
    let effects = update(&mut m, Msg::FilesChanged(vec![source.clone()]), NOW);
    assert_eq!(effects, [Effect::ReloadProjects(vec![source.clone()])]);
    let effects = update(
        &mut m,
        Msg::FilesChanged(vec![".jerry/checkpoints/cx-009.json".into()]),
        NOW,
    );
    assert_eq!(
        effects,
        [Effect::ReloadCheckpoints(vec![
            ".jerry/checkpoints/cx-009.json".into()
        ])],
        "a checkpoint beside known ones is read alone"
    );
    let effects = update(
        &mut m,
        Msg::FilesChanged(vec!["other/.jerry/checkpoints/cx-009.json".into()]),
        NOW,
    );
    assert_eq!(
        effects,
        [Effect::LoadAll],
        "a folder with no known checkpoint"
    );
    assert!(
        update(
            &mut m,
            Msg::FilesChanged(vec!["projects/.git/index".into()]),
            NOW
        )
        .is_empty()
    );

    let mut changed = m.project().unwrap().clone();
    changed.summary.activity = Some("replaced".into());
    let effects = update(
        &mut m,
        Msg::ProjectsLoaded(vec![ReloadedProject {
            source: source.clone(),
            project: Some(Box::new(changed)),
            hash: Some(ContentHash(7)),
            unclaimed: Vec::new(),
        }]),
        NOW,
    );
    assert!(effects.is_empty());
    assert_eq!(
        m.project().unwrap().summary.activity.as_deref(),
        Some("replaced")
    );
    assert_eq!(
        m.hashes.get(&source),
        Some(&ContentHash(7)),
        "the reload's hash is what the next edit expects"
    );
    let effects = update(
        &mut m,
        Msg::ProjectsLoaded(vec![ReloadedProject {
            source,
            project: None,
            hash: None,
            unclaimed: Vec::new(),
        }]),
        NOW,
    );
    assert_eq!(
        effects,
        [Effect::LoadAll],
        "a project that vanished needs a full load"
    );
}

#[test]
fn mouse_clicks_select_and_the_wheel_scrolls() {
    let mut m = demo_model(120, 40);
    let click = |column, row| {
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    // Border, header, then rows: the third project is on screen row 4.
    update(&mut m, click(10, 4), NOW);
    assert_eq!(m.selected_row(), Some(2));
    let a = resume_tui::tui::layout::areas(120, 40);
    let x = a.tabs.x
        + resume_tui::tui::view::tab_label(Tab::Overview)
            .chars()
            .count() as u16
        + 2;
    update(&mut m, click(x, a.tabs.y), NOW);
    assert_eq!(m.tab, Tab::Quality);
    assert_eq!(m.focus, Focus::Detail);
    let wheel = |kind, column, row| {
        Msg::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        })
    };
    update(&mut m, wheel(MouseEventKind::ScrollDown, 10, 10), NOW);
    assert_eq!(m.focus, Focus::List);
    assert_eq!(m.selected_row(), Some(5));
    update(&mut m, wheel(MouseEventKind::ScrollUp, 10, 10), NOW);
    assert_eq!(m.selected_row(), Some(2));
    // The Prompt is longer than its pane: the wheel scrolls it.
    press(&mut m, &["5"]);
    update(
        &mut m,
        wheel(MouseEventKind::ScrollDown, a.body.x + 2, a.body.y + 2),
        NOW,
    );
    assert_eq!((m.focus, m.scroll), (Focus::Detail, 3));
    // Clicks outside everything do nothing.
    update(&mut m, click(119, 39), NOW);
    assert_eq!(m.selected_row(), Some(2));
}

#[test]
fn clicking_a_timeline_row_selects_it() {
    let mut m = payouts_selected();
    press(&mut m, &["3"]);
    let a = resume_tui::tui::layout::areas(120, 40);
    let msg = Msg::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: a.body.x + 3,
        row: a.body.y + 2,
        modifiers: KeyModifiers::NONE,
    });
    update(&mut m, msg, NOW);
    assert_eq!(m.timeline_row, 1);
}

#[test]
fn resizing_to_any_size_never_panics_and_keeps_the_selection() {
    let mut m = payouts_selected();
    for tab in ["1", "2", "3", "4", "5", "?"] {
        press(&mut m, &[tab]);
        for (w, h) in [
            (0, 0),
            (1, 1),
            (10, 3),
            (20, 5),
            (79, 23),
            (80, 24),
            (100, 30),
            (250, 80),
        ] {
            update(&mut m, Msg::Resize(w, h), NOW);
            let _ = draw(&m);
            assert_eq!(m.selected.as_deref(), Some(PAYOUTS));
        }
        if tab == "?" {
            press(&mut m, &["?"]);
        }
    }
}

#[test]
fn problems_and_load_errors_show_in_the_status_bar() {
    let mut m = demo_model(120, 40);
    update(&mut m, Msg::Problem("theme.toml:3:1: bad".into()), NOW);
    assert_eq!(m.status.as_ref().unwrap().kind, StatusKind::Error);
    update(&mut m, Msg::Loaded(Err("cannot read /x".into())), NOW);
    assert_eq!(status_text(&m), "cannot read /x");
    assert!(
        !m.workspace.projects.is_empty(),
        "a failed reload keeps what was shown"
    );
}

#[test]
fn noop_unbinds_a_key_and_user_bindings_override_defaults() {
    let (keymap, problem) = Keymap::with_user(
        "keymap = [\n  { on = \"q\", run = \"noop\" },\n  { on = \"x\", run = \"quit\", desc = \"Leave\" },\n  { on = \"<C-n>\", run = \"down\" },\n]\n",
        "keymap.toml",
    );
    assert_eq!(problem, None);
    let mut m = demo_model(120, 40);
    m.keymap = keymap;
    press(&mut m, &["q"]);
    assert!(!m.quit, "q is unbound");
    assert!(matches!(m.overlay, Overlay::None));
    press(&mut m, &["<C-n>"]);
    assert_eq!(m.selected_row(), Some(1));
    press(&mut m, &["x"]);
    assert!(m.quit);
}

#[test]
fn a_bad_keymap_file_is_reported_and_the_rest_applies() {
    let (keymap, problem) = Keymap::with_user(
        "keymap = [\n  { on = \"z\", run = \"launch\" },\n  { on = \"<Nope>\", run = \"down\" },\n  { on = \"J\", run = \"down\" },\n]\n",
        "keymap.toml",
    );
    let problem = problem.unwrap();
    assert!(problem.starts_with("keymap.toml:2:"), "{problem}");
    assert!(problem.contains("unknown action \"launch\""), "{problem}");
    let j = tui_support::key_event("J");
    assert_eq!(
        keymap.action_for(&j),
        Some(resume_tui::tui::action::Action::Down)
    );
    let (keymap, problem) = Keymap::with_user("keymap = [ { on = ", "keymap.toml");
    assert!(problem.unwrap().starts_with("keymap.toml:1:"));
    assert_eq!(keymap, Keymap::defaults());
}

#[test]
fn the_default_keymap_binds_every_action_and_parses_cleanly() {
    let (keymap, problem) = Keymap::with_user("", "empty.toml");
    assert_eq!(problem, None);
    use resume_tui::tui::action::Action::*;
    for action in [
        Back,
        Quit,
        Up,
        Down,
        Top,
        Bottom,
        PageUp,
        PageDown,
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
        Help,
        Reload,
        Acknowledge,
        AcknowledgeAll,
        MergeCheckpoint,
        NewDecision,
        EditDecision,
        ToggleApplied,
        CopyPrompt,
        CopyPromptWithCd,
        CopyAlert,
    ] {
        assert!(keymap.key_label(action).is_some(), "{action:?} has no key");
    }
    assert!(
        keymap
            .help_rows()
            .iter()
            .all(|(_, _, desc)| !desc.is_empty())
    );
}

#[test]
fn tick_and_key_releases_change_nothing() {
    let mut m = demo_model(120, 40);
    let before = (m.selected.clone(), m.tab, m.focus);
    assert!(update(&mut m, Msg::Tick, NOW).is_empty());
    let mut release = key_event("j");
    release.kind = crossterm::event::KeyEventKind::Release;
    assert!(update(&mut m, Msg::Key(release), NOW).is_empty());
    assert_eq!((m.selected.clone(), m.tab, m.focus), before);
}

#[test]
fn file_text_in_the_edit_form_is_sanitised() {
    let decision = resume_tui::core::model::Decision {
        id: Some("RD-001".into()),
        decision: "evil\u{1b}]52;c;aGk=\u{7}text\u{202e}\nnext".into(),
        ..Default::default()
    };
    let form = resume_tui::tui::form::DecisionForm::edit("p", &decision);
    assert_eq!(
        form.value(resume_tui::tui::form::Field::Decision),
        "eviltext\nnext",
        "the decision keeps its lines; each is cleaned"
    );
}

#[test]
fn writes_expect_the_state_file_as_it_was_loaded() {
    let mut m = demo_model(120, 40);
    let mut workspace = m.workspace.clone();
    let source = m.project().unwrap().source.clone();
    workspace.root = "/demo".into();
    let hashes = [(source.clone(), ContentHash(42))].into_iter().collect();
    update(
        &mut m,
        Msg::Loaded(Ok(Box::new(LoadedWorkspace {
            workspace,
            hashes,
            ..Default::default()
        }))),
        NOW,
    );
    let effects = press(&mut m, &["4", "l", "<Space>"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let target = request.target.as_ref().unwrap();
    assert_eq!(target.source, source);
    assert_eq!(
        target.expected,
        Some(ContentHash(42)),
        "the edit is refused unless the file still holds what was loaded"
    );
}

#[test]
fn a_new_edit_waits_until_the_last_one_is_written_and_read_back() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["4", "l"]);
    assert!(matches!(
        press(&mut m, &["<Space>"]).as_slice(),
        [Effect::Write(_)]
    ));
    assert_eq!(m.saving, Saving::Writing);
    assert!(
        press(&mut m, &["<Space>"]).is_empty(),
        "decided on a screen the write is about to make stale"
    );
    assert!(
        status_text(&m).contains("still saving"),
        "{}",
        status_text(&m)
    );
    update(
        &mut m,
        Msg::Written {
            what: "marked RD-001 applied".into(),
            undo: None,
            result: Ok("ORCHESTRATION.yaml: 1 line changed".into()),
        },
        NOW,
    );
    assert_eq!(m.saving, Saving::Reloading);
    assert!(press(&mut m, &["<Space>"]).is_empty());
    let workspace = m.workspace.clone();
    update(&mut m, Msg::loaded(workspace), NOW);
    assert_eq!(m.saving, Saving::Idle);
    assert!(matches!(
        press(&mut m, &["<Space>"]).as_slice(),
        [Effect::Write(_)]
    ));
    update(
        &mut m,
        Msg::Written {
            what: "x".into(),
            undo: None,
            result: Err(NotWritten::Failed("read-only".into())),
        },
        NOW,
    );
    assert_eq!(
        m.saving,
        Saving::Idle,
        "a failed write leaves nothing to wait for"
    );
}

#[test]
fn status_messages_expire() {
    let mut m = demo_model(120, 40);
    press(&mut m, &["s"]);
    assert_eq!(
        m.live_status().map(|s| s.text.as_str()),
        Some("sorted by updated")
    );
    assert_eq!(m.wake_in(), Some(6), "the run loop wakes when it expires");
    let later = resume_tui::core::time::Timestamp(NOW.0 + 6);
    update(&mut m, Msg::Tick, later);
    assert_eq!(m.live_status(), None);
    assert_eq!(m.wake_in(), None);
    let idle = screen(&m);
    assert!(idle.contains("· 1/"), "the position shows instead: {idle}");
    update(&mut m, Msg::Problem("watcher: gone".into()), later);
    update(
        &mut m,
        Msg::Tick,
        resume_tui::core::time::Timestamp(NOW.0 + 25),
    );
    assert_eq!(
        m.live_status().map(|s| s.text.as_str()),
        Some("watcher: gone")
    );
    update(
        &mut m,
        Msg::Tick,
        resume_tui::core::time::Timestamp(NOW.0 + 26),
    );
    assert_eq!(m.live_status(), None, "errors last 20 seconds");
}

#[test]
fn the_status_bar_shows_the_position_and_s_reverses_the_sort() {
    let mut m = demo_model(120, 40);
    m.sort = Sort::Id;
    press(&mut m, &["s", "s", "s", "s"]);
    assert_eq!(m.sort, Sort::Id);
    let ids: Vec<String> = m.visible_projects().map(|p| p.id.clone()).collect();
    press(&mut m, &["S"]);
    assert!(m.reverse);
    let reversed: Vec<String> = m.visible_projects().map(|p| p.id.clone()).collect();
    let mut expected = ids.clone();
    expected.reverse();
    assert_eq!(reversed, expected);
    assert_eq!(status_text(&m), "sorted by id, reversed");
    press(&mut m, &["g", "j", "j"]);
    m.status = None;
    let n = m.visible.len();
    let shown = screen(&m);
    assert!(shown.contains(&format!("· 3/{n} · by id ↑ ·")), "{shown}");
}

#[test]
fn a_write_that_changes_nothing_does_not_say_saved() {
    let mut m = demo_model(120, 40);
    let effects = update(
        &mut m,
        Msg::Written {
            what: "merged cx-002 into resumption".into(),
            undo: None,
            result: Err(NotWritten::Unchanged("cx-002 is already merged".into())),
        },
        NOW,
    );
    assert!(effects.is_empty(), "nothing to read back");
    assert_eq!(m.saving, Saving::Idle);
    assert_eq!(status_text(&m), "nothing written: cx-002 is already merged");
    assert_eq!(m.status.as_ref().unwrap().kind, StatusKind::Info);
    assert_eq!(m.writes, 0);
}

#[test]
fn header_counts_filter_the_list_by_key_and_click() {
    use resume_tui::core::staleness::StalenessLevel;
    use resume_tui::tui::only::Only;
    let mut m = demo_model(120, 40);
    let all = m.visible.len();
    let critical = m
        .workspace
        .projects
        .iter()
        .filter(|p| p.staleness.level == StalenessLevel::Critical)
        .count();
    assert!(
        critical > 0 && critical < all,
        "the demo has CRITICAL projects and others"
    );
    press(&mut m, &["F"]);
    assert_eq!(m.only, Some(Only::Critical));
    assert_eq!(m.visible.len(), critical);
    assert!(
        m.visible_projects()
            .all(|p| p.staleness.level == StalenessLevel::Critical)
    );
    let title = screen(&m).lines().next().unwrap().to_string();
    assert!(title.contains(&format!("[CRITICAL {critical}]")), "{title}");
    press(&mut m, &["<Esc>"]);
    assert_eq!(m.only, None);
    assert_eq!(m.visible.len(), all);

    // A click on a count in the list's top border.
    let first_row = screen(&m).lines().next().unwrap().to_string();
    let at = first_row
        .find("Nexus")
        .unwrap_or_else(|| panic!("a Nexus count in the title: {first_row}"));
    let column = first_row[..at].chars().count() as u16;
    update(
        &mut m,
        Msg::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row: 0,
            modifiers: KeyModifiers::NONE,
        }),
        NOW,
    );
    assert_eq!(m.only, Some(Only::Nexus));
    assert!(
        m.visible_projects()
            .all(|p| p.kind == resume_tui::core::model::ProjectKind::Nexus)
    );
}

#[test]
fn y_copies_the_nexus_loading_sequence_for_a_nexus_project() {
    let mut m = demo_model(120, 40);
    let nexus = m
        .workspace
        .projects
        .iter()
        .find(|p| p.kind == resume_tui::core::model::ProjectKind::Nexus && p.manifest.is_some())
        .expect("the demo has a Nexus project")
        .clone();
    select(&mut m, &nexus.id);
    let effects = press(&mut m, &["y"]);
    let [Effect::Copy { what, text }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert!(what.starts_with("Nexus loading sequence for "), "{what}");
    let expected =
        resume_tui::core::render::render_nexus(&resume_tui::core::render::nexus::NexusInput {
            project: &nexus,
            manifest: nexus.manifest.as_ref().unwrap(),
            abs_dir: &format!("/demo/{}", nexus.dir),
            confidence: None,
            style: resume_tui::core::render::nexus::Style::Emoji,
        });
    assert_eq!(text, &expected.text);
    assert!(text.contains("MANDATORY LOADING SEQUENCE"), "{text}");
    assert!(
        !text.contains("You are resuming a workflow"),
        "not Template 1"
    );
    press(&mut m, &["5"]);
    assert!(screen(&m).contains("Nexus loading sequence"));
}

#[test]
fn shift_y_changes_to_the_project_root() {
    let mut m = payouts_selected();
    let project = m.project().unwrap().clone();
    assert!(project.dir.starts_with("projects/"), "{}", project.dir);
    let effects = press(&mut m, &["Y"]);
    let [Effect::Copy { text, .. }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert!(
        text.starts_with("cd '/demo' && claude 'You are resuming"),
        "{text}"
    );
}

#[test]
fn resume_now_opens_a_tmux_window_or_quits_and_prints_the_command() {
    use resume_tui::tui::launch::{Program, Window};
    let mut m = payouts_selected();
    let effects = press(&mut m, &["R"]);
    assert_eq!(effects, [Effect::Quit]);
    let farewell = m.farewell.clone().unwrap();
    assert!(
        farewell.contains(&format!("resume {PAYOUTS}"))
            && farewell.contains("\ncd '/demo' && claude 'You are resuming"),
        "{farewell}"
    );
    // When quitting would lose something the question comes first; `n` keeps the
    // dashboard and forgets the command.
    let mut m = payouts_selected();
    m.demo = true;
    m.writes = 1;
    assert!(press(&mut m, &["R"]).is_empty());
    assert!(m.farewell.is_some() && !m.quit);
    assert!(press(&mut m, &["n"]).is_empty());
    assert_eq!((m.farewell.as_deref(), m.quit), (None, false));
    m.in_tmux = true;
    let effects = press(&mut m, &["R"]);
    let [
        Effect::NewWindow(Window {
            dir,
            program: Program::Claude { prompt },
            name,
            ..
        }),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!(dir, "/demo");
    assert_eq!(name, &format!("resume {PAYOUTS}"));
    assert!(prompt.starts_with("You are resuming"));
    update(&mut m, Msg::Launched(Ok("claude resuming x".into())), NOW);
    assert_eq!(status_text(&m), "claude resuming x");
}

#[test]
fn o_opens_the_selected_decision_in_the_editor() {
    use resume_tui::tui::launch::{Program, Window};
    let mut m = payouts_selected();
    m.in_tmux = true;
    m.editor = "nvim".into();
    let effects = press(&mut m, &["4", "l", "j", "o"]);
    let [
        Effect::NewWindow(Window {
            program: Program::Editor { editor, path, find },
            ..
        }),
    ] = effects.as_slice()
    else {
        panic!("{effects:?}");
    };
    assert_eq!(editor, "nvim");
    let source = &m.project().unwrap().source;
    assert_eq!(path, &format!("/demo/{source}"));
    assert_eq!(find.as_deref(), Some("RD-002"));
    // Outside tmux the editor runs in the dashboard's own terminal.
    m.in_tmux = false;
    let effects = press(&mut m, &["o"]);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::RunHere(Window {
                program: Program::Editor { .. },
                ..
            })]
        ),
        "{effects:?}"
    );
}

fn revert() -> resume_tui::tui::msg::Revert {
    resume_tui::tui::msg::Revert {
        path: "ORCHESTRATION.yaml".into(),
        written: "after".into(),
        before: Some("before".into()),
    }
}

#[test]
fn deleting_a_decision_can_be_undone() {
    let mut m = payouts_selected();
    let effects = press(&mut m, &["4", "l", "d"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(
        request.op,
        StateChange::DeleteDecision {
            id: "RD-001".into()
        }
    );
    update(
        &mut m,
        Msg::Written {
            what: "deleted RD-001".into(),
            result: Ok("ORCHESTRATION.yaml: 7 lines changed".into()),
            undo: Some(Box::new(resume_tui::tui::msg::Undo {
                project_id: Some(PAYOUTS.into()),
                what: "deleted RD-001".into(),
                files: vec![revert()],
            })),
        },
        NOW,
    );
    let workspace = m.workspace.clone();
    update(&mut m, Msg::loaded(workspace), NOW);
    let effects = press(&mut m, &["u"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(
        request.op,
        StateChange::Restore {
            what: format!("deleted RD-001 in {PAYOUTS}"),
            files: vec![revert()]
        }
    );
    assert_eq!(
        status_text(&m),
        format!("saving: undo \"deleted RD-001 in {PAYOUTS}\"")
    );
    saved_and_reloaded(&mut m);
    press(&mut m, &["u"]);
    assert_eq!(status_text(&m), "nothing to undo");
}

#[test]
fn the_decision_and_rationale_take_several_lines() {
    let mut m = new_decision_typed("Replay in order");
    assert!(
        press(&mut m, &["<Enter>"]).is_empty(),
        "Enter starts a new line"
    );
    type_text(&mut m, "then reconcile");
    press(&mut m, &["<Down>"]);
    let Overlay::Form(form) = &m.overlay else {
        panic!("{:?}", m.overlay)
    };
    assert_eq!(
        form.focused_field(),
        resume_tui::tui::form::Field::Rationale,
        "down past the last line moves to the next field"
    );
    type_text(&mut m, "Because");
    press(&mut m, &["<Tab>", "<Tab>", "<Tab>"]);
    let effects = press(&mut m, &["<Enter>"]);
    let [Effect::Write(request)] = effects.as_slice() else {
        panic!("Enter in a one-line field saves: {effects:?}")
    };
    let StateChange::AddDecision(draft) = &request.op else {
        panic!("{:?}", request.op)
    };
    assert_eq!(draft.decision, "Replay in order\nthen reconcile");
    assert_eq!(draft.rationale.as_deref(), Some("Because"));
    let shown = screen(&m);
    assert!(shown.contains("then reconcile"), "{shown}");
}

#[test]
fn a_live_refresh_highlights_changed_rows_and_calls_about_critical() {
    use resume_tui::core::staleness::StalenessLevel;
    let mut m = demo_model(120, 40);
    m.config.ui.notify = resume_tui::config::Notify::Bell;
    let mut workspace = m.workspace.clone();
    let project = workspace
        .projects
        .iter_mut()
        .find(|p| p.staleness.level != StalenessLevel::Critical)
        .unwrap();
    project.staleness.level = StalenessLevel::Critical;
    let id = project.id.clone();
    let source = project.source.clone();
    let mut hashes = m.hashes.clone();
    hashes.insert(source, ContentHash::of(b"changed"));
    let effects = update(
        &mut m,
        Msg::Loaded(Ok(Box::new(LoadedWorkspace {
            workspace,
            hashes,
            ..Default::default()
        }))),
        NOW,
    );
    assert_eq!(effects, [Effect::WriteTerminal(b"\x07".to_vec())]);
    assert_eq!(status_text(&m), format!("{id} turned CRITICAL"));
    assert!(m.highlighted(&id));
    assert_eq!(
        m.highlight
            .iter()
            .map(|(h, _)| h.as_str())
            .collect::<Vec<_>>(),
        [id.as_str()],
        "only the row whose file changed"
    );
    assert!(
        screen(&m)
            .lines()
            .any(|l| l.contains("* ") && l.contains(&id[..8]))
    );
    update(
        &mut m,
        Msg::Tick,
        resume_tui::core::time::Timestamp(NOW.0 + 3),
    );
    assert!(!m.highlighted(&id), "the highlight is brief");
}
