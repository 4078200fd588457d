//! Token shapes recognised by their own form, wherever they appear: AWS key ids,
//! JSON Web Tokens, `Bearer`/`Basic` credentials, PEM private-key blocks and
//! passwords inside URLs (vendor prefixes are in `prefixes`).

use std::ops::Range;

use super::{find, is_word, run_len, starts_with_at, starts_with_ci};

/// Right after a letter, digit, `_` or `-`: not the start of a word.
fn mid_word(bytes: &[u8], i: usize) -> bool {
    i.checked_sub(1)
        .and_then(|at| bytes.get(at))
        .is_some_and(|&b| is_word(b) || b == b'-')
}

/// Right after a letter or digit.
fn after_alnum(bytes: &[u8], i: usize) -> bool {
    i.checked_sub(1)
        .and_then(|at| bytes.get(at))
        .is_some_and(u8::is_ascii_alphanumeric)
}

/// AWS key ids (`AKIA`, `ASIA`, `ABIA`, `ACCA`, or `A3T` and a letter or
/// digit, then 16 upper-case letters or digits, and no word character after),
/// whatever precedes them (`KEYAKIA…`).
pub(super) fn aws_key_ids(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for i in memchr::memchr_iter(b'A', bytes) {
        let prefixed = [b"AKIA", b"ASIA", b"ABIA", b"ACCA"]
            .iter()
            .any(|p| starts_with_at(bytes, i, *p))
            || (starts_with_at(bytes, i, b"A3T")
                && bytes
                    .get(i + 3)
                    .is_some_and(|b| b.is_ascii_uppercase() || b.is_ascii_digit()));
        if !prefixed {
            continue;
        }
        let len = run_len(bytes, i + 4, |b| {
            b.is_ascii_uppercase() || b.is_ascii_digit()
        });
        if len == 16 && bytes.get(i + 20).is_none_or(|&b| !is_word(b)) {
            out.push(i..i + 20);
        }
    }
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// A JSON Web Token: `eyJ…` header, `.`, a payload, and an optional `.signature`.
pub(super) fn json_web_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut from = 0;
    while let Some(i) = find(bytes, from, b"eyJ") {
        from = i + 3;
        if after_alnum(bytes, i) {
            continue;
        }
        let header = run_len(bytes, i, base64url);
        if header < 10 || bytes.get(i + header) != Some(&b'.') {
            continue;
        }
        let payload_at = i + header + 1;
        let payload = run_len(bytes, payload_at, base64url);
        if payload < 10 {
            continue;
        }
        let mut end = payload_at + payload;
        if bytes.get(end) == Some(&b'.') {
            end += 1 + run_len(bytes, end + 1, |b| base64url(b) || b == b'=');
        }
        out.push(i..end);
        from = end;
    }
}

fn credential_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

/// `Bearer <token>` / `Basic <credentials>` (any case), the credential at least
/// 16 (Bearer) or 8 (Basic) characters: the credential.
pub(super) fn authorization_credentials(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for (scheme, min) in [(&b"bearer"[..], 16), (&b"basic"[..], 8)] {
        // Only where the scheme's first letter (either case) stands; past a
        // credential taken, the search goes on after it.
        let mut resume = 0;
        for i in memchr::memchr2_iter(b'b', b'B', bytes) {
            if i < resume {
                continue;
            }
            if starts_with_ci(bytes, i, scheme) && !mid_word(bytes, i) {
                let after = i + scheme.len();
                let spaces = run_len(bytes, after, |b| b == b' ' || b == b'\t');
                let start = after + spaces;
                let len = run_len(bytes, start, credential_char);
                let word = bytes.get(start..start + len).unwrap_or_default();
                // "Basic authentication" is prose: a credential holds a digit,
                // `=`, `+` or `/`, or mixes cases.
                let shaped = scheme == b"bearer"
                    || word
                        .iter()
                        .any(|b| b.is_ascii_digit() || matches!(b, b'=' | b'+' | b'/'));
                if spaces > 0 && len >= min && shaped {
                    out.push(start..start + len);
                    resume = start + len;
                }
            }
        }
    }
}

/// `-----BEGIN … PRIVATE KEY-----` through the matching END line (or the end of text).
pub(super) fn private_key_blocks(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut i = 0;
    while let Some(offset) = find(bytes, i, b"-----BEGIN ") {
        let start = offset;
        let header_end = find(bytes, start + 11, b"-----").unwrap_or(bytes.len());
        let header = bytes.get(start + 11..header_end).unwrap_or_default();
        let is_private = find(header, 0, b"PRIVATE KEY").is_some() && !header.contains(&b'\n');
        if !is_private {
            i = start + 11;
            continue;
        }
        let end = match find(bytes, header_end, b"-----END ") {
            Some(end_at) => find(bytes, end_at + 9, b"-----").map_or(bytes.len(), |e| e + 5),
            None => bytes.len(),
        };
        out.push(start..end);
        i = end;
    }
}

fn userinfo_char(b: u8) -> bool {
    !b.is_ascii_whitespace()
        && !b.is_ascii_control()
        && !matches!(
            b,
            b'/' | b'?' | b'#' | b'@' | b'"' | b'\'' | b'<' | b'>' | b'`'
        )
}

/// `scheme://user:password@host`: the password.
pub(super) fn url_passwords(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut from = 0;
    while let Some(i) = find(bytes, from, b"://") {
        from = i + 3;
        let scheme = i - bytes
            .get(..i)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
            .count();
        if scheme == i {
            continue;
        }
        let user_at = i + 3;
        let len = run_len(bytes, user_at, userinfo_char);
        if bytes.get(user_at + len) != Some(&b'@') {
            continue;
        }
        let userinfo = bytes.get(user_at..user_at + len).unwrap_or_default();
        let Some(colon) = userinfo.iter().position(|&b| b == b':') else {
            continue;
        };
        let password = userinfo.get(colon + 1..).unwrap_or_default();
        if !password.is_empty() && !super::is_placeholder(password) {
            out.push(user_at + colon + 1..user_at + len);
        }
        from = user_at + len;
    }
}
