//! Pure renderers of the injected and copied texts: Template 1 (`prompt`),
//! Template 2 (`alert`), the `<context-monitor>` block (`monitor`) and the Nexus
//! loading sequence (`nexus`). Each returns a `budget::Rendered`; none reads a
//! clock, a file or the environment.

pub mod after_compaction;
pub mod alert;
pub mod budget;
pub mod format;
pub mod monitor;
pub mod nexus;
pub mod prompt;
mod prompt_blocks;
pub mod state;

pub use after_compaction::render_after_compaction;
pub use alert::render_alert;
pub use budget::Rendered;
pub use monitor::{FillReading, Level, level_for, render_monitor};
pub use nexus::{NexusInput, Style, render_nexus};
pub use prompt::render_prompt;
