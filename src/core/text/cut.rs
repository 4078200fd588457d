//! Bounded work on text from files: a value can be megabytes long (a 10 MB
//! `next_step`), and every pass over it (redaction, folding onto one line, word
//! wrap, cleaning for the terminal) costs time in proportion. Whoever keeps only
//! the first part of a value cuts it here first, then runs those passes on the
//! part, never on the whole.
//!
//! Redaction must still see every secret that reaches the kept part, so the cut
//! keeps [`REDACTION_MARGIN`] bytes more than is needed: a secret that starts
//! before the end of the kept part and straddles it is redacted as if the text
//! were whole. A PEM private-key block is redacted from its `-----BEGIN … PRIVATE
//! KEY-----` line to its end line, or to the end of the text when the end line is
//! missing (cut off), so a key block of any length is caught once its header
//! line (under 100 bytes) is inside the margin; every other secret
//! `core::redact` knows (tokens, JWTs, credentials, `password=` pairs) is
//! recognised from its first few hundred bytes. 16 KB is twice the 8 KB that a
//! whole 4096-bit RSA key block in PEM (about 3.3 KB) would need.

/// Bytes kept beyond what is needed, so that redaction sees a secret straddling
/// the cut (see the module's comment).
pub const REDACTION_MARGIN: usize = 16 * 1024;

/// The longest prefix of `text` of at most `max_bytes` bytes that ends on a
/// character boundary.
pub fn prefix(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or_default()
}

/// The first part of `text`, scrubbed (`core::redact::scrub`), for a caller that
/// keeps at most `keep_bytes` bytes of it; and whether `text` was cut. Redaction
/// shortens what it replaces (a 17 KB key block becomes `[REDACTED]`), so a part
/// of `keep_bytes` + [`REDACTION_MARGIN`] bytes could, once scrubbed, bring the end where it was cut,
/// with a secret cut in two there and no longer recognised, within the kept
/// bytes: the part grows until its scrubbed form holds [`REDACTION_MARGIN`]
/// bytes beyond what is kept. It grows to four times that at most (a text that
/// is mostly one long secret); past that, the last [`REDACTION_MARGIN`] bytes of
/// the scrubbed part are dropped instead, so that what remains is that far from
/// the cut.
pub fn scrubbed_head(text: &str, keep_bytes: usize) -> (std::borrow::Cow<'_, str>, bool) {
    let want = keep_bytes.saturating_add(REDACTION_MARGIN);
    let mut take = want;
    loop {
        let head = prefix(text, take);
        let cut = head.len() < text.len();
        let clean = crate::core::redact::scrub(head);
        if !cut || clean.len() >= want {
            return (clean, cut);
        }
        if take >= want.saturating_mul(4) {
            let safe = prefix(&clean, clean.len().saturating_sub(REDACTION_MARGIN)).to_string();
            return (std::borrow::Cow::Owned(safe), true);
        }
        take = take.saturating_mul(2);
    }
}

/// `text` scrubbed (`core::redact::scrub`) and cut to at most `max_bytes` bytes at
/// a character boundary, with the number of bytes of `text` left out (0 when it
/// is whole). Only the part [`scrubbed_head`] takes is scrubbed.
pub fn scrubbed(text: &str, max_bytes: usize) -> (String, usize) {
    let (clean, cut) = scrubbed_head(text, max_bytes);
    if !cut && clean.len() <= max_bytes {
        return (clean.into_owned(), 0);
    }
    let kept = prefix(&clean, max_bytes).to_string();
    // Redaction changes lengths, so this counts the bytes of `text` beyond the
    // same length: near enough to say how much is missing.
    let omitted = text.len().saturating_sub(kept.len()).max(1);
    (kept, omitted)
}

