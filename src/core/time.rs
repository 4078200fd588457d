//! Timestamps without a clock: parsing and formatting ISO 8601 in UTC seconds.
//! The current time is always passed in by the caller.

use serde::{Serialize, Serializer};

/// Seconds since the Unix epoch, UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub i64);

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_iso())
    }
}

impl Timestamp {
    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.frac]]` with an optional `Z` or
    /// `±HH[:]MM` offset (a space may stand for `T`). No offset means UTC.
    pub fn parse(text: &str) -> Option<Timestamp> {
        let text = text.trim();
        let bytes = text.as_bytes();
        let year = digits(bytes, 0, 4)?;
        if bytes.get(4) != Some(&b'-') || bytes.get(7) != Some(&b'-') {
            return None;
        }
        let month = digits(bytes, 5, 2)?;
        let day = digits(bytes, 8, 2)?;
        if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
            return None;
        }
        let mut seconds = days_from_civil(year, month, day) * 86_400;
        if bytes.len() == 10 {
            return Some(Timestamp(seconds));
        }
        if !matches!(bytes.get(10), Some(b'T' | b't' | b' ')) {
            return None;
        }
        let hour = digits(bytes, 11, 2)?;
        if bytes.get(13) != Some(&b':') {
            return None;
        }
        let minute = digits(bytes, 14, 2)?;
        let mut pos = 16;
        let mut second = 0;
        if bytes.get(pos) == Some(&b':') {
            second = digits(bytes, pos + 1, 2)?;
            pos += 3;
            if bytes.get(pos) == Some(&b'.') || bytes.get(pos) == Some(&b',') {
                pos += 1;
                let start = pos;
                while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
                    pos += 1;
                }
                if pos == start {
                    return None;
                }
            }
        }
        if hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        seconds += hour * 3600 + minute * 60 + second;
        let offset = parse_offset(bytes.get(pos..)?)?;
        Some(Timestamp(seconds - offset))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    pub fn to_iso(self) -> String {
        let days = self.0.div_euclid(86_400);
        let secs = self.0.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs % 3600 / 60,
            secs % 60
        )
    }

    pub fn from_unix(seconds: i64) -> Timestamp {
        Timestamp(seconds)
    }

    pub fn seconds_since(self, earlier: Timestamp) -> i64 {
        self.0 - earlier.0
    }
}

/// When an update written as `raw` counts from: a bare date, or exactly midnight
/// (how tools write a date as a time), could be any time that day, so it counts
/// from the day's last second; anything else as written. The staleness judgement
/// and every age shown for an update go through it, so they agree.
pub fn update_effective(raw: Option<&str>, at: Timestamp) -> Timestamp {
    if raw.is_some_and(is_date_only) {
        Timestamp(at.0 + 86_399)
    } else {
        at
    }
}

/// "3 h ago" for an update written as `raw` (see [`update_effective`]).
pub fn describe_update_age(raw: Option<&str>, at: Timestamp, now: Timestamp) -> String {
    describe_age(now.seconds_since(update_effective(raw, at)))
}

/// `2026-02-19`, or a time of exactly midnight (`2026-02-19T00:00:00Z`), which real
/// files write when they only know the date.
pub fn is_date_only(raw: &str) -> bool {
    let raw = raw.trim();
    if raw.len() == 10 {
        return true;
    }
    let time = raw.get(11..).unwrap_or_default();
    let time = time.trim_end_matches(['Z', 'z']);
    let time = time.strip_suffix("+00:00").unwrap_or(time);
    matches!(
        time,
        "00:00" | "00:00:00" | "00:00:00.000" | "00:00:00.000000"
    )
}

/// "23 min ago", "3 h ago", "2 d ago", "in 5 min" for timestamps in the future.
pub fn describe_age(seconds: i64) -> String {
    if seconds < 0 {
        return format!("in {}", span(-seconds));
    }
    if seconds < 60 {
        return "just now".to_string();
    }
    format!("{} ago", span(seconds))
}

fn span(seconds: i64) -> String {
    match seconds {
        s if s < 3600 => format!("{} min", (s / 60).max(1)),
        s if s < 86_400 => format!("{} h", s / 3600),
        s => format!("{} d", s / 86_400),
    }
}

fn parse_offset(rest: &[u8]) -> Option<i64> {
    match rest {
        [] | [b'Z'] | [b'z'] => Some(0),
        [sign @ (b'+' | b'-'), tail @ ..] => {
            let hours = digits(tail, 0, 2)?;
            let minutes = match tail.len() {
                2 => 0,
                4 => digits(tail, 2, 2)?,
                5 if tail.get(2) == Some(&b':') => digits(tail, 3, 2)?,
                _ => return None,
            };
            let offset = hours * 3600 + minutes * 60;
            Some(if *sign == b'-' { -offset } else { offset })
        }
        _ => None,
    }
}

fn digits(bytes: &[u8], start: usize, len: usize) -> Option<i64> {
    let slice = bytes.get(start..start + len)?;
    slice.iter().try_fold(0i64, |acc, b| {
        b.is_ascii_digit().then(|| acc * 10 + i64::from(b - b'0'))
    })
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

// Howard Hinnant's days_from_civil / civil_from_days.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_shapes_real_files_use() {
        let z = Timestamp::parse("2026-02-17T12:34:56Z").unwrap();
        assert_eq!(z.to_iso(), "2026-02-17T12:34:56Z");
        assert_eq!(
            Timestamp::parse("2026-02-17").unwrap().to_iso(),
            "2026-02-17T00:00:00Z"
        );
        assert_eq!(
            Timestamp::parse("2026-02-22T02:15:22.250871+00:00")
                .unwrap()
                .to_iso(),
            "2026-02-22T02:15:22Z"
        );
        assert_eq!(
            Timestamp::parse("2026-01-17T23:12:11.267175Z")
                .unwrap()
                .to_iso(),
            "2026-01-17T23:12:11Z"
        );
        assert_eq!(
            Timestamp::parse("2026-02-17T14:34:56+02:00").unwrap(),
            z,
            "offsets are applied"
        );
        assert_eq!(
            Timestamp::parse("2026-02-17 12:34").unwrap().to_iso(),
            "2026-02-17T12:34:00Z"
        );
        assert_eq!(Timestamp(0).to_iso(), "1970-01-01T00:00:00Z");
    }

    #[test]
    fn rejects_what_is_not_a_timestamp() {
        for bad in [
            "",
            "yesterday",
            "2026-13-01",
            "2026-02-30",
            "2026-02-17T25:00:00Z",
            "2026-02-17T12",
            "2026-02-17T12:00:00+2",
            "2026-02-17T12:00:00.Z",
            "２０２６-01-01",
        ] {
            assert_eq!(Timestamp::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn describes_ages() {
        assert_eq!(describe_age(10), "just now");
        assert_eq!(describe_age(23 * 60 + 5), "23 min ago");
        assert_eq!(describe_age(3 * 3600), "3 h ago");
        assert_eq!(describe_age(2 * 86_400 + 5), "2 d ago");
        assert_eq!(describe_age(-300), "in 5 min");
    }

    #[test]
    fn an_update_written_as_a_date_counts_from_the_end_of_its_day() {
        let now = Timestamp::parse("2026-02-21T06:00:00Z").unwrap();
        for raw in ["2026-02-19", "2026-02-19T00:00:00Z"] {
            let at = Timestamp::parse(raw).unwrap();
            assert_eq!(describe_update_age(Some(raw), at, now), "1 d ago", "{raw}");
        }
        let raw = "2026-02-19T00:00:01Z";
        let at = Timestamp::parse(raw).unwrap();
        assert_eq!(describe_update_age(Some(raw), at, now), "2 d ago");
    }
}
