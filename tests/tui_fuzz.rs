//! Any sequence of keys, clicks and resizes leaves the dashboard drawable: `update`
//! and `view` never panic, whatever the operator does and whatever the screen size.

mod tui_support;

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use proptest::prelude::*;
use resume_tui::tui::{Msg, update};
use tui_support::*;

const KEYS: &[&str] = &[
    "j",
    "k",
    "g",
    "G",
    "h",
    "l",
    "<Enter>",
    "<Esc>",
    "q",
    "<Tab>",
    "<BackTab>",
    "1",
    "2",
    "3",
    "4",
    "5",
    "/",
    "s",
    "?",
    "a",
    "A",
    "m",
    "n",
    "e",
    "<Space>",
    "y",
    "Y",
    "c",
    "r",
    "x",
    "9",
    "<C-d>",
    "<C-u>",
    "<Backspace>",
    "<Up>",
    "<Down>",
    "<C-s>",
    "日",
];

#[derive(Debug, Clone)]
enum Step {
    Key(usize),
    Click(u16, u16),
    Wheel(bool, u16, u16),
    Resize(u16, u16),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        6 => (0..KEYS.len()).prop_map(Step::Key),
        1 => (0u16..130, 0u16..45).prop_map(|(x, y)| Step::Click(x, y)),
        1 => (any::<bool>(), 0u16..130, 0u16..45).prop_map(|(d, x, y)| Step::Wheel(d, x, y)),
        1 => (0u16..140, 0u16..50).prop_map(|(w, h)| Step::Resize(w, h)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn any_input_keeps_the_dashboard_drawable(steps in prop::collection::vec(step(), 1..60)) {
        let mut m = demo_model(100, 30);
        for s in steps {
            let msg = match s {
                Step::Key(i) => Msg::Key(key_event(KEYS[i])),
                Step::Click(column, row) => Msg::Mouse(MouseEvent {
                    kind: MouseEventKind::Down(MouseButton::Left), column, row, modifiers: KeyModifiers::NONE,
                }),
                Step::Wheel(down, column, row) => Msg::Mouse(MouseEvent {
                    kind: if down { MouseEventKind::ScrollDown } else { MouseEventKind::ScrollUp },
                    column, row, modifiers: KeyModifiers::NONE,
                }),
                Step::Resize(w, h) => Msg::Resize(w, h),
            };
            update(&mut m, msg, NOW);
            if m.quit {
                break;
            }
            let _ = draw(&m);
        }
    }
}
