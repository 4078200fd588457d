//! `decision_log` / `decisions` (seed 002 sub-section 5) and `agent_summaries` (6).

use yaml_serde::Value;

use super::ctx::{Ctx, child, kind};
use super::fields::Fields;
use crate::core::model::{AgentSummary, Decision};
use crate::core::normalize::value::{get, get_text, int, key_text, text, to_json};

const DECISION_KEYS: &[&str] = &[
    "id",
    "gate",
    "iteration",
    "decision",
    "rationale",
    "affects_phases",
    "applied",
    "date",
];

/// `None` when the value is not a list (kept as an other field by the caller).
pub(super) fn read_decisions(value: &Value, ctx: &mut Ctx, path: &[&str]) -> Option<Vec<Decision>> {
    let items = match value {
        Value::Null => return Some(Vec::new()),
        Value::Sequence(items) => items,
        other => {
            ctx.wrong_type(path, "a list of decisions", other);
            return None;
        }
    };
    let mut decisions = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let index = format!("[{i}]");
        let at = child(path, &index);
        if let Some(decision) = text(item) {
            decisions.push(Decision {
                decision,
                ..Decision::default()
            });
        } else if item.is_mapping() {
            decisions.push(read_decision(item, ctx, &at));
        } else if !item.is_null() {
            ctx.warn(
                &at,
                format!("expected a decision map, found {}; skipped", kind(item)),
            );
        }
    }
    Some(decisions)
}

fn read_decision(item: &Value, ctx: &mut Ctx, path: &[&str]) -> Decision {
    let mut other = ctx.other_fields(item, DECISION_KEYS);
    let mut affects_phases = Vec::new();
    match get(item, "affects_phases") {
        Some(Value::Sequence(phases)) => {
            for phase in phases {
                match int(phase) {
                    Some(n) => affects_phases.push(n),
                    None => {
                        ctx.keep(
                            &mut other,
                            "affects_phases".into(),
                            &Value::Sequence(phases.clone()),
                        );
                        ctx.warn(
                            &child(path, "affects_phases"),
                            format!(
                                "{} is not a phase number; the list is kept under other fields",
                                to_json(phase)
                            ),
                        );
                        affects_phases.clear();
                        break;
                    }
                }
            }
        }
        Some(single) => affects_phases.extend(int(single)),
        None => {}
    }
    let mut f = Fields::new(item, path).keeping(&mut other);
    let decision = f.text(ctx, "decision").unwrap_or_default();
    let id = f.text(ctx, "id");
    let gate = f.text(ctx, "gate");
    let iteration = f.int(ctx, "iteration");
    let rationale = f.text(ctx, "rationale");
    let applied = f.bool(ctx, "applied");
    let date = f.text(ctx, "date");
    if decision.is_empty() && get(item, "decision").is_none_or(Value::is_null) {
        ctx.warn(path, "this decision has no `decision` text");
    }
    Decision {
        id,
        gate,
        iteration,
        decision,
        rationale,
        affects_phases,
        applied,
        date,
        other,
    }
}

/// A map `agent: summary`, a list of `{agent: summary}` maps (or `{agent, summary}`),
/// or a list of `"agent: summary"` strings. `None` when it is none of these.
pub(super) fn read_agent_summaries(
    value: &Value,
    ctx: &mut Ctx,
    path: &[&str],
) -> Option<Vec<AgentSummary>> {
    let mut out = Vec::new();
    match value {
        Value::Null => {}
        Value::Mapping(map) => {
            for (k, v) in map {
                out.push(AgentSummary {
                    agent: key_text(k),
                    summary: summary_text(v),
                });
            }
        }
        Value::Sequence(items) => {
            for (i, item) in items.iter().enumerate() {
                let index = format!("[{i}]");
                match item {
                    Value::String(s) => out.push(match s.split_once(':') {
                        Some((agent, summary)) => AgentSummary {
                            agent: agent.trim().to_string(),
                            summary: summary.trim().to_string(),
                        },
                        None => AgentSummary {
                            agent: String::new(),
                            summary: s.trim().to_string(),
                        },
                    }),
                    Value::Mapping(map) => match get_text(item, "agent") {
                        Some(agent) => out.push(AgentSummary {
                            agent,
                            summary: get(item, "summary").map(summary_text).unwrap_or_default(),
                        }),
                        None => out.extend(map.iter().map(|(k, v)| AgentSummary {
                            agent: key_text(k),
                            summary: summary_text(v),
                        })),
                    },
                    Value::Null => {}
                    other => ctx.warn(
                        &child(path, &index),
                        format!("expected `agent: summary`, found {}; skipped", kind(other)),
                    ),
                }
            }
        }
        other => {
            ctx.wrong_type(path, "a map of agent → summary", other);
            return None;
        }
    }
    Some(out)
}

