//! Glyph + text + style for every state, so that no state is told by colour alone.

use ratatui::style::Style;
use ratatui::text::Span;

use crate::core::staleness::StalenessLevel;
use crate::core::trajectory::Trend;
use crate::tui::theme::Theme;

pub struct Badge {
    pub glyph: &'static str,
    pub label: String,
    pub style: Style,
}

impl Badge {
    pub fn span(&self) -> Span<'static> {
        Span::styled(format!("{} {}", self.glyph, self.label), self.style)
    }

    pub fn glyph_span(&self) -> Span<'static> {
        Span::styled(self.glyph, self.style)
    }
}

pub fn staleness(level: StalenessLevel, theme: &Theme) -> Badge {
    let (glyph, style) = match level {
        StalenessLevel::Fresh => ("●", theme.fresh),
        StalenessLevel::Stale => ("◐", theme.stale),
        StalenessLevel::Critical => ("▲", theme.critical),
        StalenessLevel::Unknown => ("○", theme.unknown),
    };
    Badge {
        glyph,
        label: level.label().to_string(),
        style,
    }
}

/// Workflow status as written (`ACTIVE`, `paused`, `complete`, …).
pub fn status(status: Option<&str>, theme: &Theme) -> Badge {
    let text = status.map(super::clean).unwrap_or_default();
    let upper = text.to_ascii_uppercase();
    let (glyph, style) = match upper.as_str() {
        "ACTIVE" | "IN_PROGRESS" | "IN-PROGRESS" | "RUNNING" | "EXECUTION" => ("▶", theme.active),
        "PAUSED" | "BLOCKED" | "WAITING" => ("‖", theme.paused),
        "COMPLETE" | "COMPLETED" | "DONE" => ("✓", theme.complete),
        "FAILED" | "ERROR" => ("✗", theme.failed),
        "CANCELLED" | "CANCELED" | "ABANDONED" => ("⊘", theme.dim),
        "" => ("·", theme.dim),
        _ => ("·", theme.label),
    };
    Badge {
        glyph,
        label: if upper.is_empty() {
            "—".to_string()
        } else {
            upper
        },
        style,
    }
}

pub fn trend_arrow(trend: Option<Trend>) -> &'static str {
    match trend {
        Some(Trend::Rising) => "↑",
        Some(Trend::Falling) => "↓",
        Some(Trend::Flat) => "→",
        Some(Trend::Single) | None => " ",
    }
}

pub fn trend_words(trend: Trend) -> &'static str {
    match trend {
        Trend::Rising => "↑ converging",
        Trend::Falling => "↓ regressing",
        Trend::Flat => "→ flat",
        Trend::Single => "· one score",
    }
}

pub fn acknowledged(ack: Option<bool>, theme: &Theme) -> Badge {
    match ack {
        Some(true) => Badge {
            glyph: "✓",
            label: "acknowledged".into(),
            style: theme.acked,
        },
        Some(false) => Badge {
            glyph: "⚑",
            label: "NOT ACKNOWLEDGED".into(),
            style: theme.unacked,
        },
        None => Badge {
            glyph: "·",
            label: "not recorded".into(),
            style: theme.dim,
        },
    }
}

pub fn score_style(score: f64, threshold: f64, theme: &Theme) -> Style {
    if score >= threshold {
        theme.score_pass
    } else {
        theme.score_fail
    }
}

/// `73%`; `None` → `—`.
pub fn percent(fill: Option<f64>) -> String {
    match fill {
        Some(f) if f.is_finite() => format!("{:.0}%", f * 100.0),
        _ => "—".to_string(),
    }
}

/// `12m`, `3h`, `2d`, `now`; compact ages for the list.
pub fn short_age(seconds: Option<i64>) -> String {
    match seconds {
        None => "—".into(),
        Some(s) if s < 0 => "soon".into(),
        Some(s) if s < 60 => "now".into(),
        Some(s) if s < 3600 => format!("{}m", s / 60),
        Some(s) if s < 86_400 => format!("{}h", s / 3600),
        Some(s) => format!("{}d", s / 86_400),
    }
}
