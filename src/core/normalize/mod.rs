//! Wire → model normalisers, one per shape. Each returns diagnostics instead of failing.
pub mod checkpoint;
pub mod context_state;
pub mod frontmatter;
pub mod jerry;
pub mod json_locate;
pub mod json_value;
pub mod nexus;
pub mod precompact;
pub mod ranges;
mod resumption_state;
pub mod schema_check;
pub mod unknowns;
pub mod value;
