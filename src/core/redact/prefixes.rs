//! Tokens that start with a vendor's prefix (after gitleaks' published rule
//! list): one pass over the text finds the places where some prefix's first two
//! bytes stand (a bit table, `PAIRS`), and only there is the table compared.

use std::ops::Range;

use super::{is_word, run_len, starts_with_at};

/// The characters a token's body may hold.
#[derive(Clone, Copy, PartialEq)]
enum Body {
    /// Letters, digits, `_` and `-`.
    Token,
    /// Letters and digits only.
    Alnum,
    /// Lower-case letters and digits (NuGet).
    LowerAlnum,
    /// Hexadecimal digits.
    Hex,
    /// Letters, digits, `_`, `-`, `.` and `=` (SendGrid, Vault, Atlassian).
    Dotted,
    /// Base64 (letters, digits, `+`, `/`, `=`) and `_` (Sentry, Fly.io, Bedrock).
    Base64,
}

impl Body {
    fn accepts(self, b: u8) -> bool {
        match self {
            Body::Token => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Body::Alnum => b.is_ascii_alphanumeric(),
            Body::LowerAlnum => b.is_ascii_lowercase() || b.is_ascii_digit(),
            Body::Hex => b.is_ascii_hexdigit(),
            Body::Dotted => b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'='),
            Body::Base64 => b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'_'),
        }
    }
}

/// Where a prefix may start.
#[derive(Clone, Copy, PartialEq)]
enum Start {
    /// Not right after a letter, digit, `_` or `-` (short, common prefixes).
    Word,
    /// Anywhere: `-sk-ant-…`, `KEY_ghp_…`, and right after a letter or digit
    /// (`abcsk-ant-…`, `xghp_…`) when the body looks random (`looks_random`):
    /// `task-ant-colony-…` is prose.
    Anywhere,
}

struct Prefix {
    prefix: &'static [u8],
    body: Body,
    min: usize,
    /// Longest body; a longer run is some other text (`pul-` and 64 hex digits).
    max: usize,
    /// The body must hold a digit (prose like `sk-learn-models-for-everything`).
    digit: bool,
    /// An optional `-<digit>` after the body belongs to the token (Databricks).
    version: bool,
    start: Start,
}

const fn p(prefix: &'static [u8], body: Body, min: usize, start: Start) -> Prefix {
    Prefix {
        prefix,
        body,
        min,
        max: usize::MAX,
        digit: false,
        version: false,
        start,
    }
}

impl Prefix {
    /// A body of exactly `len` characters.
    const fn exact(self, len: usize) -> Prefix {
        Prefix {
            min: len,
            max: len,
            ..self
        }
    }

    const fn versioned(self) -> Prefix {
        Prefix {
            version: true,
            ..self
        }
    }

    const fn with_digit(self) -> Prefix {
        Prefix {
            digit: true,
            ..self
        }
    }
}

use Body::{Alnum, Base64, Dotted, Hex, LowerAlnum, Token};
use Start::{Anywhere, Word};

