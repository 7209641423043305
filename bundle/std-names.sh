#!/usr/bin/env bash
# Regenerates bundle/src/std_names.txt: the names std, core and alloc
# define (items, modules, methods, fields, variants, associated constants and
# types), which `bundle minify` never gives to, or takes from, the program's
# own names. The platform intrinsics (`std::arch`, `core::arch`: thousands
# of names like `_pext_u64`) are left out: a program calls them, it does not
# define them, and a name it uses without defining it is kept anyway.
# Read from the rustdoc pages of the toolchain's rust-docs
# component (`rustup component add rust-docs`). Its version changes the
# list, and so the renamed bundle: regenerate the bundle after it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
docs="$(rustc --print sysroot)/share/doc/rust/html"
[ -d "$docs/std" ] || { echo "std-names.sh: no rustdoc pages in $docs" >&2; exit 1; }
{
    # Items: fn.name.html, struct.Name.html, ...; modules: directories.
    find "$docs/std" "$docs/core" "$docs/alloc" \( -path '*/arch' -o -path '*/core_arch' -o -path '*/simd' \) -prune -o -name '*.html' -printf '%f\n' |
        sed -nE 's/^(fn|struct|enum|trait|type|constant|static|macro|union|primitive|keyword|derive|attr|traitalias)\.([A-Za-z0-9_]+)\.html$/\2/p'
    find "$docs/std" "$docs/core" "$docs/alloc" \( -path '*/arch' -o -path '*/core_arch' -o -path '*/simd' \) -prune -o -type d -printf '%f\n'
    # Members: the anchors of methods, fields, variants, associated items.
    grep -rhoE --exclude-dir=arch --exclude-dir=core_arch --exclude-dir=simd 'id="(method|tymethod|structfield|variant|associatedconstant|associatedtype)\.[A-Za-z0-9_]+' \
        "$docs/std" "$docs/core" "$docs/alloc" | sed -E 's/^id="[a-z]+\.//'
} | grep -E '^[A-Za-z_][A-Za-z0-9_]*$' | LC_ALL=C sort -u >"$root/bundle/src/std_names.txt"
wc -l "$root/bundle/src/std_names.txt"
