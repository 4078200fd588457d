//! Redaction of secrets in every text resume-tui copies out of files (checkpoints,
//! precompact state, the hook log, injections, the prompt and the clipboard).
//! Pure and dependency-free but for `memchr`: each detector scans the bytes for one
//! shape and reports byte ranges; ranges are merged and replaced.
//!
//! Shapes: the token families secret scanners such as gitleaks recognise by their
//! form (`prefixes`: about a hundred vendor prefixes — LLM APIs, VCS hosts, CI,
//! chat, payment, cloud, package registries, observability; `tokens`: AWS key
//! ids, JSON Web Tokens, `Bearer`/`Basic` credentials, PEM private-key blocks,
//! passwords in URLs; `webhooks`: Slack, Discord and Teams webhook URLs;
//! `shapes`: Azure AD client secrets, Terraform Cloud tokens, and Telegram and
//! Mailgun tokens after their keyword), credentials on command lines and in
//! `Authorization` headers (`commands`), and `password=` / `PGPASSWORD=` /
//! `DB_PASS=` / `aws_secret_access_key = ` / `"token": "…"` pairs.

use std::borrow::Cow;
use std::ops::Range;

mod commands;
mod joined;
mod prefixes;
mod shapes;
mod tokens;
mod webhooks;

pub use joined::redact_beneath_controls;

/// What a redacted value is replaced with.
pub const MARK: &str = "[REDACTED]";

/// `text` with every secret replaced by [`MARK`]; borrowed when nothing matched.
pub fn redact(text: &str) -> Cow<'_, str> {
    let ranges = secret_ranges(text.as_bytes());
    if ranges.is_empty() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(replace(text, ranges))
}

/// The byte ranges of every secret in `bytes`, unsorted, possibly overlapping.
fn secret_ranges(bytes: &[u8]) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    tokens::private_key_blocks(bytes, &mut ranges);
    prefixes::prefixed_tokens(bytes, &mut ranges);
    tokens::aws_key_ids(bytes, &mut ranges);
    tokens::json_web_tokens(bytes, &mut ranges);
    tokens::authorization_credentials(bytes, &mut ranges);
    tokens::url_passwords(bytes, &mut ranges);
    webhooks::webhook_urls(bytes, &mut ranges);
    shapes::azure_client_secrets(bytes, &mut ranges);
    shapes::terraform_tokens(bytes, &mut ranges);
    shapes::telegram_bot_tokens(bytes, &mut ranges);
    shapes::mailgun_keys(bytes, &mut ranges);
    commands::command_line_credentials(bytes, &mut ranges);
    commands::authorization_headers(bytes, &mut ranges);
    key_value_pairs(bytes, &mut ranges);
    ranges
}

/// What every text copied out of a file goes through, in this order: control,
/// bidirectional and invisible characters removed (`core::text::strip_controls`:
/// a token split by a BEL or a zero-width space is whole again), then secrets
/// redacted. Hook output, checkpoints, the prompt, the clipboard and the status
/// line all clean through here.
pub fn scrub(text: &str) -> Cow<'_, str> {
    match crate::core::text::strip_controls_cow(text) {
        Cow::Borrowed(visible) => redact(visible),
        Cow::Owned(visible) => Cow::Owned(redact_owned(visible)),
    }
}

/// `scrub` for an owned string.
pub fn scrub_owned(text: String) -> String {
    match scrub(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(out) => out,
    }
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

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    let rest = haystack.get(from..)?;
    memchr::memmem::find(rest, needle).map(|p| p + from)
}

