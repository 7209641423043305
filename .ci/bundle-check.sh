#!/usr/bin/env bash
# CI step: the committed submission bundle/othello.rs must be exactly what
# bundle/make.sh makes from the current sources. Installs cargo-equip when
# missing (several minutes the first time; cache ~/.cargo/bin to skip it).
# Exit 0: current. Exit 1: stale or bundling failed (the log says which).
# The bundle's compilation, size and play are checked by tests/bundle.rs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec bundle/make.sh --check
