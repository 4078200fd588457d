//! Which projects the list shows and in what order: the fuzzy filter and the sorts.

use std::cmp::Ordering;

use crate::config::ContextConfig;
use crate::core::model::{Project, Workspace};

use super::model::Sort;
use super::only::Only;

pub use crate::core::urgency::{Waiting, waiting};

/// What the order of urgency reads besides the projects: the waiting checkpoints
/// and each session's fill against the configured thresholds.
pub fn urgency_inputs(workspace: &Workspace, context: &ContextConfig) -> Waiting {
    Waiting::new(&workspace.unassigned_checkpoints).with_fills(
        workspace,
        context.warning,
        context.critical,
    )
}

/// How urgently a project needs the operator: 0 first (`core::urgency`, the
/// order `list` uses too).
pub fn attention_rank(project: &Project, waiting: &Waiting) -> u8 {
    crate::core::urgency::rank(project, waiting)
}

fn newest_first(a: &Project, b: &Project) -> Ordering {
    crate::core::urgency::newest_first(a, b)
}

fn last_score(project: &Project) -> Option<f64> {
    project.trajectory.last_score().map(|(_, s)| s)
}

pub fn compare(sort: Sort, a: &Project, b: &Project, waiting: &Waiting) -> Ordering {
    let by = match sort {
        Sort::Attention => crate::core::urgency::compare(a, b, waiting),
        Sort::Updated => newest_first(a, b),
        Sort::Id => Ordering::Equal,
        Sort::Score => match (last_score(a), last_score(b)) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        },
    };
    by.then_with(|| a.id.cmp(&b.id))
}

/// True when every word of `query` is a case-insensitive subsequence of the
/// project's id, one of its aliases (`core::workspace::aliases`), name, phase or
/// status.
pub fn matches(project: &Project, query: &str) -> bool {
    Haystack::of(project).matches(query)
}

/// What the filter searches in one project, lower-cased once: its aliases (the
/// id first), name, phase, phase name and status. Kept per project between
/// refreshes (`Haystacks`): building it is most of a filter's cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Haystack {
    /// The project it was made from (the cache's check that a slot still holds it).
    id: String,
    fields: Vec<Vec<char>>,
}

impl Haystack {
    pub fn of(project: &Project) -> Haystack {
        let s = &project.summary;
        let aliases = crate::core::workspace::aliases(project);
        let fields = [
            project.name.as_deref(),
            s.phase.as_deref(),
            s.phase_name.as_deref(),
            s.status.as_deref(),
        ];
        let texts = aliases
            .iter()
            .map(String::as_str)
            .chain(fields.into_iter().flatten());
        Haystack {
            id: project.id.clone(),
            fields: texts.map(lower_chars).collect(),
        }
    }

    pub fn matches(&self, query: &str) -> bool {
        self.matches_words(&words(query))
    }

    fn matches_words(&self, words: &[Vec<char>]) -> bool {
        words
            .iter()
            .all(|needle| self.fields.iter().any(|hay| fuzzy_chars(hay, needle)))
    }
}

/// Each project's `Haystack`, by its index in the workspace, made when first
/// needed. A slot whose project was replaced is dropped (`forget`); a whole load
/// drops them all (`clear`); a slot made for another id is made again.
#[derive(Debug, Clone, Default)]
pub struct Haystacks {
    by_index: Vec<Option<Haystack>>,
}

impl Haystacks {
    pub fn clear(&mut self) {
        self.by_index.clear();
    }

    pub fn forget(&mut self, index: usize) {
        if let Some(slot) = self.by_index.get_mut(index) {
            *slot = None;
        }
    }

    fn matches(&mut self, index: usize, project: &Project, words: &[Vec<char>]) -> bool {
        if self.by_index.len() <= index {
            self.by_index.resize(index + 1, None);
        }
        let Some(slot) = self.by_index.get_mut(index) else {
            return Haystack::of(project).matches_words(words);
        };
        match slot {
            Some(hay) if hay.id == project.id => hay.matches_words(words),
            _ => slot.insert(Haystack::of(project)).matches_words(words),
        }
    }
}

/// The words of a query, each lower-cased.
fn words(query: &str) -> Vec<Vec<char>> {
    query.split_whitespace().map(lower_chars).collect()
}

fn lower_chars(text: &str) -> Vec<char> {
    text.chars().flat_map(char::to_lowercase).collect()
}

/// Subsequence match ignoring case, with the matched characters close together
/// (within three characters per character typed), so that `pyv2` finds
/// `payouts-v2` but `fraud` does not find a long name that merely contains
/// f…r…a…u…d somewhere.
pub fn fuzzy(haystack: &str, needle: &str) -> bool {
    fuzzy_chars(&lower_chars(haystack), &lower_chars(needle))
}

