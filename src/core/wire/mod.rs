//! Exact on-disk and on-stdin shapes, one module per format (schemas are generated from them).
pub mod checkpoint;
pub mod context_state;
pub mod nexus;
pub mod nullable;
pub mod precompact;