/// Longest prefixes first where one starts another (`sk-ant-` before `sk-`);
/// `earlier_prefixes_never_hide_later_ones` holds the table to it.
const PREFIXES: &[Prefix] = &[
    // LLM APIs.
    p(b"sk-ant-", Token, 20, Anywhere),     // Anthropic
    p(b"sk-proj-", Token, 20, Anywhere),    // OpenAI project
    p(b"sk-svcacct-", Token, 20, Anywhere), // OpenAI service account
    p(b"sk-admin-", Token, 20, Anywhere),   // OpenAI admin
    p(b"sk-or-v1-", Hex, 64, Anywhere),     // OpenRouter
    p(b"gsk_", Alnum, 40, Anywhere),        // Groq
    p(b"pplx-", Alnum, 40, Anywhere),       // Perplexity
    p(b"xai-", Alnum, 60, Anywhere),        // xAI
    p(b"r8_", Alnum, 30, Word),             // Replicate
    p(b"lsv2_pt_", Token, 32, Anywhere),    // LangSmith
    p(b"lsv2_sk_", Token, 32, Anywhere),
    p(b"tvly-", Token, 24, Anywhere),   // Tavily
    p(b"pcsk_", Token, 40, Anywhere),   // Pinecone
    p(b"hf_", Alnum, 30, Word),         // Hugging Face
    p(b"api_org_", Alnum, 30, Word),    // Hugging Face organisation
    p(b"sk_", Hex, 48, Word).exact(48), // ElevenLabs (after Stripe's `sk_live_` …)
    // VCS hosts.
    p(b"github_pat_", Token, 20, Anywhere), // GitHub fine-grained
    p(b"ghp_", Alnum, 20, Anywhere),        // GitHub personal
    p(b"gho_", Alnum, 20, Anywhere),        // GitHub OAuth
    p(b"ghu_", Alnum, 20, Anywhere),        // GitHub user-to-server
    p(b"ghs_", Alnum, 20, Anywhere),        // GitHub server-to-server (Actions)
    p(b"ghr_", Alnum, 20, Anywhere),        // GitHub refresh
    p(b"glpat-", Token, 20, Anywhere),      // GitLab personal
    p(b"gldt-", Token, 20, Anywhere),       // GitLab deploy
    p(b"glrt-", Token, 20, Anywhere),       // GitLab runner
    p(b"glptt-", Token, 20, Anywhere),      // GitLab pipeline trigger
    p(b"glsoat-", Token, 20, Anywhere),     // GitLab SCIM
    p(b"glcbt-", Token, 20, Anywhere),      // GitLab CI build
    p(b"glft-", Token, 20, Anywhere),       // GitLab feed
    p(b"glimt-", Token, 20, Anywhere),      // GitLab incoming mail
    p(b"glagent-", Token, 40, Anywhere),    // GitLab Kubernetes agent
    p(b"gloas-", Token, 40, Anywhere),      // GitLab OAuth application
    p(b"glffct-", Token, 20, Anywhere),     // GitLab feature flags
    p(b"GR1348941", Token, 20, Anywhere),   // GitLab runner registration
    p(b"ATATT3", Dotted, 150, Anywhere),    // Atlassian API token
    p(b"ATBB", Alnum, 28, Word),            // Bitbucket app password
    p(b"sgp_", Token, 40, Word),            // Sourcegraph
    // CI.
    p(b"CCIPAT_", Token, 30, Anywhere), // CircleCI
    p(b"bkua_", Hex, 40, Word),         // Buildkite
    // Chat.
    p(b"xoxb-", Token, 10, Anywhere), // Slack bot
    p(b"xoxp-", Token, 10, Anywhere), // Slack user
    p(b"xoxa-", Token, 10, Anywhere), // Slack app
    p(b"xoxo-", Token, 10, Anywhere), // Slack legacy
    p(b"xoxr-", Token, 10, Anywhere), // Slack refresh
    p(b"xoxs-", Token, 10, Anywhere), // Slack session
    p(b"xoxe-", Token, 10, Anywhere), // Slack config
    p(b"xapp-", Token, 10, Anywhere), // Slack app-level
    // Payment.
    p(b"sk_live_", Alnum, 10, Anywhere), // Stripe
    p(b"sk_test_", Alnum, 10, Anywhere),
    p(b"sk_prod_", Alnum, 10, Anywhere),
    p(b"rk_live_", Alnum, 10, Anywhere),
    p(b"rk_test_", Alnum, 10, Anywhere),
    p(b"rk_prod_", Alnum, 10, Anywhere),
    p(b"whsec_", Alnum, 20, Anywhere),  // Stripe webhook
    p(b"sq0atp-", Token, 22, Anywhere), // Square access token
    p(b"sq0csp-", Token, 40, Anywhere), // Square OAuth secret
    p(b"shippo_live_", Hex, 40, Anywhere),
    p(b"shippo_test_", Hex, 40, Anywhere),
    p(b"FLWSECK_TEST-", Token, 12, Anywhere), // Flutterwave
    p(b"FLWSECK-", Token, 12, Anywhere),
    p(b"duffel_live_", Dotted, 40, Anywhere),
    p(b"duffel_test_", Dotted, 40, Anywhere),
    // Cloud providers and platforms.
    p(b"AIza", Token, 35, Anywhere),       // Google API
    p(b"GOCSPX-", Token, 24, Anywhere),    // Google OAuth client secret
    p(b"ABSK", Base64, 100, Word),         // Amazon Bedrock
    p(b"LTAI", Alnum, 20, Word).exact(20), // Alibaba Cloud access key id
    p(b"dop_v1_", Hex, 64, Anywhere),      // DigitalOcean
    p(b"doo_v1_", Hex, 64, Anywhere),
    p(b"dor_v1_", Hex, 64, Anywhere),
    p(b"HRKU-AA", Token, 50, Anywhere), // Heroku
    p(b"fo1_", Token, 40, Anywhere),    // Fly.io
    p(b"fm1a_", Base64, 100, Anywhere),
    p(b"fm1r_", Base64, 100, Anywhere),
    p(b"fm2_", Base64, 100, Anywhere),
    p(b"hvs.", Token, 24, Anywhere), // HashiCorp Vault
    p(b"hvb.", Token, 100, Anywhere),
    p(b"dapi", Hex, 32, Word).exact(32).versioned(), // Databricks
    p(b"pul-", Hex, 40, Word).exact(40),             // Pulumi
    p(b"dp.pt.", Dotted, 40, Anywhere),              // Doppler (service tokens: `dp.st.<config>.…`)
    p(b"dp.st.", Dotted, 40, Anywhere),
    p(b"dp.ct.", Dotted, 40, Anywhere),
    p(b"dp.sa.", Dotted, 40, Anywhere),
    p(b"dp.scim.", Dotted, 40, Anywhere),
    p(b"dp.audit.", Dotted, 40, Anywhere),
    p(b"sha256~", Token, 43, Anywhere),      // OpenShift
    p(b"tskey-", Token, 30, Anywhere),       // Tailscale
    p(b"sbp_", Hex, 40, Word),               // Supabase
    p(b"pscale_tkn_", Dotted, 32, Anywhere), // PlanetScale
    p(b"pscale_oauth_", Dotted, 32, Anywhere),
    p(b"pscale_pw_", Dotted, 32, Anywhere),
    p(b"tk-us-", Token, 48, Anywhere),    // Scalingo
    p(b"pnu_", Alnum, 36, Word),          // Prefect
    p(b"ntn_", Alnum, 46, Word),          // Notion
    p(b"ops_eyJ", Base64, 250, Anywhere), // 1Password service account
    // Package registries.
    p(b"npm_", Alnum, 36, Anywhere),
    p(b"pypi-AgEIcHlwaS5vcmc", Token, 50, Anywhere),
    p(b"rubygems_", Hex, 48, Anywhere),
    p(b"dckr_pat_", Token, 20, Anywhere), // Docker Hub
    p(b"CLOJARS_", Alnum, 60, Anywhere),
    p(b"oy2", LowerAlnum, 43, Word).exact(43).with_digit(), // NuGet
    p(b"AKCp", Alnum, 69, Word),                            // JFrog Artifactory
    p(b"cmVmd", Alnum, 59, Word).exact(59),
    // Observability.
    p(b"sntrys_eyJ", Base64, 60, Anywhere), // Sentry organisation
    p(b"sntryu_", Hex, 64, Anywhere),       // Sentry user
    p(b"NRAK-", Alnum, 27, Anywhere),       // New Relic
    p(b"NRII-", Token, 32, Anywhere),
    p(b"NRJS-", Hex, 19, Anywhere),
    p(b"glc_", Dotted, 32, Anywhere),    // Grafana cloud
    p(b"glsa_", Token, 32, Anywhere),    // Grafana service account
    p(b"eyJrIjoi", Base64, 70, Word),    // Grafana API key
    p(b"dt0c01.", Dotted, 80, Anywhere), // Dynatrace
    // Email, SMS and the rest.
    p(b"SK", Hex, 32, Word).exact(32),   // Twilio
    p(b"SG.", Dotted, 60, Word),         // SendGrid
    p(b"xkeysib-", Token, 64, Anywhere), // Brevo (Sendinblue)
    p(b"lin_api_", Alnum, 40, Anywhere), // Linear
    p(b"PMAK-", Token, 30, Anywhere),    // Postman
    p(b"shpat_", Hex, 32, Anywhere),     // Shopify
    p(b"shpss_", Hex, 32, Anywhere),
    p(b"shpca_", Hex, 32, Anywhere),
    p(b"shppa_", Hex, 32, Anywhere),
    p(b"EZAK", Alnum, 54, Word), // EasyPost
    p(b"EZTK", Alnum, 54, Word),
    p(b"p8e-", Alnum, 32, Word).exact(32), // Adobe
    p(b"ico-", Alnum, 32, Word).exact(32), // Infracost
    p(b"rdme_", Alnum, 70, Word),          // ReadMe
    p(b"fio-u-", Dotted, 64, Anywhere),    // Frame.io
    p(b"AGE-SECRET-KEY-1", Alnum, 50, Anywhere),
    // Plain `sk-` last: `sk-ant-` above wins on the same start. Prose like
    // `sk-learn` or `task-list` is short or has no digit.
    p(b"sk-", Token, 20, Word).with_digit(),
];

