//! The dashboard: `update(&mut Model, Msg, now) -> Vec<Effect>` is pure, `view` is
//! pure, and `app` runs the terminal, the watcher and the effects.

pub mod action;
mod chosen;
pub mod color_depth;
mod copy_dropped;
pub mod effect;
pub mod event_loop;
pub mod form;
pub mod glyphs;
mod heap;
mod input;
pub mod keymap;
pub mod last_known;
pub mod launch;
pub mod layout;
pub mod line_edit;
pub mod list;
pub mod list_change;
pub mod live;
pub mod live_records;
pub mod loader;
pub(crate) mod loose;
pub mod messages;
pub mod model;
mod mouse;
pub mod msg;
mod notify;
pub mod only;
mod paste;
mod picked;
mod project_actions;
mod quit;
mod reload;
mod reload_checkpoints;
pub mod resume;
mod runner;
mod shorten;
pub mod signals;
mod terminal;
#[cfg(feature = "test-fault")]
mod test_fault;
pub mod theme;
mod timeline_overlay;
pub mod update;
pub mod user_files;
pub mod view;
mod write;

pub use effect::Effect;
pub use model::Model;
pub use msg::Msg;
pub use update::update;
pub use view::view;

use std::process::ExitCode;

/// Opens the dashboard (the binary with no command).
pub fn run(ctx: &crate::app::Context, theme_override: Option<&str>) -> crate::Result<ExitCode> {
    event_loop::run(ctx, theme_override)
}
