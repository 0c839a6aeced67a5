//! The `judge` binary: parses arguments and maps results to exit codes.

fn main() {
    std::process::exit(tcg_judge::cli::main());
}