/// Key names whose value is a secret, matched on the end of the key's last
/// `_`/`-`/`.` separated part (`DB_PASSWORD`, `PGPASSWORD`, `client-secret`,
/// `GITHUB_TOKEN`, `accessToken`).
const SECRET_ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "apikey",
    "passphrase",
    "accesskey",
    "secretkey",
    "privatekey",
    "accountkey",
    "credential",
    "credentials",
];
/// Key names whose last part is exactly a secret's name (`DB_PASS`, `SMTP_PW`).
const SECRET_WORDS: &[&str] = &["pwd", "pass", "pw"];
/// Whole key endings of more parts (Rails' `SECRET_KEY_BASE`, the signature of
/// an AWS presigned URL).
const SECRET_KEY_ENDINGS: &[&str] = &["secret_key_base", "secret-key-base", "amz-signature"];
/// Two-part key endings (`api_key`, `AWS_SECRET_ACCESS_KEY`, `private-key`,
/// `ENCRYPTION_KEY`, `MASTER_KEY`, Laravel's `APP_KEY`).
const SECRET_KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "auth",
    "signing",
    "encryption",
    "master",
    "app",
];
/// Query parameters that are secrets only as query parameters (after `?` or
/// `&`): the signature of an Azure shared access signature (`&sig=`).
const SECRET_QUERY_KEYS: &[&str] = &["sig"];

/// Values that are placeholders, not secrets.
const NOT_SECRETS: &[&str] = &[
    "null", "none", "nil", "true", "false", "yes", "no", "empty", "unset", "required", "optional",
    "redacted", MARK,
];

