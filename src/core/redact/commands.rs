//! Credentials in command lines and HTTP headers: `curl -u user:pw`,
//! `--user user:pw`, `--password pw` (any option named like a secret, a space
//! before its value), `mysql -ppw`, `sshpass -p pw`, `redis-cli -a pw`, and
//! `Authorization: <scheme> <credential>` whatever the scheme (`token`, `Bot`…).

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::{MARK, is_placeholder, is_secret_key, run_len};

// Searchers built once (see `webhooks`).
static AUTHORIZATION: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("uthorization"));
static AUTHORIZATION_UPPER: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new("UTHORIZATION"));

/// How far back on its line a short option looks for its command's name.
const COMMAND_REACH: usize = 512;

fn byte_at(bytes: &[u8], i: usize) -> Option<u8> {
    bytes.get(i).copied()
}

/// An option's value: up to a space or a quote.
fn value_char(b: u8) -> bool {
    !b.is_ascii_whitespace() && !matches!(b, b'"' | b'\'' | b'`' | b';' | b'|' | b'&')
}

/// `$VAR`, `${VAR}`, `$(cmd)`, `<password>`, `****`, `[REDACTED]`: not a secret.
fn is_reference(value: &[u8]) -> bool {
    is_placeholder(value)
        || value.starts_with(b"$")
        || value.starts_with(b"%")
        || value.starts_with(MARK.as_bytes())
}

/// The value starting at `at` after optional spaces (`space`) and an opening quote.
fn value_at(bytes: &[u8], mut at: usize, space: bool) -> Range<usize> {
    if space {
        at += run_len(bytes, at, |b| b == b' ' || b == b'\t');
    }
    if matches!(byte_at(bytes, at), Some(b'"' | b'\'')) {
        at += 1;
    }
    at..at + run_len(bytes, at, value_char)
}

/// The password of a `user:password` value.
fn user_password(bytes: &[u8], value: Range<usize>, out: &mut Vec<Range<usize>>) {
    let text = bytes.get(value.clone()).unwrap_or_default();
    let Some(colon) = text.iter().position(|&b| b == b':') else {
        return;
    };
    let password = text.get(colon + 1..).unwrap_or_default();
    if !password.is_empty() && !is_reference(password) {
        out.push(value.start + colon + 1..value.end);
    }
}

/// A value that reads like a secret rather than prose: "the `--password`
/// option" and "pass `--token` carefully" are prose, `--password hunter2`,
/// `--token AbCdEfGh` and a long run of letters are not.
fn secret_value(bytes: &[u8], value: Range<usize>, out: &mut Vec<Range<usize>>) {
    let text = bytes.get(value.clone()).unwrap_or_default();
    let shaped = text.len() >= 12
        || text.iter().skip(1).any(u8::is_ascii_uppercase)
        || text
            .iter()
            .any(|b| b.is_ascii_digit() || b.is_ascii_punctuation());
    if !text.is_empty() && !text.starts_with(b"-") && !is_reference(text) && shaped {
        out.push(value);
    }
}

/// Whether `command` stands on the line before `at` (within `COMMAND_REACH`).
fn command_before(bytes: &[u8], at: usize, command: &[u8]) -> bool {
    let window = bytes
        .get(at.saturating_sub(COMMAND_REACH)..at)
        .unwrap_or_default();
    let line = window
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(window, |nl| window.get(nl + 1..).unwrap_or_default());
    memchr::memmem::find(line, command).is_some()
}

pub(super) fn command_line_credentials(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for dash in memchr::memchr_iter(b'-', bytes) {
        // An option starts a word.
        if dash
            .checked_sub(1)
            .and_then(|at| byte_at(bytes, at))
            .is_some_and(|b| !b.is_ascii_whitespace())
        {
            continue;
        }
        match (byte_at(bytes, dash + 1), byte_at(bytes, dash + 2)) {
            (Some(b'-'), _) => long_option(bytes, dash + 2, out),
            (Some(b'u'), Some(next)) if command_before(bytes, dash, b"curl") => {
                // `-u user:pw` or `-uuser:pw`.
                user_password(bytes, value_at(bytes, dash + 2, next == b' '), out);
            }
            (Some(b'p'), Some(next))
                if !next.is_ascii_whitespace()
                    && (command_before(bytes, dash, b"mysql")
                        || command_before(bytes, dash, b"mariadb")) =>
            {
                // `-ppw`: the password attached.
                secret_value(bytes, value_at(bytes, dash + 2, false), out);
            }
            (Some(b'p'), Some(b' ')) if command_before(bytes, dash, b"sshpass") => {
                secret_value(bytes, value_at(bytes, dash + 2, true), out);
            }
            (Some(b'a'), Some(b' ')) if command_before(bytes, dash, b"redis-cli") => {
                secret_value(bytes, value_at(bytes, dash + 2, true), out);
            }
            _ => {}
        }
    }
}

/// `--user[= ]user:pw` (and `--proxy-user`), `--password pw` and other options
/// named like a secret with a space before the value (`--password=pw` is a
/// `key=value` pair, `super::key_value_pairs`).
fn long_option(bytes: &[u8], name_at: usize, out: &mut Vec<Range<usize>>) {
    let len = run_len(bytes, name_at, |b| {
        b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
    });
    let name = bytes.get(name_at..name_at + len).unwrap_or_default();
    let sep = byte_at(bytes, name_at + len);
    if len == 0 || !matches!(sep, Some(b' ' | b'=')) {
        return;
    }
    let value = value_at(bytes, name_at + len + 1, sep == Some(b' '));
    if name.eq_ignore_ascii_case(b"user") || name.eq_ignore_ascii_case(b"proxy-user") {
        user_password(bytes, value, out);
    } else if sep == Some(b' ') && is_secret_key(name) {
        secret_value(bytes, value, out);
    }
}

fn credential_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

/// A credential rather than a word: a digit, `=`, `+` or `/`, or a capital
/// letter past the first.
fn credential_shaped(word: &[u8]) -> bool {
    word.iter()
        .any(|b| b.is_ascii_digit() || matches!(b, b'=' | b'+' | b'/'))
        || word.iter().skip(1).any(u8::is_ascii_uppercase)
}

/// `Authorization: <scheme> <credential>` or `Authorization: <credential>`, also
/// as `"Authorization": "…"` and `authorization=…`: the credential.
pub(super) fn authorization_headers(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for finder in [&AUTHORIZATION, &AUTHORIZATION_UPPER] {
        for i in finder.find_iter(bytes) {
            let mut at = i + finder.needle().len();
            if matches!(byte_at(bytes, at), Some(b'"' | b'\'')) {
                at += 1;
            }
            at += run_len(bytes, at, |b| b == b' ' || b == b'\t');
            if !matches!(byte_at(bytes, at), Some(b':' | b'=')) {
                continue;
            }
            let first = value_at(bytes, at + 1, true);
            let word = bytes.get(first.clone()).unwrap_or_default();
            let scheme = !word.is_empty()
                && word.len() <= 20
                && word.iter().all(|b| b.is_ascii_alphabetic() || *b == b'-')
                && byte_at(bytes, first.end) == Some(b' ');
            let (credential, min) = if scheme {
                let start = first.end + run_len(bytes, first.end, |b| b == b' ');
                (start..start + run_len(bytes, start, credential_char), 8)
            } else {
                (
                    first.start..first.start + run_len(bytes, first.start, credential_char),
                    16,
                )
            };
            let text = bytes.get(credential.clone()).unwrap_or_default();
            if text.len() >= min && credential_shaped(text) {
                out.push(credential);
            }
        }
    }
}