fn summary_text(value: &Value) -> String {
    text(value)
        .or_else(|| get_text(value, "summary"))
        .unwrap_or_else(|| match value {
            Value::Null => String::new(),
            other => to_json(other).to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text_in: &str) -> Value {
        yaml_serde::from_str(text_in).unwrap()
    }

    #[test]
    fn decisions_read_known_fields_and_keep_the_rest_in_order() {
        let text_in = "- id: RD-001\n  gate: qg-2\n  iteration: 1\n  decision: Align holder\n  \
            rationale: NOTICE wins\n  affects_phases: [3]\n  applied: true\n  zeta: 1\n  alpha: 2\n\
            - decision: No id here\n  date: '2026-02-20'\n- A bare string decision\n";
        let mut ctx = Ctx::new("f.yaml", text_in);
        let d = read_decisions(&yaml(text_in), &mut ctx, &["resumption", "decision_log"]).unwrap();
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].id.as_deref(), Some("RD-001"));
        assert_eq!(d[0].affects_phases, vec![3]);
        assert_eq!(d[0].applied, Some(true));
        let keys: Vec<_> = d[0].other.keys().cloned().collect();
        assert_eq!(keys, vec!["zeta", "alpha"]);
        assert_eq!(d[1].id, None);
        assert_eq!(d[1].date.as_deref(), Some("2026-02-20"));
        assert_eq!(d[2].decision, "A bare string decision");
        assert!(ctx.diagnostics.is_empty());
    }

    #[test]
    fn odd_phases_are_kept_not_lost() {
        let text_in = "- decision: x\n  affects_phases: [2, phase-3]\n";
        let mut ctx = Ctx::new("f.yaml", text_in);
        let d = read_decisions(&yaml(text_in), &mut ctx, &["d"]).unwrap();
        assert!(d[0].affects_phases.is_empty());
        assert_eq!(
            d[0].other["affects_phases"],
            serde_json::json!([2, "phase-3"])
        );
        assert_eq!(ctx.diagnostics.len(), 1);
    }

    #[test]
    fn agent_summaries_in_every_form() {
        let mut ctx = Ctx::new("f.yaml", "");
        let map = read_agent_summaries(&yaml("a: PASS.\nb: 3\n"), &mut ctx, &["s"]).unwrap();
        assert_eq!(map[1].agent, "b");
        assert_eq!(map[1].summary, "3");
        let list = read_agent_summaries(
            &yaml("- a: DONE.\n- 'b: DONE: twice'\n- {agent: c, summary: ok}\n"),
            &mut ctx,
            &["s"],
        )
        .unwrap();
        let pairs: Vec<_> = list
            .iter()
            .map(|s| (s.agent.as_str(), s.summary.as_str()))
            .collect();
        assert_eq!(
            pairs,
            vec![("a", "DONE."), ("b", "DONE: twice"), ("c", "ok")]
        );
        assert!(ctx.diagnostics.is_empty());
        assert!(read_agent_summaries(&yaml("text"), &mut ctx, &["s"]).is_none());
        assert_eq!(ctx.diagnostics.len(), 1);
    }
}
