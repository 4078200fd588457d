//! The normalised domain every front end works with. Built by `core::normalize`
//! from any on-disk shape; never read from disk directly.

pub mod checkpoint;
pub mod diagnostic;
pub mod nexus;
pub mod project;
pub mod resumption;
pub mod workspace;

pub use checkpoint::*;
pub use diagnostic::*;
pub use nexus::*;
pub use project::*;
pub use resumption::*;
pub use workspace::*;

/// Fields a normaliser did not recognise, kept in file order with their values.
pub type OtherFields = serde_json::Map<String, serde_json::Value>;
