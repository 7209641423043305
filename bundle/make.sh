#!/usr/bin/env bash
# Makes bundle/othello.rs, the one-file CodinGame submission, from the
# `othello` binary with cargo-equip, renames its identifiers with
# `bundle minify`, and reports its size.
#
#   bundle/make.sh           regenerate bundle/othello.rs
#   bundle/make.sh --check   regenerate into a temporary file and fail (exit 1)
#                            if it differs from the committed bundle/othello.rs
#   bundle/make.sh --help    this text
#
# Needs cargo-equip (installed here when missing). Runs from any directory.
set -euo pipefail

usage() {
    echo "usage: bundle/make.sh [--check | --help]" >&2
    exit 2
}

[ $# -le 1 ] || usage
check=0
case "${1-}" in
"") ;;
--check) check=1 ;;
-h | --help)
    sed -n '2,11s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
    exit 0
    ;;
*)
    echo "make.sh: unknown argument '$1'" >&2
    usage
    ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="bundle/othello.rs"
started=$(date +%s%N)

# The committed file is byte-identical only for the same cargo-equip version.
equip_version="0.20.1"
if ! cargo equip --version >/dev/null 2>&1; then
    echo "make.sh: cargo-equip is missing; installing it with" >&2
    echo "make.sh:   cargo install cargo-equip --locked --version $equip_version" >&2
    echo "make.sh: this takes several minutes (about 8 on 2 cores) the first time" >&2
    cargo install cargo-equip --locked --version "$equip_version"
fi
found="$(cargo equip --version | awk '{print $2}')"
if [ "$found" != "$equip_version" ]; then
    echo "make.sh: warning: cargo-equip $found, not $equip_version: the bundle may differ" >&2
    echo "make.sh: from the committed one for that reason alone" >&2
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# --remove docs, not comments: comment removal mis-lexes some string literals.
# --minify all needs --no-rustfmt (rustfmt would expand it again).
# --no-check: cargo-equip's own compile check would see the binary's tools,
# whose cfg(cargo_equip) only `bundle finish` resolves; the finished file is
# checked below instead.
if ! cargo equip --bin othello --remove docs --minify all --no-rustfmt --no-check \
    -o "$tmp/raw.rs" 2>"$tmp/equip.log"; then
    cat "$tmp/equip.log" >&2
    echo "make.sh: cargo equip failed" >&2
    exit 1
fi

# The finishing tool (a workspace crate) repairs and measures.
tool() { cargo run --quiet --release -p bundle -- "$@"; }

# The finished file must compile alone (tests/bundle.rs also builds and runs
# it under editions 2018, 2021 and 2024).
compiles() {
    if ! rustc --edition 2021 --crate-type bin --emit=metadata -o "$tmp/check.rmeta" "$1" \
        2>"$tmp/rustc.log"; then
        head -40 "$tmp/rustc.log" >&2
        echo "make.sh: the finished bundle does not compile" >&2
        exit 1
    fi
}

# `bundle finish` repairs cargo-equip's output; `bundle minify` then renames
# its identifiers (docs/bundle.md, "Renaming"). A failed rename stops here.
# --rename-debug: the bot prints no derived `Debug` on stdout (its answers
# are compared with the native binary's by tests/bundle.rs), so those names
# are renamed too. `bundle undebug` then drops the `Debug` derives the
# program does not need (docs/journal/bundle.md, "Unused `Debug` derives"), and
# `bundle unpub` the `pub`s (docs/journal/bundle.md, "Unneeded `pub`s"). Without
# them rustc sees which functions and constants the bot never uses, and
# `bundle undead` drops those (docs/journal/bundle.md, "Unused items").
# `bundle flatten` then puts every item in one module (no `mod`, internal
# `use` or `pub` left; docs/bundle.md, "One module"), where rustc sees the
# whole program, so `bundle undead` runs once more.
if [ "$check" = 1 ]; then
    tool finish "$tmp/raw.rs" "$tmp/finished.rs" "$root" >/dev/null
    tool minify "$tmp/finished.rs" -o "$tmp/minified.rs" --rename-debug >/dev/null
    tool undebug "$tmp/minified.rs" -o "$tmp/undebugged.rs" >/dev/null
    tool unpub "$tmp/undebugged.rs" -o "$tmp/unpubbed.rs" >/dev/null
    tool undead "$tmp/unpubbed.rs" -o "$tmp/undead.rs" >/dev/null
    tool flatten "$tmp/undead.rs" -o "$tmp/flat.rs" >/dev/null
    tool undead "$tmp/flat.rs" -o "$tmp/othello.rs" >/dev/null
    compiles "$tmp/othello.rs"
    if ! cmp -s "$tmp/othello.rs" "$out"; then
        echo "make.sh: $out is stale: it differs from a fresh bundle." >&2
        echo "make.sh: run bundle/make.sh and commit $out." >&2
        diff <(tr ';' '\n' <"$out") <(tr ';' '\n' <"$tmp/othello.rs") | head -20 >&2 || true
        exit 1
    fi
    tool size "$out"
    echo "$out is current"
else
    tool finish "$tmp/raw.rs" "$tmp/finished.rs" "$root" >/dev/null
    tool minify "$tmp/finished.rs" -o "$tmp/minified.rs" --rename-debug
    tool undebug "$tmp/minified.rs" -o "$tmp/undebugged.rs"
    tool unpub "$tmp/undebugged.rs" -o "$tmp/unpubbed.rs"
    tool undead "$tmp/unpubbed.rs" -o "$tmp/undead.rs"
    tool flatten "$tmp/undead.rs" -o "$tmp/flat.rs"
    tool undead "$tmp/flat.rs" -o "$tmp/othello.rs"
    compiles "$tmp/othello.rs"
    cp "$tmp/othello.rs" "$out"
    tool size "$out"
fi
echo "bundled in $(( ($(date +%s%N) - started) / 1000000 )) ms"
