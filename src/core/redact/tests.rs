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

/// The families round 2 added (issue 16), after gitleaks' rule list: each with
/// the part that must go.
const FAMILIES: &[(&str, &str)] = &[
    (
        "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U x",
        "jwt [REDACTED] x",
    ),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key = [REDACTED]",
    ),
    (
        "PGPASSWORD=s3cretpw psql -h db",
        "PGPASSWORD=[REDACTED] psql -h db",
    ),
    ("export MYSQL_PWD=abc123", "export MYSQL_PWD=[REDACTED]"),
    (
        "DATABASE_URL=postgres://app:hunter22@db.internal:5432/x",
        "DATABASE_URL=postgres://app:[REDACTED]@db.internal:5432/x",
    ),
    (
        "see https://bob:pa55w0rd@example.com/repo.git",
        "see https://bob:[REDACTED]@example.com/repo.git",
    ),
    (
        "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc end",
        "stripe [REDACTED] end",
    ),
    ("rk_test_51HqLyjWDarjtT1zdp7dcAbCd", "[REDACTED]"),
    (
        "google AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe end",
        "google [REDACTED] end",
    ),
    (
        "//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789",
        "//registry.npmjs.org/:_authToken=[REDACTED]",
    ),
    ("npm_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"),
    (
        "gitlab glpat-xxxxABCDEFGHIJ123456 ok",
        "gitlab [REDACTED] ok",
    ),
    ("GR1348941AbCdEfGhIjKlMnOpQrSt", "[REDACTED]"),
    (
        "x-sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh",
        "x-[REDACTED]",
    ),
    (
        "KEY_sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdefgh",
        "KEY_[REDACTED]",
    ),
    (
        "--key=sk-ant-admin01-AbCdEf0123456789_xyzXYZ",
        "--key=[REDACTED]",
    ),
    (
        "hooks xapp-1-A0123456789-0123456789012-abcdef0123 done",
        "hooks [REDACTED] done",
    ),
    (
        "Authorization: Basic dXNlcjpwYXNzd29yZA==",
        "Authorization: Basic [REDACTED]",
    ),
    ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "[REDACTED]"),
    ("shpat_0123456789abcdef0123456789abcdef", "[REDACTED]"),
    ("dckr_pat_AbCdEfGhIjKlMnOpQrStUvWx", "[REDACTED]"),
    (
        "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",
        "[REDACTED]",
    ),
    (
        "{\"accessToken\": \"abc.def.ghi\"}",
        "{\"accessToken\": \"[REDACTED]\"}",
    ),
];

/// Each input redacted to its expected text, which redaction leaves as it is.
pub(super) fn assert_redacted(cases: &[(&str, &str)]) {
    for (input, expected) in cases {
        assert_eq!(redact(input), *expected, "input: {input:?}");
        assert_eq!(redact(expected), *expected, "idempotent: {expected:?}");
    }
}

/// Each input returned as it is, borrowed (nothing matched).
pub(super) fn assert_kept(inputs: &[&str]) {
    for input in inputs {
        assert!(
            matches!(redact(input), Cow::Borrowed(_)),
            "changed: {input:?} -> {:?}",
            redact(input)
        );
    }
}

#[test]
fn round_two_families_are_redacted() {
    assert_redacted(FAMILIES);
}

#[test]
fn round_two_near_misses_stay_as_written() {
    assert_kept(&[
        "http://localhost:8080/path@v2",
        "mailto:someone@example.com",
        "postgres://user@host/db",
        "postgres://user:${DB_PASS}@host/db",
        "Basic authentication is off",
        "eyJ is how base64 JSON starts",
        "AIza alone",
        "sk_live_short",
        "npm_install",
        "the glpat- prefix",
        "ask-ant-farm",
        "hf_small",
        "SG.short.value",
        "max_tokens = 4096",
        "checkpoint_count = 3",
    ]);
}

#[test]
fn secret_shapes_are_redacted() {
    for (input, expected) in SECRETS {
        assert_eq!(redact(input), *expected, "input: {input:?}");
    }
}

#[test]
fn near_misses_stay_as_written() {
    assert_kept(NEAR_MISSES);
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
