//! The allocator tidied once a whole load is in, so that a change read later
//! does not pay for it.
//!
//! A load's worker threads allocate the workspace in glibc arenas of their own;
//! when the run loop drops the workspace it replaces, those small blocks go back
//! to the fast lists of the arenas they came from. A thread started later (a
//! project's reload) gets one of those arenas, and its first larger allocation
//! (the state file's bytes) first merges every block on those lists: at 10,000
//! projects tens of milliseconds of a change's time (`malloc_consolidate` in
//! `docs/performance.md`, round 7). `malloc_trim` does that merging for every
//! arena at once, here, after the load, and returns what is free to the system.

/// Merges the freed blocks of every arena and gives free pages back.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn tidy_after_load() {
    // SAFETY: malloc_trim takes no pointer; it walks glibc's own arenas under
    // their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators keep no such lists for a later allocation to merge.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn tidy_after_load() {}
