//! Wire → model normalisers, one per shape. Each returns diagnostics instead of failing.
pub mod frontmatter;
pub mod value;
pub mod jerry;
