//! Exact on-disk and on-stdin shapes, one module per format (schemas are generated from them).
