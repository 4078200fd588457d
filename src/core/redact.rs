//! Redaction of secrets in text copied into files resume-tui writes (checkpoints,
//! precompact state, logs). Pure and dependency-free: each detector scans the bytes
//! for one shape and reports byte ranges; ranges are merged and replaced.
//!
//! Shapes: Anthropic/OpenAI keys (`sk-ant-…`, `sk-…`), AWS access key ids
//! (`AKIA…`/`ASIA…`), GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`,
//! `github_pat_`), Slack tokens (`xoxb-`, `xoxp-`, …), bearer tokens, PEM private-key
//! blocks, and `password=` / `secret:` / `token=`-style pairs.

use std::borrow::Cow;
use std::ops::Range;

/// What a redacted value is replaced with.
pub const MARK: &str = "[REDACTED]";

/// `text` with every secret replaced by [`MARK`]; borrowed when nothing matched.
pub fn redact(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut ranges = Vec::new();
    private_key_blocks(bytes, &mut ranges);
    prefixed_tokens(bytes, &mut ranges);
    aws_key_ids(bytes, &mut ranges);
    bearer_tokens(bytes, &mut ranges);
    key_value_pairs(bytes, &mut ranges);
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(replace(text, ranges))
}

/// `redact` for an owned string.
pub fn redact_owned(text: String) -> String {
    match redact(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(out) => out,
    }
}