/// `fuzzy` on text already lower-cased.
fn fuzzy_chars(hay: &[char], needle: &[char]) -> bool {
    let Some(&first) = needle.first() else {
        return true;
    };
    let max_span = needle.len() * 3;
    hay.iter()
        .enumerate()
        .filter(|(_, c)| **c == first)
        .any(|(start, _)| {
            let mut pos = start;
            for n in needle.iter().skip(1) {
                match hay
                    .get(pos + 1..)
                    .and_then(|rest| rest.iter().position(|c| c == n))
                {
                    Some(offset) => pos += 1 + offset,
                    None => return false,
                }
            }
            pos - start < max_span
        })
}

/// How the list is narrowed and ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View<'a> {
    pub query: &'a str,
    pub only: Option<Only>,
    pub sort: Sort,
    /// The sort's order turned around.
    pub reverse: bool,
    /// The project the operator chose: the header filter (`only`) keeps showing
    /// it after a change of its own (an acknowledged checkpoint) takes it out of
    /// the set, so the cursor stays on it until the operator moves.
    pub keep: Option<&'a str>,
}

/// Indices of the projects to show: matching the query and the header filter,
/// sorted.
pub fn visible(
    projects: &[Project],
    waiting: &Waiting,
    view: View,
    haystacks: &mut Haystacks,
) -> Vec<usize> {
    let words = words(view.query);
    let mut rows: Vec<usize> = projects
        .iter()
        .enumerate()
        .filter(|(i, p)| passes(*i, p, waiting, view, &words, haystacks))
        .map(|(i, _)| i)
        .collect();
    let turn = |order: Ordering| if view.reverse { order.reverse() } else { order };
    if view.sort == Sort::Attention {
        // The attention rank once a row, not once a comparison: it counts the
        // unassigned checkpoints the project's events name.
        let mut ranked: Vec<(u8, &Project, usize)> = rows
            .iter()
            .filter_map(|&i| projects.get(i).map(|p| (attention_rank(p, waiting), p, i)))
            .collect();
        ranked.sort_by(|(ra, a, _), (rb, b, _)| {
            turn(
                ra.cmp(rb)
                    .then_with(|| newest_first(a, b))
                    .then_with(|| a.id.cmp(&b.id)),
            )
        });
        return ranked.into_iter().map(|(_, _, i)| i).collect();
    }
    rows.sort_by(|&a, &b| match (projects.get(a), projects.get(b)) {
        (Some(a), Some(b)) => order(view, a, b, waiting),
        _ => Ordering::Equal,
    });
    rows
}

/// True when `visible` shows project `index` (`project`).
pub fn shown(
    index: usize,
    project: &Project,
    waiting: &Waiting,
    view: View,
    haystacks: &mut Haystacks,
) -> bool {
    passes(index, project, waiting, view, &words(view.query), haystacks)
}

fn passes(
    index: usize,
    project: &Project,
    waiting: &Waiting,
    view: View,
    words: &[Vec<char>],
    haystacks: &mut Haystacks,
) -> bool {
    let kept = view.keep == Some(project.id.as_str());
    (kept || view.only.is_none_or(|o| o.matches(project, waiting)))
        && (words.is_empty() || haystacks.matches(index, project, words))
}

