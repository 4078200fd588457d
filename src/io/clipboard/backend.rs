//! The backend names operators give (`--clipboard`, `clipboard.backend`) and the
//! choice of what to actually do.

use std::path::PathBuf;

use crate::io::env::Env;

/// What was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    Auto,
    Native,
    Osc52,
    Tmux,
    File(PathBuf),
    Off,
}

impl Backend {
    /// `auto`, `native`, `osc52`, `tmux`, `off` or `file:PATH` (case-insensitive names).
    pub fn parse(text: &str) -> Result<Backend, String> {
        let text = text.trim();
        if let Some(path) = text.strip_prefix("file:") {
            if path.is_empty() {
                return Err(
                    "clipboard backend `file:` needs a path, e.g. file:/tmp/prompt.txt".into(),
                );
            }
            return Ok(Backend::File(PathBuf::from(path)));
        }
        match text.to_ascii_lowercase().as_str() {
            "auto" => Ok(Backend::Auto),
            "native" => Ok(Backend::Native),
            "osc52" => Ok(Backend::Osc52),
            "tmux" => Ok(Backend::Tmux),
            "off" => Ok(Backend::Off),
            other => Err(format!(
                "unknown clipboard backend `{other}`: use auto, native, osc52, tmux, off or file:PATH"
            )),
        }
    }
}

/// The platform, which decides whether "no DISPLAY" means "no clipboard".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// Linux and the BSDs: the native clipboard needs an X11 or Wayland display.
    Unix,
    MacOs,
    Windows,
}

impl Platform {
    pub fn current() -> Platform {
        if cfg!(target_os = "macos") {
            Platform::MacOs
        } else if cfg!(windows) {
            Platform::Windows
        } else {
            Platform::Unix
        }
    }
}

/// What will be done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// The native clipboard; on failure or timeout, OSC 52 when `fallback` is set
    /// (`Some(true)` = wrapped for tmux).
    Native {
        fallback: Option<bool>,
    },
    /// OSC 52 to the terminal, wrapped in tmux passthrough when `tmux`.
    Osc52 {
        tmux: bool,
    },
    Tmux,
    File(PathBuf),
    Off,
}

/// `auto`: inside tmux, tmux itself (its paste buffer, and the terminal's
/// clipboard when tmux's `set-clipboard` allows: OSC 52 passthrough is off in
/// tmux by default, so a wrapped sequence would reach nothing); over SSH
/// (`SSH_TTY`/`SSH_CONNECTION`), or on Unix with neither `DISPLAY` nor
/// `WAYLAND_DISPLAY`, OSC 52; otherwise the native clipboard, falling back to
/// OSC 52. Named backends are used as asked (OSC 52 is wrapped inside tmux).
pub fn choose(requested: &Backend, env: &Env, platform: Platform) -> Plan {
    let in_tmux = env.get("TMUX").is_some();
    match requested {
        Backend::Auto if in_tmux => Plan::Tmux,
        Backend::Auto => {
            let remote = env.get("SSH_TTY").is_some() || env.get("SSH_CONNECTION").is_some();
            let headless = platform == Platform::Unix
                && env.get("DISPLAY").is_none()
                && env.get("WAYLAND_DISPLAY").is_none();
            if remote || headless {
                Plan::Osc52 { tmux: in_tmux }
            } else {
                Plan::Native {
                    fallback: Some(in_tmux),
                }
            }
        }
        Backend::Native => Plan::Native { fallback: None },
        Backend::Osc52 => Plan::Osc52 { tmux: in_tmux },
        Backend::Tmux => Plan::Tmux,
        Backend::File(path) => Plan::File(path.clone()),
        Backend::Off => Plan::Off,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Env {
        Env::from_pairs(pairs.iter().copied())
    }

    #[test]
    fn auto_uses_osc52_over_ssh_even_with_a_display() {
        let e = env(&[("SSH_TTY", "/dev/pts/3"), ("DISPLAY", ":0")]);
        assert_eq!(
            choose(&Backend::Auto, &e, Platform::Unix),
            Plan::Osc52 { tmux: false }
        );
        let e = env(&[("SSH_CONNECTION", "1.2.3.4 5 6.7.8.9 22")]);
        assert_eq!(
            choose(&Backend::Auto, &e, Platform::MacOs),
            Plan::Osc52 { tmux: false }
        );
    }

    #[test]
    fn auto_goes_through_tmux_inside_tmux() {
        for e in [
            env(&[
                ("SSH_TTY", "/dev/pts/3"),
                ("TMUX", "/tmp/tmux-1000/default,1,0"),
            ]),
            env(&[("TMUX", "/tmp/tmux-1000/default,1,0")]),
            env(&[("DISPLAY", ":0"), ("TMUX", "x")]),
        ] {
            assert_eq!(choose(&Backend::Auto, &e, Platform::Unix), Plan::Tmux);
        }
        assert_eq!(
            choose(&Backend::Auto, &env(&[("TMUX", "x")]), Platform::MacOs),
            Plan::Tmux
        );
    }

    #[test]
    fn auto_without_a_display_on_unix_uses_osc52() {
        assert_eq!(
            choose(&Backend::Auto, &env(&[]), Platform::Unix),
            Plan::Osc52 { tmux: false }
        );
        let empty = env(&[("DISPLAY", "")]);
        assert_eq!(
            choose(&Backend::Auto, &empty, Platform::Unix),
            Plan::Osc52 { tmux: false },
            "an empty DISPLAY is no display"
        );
    }

    #[test]
    fn auto_with_a_display_goes_native_with_osc52_fallback() {
        for var in ["DISPLAY", "WAYLAND_DISPLAY"] {
            let e = env(&[(var, ":0")]);
            assert_eq!(
                choose(&Backend::Auto, &e, Platform::Unix),
                Plan::Native {
                    fallback: Some(false)
                }
            );
        }
    }

    #[test]
    fn macos_and_windows_need_no_display_variable() {
        for platform in [Platform::MacOs, Platform::Windows] {
            assert_eq!(
                choose(&Backend::Auto, &env(&[]), platform),
                Plan::Native {
                    fallback: Some(false)
                }
            );
        }
    }

    #[test]
    fn named_backends_are_used_as_asked() {
        let e = env(&[("SSH_TTY", "x"), ("TMUX", "y")]);
        assert_eq!(
            choose(&Backend::Native, &e, Platform::Unix),
            Plan::Native { fallback: None }
        );
        assert_eq!(
            choose(&Backend::Osc52, &e, Platform::Unix),
            Plan::Osc52 { tmux: true }
        );
        assert_eq!(
            choose(&Backend::Osc52, &env(&[]), Platform::Unix),
            Plan::Osc52 { tmux: false }
        );
        assert_eq!(choose(&Backend::Tmux, &e, Platform::Unix), Plan::Tmux);
        assert_eq!(choose(&Backend::Off, &e, Platform::Unix), Plan::Off);
        assert_eq!(
            choose(&Backend::File("/tmp/p.txt".into()), &e, Platform::Unix),
            Plan::File("/tmp/p.txt".into())
        );
    }

    #[test]
    fn parses_backend_names() {
        assert_eq!(Backend::parse("auto"), Ok(Backend::Auto));
        assert_eq!(Backend::parse("OSC52"), Ok(Backend::Osc52));
        assert_eq!(
            Backend::parse("file:/tmp/x y.txt"),
            Ok(Backend::File("/tmp/x y.txt".into()))
        );
        assert!(Backend::parse("file:").is_err());
        assert!(
            Backend::parse("xclip")
                .unwrap_err()
                .contains("auto, native")
        );
    }
}
