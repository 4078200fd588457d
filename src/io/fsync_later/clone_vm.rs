//! The fsync child without a copy of the hook's memory (Linux, x86-64).
//!
//! `fork` copies the page table entries of every page the hook has written, and
//! marks them copy-on-write: 0.3–0.5 ms for a hook's few megabytes on the benchmark
//! VM (docs/performance.md). `clone3` with `CLONE_VM` shares the address space
//! instead, as `posix_spawn` does; without `CLONE_VFORK` the hook does not wait for
//! the child, and the memory stays mapped for the child after the hook exits.
//!
//! Sharing memory with a process that goes on running and exiting means the child
//! may use nothing of the parent's runtime: no allocation, no thread-local storage
//! (so no `errno`, hence no libc calls), no locks, no panics. It runs on a stack of
//! its own, over a [`Plan`] the parent built and leaked, and makes raw system calls
//! only: close stdin, stdout and stderr, take a process group of its own, open,
//! fsync and close each file, then each folder, and `exit`. A failure is appended
//! to the log as one line, written with one `writev` (so concurrent appends never
//! split it). The child cannot ask libc for an error's text: the line ends with
//! "fsync failed (os error N)".

use std::ffi::{CString, c_void};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use super::{FailureLog, Resolved};

/// What the child does, built by the parent before the clone and never freed.
pub struct Plan {
    files: Vec<Target>,
    folders: Vec<CString>,
    log: Option<CString>,
}

struct Target {
    path: CString,
    /// The log line for a failure, up to the `(os error N)` the child adds.
    failure: Vec<u8>,
}

impl Plan {
    pub fn new(resolved: &Resolved, log: &FailureLog<'_>) -> Plan {
        Plan {
            files: resolved
                .files
                .iter()
                .filter_map(|path| {
                    Some(Target {
                        path: c_path(path)?,
                        failure: (log.line)(&format!("{}: fsync failed", path.display()))
                            .into_bytes(),
                    })
                })
                .collect(),
            folders: resolved.folders.iter().filter_map(|f| c_path(f)).collect(),
            log: log.path.as_deref().and_then(c_path),
        }
    }
}

fn c_path(path: &Path) -> Option<CString> {
    CString::new(path.as_os_str().as_bytes()).ok()
}

const STACK_BYTES: usize = 64 * 1024;

/// `struct clone_args` up to `tls` (`CLONE_ARGS_SIZE_VER0`, Linux 5.3).
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
}