fn replace(text: &str, mut ranges: Vec<Range<usize>>) -> String {
    ranges.sort_by_key(|r| (r.start, std::cmp::Reverse(r.end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for range in ranges {
        if range.end <= at {
            continue;
        }
        let start = range.start.max(at);
        // Every range starts and ends next to an ASCII byte (or at the ends of the
        // text), so these are character boundaries; `get` keeps that a non-panic.
        out.push_str(text.get(at..start).unwrap_or_default());
        out.push_str(MARK);
        at = range.end;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    out
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn at_word_start(bytes: &[u8], i: usize) -> bool {
    i == 0 || bytes.get(i - 1).is_none_or(|&b| !is_word(b) && b != b'-')
}

/// Length of the run starting at `i` of bytes accepted by `ok`.
fn run_len(bytes: &[u8], i: usize, ok: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(i..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| ok(b)).count())
}

fn starts_with_at(bytes: &[u8], i: usize, pat: &[u8]) -> bool {
    bytes.get(i..i + pat.len()) == Some(pat)
}

fn starts_with_ci(bytes: &[u8], i: usize, pat: &[u8]) -> bool {
    bytes
        .get(i..i + pat.len())
        .is_some_and(|s| s.eq_ignore_ascii_case(pat))
}

fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// (prefix, minimum body length, body character class must include a digit)
const PREFIXES: &[(&[u8], usize, bool)] = &[
    (b"sk-ant-", 20, false),
    (b"github_pat_", 20, false),
    (b"ghp_", 20, false),
    (b"gho_", 20, false),
    (b"ghu_", 20, false),
    (b"ghs_", 20, false),
    (b"ghr_", 20, false),
    (b"xoxb-", 10, false),
    (b"xoxp-", 10, false),
    (b"xoxa-", 10, false),
    (b"xoxr-", 10, false),
    (b"xoxs-", 10, false),
    // Plain `sk-` last: `sk-ant-` above wins on the same start. Prose like
    // `sk-learn` or `task-list` is short or has no digit.
    (b"sk-", 20, true),
];

fn prefixed_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut i = 0;
    while i < bytes.len() {
        if !at_word_start(bytes, i) {
            i += 1;
            continue;
        }
        let hit = PREFIXES.iter().find_map(|(prefix, min, needs_digit)| {
            if !starts_with_at(bytes, i, prefix) {
                return None;
            }
            let body_start = i + prefix.len();
            let len = run_len(bytes, body_start, token_char);
            let body = bytes.get(body_start..body_start + len)?;
            let digit_ok = !needs_digit || body.iter().any(u8::is_ascii_digit);
            (len >= *min && digit_ok).then_some(body_start + len)
        });
        match hit {
            Some(end) => {
                out.push(i..end);
                i = end;
            }
            None => i += 1,
        }
    }
}

/// `AKIA` / `ASIA` followed by 16 upper-case letters or digits, as a whole word.
fn aws_key_ids(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut i = 0;
    while i + 20 <= bytes.len() {
        let prefixed = starts_with_at(bytes, i, b"AKIA") || starts_with_at(bytes, i, b"ASIA");
        if prefixed && at_word_start(bytes, i) {
            let len = run_len(bytes, i + 4, |b| {
                b.is_ascii_uppercase() || b.is_ascii_digit()
            });
            let ends_word = bytes.get(i + 4 + len).is_none_or(|&b| !is_word(b));
            if len == 16 && ends_word {
                out.push(i..i + 20);
                i += 20;
                continue;
            }
        }
        i += 1;
    }
}

fn bearer_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

/// `Bearer <token>` (any case) where the token is at least 16 characters: the token.
fn bearer_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut i = 0;
    while i < bytes.len() {
        if starts_with_ci(bytes, i, b"bearer") && at_word_start(bytes, i) {
            let spaces = run_len(bytes, i + 6, |b| b == b' ' || b == b'\t');
            let start = i + 6 + spaces;
            let len = run_len(bytes, start, bearer_char);
            if spaces > 0 && len >= 16 {
                out.push(start..start + len);
                i = start + len;
                continue;
            }
        }
        i += 1;
    }
}

/// `-----BEGIN … PRIVATE KEY-----` through the matching END line (or the end of text).
fn private_key_blocks(bytes: &[u8], out: &mut Vec<Range<usize>>) {
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

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let rest = haystack.get(from..)?;
    rest.windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Key names whose value is a secret, matched on the key's last `_`/`-`/`.`
/// separated part (`DB_PASSWORD`, `client-secret`, `GITHUB_TOKEN`).
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "apikey",
    "passphrase",
    "credential",
    "credentials",
];
/// Two-part key endings (`api_key`, `AWS_SECRET_ACCESS_KEY`, `private-key`).
const SECRET_KEY_QUALIFIERS: &[&str] = &["api", "access", "secret", "private", "auth", "signing"];

/// Values that are placeholders, not secrets.
const NOT_SECRETS: &[&str] = &[
    "null", "none", "nil", "true", "false", "yes", "no", "empty", "unset", "required", "optional",
    "redacted", MARK,
];

fn is_secret_key(key: &[u8]) -> bool {
    let key = String::from_utf8_lossy(key).to_ascii_lowercase();
    let mut parts = key.rsplit(['_', '-', '.']);
    let last = parts.next().unwrap_or_default();
    if SECRET_WORDS.contains(&last) {
        return true;
    }
    last == "key"
        && parts
            .next()
            .is_some_and(|q| SECRET_KEY_QUALIFIERS.contains(&q))
}

/// `key=value`, `key: value`, `"key": "value"` where the key names a secret: the value.
fn key_value_pairs(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    // Linear time on any text: separators inside a value already taken are skipped,
    // and value runs are measured once (`token=token=…` was quadratic).
    let mut taken_until = 0;
    let mut runs = Runs::default();
    for (sep_at, &sep) in bytes.iter().enumerate() {
        if sep != b'=' && sep != b':' || sep_at < taken_until {
            continue;
        }
        // The key: word characters (and - .) right before the separator, after an
        // optional closing quote.
        let mut key_end = sep_at;
        if key_end > 0 && matches!(bytes.get(key_end - 1), Some(b'"' | b'\'')) {
            key_end -= 1;
        }
        let key_start = bytes.get(..key_end).map_or(key_end, |before| {
            key_end
                - before
                    .iter()
                    .rev()
                    .take_while(|&&b| is_word(b) || b == b'-' || b == b'.')
                    .count()
        });
        let key = bytes.get(key_start..key_end).unwrap_or_default();
        if key.is_empty() || !is_secret_key(key) {
            continue;
        }
        if let Some(range) = pair_value(bytes, sep_at, sep, &mut runs) {
            taken_until = range.end;
            out.push(range);
        }
    }
}

/// The last run measured for each kind of value, `(from, end)`: every byte in
/// `from..end` is in the run's class and the byte at `end` is not, so a run
/// starting anywhere inside it ends at `end` too.
#[derive(Default)]
struct Runs {
    plain: (usize, usize),
    double: (usize, usize),
    single: (usize, usize),
}

fn run_end(
    bytes: &[u8],
    start: usize,
    last: &mut (usize, usize),
    ok: impl Fn(u8) -> bool,
) -> usize {
    if last.0 <= start && start < last.1 {
        return last.1;
    }
    let end = start + run_len(bytes, start, ok);
    *last = (start, end);
    end
}

/// The value after a separator, if it looks like a secret.
fn pair_value(bytes: &[u8], sep_at: usize, sep: u8, runs: &mut Runs) -> Option<Range<usize>> {
    // `==`, `=>`, `::` are operators, not assignments.
    if matches!(bytes.get(sep_at + 1), Some(b'=' | b'>' | b':')) {
        return None;
    }
    let spaces = run_len(bytes, sep_at + 1, |b| b == b' ' || b == b'\t');
    let mut start = sep_at + 1 + spaces;
    let quote = bytes
        .get(start)
        .copied()
        .filter(|&b| b == b'"' || b == b'\'');
    if quote.is_some() {
        start += 1;
    }
    if starts_with_at(bytes, start, MARK.as_bytes()) {
        return None;
    }
    let end = match quote {
        Some(b'"') => run_end(bytes, start, &mut runs.double, |b| b != b'"' && b != b'\n'),
        Some(_) => run_end(bytes, start, &mut runs.single, |b| b != b'\'' && b != b'\n'),
        None => run_end(bytes, start, &mut runs.plain, |b| {
            !b.is_ascii_whitespace()
                && !matches!(b, b',' | b';' | b'&' | b'"' | b'\'' | b'}' | b')' | b']')
        }),
    };
    let len = end - start;
    let value = bytes.get(start..end)?;
    // Placeholder words are short: only those are compared whole.
    let placeholder = (len <= 16
        && NOT_SECRETS
            .iter()
            .any(|p| value.eq_ignore_ascii_case(p.as_bytes())))
        || value.starts_with(b"${")
        || value.starts_with(b"<")
        || value
            .iter()
            .all(|&b| b == b'*' || b.eq_ignore_ascii_case(&b'x'));
    // Prose like "the token: it expires" has short, plain words after a colon;
    // config-style `=` assignments are taken at any length.
    let looks_secret = sep == b'='
        || len >= 8
        || value
            .iter()
            .any(|b| b.is_ascii_digit() || b.is_ascii_punctuation());
    (len > 0 && !placeholder && looks_secret).then_some(start..start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRETS: &[(&str, &str)] = &[
        (
            "key sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh end",
            "key [REDACTED] end",
        ),
        (
            "OPENAI sk-proj-1234567890abcdefghijKLMN done",
            "OPENAI [REDACTED] done",
        ),
        ("sk-1234567890abcdefghij1234", "[REDACTED]"),
        ("aws AKIAIOSFODNN7EXAMPLE here", "aws [REDACTED] here"),
        ("ASIAY34FZKBOKMUTVV7A", "[REDACTED]"),
        (
            "token ghp_16C7e42F292c6912E7710c838347Ae178B4a in url",
            "token [REDACTED] in url",
        ),
        ("gho_16C7e42F292c6912E7710c838347Ae178B4a", "[REDACTED]"),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            "[REDACTED]",
        ),
        (
            "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl",
            "slack [REDACTED]",
        ),
        ("xoxp-1234567890-abcdefABCDEF", "[REDACTED]"),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig_value",
            "Authorization: Bearer [REDACTED]",
        ),
        (
            "curl -H 'authorization: bearer abcdefghijklmnop1234'",
            "curl -H 'authorization: bearer [REDACTED]'",
        ),
        ("password=hunter2", "password=[REDACTED]"),
        ("DB_PASSWORD=correct horse", "DB_PASSWORD=[REDACTED] horse"),
        ("secret: s3cr3t-value", "secret: [REDACTED]"),
        (
            "client_secret: 'abcdefghijkl'",
            "client_secret: '[REDACTED]'",
        ),
        ("GITHUB_TOKEN=abc", "GITHUB_TOKEN=[REDACTED]"),
        (
            "{\"api_key\": \"k-123456\"}",
            "{\"api_key\": \"[REDACTED]\"}",
        ),
        (
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AWS_SECRET_ACCESS_KEY=[REDACTED]",
        ),
        ("url?token=abcdef&x=1", "url?token=[REDACTED]&x=1"),
        ("passwd:longenoughvalue", "passwd:[REDACTED]"),
        (
            "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nIBAAK\n-----END RSA PRIVATE KEY-----\nb",
            "a\n[REDACTED]\nb",
        ),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut)",
            "[REDACTED]",
        ),
    ];

    const NEAR_MISSES: &[&str] = &[
        "use sk-learn for models",
        "the task-list-of-things",
        "disk-1234567890abcdefghijklmnop is a disk id",
        "risk-free plan",
        "AKIA is a prefix",
        "AKIAIOSFODNN7EXAMPLEX is too long",
        "akiaiosfodnn7example lower case",
        "ghp_short",
        "xoxb-1",
        "the bearer of bad news",
        "Bearer token expired",
        "token budget: 500",
        "max_tokens: 4096",
        "tokens_used=177200",
        "estimated_tokens_used: 177200",
        "token_count: 12",
        "password: null",
        "secret: true",
        "The token: it expires",
        "password: <your password>",
        "TOKEN=${GITHUB_TOKEN}",
        "passwords are hashed",
        "the secret sauce",
        "if token == other",
        "primary_key: id",
        "sort_key=name",
        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
        "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
        "QG-1: 0.941, QG-2: 0.9505",
        "Align copyright holder to 'Adam Nowak' across NOTICE",
        "Ünïcödé sk-ßß secret-ish text — fine",
    ];

    #[test]
    fn secret_shapes_are_redacted() {
        for (input, expected) in SECRETS {
            assert_eq!(redact(input), *expected, "input: {input:?}");
        }
    }

    #[test]
    fn near_misses_stay_as_written() {
        for input in NEAR_MISSES {
            assert!(
                matches!(redact(input), Cow::Borrowed(_)),
                "changed: {input:?} -> {:?}",
                redact(input)
            );
        }
    }

    #[test]
    fn several_secrets_in_one_text_and_idempotence() {
        let text = "a sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAA b password=pw c AKIAIOSFODNN7EXAMPLE";
        let once = redact(text).into_owned();
        assert_eq!(once, "a [REDACTED] b password=[REDACTED] c [REDACTED]");
        assert_eq!(
            redact(&once),
            once.as_str(),
            "redacting twice changes nothing"
        );
    }

    /// Text of repeated assignments took minutes (every separator re-read the rest
    /// of the text): 200,000 repetitions now take milliseconds.
    #[test]
    fn repeated_assignments_are_read_once() {
        for unit in ["token=", "password:", "secret=${", "api_key='", "pwd=\"<"] {
            let text = unit.repeat(200_000);
            let out = redact(&text);
            assert!(out.contains(MARK) || unit.contains(['$', '<']), "{unit}");
        }
        assert_eq!(redact("token=token=abc"), "token=[REDACTED]");
        assert_eq!(
            redact("a token=${X} b secret=s3cr3t"),
            "a token=${X} b secret=[REDACTED]"
        );
    }

    #[test]
    fn never_panics_on_multibyte_text() {
        let samples = [
            "é=ü",
            "пароль password=ключ",
            "token:é",
            "\u{1F600}sk-",
            "Bearer\u{00A0}x",
        ];
        for s in samples {
            let _ = redact(s);
        }
        assert_eq!(redact("password=ключ"), "password=[REDACTED]");
    }
}
