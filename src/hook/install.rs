//! `hooks install`.