/// `bytes` as a reader would say it: `812 bytes`, `16.0 KB`, `9.5 MB`.
pub fn size(bytes: usize) -> String {
    const KB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KB {
        format!("{bytes} bytes")
    } else if b < KB * KB {
        format!("{:.1} KB", b / KB)
    } else {
        format!("{:.1} MB", b / KB / KB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_end_on_character_boundaries() {
        assert_eq!(prefix("héllo", 2), "h");
        assert_eq!(prefix("héllo", 3), "hé");
        assert_eq!(prefix("héllo", 99), "héllo");
        assert_eq!(prefix("日本", 5), "日");
        assert_eq!(prefix("", 0), "");
    }

    #[test]
    fn the_head_keeps_the_margin_and_says_when_it_cut() {
        let text = "a".repeat(100 + REDACTION_MARGIN);
        assert_eq!(scrubbed_head(&text, 100), (text.as_str().into(), false));
        let longer = format!("{text}b");
        let (head, cut) = scrubbed_head(&longer, 100);
        assert!(cut);
        assert_eq!(head.len(), 100 + REDACTION_MARGIN);
    }

    #[test]
    fn a_secret_straddling_the_cut_is_still_redacted() {
        // A private key block that starts just before the cut and ends far past
        // the margin: its end line is never seen, yet nothing of it is kept.
        let key_body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n".repeat(2_000);
        let text = format!(
            "{}-----BEGIN RSA PRIVATE KEY-----\n{key_body}-----END RSA PRIVATE KEY-----\ntail",
            "x".repeat(990)
        );
        let (kept, omitted) = scrubbed(&text, 1_000);
        assert!(omitted > 0);
        assert!(!kept.contains("MIIE"), "{kept}");
        assert!(kept.starts_with(&"x".repeat(990)), "{kept}");
        // A token whose first byte is the last kept one.
        let token = format!("ghp_{}", "a1B2".repeat(9));
        let text = format!("{}{token} {}", "y".repeat(999), "z".repeat(40_000));
        let (kept, _) = scrubbed(&text, 1_000);
        assert!(!kept.contains("ghp_"), "{kept}");
        assert!(!kept.contains("a1B2"), "{kept}");
    }

    #[test]
    fn short_text_is_scrubbed_whole() {
        assert_eq!(scrubbed("short", 100), ("short".to_string(), 0));
        let (kept, omitted) = scrubbed("password=hunter22 and more", 100);
        assert_eq!(
            (kept.as_str(), omitted),
            ("password=[REDACTED] and more", 0)
        );
        let (kept, omitted) = scrubbed(&"é".repeat(1_000), 5);
        assert_eq!((kept.as_str(), omitted), ("éé", 1_996));
    }

    #[test]
    fn sizes_read_as_people_say_them() {
        assert_eq!(size(812), "812 bytes");
        assert_eq!(size(16 * 1024), "16.0 KB");
        assert_eq!(size(10_000_000), "9.5 MB");
    }

    /// A long key block redacted to a few bytes brings the end of the first
    /// part into the kept bytes: a token cut in two there must still be redacted.
    #[test]
    fn a_token_cut_at_the_end_of_the_part_never_reaches_the_kept_bytes() {
        let line = "MIIEpAIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n";
        let key = format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}-----END RSA PRIVATE KEY-----\n",
            line.repeat(17_500 / line.len())
        );
        let max = 16 * 1024;
        // A Pulumi token (`pul-` and 40 hex) cut after 20 of them is not one.
        let token = format!("pul-{}", "0123456789abcdef".repeat(3).get(..40).unwrap());
        let filler_len = max + REDACTION_MARGIN - key.len() - 4 - 20;
        let text = format!(
            "{key}{}{token} {}",
            "x ".repeat(filler_len / 2),
            "y ".repeat(40_000)
        );
        let (kept, omitted) = scrubbed(&text, max);
        assert!(omitted > 0);
        assert!(
            !kept.contains("pul-0123456789"),
            "{}",
            kept.get(kept.len() - 200..).unwrap()
        );
        assert!(!kept.contains("MIIEpAIBAAKCAQEA"));
    }
}
