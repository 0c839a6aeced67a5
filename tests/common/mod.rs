//! Helpers shared by integration tests (each test file is its own crate and
//! includes this with `mod common;`).

use std::path::PathBuf;

use assert_cmd::Command;

/// Writes the offline site (`judge site`) into a fresh temporary directory
/// named after `name` and the process.
pub fn write_site(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("judge-site-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    Command::cargo_bin("judge")
        .unwrap()
        .arg("site")
        .arg(&dir)
        .assert()
        .success();
    dir
}
