//! Anchors (`&name`) and aliases (`*name`) in value position, read as
//! `yaml_serde` reads them: an alias is a copy of the node its anchor is set on.
//! Merge keys get no meaning of their own: `<<` is a plain key, as for
//! `yaml_serde`.
//!
//! `yaml_serde` replays the anchor's events at each alias; here the anchored
//! value is cloned, with the limits `yaml_serde` and its guard apply counted the
//! same way, so that anything either would refuse is left to it (and refused there
//! with its own message and place):
//! - the guard's value budget (`guard::budget`): every value built, keys
//!   included, each copy counted again in full;
//! - `yaml_serde`'s repetition limit: 100 alias jumps per event of the document,
//!   a jump being each alias met, inside copies too;
//! - the 128 levels of nesting, copies included.
//!
//! An alias bomb copies up to the whole budget before it is found out (about a
//! million values, 150 ms, for a 1 MB file). So past [`EAGER_COPIES`] values
//! copied the reader only counts: each alias then stands as a stand-in as deeply
//! nested as its copy (the nesting limit sees what it would), and a document that
//! ends within the limits is read again with every copy made (`parse::read`).
//!
//! Also left to `yaml_serde`: a name anchored twice (`yaml_serde` numbers
//! anchors by how many names it has seen, so a second `&x` can take the number
//! of another name's anchor, and an alias means the last node given its number,
//! even one further down), an alias to an anchor whose node is still open
//! (recursion), to a node holding a duplicate key (reported again at each copy),
//! anchors and aliases as keys, an anchor with nothing after it on its line but
//! an indentless list, and an anchor on an empty node.

use std::collections::HashMap;

use yaml_serde::Value;

/// What an anchor name points at.
enum Anchor {
    /// Set on a node still being read.
    Open,
    Closed(Copy),
    /// Its node holds a duplicate key.
    Refused,
}

struct Copy {
    value: Value,
    /// Values `yaml_serde` builds when it replays the node.
    values: usize,
    /// Alias jumps inside the node.
    jumps: usize,
    /// Collections nested in one another, the node's own included.
    depth: usize,
}

/// The anchors seen so far and what has been built, counted as `yaml_serde`
/// counts.
pub(super) struct Aliases<'a> {
    anchors: HashMap<&'a str, Anchor>,
    /// Values read from the text (keys included).
    pub values: usize,
    /// Parser events of the text: a scalar or an alias is one, a collection two.
    pub events: usize,
    /// Values made by copies.
    copied: usize,
    jumps: usize,
    /// The jumps counted up to the first alias past the budget: at most what
    /// `yaml_serde` has jumped when it refuses the document there.
    jumps_when_over: Option<usize>,
    budget: usize,
    /// Whether copies may stop being made ([`EAGER_COPIES`]); not on a second read.
    may_count_only: bool,
    /// Copies stopped being made: the values read are only good for counting.
    pub counting_only: bool,
}

/// Values copied before the reader only counts.
pub const EAGER_COPIES: usize = 50_000;

/// Where an anchor's node started, to close it.
pub(super) struct Started<'a> {
    name: &'a str,
    values: usize,
    copied: usize,
    jumps: usize,
    duplicates: usize,
}

impl<'a> Aliases<'a> {
    /// Counts as below, and may stop making copies (an alias bomb's cost).
    pub fn new(budget: usize) -> Self {
        Self::with(budget, true)
    }

    /// Counts as below, making every copy.
    pub fn making_every_copy(budget: usize) -> Self {
        Self::with(budget, false)
    }

    /// Counts as below, making no copy at all: only the limits are checked.
    pub fn only_counting(budget: usize) -> Self {
        Self {
            counting_only: true,
            ..Self::with(budget, true)
        }
    }

    fn with(budget: usize, may_count_only: bool) -> Self {
        Self {
            anchors: HashMap::new(),
            values: 0,
            events: 0,
            copied: 0,
            jumps: 0,
            jumps_when_over: None,
            budget,
            may_count_only,
            counting_only: false,
        }
    }

    pub fn scalar(&mut self) {
        self.values += 1;
        self.events += 1;
    }

