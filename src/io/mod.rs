//! The only layer that touches files, the terminal's clipboard, the clock and the environment.

pub mod clipboard;
pub mod clock;
pub mod context_fill;
pub mod demo;
pub mod discover;
pub mod env;
pub mod fence;
pub mod fsync_later;
pub mod live_records;
pub mod load;
pub mod log;
pub mod migrate;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub mod project_edit;
#[cfg(test)]
pub(crate) mod test_support;
pub mod transcript;
pub mod watch;
pub mod write;
pub mod yaml_edit;