/// One bit for each pair of bytes some prefix starts with (`mid_word`: only
/// prefixes that may follow a letter or digit).
const fn pair_bits(mid_word: bool) -> [u64; 1024] {
    let mut bits = [0u64; 1024];
    let mut rest = PREFIXES;
    while let [p, tail @ ..] = rest {
        rest = tail;
        let allowed = !mid_word || matches!(p.start, Anywhere);
        if let (true, [a, b, ..]) = (allowed, p.prefix) {
            let pair = pair_index(*a, *b);
            if let Some((_, [word, ..])) = bits.split_at_mut_checked(pair / 64) {
                *word |= 1 << (pair % 64);
            }
        }
    }
    bits
}

const fn pair_index(a: u8, b: u8) -> usize {
    (a as usize) << 8 | b as usize
}

/// `pair_bits` at the start of a word and in the middle of one.
const PAIRS: [[u64; 1024]; 2] = [pair_bits(false), pair_bits(true)];

fn has_pair(mid_word: bool, a: u8, b: u8) -> bool {
    let pair = pair_index(a, b);
    PAIRS
        .get(usize::from(mid_word))
        .and_then(|bits| bits.get(pair / 64))
        .is_some_and(|w| w >> (pair % 64) & 1 == 1)
}

/// `slice[at] = value` in a constant (`split_at_mut_checked`: indexing is not
/// allowed, `clippy::indexing_slicing`).
const fn set(slice: &mut [u8], at: usize, value: u8) {
    if let Some((_, [slot, ..])) = slice.split_at_mut_checked(at) {
        *slot = value;
    }
}

