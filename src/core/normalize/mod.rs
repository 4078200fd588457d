//! Wire → model normalisers, one per shape. Each returns diagnostics instead of failing.
pub mod value;
pub mod jerry;
