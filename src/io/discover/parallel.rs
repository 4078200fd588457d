//! Walking the folders on the stack: on this thread while there are few, then on
//! every core. A large workspace has thousands of folders, and listing each is a
//! handful of system calls; a hook's walk of a small folder starts no thread.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, PoisonError};

use super::{Discovery, Pending, push_dir, walk_one};

/// Folders read on the calling thread before the rest is shared out.
const SERIAL_FOLDERS: usize = 64;
const MAX_THREADS: usize = 4;

/// Walks every folder on `stack` and the folders found in them. The files,
/// diagnostics and state folders come out in no particular order (callers sort).
pub(super) fn walk_stack(
    stack: &mut Vec<Pending>,
    links: &mut Vec<(Pending, String)>,
    visited: &mut HashSet<PathBuf>,
    discovery: &mut Discovery,
) {
    let mut subfolders = Vec::new();
    for _ in 0..SERIAL_FOLDERS {
        let Some(dir) = stack.pop() else {
            return;
        };
        walk_one(&dir, &mut subfolders, links, discovery);
        for (path, rel, canonical) in subfolders.drain(..) {
            push_dir(&dir, path, rel, canonical, stack, visited, discovery);
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = threads.clamp(1, MAX_THREADS);
    let shared = Mutex::new(Shared {
        stack: std::mem::take(stack),
        visited: std::mem::take(visited),
        links: std::mem::take(links),
        busy: 0,
    });
    let wake = Condvar::new();
    let parts: Vec<Discovery> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| scope.spawn(|| worker(&shared, &wake)))
            .collect();
        workers.into_iter().filter_map(|w| w.join().ok()).collect()
    });
    let shared = shared.into_inner().unwrap_or_else(PoisonError::into_inner);
    *stack = shared.stack;
    *visited = shared.visited;
    *links = shared.links;
    for part in parts {
        discovery.files.extend(part.files);
        discovery.diagnostics.extend(part.diagnostics);
        discovery.state_folders.extend(part.state_folders);
        discovery.excluded.extend(part.excluded);
    }
}

struct Shared {
    stack: Vec<Pending>,
    visited: HashSet<PathBuf>,
    links: Vec<(Pending, String)>,
    /// Workers reading a folder (and so perhaps about to push more).
    busy: usize,
}

/// Takes folders off the shared stack until it is empty and nobody is reading
/// one; what it finds it keeps, and hands back when done.
fn worker(shared: &Mutex<Shared>, wake: &Condvar) -> Discovery {
    let lock = || shared.lock().unwrap_or_else(PoisonError::into_inner);
    let mut found = Discovery::default();
    let mut subfolders = Vec::new();
    let mut links = Vec::new();
    loop {
        let dir = {
            let mut state = lock();
            loop {
                if let Some(dir) = state.stack.pop() {
                    state.busy += 1;
                    break dir;
                }
                if state.busy == 0 {
                    wake.notify_all();
                    return found;
                }
                state = wake.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        };
        walk_one(&dir, &mut subfolders, &mut links, &mut found);
        let mut state = lock();
        let Shared {
            stack,
            visited,
            links: shared_links,
            busy,
        } = &mut *state;
        for (path, rel, canonical) in subfolders.drain(..) {
            push_dir(&dir, path, rel, canonical, stack, visited, &mut found);
        }
        shared_links.append(&mut links);
        *busy -= 1;
        wake.notify_all();
    }
}
