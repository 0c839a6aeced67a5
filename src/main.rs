//! The `judge` binary: parses arguments and maps results to exit codes.

/// Many small, short-lived allocations dominate a `judge check` run;
/// mimalloc serves them faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    restore_default_sigpipe();
    tcg_judge::error::install_panic_hook();
    // A panic is a bug, never a ruling: the hook has reported it; exit with
    // the documented internal-error code, not Rust's 101.
    let code =
        std::panic::catch_unwind(tcg_judge::cli::main).unwrap_or(tcg_judge::error::exit::INTERNAL);
    std::process::exit(code);
}

/// Rust ignores SIGPIPE, so `judge toc sve | head` would make `println!`
/// panic on a closed pipe. Restoring the default action ends the process
/// quietly instead, as grep and other Unix filters do.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists;
    // SIG_DFL is a valid disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
