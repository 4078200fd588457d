//! `resume-tui timeline [--since DURATION]`: every compaction of every project
//! (its checkpoints and its `compaction_events`), newest first, with how many
//! items of the state before it the summary dropped.

use std::io::Write;
use std::process::ExitCode;

use serde::Serialize;

use super::TimelineArgs;
use super::dropped::summary_of;
use super::prompt::load;
use crate::app::Context;
use crate::core::dropped::compare_checkpoint;
use crate::core::model::Checkpoint;
use crate::core::text::{pad, truncate_line};
use crate::core::time::{Timestamp, describe_age};
use crate::core::timeline::{Row, rows};
use crate::{Error, Result};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    pub timestamp: Option<String>,
    /// `null` for a checkpoint that names no workflow and no project's events name.
    pub project: Option<String>,
    /// The checkpoint's id, else the event's own id (or session).
    pub id: String,
    pub checkpoint: Option<String>,
    pub trigger: Option<String>,
    pub fill_before: Option<f64>,
    /// `None` for an event that records no acknowledgement.
    pub acknowledged: Option<bool>,
    /// Items the summary dropped; `None` when there is no checkpoint or no summary.
    pub dropped: Option<usize>,
    pub summary_source: Option<&'static str>,
    #[serde(skip)]
    pub time: Option<Timestamp>,
}

pub fn run(ctx: &Context, args: &TimelineArgs, out: &mut dyn Write) -> Result<ExitCode> {
    let since = match args.since.as_deref() {
        Some(text) => Some(parse_duration(text).ok_or_else(|| {
            Error::Usage(format!(
                "--since {text:?}: expected a number and a unit (s, m, h, d, w): 90m, 12h, 7d"
            ))
        })?),
        None => None,
    };
    let mut events = events(ctx);
    if let Some(seconds) = since {
        events.retain(|e| e.time.is_some_and(|t| ctx.now.seconds_since(t) <= seconds));
    }
    let written = if args.json {
        let text = serde_json::to_string_pretty(&serde_json::json!({ "events": events }))
            .map_err(|e| Error::Usage(format!("cannot write JSON: {e}")))?;
        writeln!(out, "{text}")
    } else {
        out.write_all(as_text(ctx, &events).as_bytes())
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("standard output", e))?;
    Ok(ExitCode::SUCCESS)
}

/// Every project's compactions, newest first (events without a time last).
pub fn events(ctx: &Context) -> Vec<Event> {
    let ws = load(ctx);
    let mut events: Vec<Event> = ws
        .projects
        .iter()
        .flat_map(|project| {
            rows(project, &ws.unassigned_checkpoints)
                .into_iter()
                // A bare-list entry of a session that did not compact is no event.
                .filter(|row| row.event.and_then(|e| e.compactions) != Some(0))
                .map(|row| event(ctx, Some(&project.id), &row))
                .collect::<Vec<_>>()
        })
        .collect();
    let claimed: Vec<String> = events.iter().filter_map(|e| e.checkpoint.clone()).collect();
    let stray = ws
        .unassigned_checkpoints
        .iter()
        .filter(|cp| !claimed.contains(&cp.id))
        .map(|cp| event(ctx, None, &stray_row(cp)));
    events.extend(stray.collect::<Vec<_>>());
    events.sort_by(|a, b| match (a.time, b.time) {
        (Some(x), Some(y)) => y.cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => a.project.cmp(&b.project),
    });
    events
}

fn event(ctx: &Context, project: Option<&str>, row: &Row) -> Event {
    let compared = row.checkpoint.and_then(|cp| {
        let found = summary_of(ctx, cp).ok()?;
        Some((found.source.label(), compare_checkpoint(cp, &found.text)))
    });
    Event {
        timestamp: row
            .time
            .map(Timestamp::to_iso)
            .or(row.time_raw.map(str::to_string)),
        project: project.map(str::to_string),
        id: row.id.clone(),
        checkpoint: row.checkpoint.map(|c| c.id.clone()),
        trigger: row.trigger.map(str::to_string),
        fill_before: row.fill,
        acknowledged: row.acknowledged,
        dropped: compared.as_ref().map(|(_, c)| c.dropped().count()),
        summary_source: compared.map(|(source, _)| source),
        time: row.time,
    }
}

