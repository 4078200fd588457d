//! Webhook URLs whose path is the credential: Slack
//! (`hooks.slack.com/services/T…/B…/…`, also `workflows/` and `triggers/`),
//! Discord (`discord.com/api/webhooks/<id>/<token>`, also `discordapp.com`,
//! `ptb.` and `canary.`) and Microsoft Teams (`….webhook.office.com/webhookb2/…`).
//! With or without the scheme; the host stays, the path after it goes.

use std::ops::Range;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::{run_len, starts_with_at};

// Searchers built once: building one costs about what searching a few hundred
// bytes does, and every log line is redacted.
static SLACK: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("hooks.slack.com/"));
static DISCORD: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new("/api/webhooks/"));
static TEAMS: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(".webhook.office.com/"));

/// Characters of the secret part of a webhook path.
fn path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-' | b'+' | b'@' | b'=')
}

/// The path from `start`, if it is long enough to be a credential.
fn secret_path(bytes: &[u8], start: usize, min: usize, out: &mut Vec<Range<usize>>) {
    let len = run_len(bytes, start, path_char);
    if len >= min {
        out.push(start..start + len);
    }
}

pub(super) fn webhook_urls(bytes: &[u8], out: &mut Vec<Range<usize>>) {
    for i in SLACK.find_iter(bytes) {
        let path = i + SLACK.needle().len();
        for kind in [&b"services/"[..], b"workflows/", b"triggers/"] {
            if starts_with_at(bytes, path, kind) {
                secret_path(bytes, path + kind.len(), 20, out);
            }
        }
    }
    for i in DISCORD.find_iter(bytes) {
        let host = bytes.get(..i).unwrap_or_default();
        if host.ends_with(b"discord.com") || host.ends_with(b"discordapp.com") {
            secret_path(bytes, i + DISCORD.needle().len(), 20, out);
        }
    }
    for i in TEAMS.find_iter(bytes) {
        secret_path(bytes, i + TEAMS.needle().len(), 20, out);
    }
}
