//! Issue 33 item 6: the key/value forms and value ends that leaked, each with
//! near misses that must stay as written.

use super::*;

fn redacted(text: &str) -> String {
    redact(text).into_owned()
}

#[test]
fn assignments_of_other_languages_are_redacted() {
    for (text, want) in [
        (r#"password := "s3cr3t-go""#, r#"password := "[REDACTED]""#),
        (
            r#"'password' => 'php-s3cret'"#,
            r#"'password' => '[REDACTED]'"#,
        ),
        (r#":api_key => "rubyKey123""#, r#":api_key => "[REDACTED]""#),
        (
            r#""next": "password := \"go-s3cret\" x""#,
            r#""next": "password := \"[REDACTED]\" x""#,
        ),
    ] {
        assert_eq!(redacted(text), want, "{text}");
    }
    for kept in [
        "token := os.Getenv(\"TOKEN\")",
        "password => password.trim()",
        "if password == \"x\" {",
        "Token::new()",
    ] {
        assert_eq!(redacted(kept), kept);
    }
}

#[test]
fn key_names_of_encryption_master_and_app_keys_are_secrets() {
    for (text, want) in [
        ("ENCRYPTION_KEY=0f1e2d3c4b5a", "ENCRYPTION_KEY=[REDACTED]"),
        ("MASTER_KEY=abcdef123456", "MASTER_KEY=[REDACTED]"),
        (
            "APP_KEY=base64:Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==",
            "APP_KEY=[REDACTED]",
        ),
    ] {
        assert_eq!(redacted(text), want, "{text}");
    }
    for kept in [
        "PRIMARY_KEY=id",
        "monkey=banana",
        "MASTER_BRANCH=main",
        "APP_NAME=demo",
    ] {
        assert_eq!(redacted(kept), kept);
    }
}

#[test]
fn signatures_in_presigned_and_sas_urls_are_redacted() {
    let sas =
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig=AbC%2Bdef123%3D&se=2030";
    assert_eq!(
        redacted(sas),
        "https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&sig=[REDACTED]&se=2030"
    );
    let amz = "https://b.s3.amazonaws.com/k?X-Amz-Date=20300101&X-Amz-Signature=ab12cd34ef56&x=1";
    assert_eq!(
        redacted(amz),
        "https://b.s3.amazonaws.com/k?X-Amz-Date=20300101&X-Amz-Signature=[REDACTED]&x=1"
    );
    for kept in [
        "sig=abc in prose",
        "signal=SIGTERM",
        "design=flat",
        "the sig: 3",
    ] {
        assert_eq!(redacted(kept), kept);
    }
}

#[test]
fn an_unquoted_value_runs_to_whitespace_and_a_quoted_one_to_its_quote() {
    for (text, want) in [
        ("DB_PASSWORD=alpha7,bravo9charlie", "DB_PASSWORD=[REDACTED]"),
        ("password=a;b&c)d]e}f'g\"h next", "password=[REDACTED] next"),
        ("(use secret: abc123)", "(use secret: [REDACTED])"),
        (
            r#"env: "DB_PASSWORD=alpha7,bravo9", x"#,
            r#"env: "DB_PASSWORD=[REDACTED]", x"#,
        ),
        (
            r#"password: "has spaces, and; more""#,
            r#"password: "[REDACTED]""#,
        ),
        (
            "url?token=abc,def&x=1#frag",
            "url?token=[REDACTED]&x=1#frag",
        ),
    ] {
        assert_eq!(redacted(text), want, "{text}");
    }
}

#[test]
fn a_passphrase_is_redacted_to_the_end_of_its_line() {
    assert_eq!(
        redacted("passphrase: correct horse battery staple  \nnext: line"),
        "passphrase: [REDACTED]  \nnext: line"
    );
    assert_eq!(
        redacted("GPG_PASSPHRASE=correct horse battery"),
        "GPG_PASSPHRASE=[REDACTED]"
    );
    assert_eq!(
        redacted(r#"passphrase = "correct horse battery""#),
        r#"passphrase = "[REDACTED]""#
    );
}

#[test]
fn a_token_split_by_a_control_is_redacted_by_scrub() {
    let text = "keep gh\u{7}p_16C7e42F292c6912E7710c838347Ae178B4a and \u{85}\u{1b}]52;c;aGk=\u{7}";
    assert_eq!(scrub(text), "keep [REDACTED] and ]52;c;aGk=");
}

/// Many values of every kind in one text: one pass each (`Runs`), as before.
#[test]
fn repeated_values_are_measured_once() {
    let text = "passphrase=a b\n?sig=c&sig=d password=e,f ".repeat(20_000);
    let out = redacted(&text);
    assert!(!out.contains("e,f"));
    assert!(out.len() < text.len() * 4);
}