/// Starts the child; its pid, or the kernel's refusal (the caller then forks).
pub fn spawn(plan: Plan) -> std::io::Result<u32> {
    let plan: &'static Plan = Box::leak(Box::new(plan));
    let stack: &'static mut [std::mem::MaybeUninit<u8>] =
        Box::leak(Box::new_uninit_slice(STACK_BYTES));
    let base = stack.as_mut_ptr() as u64;
    // The kernel starts the child at base + size; a call there needs 16-byte
    // alignment.
    let size = (base + STACK_BYTES as u64) / 16 * 16 - base;
    let args = CloneArgs {
        flags: libc::CLONE_VM as u64,
        exit_signal: libc::SIGCHLD as u64,
        stack: base,
        stack_size: size,
        ..CloneArgs::default()
    };
    let returned: isize;
    // SAFETY: clone3 returns twice. The parent gets the child's pid (or -errno)
    // in rax and goes on; no register the compiler relies on is changed on that
    // path (syscall clobbers only rcx and r11). The child gets 0, its stack
    // pointer at the top of the leaked `stack`, and calls `child` with the leaked
    // plan; `child` never returns. The plan and the stack are never freed, so the
    // child reads valid memory however long the parent lives.
    unsafe {
        std::arch::asm!(
            "syscall",
            "test rax, rax",
            "jnz 2f",
            "xor ebp, ebp",
            "mov rdi, r12",
            "call r13",
            "ud2",
            "2:",
            inlateout("rax") libc::SYS_clone3 as isize => returned,
            in("rdi") &args as *const CloneArgs,
            in("rsi") std::mem::size_of::<CloneArgs>(),
            in("r12") plan as *const Plan,
            in("r13") child as extern "C" fn(*const Plan) -> ! as usize,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    if returned < 0 {
        return Err(std::io::Error::from_raw_os_error(-returned as i32));
    }
    Ok(returned as u32)
}

/// The child: raw system calls only (see the module's comment).
extern "C" fn child(plan: *const Plan) -> ! {
    // SAFETY: `spawn` passes the leaked plan, valid for the process's life.
    let plan = unsafe { &*plan };
    for fd in 0..=2 {
        sys(libc::SYS_close, [fd, 0, 0, 0]);
    }
    sys(libc::SYS_setpgid, [0, 0, 0, 0]);
    let read_only = (libc::O_RDONLY | libc::O_NONBLOCK | libc::O_CLOEXEC) as usize;
    for file in &plan.files {
        let result = fsync_path(&file.path, read_only);
        if result < 0 && result != -(libc::ENOENT as isize) {
            report(plan, file, result.unsigned_abs());
        }
    }
    let folder = (libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC) as usize;
    for path in &plan.folders {
        fsync_path(path, folder);
    }
    sys(libc::SYS_exit, [0, 0, 0, 0]);
    // SAFETY: exit does not return.
    unsafe { std::hint::unreachable_unchecked() }
}

/// open, fsync, close: 0, or the first -errno.
fn fsync_path(path: &CString, flags: usize) -> isize {
    let fd = sys(
        libc::SYS_openat,
        [libc::AT_FDCWD as usize, path.as_ptr() as usize, flags, 0],
    );
    if fd < 0 {
        return fd;
    }
    let synced = sys(libc::SYS_fsync, [fd as usize, 0, 0, 0]);
    sys(libc::SYS_close, [fd as usize, 0, 0, 0]);
    synced.min(0)
}

/// Appends "<the file's failure line> (os error N)\n" to the log.
fn report(plan: &Plan, file: &Target, errno: usize) {
    let Some(log) = &plan.log else { return };
    let flags = libc::O_WRONLY
        | libc::O_APPEND
        | libc::O_CREAT
        | libc::O_NOFOLLOW
        | libc::O_NONBLOCK
        | libc::O_CLOEXEC;
    let fd = sys(
        libc::SYS_openat,
        [
            libc::AT_FDCWD as usize,
            log.as_ptr() as usize,
            flags as usize,
            0o600,
        ],
    );
    if fd < 0 {
        return;
    }
    let mut tail = [0u8; 32];
    let len = os_error(errno, &mut tail);
    let parts = [
        libc::iovec {
            iov_base: file.failure.as_ptr() as *mut c_void,
            iov_len: file.failure.len(),
        },
        libc::iovec {
            iov_base: tail.as_mut_ptr().cast(),
            iov_len: len,
        },
    ];
    sys(
        libc::SYS_writev,
        [fd as usize, parts.as_ptr() as usize, 2, 0],
    );
    sys(libc::SYS_close, [fd as usize, 0, 0, 0]);
}

/// Writes " (os error N)\n" into `out`; its length. Neither allocates nor panics.
fn os_error(errno: usize, out: &mut [u8; 32]) -> usize {
    let mut digits = [0u8; 20];
    let mut count = 0;
    let mut rest = errno;
    for slot in digits.iter_mut().rev() {
        *slot = b'0' + (rest % 10) as u8;
        count += 1;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    let text = b" (os error "
        .iter()
        .chain(digits.iter().skip(digits.len() - count))
        .chain(b")\n".iter());
    let mut len = 0;
    for (slot, byte) in out.iter_mut().zip(text) {
        *slot = *byte;
        len += 1;
    }
    len
}

/// One system call with up to four arguments; the result or -errno. Never
/// touches `errno` (thread-local storage the parent owns).
fn sys(number: libc::c_long, args: [usize; 4]) -> isize {
    let result: isize;
    let [a, b, c, d] = args;
    // SAFETY: the calls made here (close, setpgid, openat, fsync, writev, exit)
    // read only the memory their arguments name, which the plan and the child's
    // own stack hold.
    unsafe {
        std::arch::asm!(
            "syscall",
            inlateout("rax") number as isize => result,
            in("rdi") a,
            in("rsi") b,
            in("rdx") c,
            in("r10") d,
            lateout("rcx") _,
            lateout("r11") _,
            options(nostack),
        );
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_number_is_written_without_allocating() {
        let mut out = [0u8; 32];
        for (errno, text) in [
            (0, " (os error 0)\n"),
            (5, " (os error 5)\n"),
            (22, " (os error 22)\n"),
            (4095, " (os error 4095)\n"),
        ] {
            let len = os_error(errno, &mut out);
            assert_eq!(std::str::from_utf8(&out[..len]).unwrap(), text);
        }
    }
}
