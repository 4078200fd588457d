//! The one place that reads the system clock.

use crate::core::time::Timestamp;

/// A file time (`modified()`) as a timestamp; `None` before 1970.
pub fn timestamp_of(at: std::time::SystemTime) -> Option<Timestamp> {
    let seconds = at.duration_since(std::time::UNIX_EPOCH).ok()?.as_secs();
    i64::try_from(seconds).ok().map(Timestamp::from_unix)
}

pub fn now() -> Timestamp {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
    Timestamp(seconds)
}