/// The table's indices grouped by first byte (table order kept within a
/// group), and where each byte's group starts in that order: a candidate is
/// compared with the few prefixes that share its first byte, not all of them.
const fn by_first_byte() -> ([u8; PREFIXES.len()], [u8; 257]) {
    let mut order = [0u8; PREFIXES.len()];
    let mut starts = [0u8; 257];
    let mut filled = 0;
    let mut byte = 0;
    while byte < 256 {
        set(&mut starts, byte, filled as u8);
        let mut index = 0;
        let mut rest = PREFIXES;
        while let [p, tail @ ..] = rest {
            if let [first, ..] = p.prefix
                && *first as usize == byte
            {
                set(&mut order, filled, index as u8);
                filled += 1;
            }
            index += 1;
            rest = tail;
        }
        byte += 1;
    }
    set(&mut starts, 256, filled as u8);
    (order, starts)
}

const GROUPS: ([u8; PREFIXES.len()], [u8; 257]) = by_first_byte();

/// The prefixes starting with `first`, in table order.
fn group(first: u8) -> impl Iterator<Item = &'static Prefix> {
    let (order, starts) = &GROUPS;
    let at = |b: usize| usize::from(starts.get(b).copied().unwrap_or_default());
    let first = usize::from(first);
    order
        .get(at(first)..at(first + 1))
        .unwrap_or_default()
        .iter()
        .filter_map(|&i| PREFIXES.get(usize::from(i)))
}

/// Random text, not words: a digit and both cases (a digit and a letter for
/// bodies of one case), in `body_start..end`.
fn looks_random(bytes: &[u8], body_start: usize, end: usize, class: Body, memo: &mut Memo) -> bool {
    let digit = memo.has(bytes, Kind::Digit, body_start, end);
    let upper = memo.has(bytes, Kind::Upper, body_start, end);
    let lower = memo.has(bytes, Kind::Lower, body_start, end);
    match class {
        Body::Hex | Body::LowerAlnum => digit && (upper || lower),
        _ => digit && upper && lower,
    }
}

