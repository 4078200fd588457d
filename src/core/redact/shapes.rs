//! Secrets with no prefix to start from, each found from a rare anchor inside
//! it: Azure AD client secrets (`Q~`), Terraform Cloud tokens (`.atlasv1.`), and
//! two shapes gitleaks binds to a keyword before them, Telegram bot tokens
//! (`<digits>:A…`, after `telegr`) and Mailgun keys (`key-…`, after `mailgun`).

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::{is_word, run_len};

// Searchers built once (see `webhooks`).
static ATLAS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(".atlasv1."));
static KEY: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("key-"));

/// How far before a keyword-bound token its keyword may stand (a YAML key a
/// few lines up, a variable name, a URL's host).
const KEYWORD_REACH: usize = 256;

/// `keyword` (lower case) in the `KEYWORD_REACH` bytes before `at`, in any case.
fn keyword_before(bytes: &[u8], at: usize, keyword: &[u8]) -> bool {
    let window = bytes
        .get(at.saturating_sub(KEYWORD_REACH)..at)
        .unwrap_or_default();
    window
        .windows(keyword.len())
        .any(|w| w.eq_ignore_ascii_case(keyword))
}

fn byte_at(bytes: &[u8], i: usize) -> Option<u8> {
    bytes.get(i).copied()
}

/// Azure AD client secrets: three of `[A-Za-z0-9_~.]`, a digit, `Q~`, then 31 to
/// 34 of `[A-Za-z0-9_~.-]`, between quotes, spaces, `=`, `:` and the like.
pub(super) fn azure_client_secrets(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let head = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'~' | b'.');
    let tail = |b: u8| head(b) || b == b'-';
    let opens = |b: u8| b.is_ascii_whitespace() || b"\\'\"`>=:(,)/".contains(&b);
    let closes = |b: u8| b.is_ascii_whitespace() || b"\\'\"`<),".contains(&b);
    let mut taken = 0;
    for tilde in memchr::memchr_iter(b'~', bytes) {
        let Some(start) = tilde.checked_sub(5) else {
            continue;
        };
        if start < taken
            || byte_at(bytes, tilde - 1) != Some(b'Q')
            || !byte_at(bytes, tilde - 2).is_some_and(|b| b.is_ascii_digit())
            || !bytes
                .get(start..tilde - 2)
                .is_some_and(|h| h.iter().all(|&b| head(b)))
            || start
                .checked_sub(1)
                .is_some_and(|at| !byte_at(bytes, at).is_some_and(opens))
        {
            continue;
        }
        let run = run_len(bytes, tilde + 1, tail);
        // A secret named in a file name runs on into `.yaml`: it may end at a dot.
        let len = if (31..=34).contains(&run) && byte_at(bytes, tilde + 1 + run).is_none_or(closes)
        {
            Some(run)
        } else {
            (31..=34.min(run))
                .rev()
                .find(|&n| byte_at(bytes, tilde + 1 + n) == Some(b'.'))
        };
        if let Some(len) = len {
            let end = tilde + 1 + len;
            out.push(start..end);
            taken = end;
        }
    }
}

/// Terraform Cloud / Enterprise API tokens: 14 letters or digits, `.atlasv1.`,
/// 60 to 70 of `[A-Za-z0-9_=-]`.
pub(super) fn terraform_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut taken = 0;
    for i in ATLAS.find_iter(bytes) {
        let from = i + ATLAS.needle().len();
        let Some(start) = i.checked_sub(14) else {
            continue;
        };
        let id = bytes.get(start..i).unwrap_or_default();
        let body = run_len(bytes, from, |b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'=')
        });
        if start >= taken && id.iter().all(u8::is_ascii_alphanumeric) && body >= 60 {
            out.push(start..from + body);
            taken = from + body;
        }
    }
}

/// Telegram bot tokens: 5 to 16 digits, `:A`, 34 of `[A-Za-z0-9_-]`, with
/// `telegr` (`telegram`, `TELEGRAM_BOT`, `api.telegram.org`) before them.
pub(super) fn telegram_bot_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let token_char = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    // `:` then `A`: no searcher to build for two bytes.
    for colon in memchr::memchr_iter(b':', bytes) {
        if bytes.get(colon + 1) != Some(&b'A') {
            continue;
        }
        let digits = bytes
            .get(..colon)
            .unwrap_or_default()
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let start = colon - digits;
        // `bot123456:A…` in a Bot API URL; otherwise a whole word.
        let bounded = start
            .checked_sub(1)
            .and_then(|at| byte_at(bytes, at))
            .is_none_or(|b| !is_word(b) || bytes.get(..start).is_some_and(|s| s.ends_with(b"bot")));
        let len = run_len(bytes, colon + 2, token_char);
        if (5..=16).contains(&digits)
            && bounded
            && len == 34
            && keyword_before(bytes, start, b"telegr")
        {
            out.push(start..colon + 2 + len);
        }
    }
}

/// Mailgun keys: `key-` or `pubkey-` and 32 letters or digits, with `mailgun`
/// before them (`key-` and hex is also a cache key's shape).
pub(super) fn mailgun_keys(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for i in KEY.find_iter(bytes) {
        let start = if bytes.get(..i).is_some_and(|s| s.ends_with(b"pub")) {
            i - 3
        } else {
            i
        };
        let len = run_len(bytes, i + 4, |b| b.is_ascii_alphanumeric());
        let end = i + 4 + len;
        let bounded = start
            .checked_sub(1)
            .and_then(|at| byte_at(bytes, at))
            .is_none_or(|b| !is_word(b) && b != b'-')
            && byte_at(bytes, end).is_none_or(|b| !is_word(b) && b != b'-');
        if len == 32
            && bounded
            && bytes
                .get(i + 4..end)
                .is_some_and(|body| body.iter().any(u8::is_ascii_digit))
            && keyword_before(bytes, start, b"mailgun")
        {
            out.push(start..end);
        }
    }
}
