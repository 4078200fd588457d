//! The decision form's Decision and Rationale soft-wrap within the field, and the
//! cursor shows wherever it is: after a row that fills the field's width exactly it
//! is drawn in the column the field keeps for it. Pure `update` and `view` on the
//! demo, without colours (the focused field drawn reversed).

mod tui_support;

use ratatui::buffer::Buffer;
use ratatui::style::Modifier;
use resume_tui::tui::theme::Theme;
use tui_support::*;

/// Where `text` starts on the screen: (column, row).
fn find(buffer: &Buffer, text: &str) -> (u16, u16) {
    let width = buffer.area.width;
    for y in 0..buffer.area.height {
        let row: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
        if let Some(at) = row.find(text) {
            let column = row[..at].chars().count();
            return (u16::try_from(column).unwrap(), y);
        }
    }
    panic!("{text:?} not on the screen");
}

fn reversed(buffer: &Buffer, x: u16, y: u16) -> bool {
    buffer[(x, y)].modifier.contains(Modifier::REVERSED)
}

#[test]
fn a_cursor_after_a_row_that_fills_the_field_is_drawn_past_it() {
    let mut m = model_with(demo_workspace(), Theme::no_color(), 80, 24);
    press(&mut m, &["4", "n"]);
    // At 80 columns the field's text is 55 cells wide: one word fills a row.
    let word = "x".repeat(55);
    type_text(&mut m, &word);
    let buffer = draw(&m);
    let (x, y) = find(&buffer, &word);
    assert!(reversed(&buffer, x, y), "the focused field is reversed");
    assert!(
        !reversed(&buffer, x + 55, y),
        "the cursor after the row, un-reversed:\n{}",
        screen(&m)
    );
    // One more character: the word no longer fits and wraps whole, every
    // character shown, the cursor after it on the next row.
    type_text(&mut m, "y");
    let buffer = draw(&m);
    let longer = format!("{word}y");
    let (x, y) = find(&buffer, &word);
    let shown: String = (x..x + 55).map(|c| buffer[(c, y)].symbol()).collect();
    assert_eq!(shown, word, "{}", screen(&m));
    assert_eq!(buffer[(x, y + 1)].symbol(), "y", "{}", screen(&m));
    assert!(!reversed(&buffer, x + 1, y + 1), "{}", screen(&m));
    assert!(!screen(&m).contains(&longer[1..]), "not on one row");
}
