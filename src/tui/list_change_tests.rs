use super::*;
use crate::core::model::Checkpoint;
use crate::core::staleness::StalenessLevel;
use crate::core::time::Timestamp;
use crate::tui::model::Sort;

const NOW: Timestamp = Timestamp(1_771_331_696);

fn demo() -> (Vec<Project>, Vec<Checkpoint>) {
    let dir = crate::io::demo::unpack(NOW).unwrap();
    let ws = crate::io::load::load_workspace(
        dir.path(),
        &crate::io::env::Env::default(),
        NOW,
        &crate::config::Config::default(),
    );
    (ws.projects, ws.unassigned_checkpoints)
}

/// Project `index` changed in every way the list looks at, `step` choosing how.
fn changed(mut project: Project, step: usize) -> Project {
    project.staleness.level = [
        StalenessLevel::Critical,
        StalenessLevel::Stale,
        StalenessLevel::Unknown,
        StalenessLevel::Fresh,
    ][step % 4];
    project.summary.updated_at = match step % 3 {
        0 => None,
        1 => Some(Timestamp(NOW.0 + 3_600)),
        _ => Some(Timestamp(0)),
    };
    if step.is_multiple_of(2) {
        project.name = Some(format!("renamed harbour {step}"));
    }
    if step.is_multiple_of(5) {
        project.id = format!("{}-with-a-much-longer-id-than-any-other", project.id);
    }
    for checkpoint in &mut project.checkpoints {
        checkpoint.acknowledged = !step.is_multiple_of(2);
    }
    project
}

fn views(query: &str) -> Vec<View<'_>> {
    let sorts = [Sort::Attention, Sort::Updated, Sort::Id, Sort::Score];
    let onlies = std::iter::once(None).chain(Only::ALL.map(Some));
    let mut views = Vec::new();
    for only in onlies {
        for sort in sorts {
            for reverse in [false, true] {
                views.push(View {
                    keep: None,
                    query,
                    only,
                    sort,
                    reverse,
                });
            }
        }
    }
    views
}

#[test]
fn rows_counts_and_widths_redone_for_changed_projects_equal_a_full_pass() {
    let (mut projects, unassigned) = demo();
    assert!(projects.len() > 5, "the demo has projects");
    let waiting = Waiting::new(&unassigned);
    let mut tally = Tally::of(&projects, &waiting);
    let mut checked = 0;
    for step in 0..12 {
        let picked: Vec<usize> = [step % projects.len(), (step * 7 + 3) % projects.len()]
            .into_iter()
            .take(1 + step % 2)
            .collect();
        let before = projects.clone();
        for &i in &picked {
            projects[i] = changed(projects[i].clone(), step);
            tally.replace(i, &projects[i], &waiting);
        }
        assert_eq!(
            tally.counts(),
            crate::tui::only::counts(&projects, &unassigned),
            "step {step}"
        );
        assert_eq!(
            tally.longest_id(),
            crate::tui::view::longest_id(&projects),
            "step {step}"
        );
        for query in ["", "harbour", "pay", "no such project"] {
            for view in views(query) {
                let mut kept = Haystacks::default();
                let mut rows = list::visible(&before, &Waiting::new(&unassigned), view, &mut kept);
                for &i in &picked {
                    kept.forget(i);
                }
                replace_rows(&mut rows, &picked, &projects, &waiting, view, &mut kept);
                let full = list::visible(
                    &projects,
                    &Waiting::new(&unassigned),
                    view,
                    &mut Haystacks::default(),
                );
                assert_eq!(rows, full, "step {step}, {view:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000);
}

#[test]
fn a_project_back_as_it_was_gives_the_counts_and_widths_it_had() {
    let (mut projects, unassigned) = demo();
    let waiting = Waiting::new(&unassigned);
    let mut tally = Tally::of(&projects, &waiting);
    let (counts, widest) = (tally.counts(), tally.longest_id());
    let original = projects[0].clone();
    projects[0] = changed(original.clone(), 0);
    tally.replace(0, &projects[0], &waiting);
    assert!(tally.longest_id() > widest, "the long id widens the column");
    tally.replace(0, &original, &waiting);
    assert_eq!((tally.counts(), tally.longest_id()), (counts, widest));
}
