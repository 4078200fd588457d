//! The list brought up to date after a few projects were re-read, in time
//! proportional to the change rather than to the workspace: each project's share
//! of the header counts and of the id column's width is kept (`Tally`), and a
//! changed project's row is taken out and put back at its sorted place
//! (`replace_rows`) instead of filtering and sorting every project again.
//!
//! Both give what a full pass gives (`only::counts`, `view::longest_id`,
//! `list::visible`); the tests below compare them.

use std::collections::BTreeMap;

use super::list::{self, Haystacks, View, Waiting};
use super::only::Only;
use crate::core::model::Project;

/// One project's share: which header counts it is in, and its id's drawn width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Share {
    counted: [bool; Only::ALL.len()],
    id_width: usize,
}

impl Share {
    fn of(project: &Project, waiting: &Waiting) -> Share {
        Share {
            counted: Only::ALL.map(|only| only.matches(project, waiting)),
            id_width: super::view::drawn_id_width(&project.id),
        }
    }
}

/// The header counts and the widest id, with what each project adds to them.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    shares: Vec<Share>,
    counts: [usize; Only::ALL.len()],
    /// How many projects have an id this wide, by width.
    id_widths: BTreeMap<usize, usize>,
}

impl Tally {
    pub fn of(projects: &[Project], waiting: &Waiting) -> Tally {
        let mut tally = Tally::default();
        for project in projects {
            let share = Share::of(project, waiting);
            tally.add(share);
            tally.shares.push(share);
        }
        tally
    }

    /// True when it was taken of `projects` (the same number of them).
    pub fn covers(&self, projects: &[Project]) -> bool {
        self.shares.len() == projects.len()
    }

    /// Project `index` replaced by `project` (the waiting checkpoints unchanged).
    pub fn replace(&mut self, index: usize, project: &Project, waiting: &Waiting) {
        let share = Share::of(project, waiting);
        let Some(old) = self.shares.get(index).copied() else {
            return;
        };
        if old == share {
            return;
        }
        self.remove(old);
        self.add(share);
        if let Some(slot) = self.shares.get_mut(index) {
            *slot = share;
        }
    }

    /// How many projects each filter would show, in `Only::ALL` order.
    pub fn counts(&self) -> Vec<(Only, usize)> {
        Only::ALL.into_iter().zip(self.counts).collect()
    }

    pub fn longest_id(&self) -> usize {
        self.id_widths.keys().next_back().copied().unwrap_or(0)
    }

    fn add(&mut self, share: Share) {
        for (count, counted) in self.counts.iter_mut().zip(share.counted) {
            *count += usize::from(counted);
        }
        *self.id_widths.entry(share.id_width).or_insert(0) += 1;
    }

    fn remove(&mut self, share: Share) {
        for (count, counted) in self.counts.iter_mut().zip(share.counted) {
            *count -= usize::from(counted);
        }
        if let Some(n) = self.id_widths.get_mut(&share.id_width) {
            *n -= 1;
            if *n == 0 {
                self.id_widths.remove(&share.id_width);
            }
        }
    }
}

/// Projects `changed` (just replaced) taken out of `rows` (sorted by
/// `list::visible` for the same projects and waiting checkpoints) and, those the
/// filters show, put back where that sort puts them.
pub fn replace_rows(
    rows: &mut Vec<usize>,
    changed: &[usize],
    projects: &[Project],
    waiting: &Waiting,
    view: View,
    haystacks: &mut Haystacks,
) {
    // All out first: the rest is then sorted, as a binary search needs.
    rows.retain(|i| !changed.contains(i));
    for &index in changed {
        let Some(project) = projects.get(index) else {
            continue;
        };
        if rows.contains(&index) || !list::shown(index, project, waiting, view, haystacks) {
            continue;
        }
        let at = rows.partition_point(|&i| {
            projects
                .get(i)
                .is_some_and(|p| list::order(view, p, project, waiting).is_lt())
        });
        rows.insert(at, index);
    }
}

#[cfg(test)]
#[path = "list_change_tests.rs"]
mod tests;
