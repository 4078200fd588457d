//! Walking the folders on the stack: on this thread while there are few, then on
//! every core. A large workspace has thousands of folders, and listing each is a
//! handful of system calls; a hook's walk of a small folder starts no thread.
//!
//! Each thread walks what it finds itself, depth first, on a stack of its own;
//! the shared stack is touched only to take work when a thread has none, or to
//! hand half of its own over when another thread is waiting for some.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

use super::{Discovery, Lister, Pending, Subfolder, lock, next_folder, walk_one};

/// Folders read on the calling thread before the rest is shared out.
const SERIAL_FOLDERS: usize = 64;
const MAX_THREADS: usize = 4;

/// What one thread found: the files and diagnostics, the symlinks to follow
/// last, and the folders it walked that no symlink led to (see `walk`).
#[derive(Default)]
struct Part {
    found: Discovery,
    links: Vec<(Pending, String)>,
    walked: Vec<PathBuf>,
}

/// One thread's listing buffers.
struct Walker {
    lister: Lister,
    subfolders: Vec<Subfolder>,
}

impl Walker {
    fn new() -> Self {
        Walker {
            lister: Lister::new(),
            subfolders: Vec::new(),
        }
    }

    /// Lists `dir` and puts the folders in it to walk on `stack`.
    fn walk(
        &mut self,
        dir: Pending,
        stack: &mut Vec<Pending>,
        part: &mut Part,
        visited: &Mutex<HashSet<PathBuf>>,
    ) {
        walk_one(
            &dir,
            &mut self.lister,
            &mut self.subfolders,
            &mut part.links,
            &mut part.found,
        );
        for found in self.subfolders.drain(..) {
            stack.extend(next_folder(&dir, found, visited, &mut part.found));
        }
        if dir.canonical.is_none() {
            part.walked.push(dir.path);
        }
    }
}

/// Walks every folder on `stack` and the folders found in them. The files,
/// diagnostics and state folders come out in no particular order (callers sort).
/// The symlinks found go to `links`, and the folders walked that no symlink led
/// to, to `walked`.
pub(super) fn walk_stack(
    stack: &mut Vec<Pending>,
    links: &mut Vec<(Pending, String)>,
    walked: &mut Vec<PathBuf>,
    visited: &Mutex<HashSet<PathBuf>>,
    discovery: &mut Discovery,
) {
    let mut walker = Walker::new();
    let mut here = Part::default();
    for _ in 0..SERIAL_FOLDERS {
        let Some(dir) = stack.pop() else {
            break;
        };
        walker.walk(dir, stack, &mut here, visited);
    }
    let mut parts = vec![here];
    if !stack.is_empty() {
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        let shares = Shares {
            shared: Mutex::new(Shared {
                stack: std::mem::take(stack),
                waiting: 0,
                done: false,
            }),
            wake: Condvar::new(),
            waiting: AtomicUsize::new(0),
            threads: threads.clamp(1, MAX_THREADS),
        };
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..shares.threads)
                .map(|_| scope.spawn(|| worker(&shares, visited)))
                .collect();
            parts.extend(workers.into_iter().filter_map(|w| w.join().ok()));
        });
    }
    for mut part in parts {
        discovery.files.append(&mut part.found.files);
        discovery.diagnostics.append(&mut part.found.diagnostics);
        discovery
            .state_folders
            .append(&mut part.found.state_folders);
        discovery.excluded.append(&mut part.found.excluded);
        links.append(&mut part.links);
        walked.append(&mut part.walked);
    }
}

struct Shares {
    shared: Mutex<Shared>,
    wake: Condvar,
    /// `Shared::waiting`, read without the lock: whether to hand work over.
    waiting: AtomicUsize,
    threads: usize,
}

struct Shared {
    stack: Vec<Pending>,
    /// Threads with no folder of their own, waiting for one.
    waiting: usize,
    /// Every thread was out of folders at once: the walk is over.
    done: bool,
}

/// Walks folders from its own stack, taking from the shared one when it is out,
/// until every thread is out; what it finds it keeps, and hands back when done.
fn worker(shares: &Shares, visited: &Mutex<HashSet<PathBuf>>) -> Part {
    let mut part = Part::default();
    let mut walker = Walker::new();
    let mut own = Vec::new();
    loop {
        let Some(dir) = own.pop().or_else(|| take_shared(shares)) else {
            return part;
        };
        walker.walk(dir, &mut own, &mut part, visited);
        if own.len() > 1 && shares.waiting.load(Ordering::Relaxed) > 0 {
            // The bottom of the stack: the folders nearest the top, with the
            // most below them.
            let half = own.len() / 2;
            lock(&shares.shared).stack.extend(own.drain(..half));
            shares.wake.notify_all();
        }
    }
}

/// A folder from the shared stack, waiting for one while another thread still
/// walks; `None` once no thread has any left.
fn take_shared(shares: &Shares) -> Option<Pending> {
    let mut state = lock(&shares.shared);
    loop {
        if let Some(dir) = state.stack.pop() {
            return Some(dir);
        }
        if state.done || state.waiting + 1 == shares.threads {
            state.done = true;
            shares.wake.notify_all();
            return None;
        }
        state.waiting += 1;
        shares.waiting.fetch_add(1, Ordering::Relaxed);
        state = shares
            .wake
            .wait(state)
            .unwrap_or_else(PoisonError::into_inner);
        state.waiting -= 1;
        shares.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}
