#!/usr/bin/env bash
# Whole-process timings, side by side in one hyperfine run (these machines
# are noisy: compare ratios within a run, never absolute figures across runs).
#
#   benches/processes.sh            # builds the release binary first
#   RUNS=1000 benches/processes.sh
#
# Needs hyperfine and ripgrep (`apt-get install hyperfine ripgrep`).
# Issue 17's target: a fresh `judge search` takes at most 0.5× the time of
# `rg` over the same rule texts.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
judge=target/release/judge
runs=${RUNS:-500}
sve=$(ls rulebooks/sve-*.txt)
hyperfine -N --warmup 30 --runs "$runs" --export-json "${OUT:-/dev/null}" \
  '/bin/true' \
  "$judge --version" \
  "$judge search 投了" \
  'rg 投了 rulebooks/' \
  "$judge search ward --game sve" \
  "rg 守護 $sve" \
  "$judge rule sve 10.5.2" \
  "rg -F 10.5.2 $sve"
