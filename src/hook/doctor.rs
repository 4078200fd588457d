//! `doctor`.
