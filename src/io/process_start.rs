//! The binary's own start, in place of the Rust runtime's (Linux with glibc).
//!
//! Claude Code starts a new process for every hook event. The runtime's set-up
//! around `main` (the main thread's stack bounds read from `/proc/self/maps`, an
//! alternate signal stack mapped, then unmapped at exit) costs about 0.1 ms per
//! run on the bench machine, an eighth of a hook that has nothing to do
//! (docs/performance.md, "Start-up without the runtime's set-up"). So `main.rs`
//! starts at a C `main` and does here the two parts of that set-up the program
//! relies on; the arguments still reach `std::env::args`, which glibc hands to the
//! standard library before `main`.
//!
//! What is left out: the "has overflowed its stack" message, on every thread (the
//! runtime's set-up is what turns the handler on): a stack overflow still stops
//! the process, by SIGSEGV instead of SIGABRT. And the main thread's name: the
//! default panic hook says `thread '<unnamed>'` (the hooks log a panic without
//! it, and the other commands report it through color_eyre).

use std::process::ExitCode;

/// The program started from a C `main`: the set-up it needs ([`prepare`]), then
/// `run`, then an exit with its status.
pub fn run_as_main(run: fn() -> ExitCode) -> ! {
    prepare();
    // The panic hook has reported a panic by then; it must not unwind into C.
    let code = std::panic::catch_unwind(run).unwrap_or(ExitCode::from(101));
    // `exit` flushes standard output, as returning from a Rust `main` would.
    std::process::exit(i32::from(exit_code(code)))
}

/// What the runtime would have done before `main`, and the program needs:
/// - SIGPIPE ignored, so that a closed pipe is a write error the program handles
///   (`resume-tui list | head -1`) instead of a silent death;
/// - standard input, output and error open: a closed one is opened on
///   `/dev/null`, else the first file the program opens would take its number,
///   and what is printed would be written into that file.
fn prepare() {
    // SAFETY: setting SIGPIPE's disposition, before any thread is started.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    open_closed_standard_fds();
}

/// The runtime's own way (std `sanitize_standard_fds`): one `poll` of the three
/// descriptors, `fcntl` each when `poll` cannot run; a descriptor that cannot be
/// filled aborts, as it would there.
fn open_closed_standard_fds() {
    let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    loop {
        // SAFETY: `fds` is a valid array of three `pollfd`, and the timeout is 0.
        if unsafe { libc::poll(fds.as_mut_ptr(), 3, 0) } != -1 {
            break;
        }
        match std::io::Error::last_os_error().raw_os_error() {
            Some(libc::EINTR) => {}
            Some(libc::EINVAL | libc::EAGAIN | libc::ENOMEM) => {
                for fd in 0..3 {
                    // SAFETY: F_GETFD on a descriptor number reads its flags only.
                    let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1
                        && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF);
                    if closed {
                        open_dev_null();
                    }
                }
                return;
            }
            _ => std::process::abort(),
        }
    }
    for fd in fds {
        if fd.revents & libc::POLLNVAL != 0 {
            open_dev_null();
        }
    }
}

/// Opens `/dev/null`, which takes the lowest closed descriptor: the standard one
/// found closed, since the lower ones are open by then.
fn open_dev_null() {
    // SAFETY: a NUL-terminated path and plain flags.
    if unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR, 0) } == -1 {
        std::process::abort();
    }
}

/// The status `code` stands for: `ExitCode` keeps its byte to itself (its getter
/// is unstable), but it compares equal to the `ExitCode::from` of that byte.
fn exit_code(code: ExitCode) -> u8 {
    (0..=u8::MAX)
        .find(|&n| ExitCode::from(n) == code)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_code_gives_back_every_byte() {
        for n in 0..=u8::MAX {
            assert_eq!(exit_code(ExitCode::from(n)), n);
        }
        assert_eq!(exit_code(ExitCode::SUCCESS), 0);
        assert_eq!(exit_code(ExitCode::FAILURE), 1);
    }
}
