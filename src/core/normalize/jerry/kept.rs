//! The entries a cut (`prune::Cut`) keeps, walked in a parsed document rather
//! than in the text: what `hook_budget` counts, whichever way the file was read.

use yaml_serde::Value;

use super::prune::{Cut, Want, want};
use crate::core::normalize::value::key_text;

/// The values of `value` (at `path`) in the entries `cut` keeps, keys
/// included, counted up to `limit` and no further (what a hook's reading costs;
/// `hook_budget`). `inherited` is what the entry above wants, when it decides
/// for everything below it (the pruner's rule).
pub fn kept_values(
    value: &Value,
    cut: Cut,
    path: &mut Vec<Option<String>>,
    inherited: Option<Want>,
    limit: usize,
) -> usize {
    let mut count = 0;
    visit_kept(value, cut, path, inherited, &mut |_| {
        count += 1;
        count <= limit
    });
    count
}

/// Calls `visit` on each value of `value` (at `path`) in the entries `cut`
/// keeps, until it returns `false`.
pub fn visit_kept(
    value: &Value,
    cut: Cut,
    path: &mut Vec<Option<String>>,
    inherited: Option<Want>,
    visit: &mut dyn FnMut(&Value) -> bool,
) {
    match inherited.unwrap_or_else(|| want_at(path, cut)) {
        Want::Drop => {}
        Want::Whole => {
            whole(value, visit);
        }
        Want::Descend => {
            kept(value, cut, path, visit);
        }
    }
}

/// What `cut` keeps of the entry at `path` (the top level is kept in part).
pub fn want_at(path: &[Option<String>], cut: Cut) -> Want {
    if path.is_empty() {
        return Want::Descend;
    }
    let path: Vec<Option<&str>> = path.iter().map(Option::as_deref).collect();
    want(&path, cut)
}

/// Calls `visit` on each value of the entries kept (a collection kept in part,
/// then its kept entries), until it returns `false`.
fn kept(
    value: &Value,
    cut: Cut,
    path: &mut Vec<Option<String>>,
    visit: &mut dyn FnMut(&Value) -> bool,
) -> bool {
    if !visit(value) {
        return false;
    }
    match value {
        Value::Mapping(map) => {
            for (k, v) in map {
                path.push(Some(key_text(k)));
                let go_on = match want_at(path, cut) {
                    Want::Drop => true,
                    Want::Whole => visit(k) && whole(v, visit),
                    Want::Descend => visit(k) && kept(v, cut, path, visit),
                };
                path.pop();
                if !go_on {
                    return false;
                }
            }
            true
        }
        Value::Sequence(items) => items.iter().all(|item| {
            path.push(None);
            let go_on = kept(item, cut, path, visit);
            path.pop();
            go_on
        }),
        _ => true,
    }
}

fn whole(value: &Value, visit: &mut dyn FnMut(&Value) -> bool) -> bool {
    if !visit(value) {
        return false;
    }
    match value {
        Value::Mapping(map) => map.iter().all(|(k, v)| visit(k) && whole(v, visit)),
        Value::Sequence(items) => items.iter().all(|item| whole(item, visit)),
        Value::Tagged(tagged) => whole(&tagged.value, visit),
        _ => true,
    }
}
