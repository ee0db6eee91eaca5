#!/usr/bin/env bash
# Prints size and speed figures (make bench). Expects `make dist` first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --locked --release --quiet
cd e2e && node bench.mjs
