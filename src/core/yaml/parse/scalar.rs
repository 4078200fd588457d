//! Plain scalars: where one ends, and what it means (null, bool, number or
//! string), by `yaml_serde`'s own rules (its `visit_untagged_scalar`, whose
//! number parsing is copied here so that both agree on every spelling).

use std::num::ParseIntError;

use yaml_serde::Value;

/// Characters that may not start a plain scalar (YAML's c-indicator), except
/// `-`, `?` and `:`, which may when a non-space follows.
const INDICATORS: &[u8] = b",[]{}#&*!|>'\"%@`";

/// Whether a plain scalar may start with `text` in block context.
pub(super) fn starts_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    match bytes.first() {
        None => false,
        Some(b'-' | b'?' | b':') => bytes.get(1).is_some_and(|b| *b != b' '),
        Some(b) => !INDICATORS.contains(b),
    }
}

/// The plain scalar at the start of `text` (block context): up to a comment or
/// the end, without trailing spaces. `None` when a `: ` or a final `:` makes it a
/// key (or an error) instead.
pub(super) fn block_plain(text: &str) -> Option<&str> {
    let end = comment_start(text).unwrap_or(text.len());
    let value = text.get(..end)?.trim_end_matches(' ');
    let bytes = value.as_bytes();
    let key_like =
        memchr::memchr_iter(b':', bytes).any(|i| matches!(bytes.get(i + 1), None | Some(b' ')));
    if key_like || memchr::memchr(b'\t', bytes).is_some() {
        return None;
    }
    Some(value)
}

/// Where a comment begins: a `#` at the start or after a space.
pub(crate) fn comment_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memchr_iter(b'#', bytes).find(|&i| i == 0 || bytes.get(i - 1) == Some(&b' '))
}

/// Line folding between two lines of a scalar: one line break becomes a space,
/// and `empty` empty lines between them become that many line breaks.
pub(super) fn push_break(out: &mut String, empty: usize) {
    if empty == 0 {
        out.push(' ');
    } else {
        out.extend(std::iter::repeat_n('\n', empty));
    }
}

/// What follows a token on its line: nothing, spaces, or spaces and a comment
/// (a `#` right after the token is refused: YAML wants a space before it).
pub(super) fn is_rest_blank(text: &str) -> bool {
    let trimmed = text.trim_start_matches(' ');
    trimmed.is_empty() || (trimmed.starts_with('#') && trimmed.len() < text.len())
}

/// What a plain scalar means; `None` for integers too large for 64 bits, which
/// `yaml_serde` reads as 128-bit numbers that a `Value` cannot hold.
pub(super) fn resolve(v: &str) -> Option<Value> {
    if v.is_empty() || matches!(v, "null" | "Null" | "NULL" | "~") {
        return Some(Value::Null);
    }
    match v {
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        _ => {}
    }
    // Every number spelling starts with a digit, a sign or a dot (Rust's float
    // parser also takes `inf` and `nan`, which `parse_f64` then refuses).
    if !v
        .as_bytes()
        .first()
        .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.'))
    {
        return Some(Value::String(v.to_owned()));
    }
    if let Some(int) = parse_unsigned_int(v, u64::from_str_radix) {
        return Some(Value::Number(int.into()));
    }
    if let Some(int) = parse_negative_int(v, i64::from_str_radix) {
        return Some(Value::Number(int.into()));
    }
    if parse_unsigned_int(v, u128::from_str_radix).is_some()
        || parse_negative_int(v, i128::from_str_radix).is_some()
    {
        return None;
    }
    if !digits_but_not_number(v)
        && let Some(float) = parse_f64(v)
    {
        return Some(Value::Number(float.into()));
    }
    Some(Value::String(v.to_owned()))
}

fn parse_unsigned_int<T>(
    scalar: &str,
    from_str_radix: fn(&str, radix: u32) -> Result<T, ParseIntError>,
) -> Option<T> {
    let unpositive = scalar.strip_prefix('+').unwrap_or(scalar);
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(rest) = unpositive.strip_prefix(prefix) {
            if rest.starts_with(['+', '-']) {
                return None;
            }
            if let Ok(int) = from_str_radix(rest, radix) {
                return Some(int);
            }
        }
    }
    if unpositive.starts_with(['+', '-']) || digits_but_not_number(scalar) {
        return None;
    }
    from_str_radix(unpositive, 10).ok()
}

fn parse_negative_int<T>(
    scalar: &str,
    from_str_radix: fn(&str, radix: u32) -> Result<T, ParseIntError>,
) -> Option<T> {
    for (prefix, radix) in [("-0x", 16), ("-0o", 8), ("-0b", 2)] {
        if let Some(rest) = scalar.strip_prefix(prefix)
            && let Ok(int) = from_str_radix(&format!("-{rest}"), radix)
        {
            return Some(int);
        }
    }
    if digits_but_not_number(scalar) {
        return None;
    }
    from_str_radix(scalar, 10).ok()
}

fn parse_f64(scalar: &str) -> Option<f64> {
    let unpositive = match scalar.strip_prefix('+') {
        Some(rest) if rest.starts_with(['+', '-']) => return None,
        Some(rest) => rest,
        None => scalar,
    };
    if let ".inf" | ".Inf" | ".INF" = unpositive {
        return Some(f64::INFINITY);
    }
    if let "-.inf" | "-.Inf" | "-.INF" = scalar {
        return Some(f64::NEG_INFINITY);
    }
    if let ".nan" | ".NaN" | ".NAN" = scalar {
        return Some(f64::NAN.copysign(1.0));
    }
    unpositive
        .parse::<f64>()
        .ok()
        .filter(|float| float.is_finite())
}

/// Leading zeros followed by digits: a string in YAML 1.2.
fn digits_but_not_number(scalar: &str) -> bool {
    let scalar = scalar.strip_prefix(['-', '+']).unwrap_or(scalar);
    scalar.len() > 1
        && scalar.starts_with('0')
        && scalar.bytes().skip(1).all(|b| b.is_ascii_digit())
}
