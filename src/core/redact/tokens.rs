//! Token shapes recognised by their own form, wherever they appear: vendor
//! prefixes (after gitleaks' published rules), AWS key ids, JSON Web Tokens,
//! `Bearer`/`Basic` credentials, PEM private-key blocks and passwords inside URLs.

use std::ops::Range;

use super::{find, is_word, run_len, starts_with_at, starts_with_ci};

/// The characters a token's body may hold.
#[derive(Clone, Copy)]
enum Body {
    /// Letters, digits, `_` and `-`.
    Token,
    /// Letters and digits only.
    Alnum,
    /// Lower-case letters and digits (npm).
    LowerAlnum,
    /// Hexadecimal digits.
    Hex,
    /// Letters, digits, `_`, `-`, `.` and `=` (SendGrid, Vault).
    Dotted,
}

impl Body {
    fn accepts(self, b: u8) -> bool {
        match self {
            Body::Token => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Body::Alnum => b.is_ascii_alphanumeric(),
            Body::LowerAlnum => b.is_ascii_lowercase() || b.is_ascii_digit(),
            Body::Hex => b.is_ascii_hexdigit(),
            Body::Dotted => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'='),
        }
    }
}

/// Where a prefix may start.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// Not right after a letter, digit, `_` or `-` (short, common prefixes).
    Word,
    /// Anywhere but right after a letter or digit: `-sk-ant-…`, `KEY_ghp_…`.
    Loose,
}

struct Prefix {
    prefix: &'static [u8],
    body: Body,
    min: usize,
    /// The body must hold a digit (prose like `sk-learn-models-for-everything`).
    digit: bool,
    start: Start,
}

const fn p(prefix: &'static [u8], body: Body, min: usize, digit: bool, start: Start) -> Prefix {
    Prefix {
        prefix,
        body,
        min,
        digit,
        start,
    }
}

use Body::{Alnum, Dotted, Hex, LowerAlnum, Token};
use Start::{Loose, Word};

/// Longest prefixes first where one starts another (`sk-ant-` before `sk-`).
const PREFIXES: &[Prefix] = &[
    p(b"sk-ant-", Token, 20, false, Loose),     // Anthropic
    p(b"github_pat_", Token, 20, false, Loose), // GitHub fine-grained
    p(b"ghp_", Alnum, 20, false, Loose),        // GitHub personal
    p(b"gho_", Alnum, 20, false, Loose),        // GitHub OAuth
    p(b"ghu_", Alnum, 20, false, Loose),        // GitHub user-to-server
    p(b"ghs_", Alnum, 20, false, Loose),        // GitHub server-to-server
    p(b"ghr_", Alnum, 20, false, Loose),        // GitHub refresh
    p(b"glpat-", Token, 20, false, Loose),      // GitLab personal
    p(b"gldt-", Token, 20, false, Loose),       // GitLab deploy
    p(b"glrt-", Token, 20, false, Loose),       // GitLab runner
    p(b"glptt-", Token, 20, false, Loose),      // GitLab pipeline trigger
    p(b"glsoat-", Token, 20, false, Loose),     // GitLab SCIM
    p(b"glcbt-", Token, 20, false, Loose),      // GitLab CI build
    p(b"glft-", Token, 20, false, Loose),       // GitLab feed
    p(b"glimt-", Token, 20, false, Loose),      // GitLab incoming mail
    p(b"GR1348941", Token, 20, false, Loose),   // GitLab runner registration
    p(b"xoxb-", Token, 10, false, Loose),       // Slack bot
    p(b"xoxp-", Token, 10, false, Loose),       // Slack user
    p(b"xoxa-", Token, 10, false, Loose),       // Slack app
    p(b"xoxr-", Token, 10, false, Loose),       // Slack refresh
    p(b"xoxs-", Token, 10, false, Loose),       // Slack session
    p(b"xoxe-", Token, 10, false, Loose),       // Slack config
    p(b"xapp-", Token, 10, false, Loose),       // Slack app-level
    p(b"sk_live_", Alnum, 10, false, Loose),    // Stripe
    p(b"sk_test_", Alnum, 10, false, Loose),
    p(b"sk_prod_", Alnum, 10, false, Loose),
    p(b"rk_live_", Alnum, 10, false, Loose),
    p(b"rk_test_", Alnum, 10, false, Loose),
    p(b"rk_prod_", Alnum, 10, false, Loose),
    p(b"whsec_", Alnum, 20, false, Loose), // Stripe webhook
    p(b"AIza", Token, 35, false, Loose),   // Google API
    p(b"npm_", LowerAlnum, 36, false, Loose),
    p(b"pypi-AgEIcHlwaS5vcmc", Token, 50, false, Loose),
    p(b"dckr_pat_", Token, 20, false, Loose), // Docker Hub
    p(b"hf_", Alnum, 30, false, Word),        // Hugging Face
    p(b"shpat_", Hex, 32, false, Loose),      // Shopify
    p(b"shpss_", Hex, 32, false, Loose),
    p(b"shpca_", Hex, 32, false, Loose),
    p(b"shppa_", Hex, 32, false, Loose),
    p(b"dop_v1_", Hex, 64, false, Loose), // DigitalOcean
    p(b"doo_v1_", Hex, 64, false, Loose),
    p(b"dor_v1_", Hex, 64, false, Loose),
    p(b"lin_api_", Alnum, 40, false, Loose), // Linear
    p(b"PMAK-", Token, 30, false, Loose),    // Postman
    p(b"NRAK-", Alnum, 27, false, Loose),    // New Relic
    p(b"glc_", Dotted, 32, false, Loose),    // Grafana cloud
    p(b"glsa_", Token, 32, false, Loose),    // Grafana service account
    p(b"hvs.", Token, 24, false, Loose),     // HashiCorp Vault
    p(b"SG.", Dotted, 60, false, Word),      // SendGrid
    p(b"AGE-SECRET-KEY-1", Alnum, 50, false, Loose),
    // Plain `sk-` last: `sk-ant-` above wins on the same start. Prose like
    // `sk-learn` or `task-list` is short or has no digit.
    p(b"sk-", Token, 20, true, Word),
];

