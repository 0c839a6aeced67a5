//! The `judge` binary: parses arguments and maps results to exit codes.

fn main() {
    restore_default_sigpipe();
    std::process::exit(tcg_judge::cli::main());
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
