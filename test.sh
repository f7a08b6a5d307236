#!/usr/bin/env bash
# The test command of the README: every test of the workspace, in release mode (the
# differential checks run many cases and are far faster optimised).
set -euo pipefail
cd "$(dirname "$0")"
cargo test --workspace --release --locked "$@"
