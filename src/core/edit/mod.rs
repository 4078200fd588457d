//! See issue tracker; filled in by its owner.