fn is_secret_key(key: &[u8]) -> bool {
    let key = String::from_utf8_lossy(key).to_ascii_lowercase();
    let mut parts = key.rsplit(['_', '-', '.']);
    let last = parts.next().unwrap_or_default();
    if SECRET_WORDS.contains(&last)
        || SECRET_ENDINGS.iter().any(|e| last.ends_with(e))
        || SECRET_KEY_ENDINGS.iter().any(|e| key.ends_with(e))
    {
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
    for sep_at in memchr::memchr2_iter(b'=', b':', bytes) {
        let Some(&sep) = bytes.get(sep_at) else {
            continue;
        };
        if sep_at < taken_until {
            continue;
        }
        // The key: word characters (and - .) right before the separator, after an
        // optional closing quote.
        // `key = value` as well as `key=value`.
        let mut key_end = sep_at
            - bytes
                .get(..sep_at)
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
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
        let query = key_start
            .checked_sub(1)
            .and_then(|at| bytes.get(at))
            .is_some_and(|&b| b == b'?' || b == b'&');
        let query_key = query
            && sep == b'='
            && SECRET_QUERY_KEYS
                .iter()
                .any(|k| key.eq_ignore_ascii_case(k.as_bytes()));
        if key.is_empty() || !(query_key || is_secret_key(key)) {
            continue;
        }
        let kind = if query {
            ValueKind::Query
        } else if key.to_ascii_lowercase().ends_with(b"passphrase") {
            ValueKind::Line
        } else {
            ValueKind::Plain
        };
        if let Some(range) = pair_value(bytes, sep_at, sep, kind, &mut runs) {
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
    query: (usize, usize),
    line: (usize, usize),
    double: (usize, usize),
    single: (usize, usize),
}

/// Where an unquoted value ends, by what its key is.
#[derive(Clone, Copy)]
enum ValueKind {
    /// At whitespace, or at a closing quote (a quote before whitespace, the end
    /// or closing punctuation): `DB_PASSWORD=alpha7,bravo9;charlie` is one value.
    Plain,
    /// A URL's query parameter (`?token=…&x=1`): also at `&` and `#`.
    Query,
    /// A passphrase: to the end of the line (`passphrase: correct horse battery`).
    Line,
}

/// The end of the run from `start` of positions accepted by `ok` (which looks
/// at a position and its neighbours only), reusing the last run measured.
fn run_end(
    bytes: &[u8],
    start: usize,
    last: &mut (usize, usize),
    ok: impl Fn(usize) -> bool,
) -> usize {
    if last.0 <= start && start < last.1 {
        return last.1;
    }
    let end = (start..bytes.len())
        .find(|&at| !ok(at))
        .unwrap_or(bytes.len());
    *last = (start, end);
    end
}

fn is_quote(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'`')
}

/// Quotes and punctuation that close a value when nothing of it follows.
fn is_closer(b: u8) -> bool {
    is_quote(b) || matches!(b, b',' | b';' | b')' | b']' | b'}' | b'>')
}

/// Whether the byte at `at` goes on an unquoted value: not whitespace, nor a
/// closer before whitespace, another closer or the end (`pw=alpha7,bravo9` is
/// one value; the `)` of `(secret: abc123)` and the `",` of `"pw=abc",` are not
/// part of it).
fn plain_value_byte(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at) {
        None => false,
        Some(b) if b.is_ascii_whitespace() => false,
        Some(&b) if is_closer(b) => !bytes
            .get(at + 1)
            .is_none_or(|&next| next.is_ascii_whitespace() || is_closer(next)),
        Some(_) => true,
    }
}

fn query_value_byte(b: u8) -> bool {
    !b.is_ascii_whitespace() && !is_quote(b) && !matches!(b, b'&' | b'#' | b'<' | b'>')
}

/// `null`, `${VAR}`, `<your password>`, `****`, `xxxx`, `[REDACTED]`: not a secret.
fn is_placeholder(value: &[u8]) -> bool {
    // Placeholder words are short: only those are compared whole.
    (value.len() <= 16
        && NOT_SECRETS
            .iter()
            .any(|p| value.eq_ignore_ascii_case(p.as_bytes())))
        || value.starts_with(b"${")
        || value.starts_with(b"$(")
        || value.starts_with(b"<")
        || value.starts_with(MARK.as_bytes())
        || value
            .iter()
            .all(|&b| b == b'*' || b.eq_ignore_ascii_case(&b'x'))
}

/// The value after a separator, if it looks like a secret.
fn pair_value(
    bytes: &[u8],
    sep_at: usize,
    sep: u8,
    kind: ValueKind,
    runs: &mut Runs,
) -> Option<Range<usize>> {
    // `==`, `::` are operators, not assignments; Go's `:=` and PHP's and Ruby's
    // `=>` are assignments too, but only a string literal after them is a value
    // (`token := os.Getenv(…)`, `token => token.trim()` are code).
    let operator = match (sep, bytes.get(sep_at + 1)) {
        (b':', Some(b'=')) | (b'=', Some(b'>')) => true,
        (_, Some(b'=' | b'>' | b':')) => return None,
        _ => false,
    };
    let after = sep_at + 1 + usize::from(operator);
    let spaces = run_len(bytes, after, |b| b == b' ' || b == b'\t');
    let mut start = after + spaces;
    // A quote escaped inside a JSON string (`\"`, as `--json` output spells
    // one) opens a value too, which then ends before the escaped closing quote.
    let escaped = starts_with_at(bytes, start, b"\\\"");
    start += usize::from(escaped);
    let quote = bytes
        .get(start)
        .copied()
        .filter(|&b| b == b'"' || b == b'\'');
    if operator && quote.is_none() {
        return None;
    }
    if quote.is_some() {
        start += 1;
    }
    if starts_with_at(bytes, start, MARK.as_bytes()) {
        return None;
    }
    let byte = |at: usize| bytes.get(at).copied().unwrap_or(b'\n');
    let end = match (quote, kind) {
        (Some(b'"'), _) => run_end(bytes, start, &mut runs.double, |at| {
            !matches!(byte(at), b'"' | b'\n')
        }),
        (Some(_), _) => run_end(bytes, start, &mut runs.single, |at| {
            !matches!(byte(at), b'\'' | b'\n')
        }),
        (None, ValueKind::Query) => run_end(bytes, start, &mut runs.query, |at| {
            query_value_byte(byte(at))
        }),
        (None, ValueKind::Line) => {
            let line_end = run_end(bytes, start, &mut runs.line, |at| {
                !matches!(byte(at), b'\n' | b'\r')
            });
            start + bytes.get(start..line_end)?.trim_ascii_end().len()
        }
        (None, ValueKind::Plain) => run_end(bytes, start, &mut runs.plain, |at| {
            plain_value_byte(bytes, at)
        }),
    };
    let end = if escaped && bytes.get(end.wrapping_sub(1)) == Some(&b'\\') {
        end - 1
    } else {
        end
    };
    let len = end.saturating_sub(start);
    let value = bytes.get(start..end)?;
    let placeholder = is_placeholder(value);
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
mod family_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod value_tests;