/// Whether some prefix starts with this byte: most bytes are skipped at once
/// (`every_prefix_starts_with_a_listed_byte` keeps it in step with the table).
fn may_start(b: u8) -> bool {
    matches!(
        b,
        b's' | b'g'
            | b'G'
            | b'x'
            | b'r'
            | b'w'
            | b'A'
            | b'n'
            | b'p'
            | b'd'
            | b'h'
            | b'l'
            | b'P'
            | b'N'
            | b'S'
    )
}

fn preceded_by(bytes: &[u8], i: usize, start: Start) -> bool {
    let Some(&before) = i.checked_sub(1).and_then(|at| bytes.get(at)) else {
        return false;
    };
    match start {
        Start::Word => is_word(before) || before == b'-',
        Start::Loose => before.is_ascii_alphanumeric(),
    }
}

fn prefixed_at(bytes: &[u8], i: usize) -> Option<usize> {
    let first = bytes.get(i).copied()?;
    PREFIXES.iter().find_map(|p| {
        // The first byte before the whole comparison: most candidates share it
        // with one or two prefixes of the table's fifty.
        if p.prefix.first() != Some(&first)
            || !starts_with_at(bytes, i, p.prefix)
            || preceded_by(bytes, i, p.start)
        {
            return None;
        }
        let body_start = i + p.prefix.len();
        let len = run_len(bytes, body_start, |b| p.body.accepts(b));
        let body = bytes.get(body_start..body_start + len)?;
        let digit_ok = !p.digit || body.iter().any(u8::is_ascii_digit);
        (len >= p.min && digit_ok).then_some(body_start + len)
    })
}

pub(super) fn prefixed_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut i = 0;
    while i < bytes.len() {
        let first = bytes.get(i).copied().unwrap_or_default();
        // No prefix starts right after a letter or digit (`preceded_by`): most
        // letters of prose are skipped here without looking at the table.
        let mid_word = i
            .checked_sub(1)
            .and_then(|at| bytes.get(at))
            .is_some_and(u8::is_ascii_alphanumeric);
        let candidate = !mid_word && may_start(first);
        match candidate.then(|| prefixed_at(bytes, i)).flatten() {
            Some(end) => {
                out.push(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
}

/// AWS key ids (`AKIA`, `ASIA`, `ABIA`, `ACCA` and 16 upper-case letters or
/// digits), as a whole word.
pub(super) fn aws_key_ids(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for i in memchr::memchr_iter(b'A', bytes) {
        let prefixed = [b"AKIA", b"ASIA", b"ABIA", b"ACCA"]
            .iter()
            .any(|p| starts_with_at(bytes, i, *p));
        if !prefixed || preceded_by(bytes, i, Start::Word) {
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
        if preceded_by(bytes, i, Start::Loose) {
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
            if starts_with_ci(bytes, i, scheme) && !preceded_by(bytes, i, Start::Word) {
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

#[cfg(test)]
mod tests {
    #[test]
    fn every_prefix_starts_with_a_listed_byte() {
        for p in super::PREFIXES {
            let first = p.prefix.first().copied().unwrap_or_default();
            assert!(
                super::may_start(first),
                "{:?}",
                String::from_utf8_lossy(p.prefix)
            );
        }
    }
}
