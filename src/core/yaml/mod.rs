//! YAML as text: the one line reader that the fast parser, the comment-keeping
//! editor, the migrations and the pruner share, and the line arithmetic on it.

pub mod lines;
