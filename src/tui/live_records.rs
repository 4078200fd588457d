//! The live context records, read in `io::live_records` (`resume-tui list`
//! reads them too, for the same order of urgency).

pub use crate::io::live_records::*;
