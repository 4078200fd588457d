//! A tiny work-sharing map over scoped threads: the files of a workspace are read
//! and normalised on every core, and the results come back in input order.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Below this many items a second thread costs more than it saves.
const MIN_PER_THREAD: usize = 8;
const MAX_THREADS: usize = 8;

pub fn map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let threads = cores
        .min(MAX_THREADS)
        .min(items.len() / MIN_PER_THREAD)
        .max(1);
    if threads == 1 {
        return items.iter().map(&work).collect();
    }
    let next = AtomicUsize::new(0);
    let mut results: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(index) else {
                            break;
                        };
                        done.push((index, work(item)));
                    }
                    done
                })
            })
            .collect();
        // A worker that panicked loses its items; the others are still returned.
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_input_order_on_many_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let doubled = super::map(&items, |n| n * 2);
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert_eq!(super::map(&[] as &[u32], |n| *n), Vec::<u32>::new());
    }
}