/// What a scan has measured, kept for the next positions: the scan moves forward,
/// and a word such as `AIzaAIzaAIza…` would otherwise measure the same body run,
/// and look through it for a digit, at every prefix in it (quadratic time).
#[derive(Default)]
struct Memo {
    /// Per body class: a run measured from `.0`, ending at `.1`.
    runs: [(usize, usize); 6],
    measured: [bool; 6],
    /// Per kind of byte: the first at or after `.0` is at `.1` (`None`: none).
    next: [(usize, Option<usize>); 3],
    looked: [bool; 3],
}

#[derive(Clone, Copy)]
enum Kind {
    Digit,
    Upper,
    Lower,
}

impl Memo {
    /// The end of the run of `class` bytes from `from`.
    fn run_end(&mut self, bytes: &[u8], from: usize, class: Body) -> usize {
        let slot = class as usize;
        if let (Some(true), Some(&(start, end))) = (self.measured.get(slot), self.runs.get(slot))
            && (start..=end).contains(&from)
        {
            return end;
        }
        let end = from + run_len(bytes, from, |b| class.accepts(b));
        if let (Some(run), Some(measured)) = (self.runs.get_mut(slot), self.measured.get_mut(slot))
        {
            *run = (from, end);
            *measured = true;
        }
        end
    }

    /// Whether a byte of `kind` lies in `from..end`.
    fn has(&mut self, bytes: &[u8], kind: Kind, from: usize, end: usize) -> bool {
        let slot = kind as usize;
        let known = match (self.looked.get(slot), self.next.get(slot)) {
            (Some(true), Some(&(asked, found)))
                if asked <= from && found.is_none_or(|f| from <= f) =>
            {
                Some(found)
            }
            _ => None,
        };
        let found = known.unwrap_or_else(|| {
            let is = |b: &u8| match kind {
                Kind::Digit => b.is_ascii_digit(),
                Kind::Upper => b.is_ascii_uppercase(),
                Kind::Lower => b.is_ascii_lowercase(),
            };
            let found = bytes
                .get(from..)
                .and_then(|rest| rest.iter().position(is))
                .map(|p| from + p);
            if let (Some(next), Some(looked)) = (self.next.get_mut(slot), self.looked.get_mut(slot))
            {
                *next = (from, found);
                *looked = true;
            }
            found
        });
        found.is_some_and(|f| f < end)
    }
}

/// The end of a token starting at `i` after the byte `before` (0 at the start
/// of the text), if one does.
fn prefixed_at(bytes: &[u8], i: usize, before: u8, memo: &mut Memo) -> Option<usize> {
    let pair = bytes.get(i..i + 2)?;
    let mid_word = before.is_ascii_alphanumeric();
    let first = pair.first().copied()?;
    group(first).find_map(|p| {
        if p.prefix.get(..2) != Some(pair) || !starts_with_at(bytes, i, p.prefix) {
            return None;
        }
        if matches!(p.start, Word) && (is_word(before) || before == b'-') {
            return None;
        }
        let body_start = i + p.prefix.len();
        let end = memo.run_end(bytes, body_start, p.body);
        let len = end - body_start;
        let shaped = (!p.digit || memo.has(bytes, Kind::Digit, body_start, end))
            && (!mid_word || looks_random(bytes, body_start, end, p.body, memo));
        let version = p.version
            && bytes.get(end) == Some(&b'-')
            && bytes.get(end + 1).is_some_and(u8::is_ascii_digit)
            && bytes.get(end + 2).is_none_or(|&b| !is_word(b));
        let end = if version { end + 2 } else { end };
        (p.min <= len && len <= p.max && shaped).then_some(end)
    })
}

/// Whether a prefix may hold `b`: every byte of a prefix or a body.
fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'=' | b'+' | b'/' | b'~')
}

/// A token starting at `i` after `before`, if one does.
fn token_at(bytes: &[u8], i: usize, before: u8, memo: &mut Memo) -> Option<usize> {
    let (&a, &b) = (bytes.get(i)?, bytes.get(i + 1)?);
    if !has_pair(before.is_ascii_alphanumeric(), a, b) {
        return None;
    }
    prefixed_at(bytes, i, before, memo)
}