/// The order `visible` sorts its rows in (the sort, turned around if asked).
pub fn order(view: View, a: &Project, b: &Project, waiting: &Waiting) -> Ordering {
    let order = compare(view.sort, a, b, waiting);
    if view.reverse { order.reverse() } else { order }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Checkpoint;

    #[test]
    fn fuzzy_is_a_case_insensitive_subsequence() {
        assert!(fuzzy("orchestration-sync", "ors"));
        assert!(fuzzy("PROJ-001", "p01"));
        assert!(fuzzy("ACTIVE", "act"));
        assert!(!fuzzy("ACTIVE", "tca"));
        assert!(fuzzy("anything", ""));
        assert!(fuzzy("payouts-v2-20260302-001", "pyv2"));
        assert!(!fuzzy(
            "Developer docs site rewrite: API reference and guides",
            "fraud"
        ));
        assert!(fuzzy("fraud-audit", "fraud"));
    }

    #[test]
    fn the_filter_finds_a_project_by_an_alias() {
        let p = crate::core::normalize::jerry::normalize_orchestration(
            "projects/PROJ-010-cyber-ops/ORCHESTRATION.yaml",
            "projects/PROJ-010-cyber-ops",
            "workflow: {id: ops-20260222-001}\n",
        );
        assert!(matches(&p, "PROJ-010"));
        assert!(matches(&p, "cyber"));
        assert!(!matches(&p, "PROJ-011"));
    }

    fn jerry(dir: &str, yaml: &str) -> Project {
        crate::core::normalize::jerry::normalize_orchestration(
            &format!("{dir}/ORCHESTRATION.yaml"),
            dir,
            yaml,
        )
    }

    fn view(query: &str) -> View<'_> {
        View {
            keep: None,
            query,
            only: None,
            sort: Sort::Id,
            reverse: false,
        }
    }

    #[test]
    fn kept_haystacks_find_what_a_fresh_search_finds() {
        let projects = vec![
            jerry(
                "projects/PROJ-010-cyber-ops",
                "workflow: {id: ops-20260222-001}\n",
            ),
            jerry(
                "projects/PROJ-011-payouts",
                "workflow: {id: pay-20260222-001}\n",
            ),
        ];
        let mut kept = Haystacks::default();
        for query in ["", "cyber", "PROJ-011", "p01", "nothing", "ops cyber"] {
            let fresh: Vec<usize> = (0..projects.len())
                .filter(|&i| matches(&projects[i], query))
                .collect();
            assert_eq!(
                visible(&projects, &Waiting::default(), view(query), &mut kept),
                fresh,
                "{query}"
            );
        }
    }

    #[test]
    fn a_replaced_project_is_searched_as_it_is_now() {
        let mut projects = vec![jerry(
            "projects/PROJ-010-cyber-ops",
            "workflow: {id: ops-20260222-001, name: Harbour}\n",
        )];
        let mut kept = Haystacks::default();
        assert_eq!(
            visible(&projects, &Waiting::default(), view("harbour"), &mut kept),
            [0]
        );
        // The same id, another name: the slot is forgotten when the project is replaced.
        projects[0] = jerry(
            "projects/PROJ-010-cyber-ops",
            "workflow: {id: ops-20260222-001, name: Lighthouse}\n",
        );
        kept.forget(0);
        assert!(visible(&projects, &Waiting::default(), view("harbour"), &mut kept).is_empty());
        assert_eq!(
            visible(
                &projects,
                &Waiting::default(),
                view("lighthouse"),
                &mut kept
            ),
            [0]
        );
        // Another project in the slot (a whole load without `clear`): made again.
        projects[0] = jerry(
            "projects/PROJ-012-mesh",
            "workflow: {id: mesh-20260222-001}\n",
        );
        assert_eq!(
            visible(&projects, &Waiting::default(), view("mesh"), &mut kept),
            [0]
        );
    }

    /// The rule `Waiting` prepares, spelled out one checkpoint at a time.
    fn waiting_by_scan(project: &Project, unassigned: &[Checkpoint]) -> usize {
        let events = project
            .resumption
            .as_ref()
            .and_then(|r| r.compaction.as_ref())
            .map_or(&[][..], |c| c.events.as_slice());
        let named = unassigned
            .iter()
            .filter(|cp| !cp.acknowledged)
            .filter(|cp| {
                events.iter().any(|e| {
                    e.id.as_deref()
                        .is_some_and(|id| id.eq_ignore_ascii_case(&cp.id))
                })
            })
            .count();
        project.unacknowledged_checkpoints().count() + named
    }

    #[test]
    fn waiting_prepared_once_counts_as_waiting_does() {
        let dir = tempfile::tempdir().unwrap();
        let now = crate::core::time::Timestamp(1_771_331_696);
        crate::io::demo::unpack_into(dir.path(), now).unwrap();
        let ws = crate::io::load::load_workspace(
            dir.path(),
            &crate::io::env::Env::default(),
            now,
            &crate::config::Config::default(),
        );
        let mut unassigned = ws.unassigned_checkpoints.clone();
        // The same ids again, in another case and acknowledged or not.
        for cp in ws
            .unassigned_checkpoints
            .iter()
            .chain(ws.projects.iter().flat_map(|p| &p.checkpoints))
        {
            let mut again = cp.clone();
            again.id = again.id.to_ascii_uppercase();
            unassigned.push(again.clone());
            again.acknowledged = !again.acknowledged;
            unassigned.push(again);
        }
        let prepared = Waiting::new(&unassigned);
        let mut named = 0;
        for project in &ws.projects {
            assert_eq!(
                prepared.of(project),
                waiting_by_scan(project, &unassigned),
                "{}",
                project.id
            );
            named += waiting_by_scan(project, &unassigned)
                - project.unacknowledged_checkpoints().count();
        }
        assert!(
            named > 0,
            "some project's events name unassigned checkpoints"
        );
    }
}
