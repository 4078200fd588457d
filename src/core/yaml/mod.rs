//! YAML as text: the one line reader that the fast parser, the comment-keeping
//! editor, the migrations and the pruner share; the fast block-style parser; and
//! the guard every YAML read goes through (size, nesting and alias limits).

pub mod error_at;
pub mod guard;
pub mod lines;
pub mod parse;