/// A checkpoint no project claims, as a timeline row of its own.
fn stray_row(cp: &Checkpoint) -> Row<'_> {
    Row {
        time: cp.created_at,
        time_raw: cp.created_at_raw.as_deref(),
        id: cp.id.clone(),
        trigger: cp.trigger.as_deref(),
        fill: cp.fill,
        phase: cp.current_phase.as_deref(),
        gate: cp.current_gate.clone(),
        acknowledged: Some(cp.acknowledged),
        checkpoint: Some(cp),
        event: None,
    }
}

/// `90s`, `45m`, `12h`, `7d`, `2w` (a bare number is minutes) as seconds.
pub fn parse_duration(text: &str) -> Option<i64> {
    let text = text.trim();
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let number: i64 = text.get(..digits)?.parse().ok()?;
    let unit = match text.get(digits..)?.trim() {
        "s" | "sec" => 1,
        "" | "m" | "min" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 604_800,
        _ => return None,
    };
    number.checked_mul(unit)
}

fn as_text(ctx: &Context, events: &[Event]) -> String {
    if events.is_empty() {
        return "No compaction events.\n".to_string();
    }
    let mut text = String::new();
    let header = [
        "WHEN",
        "PROJECT",
        "EVENT",
        "TRIGGER",
        "FILL",
        "ACKNOWLEDGED",
        "SUMMARY",
    ];
    line(&mut text, header.map(String::from));
    for e in events {
        let when = match e.time {
            Some(t) => describe_age(ctx.now.seconds_since(t)),
            None => e.timestamp.clone().unwrap_or_else(|| "time unknown".into()),
        };
        let ack = match e.acknowledged {
            Some(true) => "acknowledged",
            Some(false) => "UNACKNOWLEDGED",
            None => "-",
        };
        let dropped = match e.dropped {
            Some(0) => "dropped nothing".to_string(),
            Some(n) => format!("dropped {n}"),
            None => "no summary".to_string(),
        };
        line(
            &mut text,
            [
                when,
                e.project.clone().unwrap_or_else(|| "(no workflow)".into()),
                e.id.clone(),
                e.trigger.clone().unwrap_or_else(|| "-".into()),
                e.fill_before
                    .map_or("-".into(), |f| format!("{:.0}%", f * 100.0)),
                ack.to_string(),
                dropped,
            ],
        );
    }
    text
}

/// One row: each column cut and padded to its width, the last as it is.
fn line(text: &mut String, columns: [String; 7]) {
    const WIDTHS: [usize; 6] = [12, 28, 24, 7, 4, 14];
    let mut row: Vec<String> = columns
        .iter()
        .zip(WIDTHS)
        .map(|(c, w)| pad(&truncate_line(c, w), w))
        .collect();
    row.extend(columns.last().cloned());
    text.push_str(row.join(" ").trim_end());
    text.push('\n');
}

#[cfg(test)]
mod tests {
    use super::parse_duration;

    #[test]
    fn durations_take_a_unit() {
        assert_eq!(parse_duration("90s"), Some(90));
        assert_eq!(parse_duration("45m"), Some(2_700));
        assert_eq!(parse_duration("12h"), Some(43_200));
        assert_eq!(parse_duration(" 7d "), Some(604_800));
        assert_eq!(parse_duration("30"), Some(1_800));
        assert_eq!(parse_duration("h"), None);
        assert_eq!(parse_duration("3 fortnights"), None);
        assert_eq!(parse_duration("-3h"), None);
        assert_eq!(parse_duration("99999999999999999999d"), None);
    }
}