    pub fn collection(&mut self) {
        self.values += 1;
        self.events += 2;
    }

    /// An anchor set on the node about to be read; `duplicates` is how many
    /// duplicate keys were found so far. `None` for a name anchored before.
    pub fn start(&mut self, name: &'a str, duplicates: usize) -> Option<Started<'a>> {
        if self.anchors.insert(name, Anchor::Open).is_some() {
            return None;
        }
        Some(Started {
            name,
            values: self.values,
            copied: self.copied,
            jumps: self.jumps,
            duplicates,
        })
    }

    /// The anchored node has been read.
    pub fn close(&mut self, started: Started<'a>, value: &Value, duplicates: usize) {
        let anchor = if duplicates > started.duplicates {
            Anchor::Refused
        } else {
            Anchor::Closed(Copy {
                value: value.clone(),
                values: (self.values - started.values) + (self.copied - started.copied),
                jumps: self.jumps - started.jumps,
                depth: depth(value),
            })
        };
        self.anchors.insert(started.name, anchor);
    }

    /// The copy an alias stands for, at `nesting` collections deep; `None` when
    /// `yaml_serde` may refuse it or read it otherwise. Past the value budget
    /// nothing is copied any more (the document is refused): the alias is
    /// counted, and stands as a null while the rest is read.
    pub fn alias(&mut self, name: &str, nesting: usize) -> Option<Value> {
        let Some(Anchor::Closed(copy)) = self.anchors.get(name) else {
            return None;
        };
        if nesting + copy.depth >= super::YAML_SERDE_DEPTH {
            return None;
        }
        self.copied = self.copied.saturating_add(copy.values);
        self.jumps = self.jumps.saturating_add(copy.jumps).saturating_add(1);
        self.events += 1;
        if self.over_budget() {
            self.jumps_when_over.get_or_insert(self.jumps);
            return Some(Value::Null);
        }
        if self.may_count_only && self.copied > EAGER_COPIES {
            self.counting_only = true;
        }
        if self.counting_only {
            return Some(stand_in(copy.depth));
        }
        Some(copy.value.clone())
    }

    /// The values built, copies included (made or only counted).
    pub fn built(&self) -> usize {
        self.values.saturating_add(self.copied)
    }

    /// Whether the values built, copies included, are past the guard's budget.
    pub fn over_budget(&self) -> bool {
        self.built() > self.budget
    }

    /// Whether the alias jumps stay within `yaml_serde`'s repetition limit.
    pub fn within_repetition_limit(&self) -> bool {
        self.jumps <= self.events.saturating_mul(100)
    }

    /// Whether `yaml_serde` reaches the value budget before its repetition
    /// limit: the jumps up to the first alias past the budget (or all of them,
    /// when values read from the text went past it last) stay within the limit.
    pub fn over_budget_first(&self) -> bool {
        self.over_budget()
            && self.jumps_when_over.unwrap_or(self.jumps) <= self.events.saturating_mul(100)
    }

    /// Whether the whole document stays within the value budget and
    /// `yaml_serde`'s repetition limit.
    pub fn within_limits(&self) -> bool {
        !self.over_budget() && self.within_repetition_limit()
    }
}

/// A value nested `depth` lists deep, standing for a copy not made.
fn stand_in(depth: usize) -> Value {
    (0..depth).fold(Value::Null, |inner, _| Value::Sequence(vec![inner]))
}

/// Collections nested in one another in `value`, its own included.
fn depth(value: &Value) -> usize {
    match value {
        Value::Sequence(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
        Value::Mapping(map) => {
            1 + map
                .iter()
                .map(|(k, v)| depth(k).max(depth(v)))
                .max()
                .unwrap_or(0)
        }
        Value::Tagged(tagged) => depth(&tagged.value),
        _ => 0,
    }
}

/// The anchor or alias name at the start of `text` (after its `&` or `*`), as
/// libyaml reads one: letters, digits, `_` and `-`; and the text after it.
pub(super) fn name(text: &str) -> Option<(&str, &str)> {
    let end = text
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
        .unwrap_or(text.len());
    if end == 0 {
        return None;
    }
    Some((text.get(..end)?, text.get(end..)?))
}