/// The run of `token_char`s around the scan, measured once for all the words
/// in it (`a-b-c-…` would otherwise be measured again at every word).
#[derive(Default)]
struct TokenRun {
    end: usize,
    last_digit: Option<usize>,
}

impl TokenRun {
    /// Whether a digit follows `i` before the run's end.
    fn digit_after(&mut self, bytes: &[u8], i: usize) -> bool {
        if i >= self.end {
            let len = run_len(bytes, i, token_char);
            let run = bytes.get(i..i + len).unwrap_or_default();
            self.end = i + len;
            self.last_digit = run.iter().rposition(u8::is_ascii_digit).map(|d| i + d);
        }
        self.last_digit.is_some_and(|d| d > i)
    }
}

pub(super) fn prefixed_tokens(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    let mut run = TokenRun::default();
    let mut memo = Memo::default();
    let mut i = 0;
    // Every prefix starts with a letter or digit: from word to word.
    while let Some(skip) = bytes
        .get(i..)
        .and_then(|rest| rest.iter().position(u8::is_ascii_alphanumeric))
    {
        i += skip;
        let before = i.checked_sub(1).and_then(|at| bytes.get(at)).copied();
        if let Some(end) = token_at(bytes, i, before.unwrap_or(0), &mut memo) {
            out.push(i..end);
            i = end;
            continue;
        }
        // Inside a word only the prefixes that may follow a letter or digit,
        // and only when a digit follows (`looks_random`): most words are skipped.
        let word_end = i + run_len(bytes, i, |b| b.is_ascii_alphanumeric());
        let mut next = word_end;
        if run.digit_after(bytes, i) {
            for j in i + 1..word_end {
                let before = bytes.get(j - 1).copied().unwrap_or(0);
                if let Some(end) = token_at(bytes, j, before, &mut memo) {
                    out.push(j..end);
                    next = end;
                    break;
                }
            }
        }
        i = next;
    }
}

#[cfg(test)]
mod tests {
    use super::{PREFIXES, group, token_char};

    /// The scan looks for prefixes only where a letter or digit starts, and
    /// measures runs of `token_char`.
    #[test]
    fn prefixes_start_with_a_letter_or_digit_and_hold_token_characters() {
        for p in PREFIXES {
            assert!(p.prefix[0].is_ascii_alphanumeric());
            assert!(p.prefix.iter().all(|&b| token_char(b)));
        }
    }

    /// Every prefix is listed once and is in its first byte's group (the
    /// order has room: indices are bytes).
    #[test]
    fn every_prefix_is_in_its_group() {
        assert!(PREFIXES.len() <= 255);
        for p in PREFIXES {
            let name = String::from_utf8_lossy(p.prefix);
            let listed = PREFIXES.iter().filter(|q| q.prefix == p.prefix).count();
            assert_eq!(listed, 1, "{name} listed {listed} times");
            let found = group(p.prefix[0]).filter(|q| q.prefix == p.prefix).count();
            assert_eq!(found, 1, "{name}");
        }
        let total: usize = (0..=255u8).map(|b| group(b).count()).sum();
        assert_eq!(total, PREFIXES.len());
    }

    /// The pair tables need two bytes; `find_map` takes the first entry that
    /// matches, so an entry that starts with an earlier one's whole prefix must
    /// come before it (`sk-ant-` before `sk-`), unless the earlier one's body
    /// cannot hold the rest (`sk_` takes hex digits only; `sk_live_` has an `l`).
    #[test]
    fn earlier_prefixes_never_hide_later_ones() {
        for (i, early) in PREFIXES.iter().enumerate() {
            assert!(early.prefix.len() >= 2);
            for late in PREFIXES.iter().skip(i + 1) {
                let hidden = late.prefix.starts_with(early.prefix)
                    && late.prefix[early.prefix.len()..]
                        .iter()
                        .all(|&b| early.body.accepts(b));
                assert!(
                    !hidden,
                    "{:?} hides {:?}",
                    String::from_utf8_lossy(early.prefix),
                    String::from_utf8_lossy(late.prefix)
                );
            }
        }
    }
}
