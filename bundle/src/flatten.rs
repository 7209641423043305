//! `bundle flatten`: one module instead of forty.
//!
//! The bundle nests the library in modules (cargo-equip's `__cargo_equip`,
//! then one per source file), and each module spends characters only to
//! reach the others: a `use` list, `pub` on what others need, paths such
//! as `crate::c::j::A`. In one module none of that is needed. This step
//! deletes every inline `mod NAME{` and its closing brace, every `use` of
//! the program's own items and every visibility (`pub`, `pub(crate)`...),
//! and strips the module names from the front of every path (`super::`,
//! `crate::`, `$crate::` and the modules' own names and aliases). The
//! imports from std (and core and alloc, read as std) are gathered into
//! one `use std::{..}` tree after the file's inner attributes; the few
//! imports of a type's items (`use Bound::*`, an enum's variants) stay.
//!
//! It needs every item name to be unique across the modules, since all now
//! share one namespace: the library keeps them so, and two items of one
//! name are a compile error here that `make.sh` reports (rustc names the
//! name). It refuses what it cannot flatten faithfully: a module under a
//! `cfg` attribute or declared in another file, an import of std that
//! binds a module's name, or two imports of std that bind one name to
//! different items. With every item visible everywhere, rustc's dead-code
//! lint sees the whole program, so `bundle undead` runs after it.

use crate::{code_bytes, ident_at, is_ident, skip_space};
use std::collections::{BTreeMap, BTreeSet};

/// The roots of the paths that name std's items.
const STD_ROOTS: [&str; 3] = ["std", "core", "alloc"];

/// The keywords whose next word names an item.
const ITEM_KEYWORDS: [&str; 8] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static",
];

/// The names of the prelude (Rust 2021) that a program's item would shadow
/// in every module once it sits at the crate root.
const PRELUDE: [&str; 40] = [
    "Copy",
    "Send",
    "Sized",
    "Sync",
    "Unpin",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "drop",
    "Box",
    "ToOwned",
    "Clone",
    "PartialEq",
    "PartialOrd",
    "Eq",
    "Ord",
    "AsRef",
    "AsMut",
    "Into",
    "From",
    "Default",
    "Iterator",
    "Extend",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "ToString",
    "Vec",
    "TryFrom",
    "TryInto",
    "FromIterator",
    "Debug",
];

/// The path words that name a module relative to another.
const RELATIVE: [&str; 3] = ["crate", "super", "self"];

/// What the scan of the modules found.
struct Scan {
    /// The inline modules' names.
    modules: BTreeSet<String>,
    /// Byte ranges to delete: module openers, their closing braces, `use`
    /// items at module level.
    deletes: Vec<(usize, usize)>,
    /// The `use` items' trees (after `use`), spaced as [`normalize`] does.
    uses: Vec<String>,
    /// The items declared at module level: their names, and whether they
    /// sit inside a module (not at the crate root).
    items: Vec<(String, bool)>,
    /// The number of `mod NAME{` openers (names may repeat).
    openers: usize,
}

/// The program's text flattened into one module, and the number of
/// modules that went.
///
/// # Errors
/// A module under a `cfg` or in another file, an import this cannot move
/// to the crate root (named), or text it cannot scan.
pub fn flatten(text: &str) -> Result<(String, usize), String> {
    let code = code_bytes(text)?;
    refuse_unscannable(&code)?;
    let scan = scan(&code, text)?;
    refuse_what_would_change_meaning(&code, &scan)?;
    let mut modules = scan.modules.clone();
    let leaves: Vec<Leaf> = scan
        .uses
        .iter()
        .map(|u| leaves(u))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    // `use a::b::m as c;` of a module makes `c` a module name too.
    for l in &leaves {
        if let (Some(last), Some(alias)) = (l.path.last(), &l.alias) {
            if modules.contains(last) {
                modules.insert(alias.clone());
            }
        }
    }
    let (std_tree, kept) = sort_imports(&leaves, &modules)?;
    let body = rewrite(text, &code, &scan.deletes, &modules);
    let head_end = inner_attributes_end(body.as_bytes());
    let mut out = String::with_capacity(body.len());
    out.push_str(&body[..head_end]);
    out.push_str(&std_tree);
    for k in &kept {
        out.push_str(&format!("use {k};"));
    }
    out.push_str(&body[head_end..]);
    Ok((out, scan.openers))
}

/// The offset just past the group that opens at `open` (`(`, `[` or `{`),
/// literals already blanked.
fn group_end(code: &[u8], open: usize) -> Result<usize, String> {
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(k + 1);
                }
            }
            _ => {}
        }
    }
    Err(format!("unclosed group at byte {open}"))
}

/// Whether a word may start at `i`: an identifier byte not preceded by
/// one (nor by `'`, a lifetime's, nor `$`, a macro variable's).
fn word_starts(code: &[u8], i: usize) -> bool {
    is_ident(code[i])
        && !code[i].is_ascii_digit()
        && (i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == b'\'' || code[i - 1] == b'$'))
}

/// Finds the modules, their braces and the `use` items at module level.
fn scan(code: &[u8], text: &str) -> Result<Scan, String> {
    let mut found = Scan {
        modules: BTreeSet::new(),
        deletes: Vec::new(),
        uses: Vec::new(),
        items: Vec::new(),
        openers: 0,
    };
    // One entry per open brace: whether it opened a module.
    let mut braces: Vec<bool> = Vec::new();
    // Where the next item's attributes and visibility began.
    let mut item_start: Option<usize> = None;
    let mut i = 0;
    while i < code.len() {
        let at_module_level = braces.iter().all(|&m| m);
        let c = code[i];
        if c == b'#' && at_module_level {
            // An inner attribute (`#![..]`) belongs to the module, not to
            // the next item.
            let inner = code.get(i + 1) == Some(&b'!');
            let open = if inner { i + 2 } else { i + 1 };
            if code.get(open) == Some(&b'[') {
                if inner && !braces.is_empty() {
                    return Err(format!(
                        "an inner attribute at byte {i} would apply to the whole file"
                    ));
                }
                if !inner {
                    item_start.get_or_insert(i);
                }
                i = group_end(code, open)?;
                continue;
            }
        }
        if word_starts(code, i) {
            let word = ident_at(code, i);
            let after = i + word.len();
            if !at_module_level {
                i = after;
                continue;
            }
            match word {
                "pub" => {
                    item_start.get_or_insert(i);
                    let k = skip_space(code, after);
                    i = if code.get(k) == Some(&b'(') {
                        group_end(code, k)?
                    } else {
                        after
                    };
                    continue;
                }
                "mod" => {
                    let start = item_start.take().unwrap_or(i);
                    let name_at = skip_space(code, after);
                    let name = ident_at(code, name_at).to_string();
                    let open = skip_space(code, name_at + name.len());
                    if code.get(open) != Some(&b'{') {
                        return Err(format!(
                            "module {name:?} at byte {i} is not inline: flatten needs one file"
                        ));
                    }
                    if text[start..i].contains("#[cfg") {
                        return Err(format!(
                            "module {name:?} at byte {i} is under a cfg: its items would \
                             lose it"
                        ));
                    }
                    found.deletes.push((start, open + 1));
                    found.modules.insert(name);
                    found.openers += 1;
                    braces.push(true);
                    i = open + 1;
                    continue;
                }
                "use" => {
                    let start = item_start.take().unwrap_or(i);
                    if text[start..i].contains("#[cfg") {
                        return Err(format!(
                            "the use at byte {i} is under a cfg: at the crate root it would \
                             apply unconditionally"
                        ));
                    }
                    let semi = code[i..]
                        .iter()
                        .position(|&c| c == b';')
                        .map(|k| i + k)
                        .ok_or_else(|| format!("unterminated use at byte {i}"))?;
                    let tree = normalize(&text[after..semi]);
                    found.deletes.push((start, semi + 1));
                    found.uses.push(tree);
                    i = semi + 1;
                    continue;
                }
                _ => {
                    item_start = None;
                    if ITEM_KEYWORDS.contains(&word) {
                        let name_at = skip_space(code, after);
                        let name = ident_at(code, name_at);
                        if !name.is_empty() && name != "fn" {
                            found.items.push((name.to_string(), !braces.is_empty()));
                        }
                    }
                    i = after;
                    continue;
                }
            }
        }
        match c {
            b'{' => braces.push(false),
            b'}' if braces.pop() == Some(true) => found.deletes.push((i, i + 1)),
            b';' if at_module_level => item_start = None,
            _ => {}
        }
        i += 1;
    }
    if !braces.is_empty() {
        return Err("unbalanced braces".into());
    }
    found.deletes.sort_unstable();
    Ok(found)
}

/// Refuses comments and raw identifiers, which the scan does not read
/// (cargo-equip's `--minify all` leaves no comments).
fn refuse_unscannable(code: &[u8]) -> Result<(), String> {
    for (pat, what) in [
        (&b"//"[..], "a comment"),
        (b"/*", "a comment"),
        (b"r#", "a raw identifier"),
    ] {
        if let Some(at) = code.windows(pat.len()).position(|w| w == pat) {
            return Err(format!(
                "{what} at byte {at}: flatten reads code without them"
            ));
        }
    }
    Ok(())
}

/// Refuses the programs whose meaning one module would change while they
/// still compile, as far as a scan can tell (docs/bundle.md, "One
/// module"): `pub` inside a
/// macro (its patterns may match it); a module name also used as a macro
/// variable's path (`$m::f`) or declared as an item; an item inside a
/// module named like the prelude's (it would shadow it everywhere); two
/// `macro_rules!` of one name (textual scope would let one shadow the
/// other further on). What a scan cannot see (a generic parameter named
/// like a module, a trait or private method whose visibility decided a
/// call) is left to `tests/bundle.rs`, which plays the bundle against the
/// native binary.
fn refuse_what_would_change_meaning(code: &[u8], scan: &Scan) -> Result<(), String> {
    let find = |pat: &[u8]| code.windows(pat.len()).position(|w| w == pat);
    let mut macros = BTreeSet::new();
    let mut at = 0;
    while let Some(k) = code[at..].windows(12).position(|w| w == b"macro_rules!") {
        let start = at + k;
        let name_at = skip_space(code, start + 12);
        let name = ident_at(code, name_at).to_string();
        let open = skip_space(code, name_at + name.len());
        let end = group_end(code, open)?;
        if code[open..end].windows(3).enumerate().any(|(j, w)| {
            w == b"pub"
                && word_starts(code, open + j)
                && !code.get(open + j + 3).is_some_and(|&c| is_ident(c))
        }) {
            return Err(format!(
                "macro {name:?} at byte {start} has `pub` in its rules"
            ));
        }
        if !macros.insert(name.clone()) {
            return Err(format!(
                "two macros named {name:?}: one would shadow the other"
            ));
        }
        at = end;
    }
    for m in &scan.modules {
        let var = format!("${m}::");
        if let Some(at) = find(var.as_bytes()) {
            return Err(format!(
                "`{var}` at byte {at}: a macro variable named like module {m:?}"
            ));
        }
    }
    refuse_method_clashes(code)?;
    for (name, inside) in &scan.items {
        if scan.modules.contains(name) {
            return Err(format!("{name:?} names both a module and an item"));
        }
        if *inside && PRELUDE.contains(&name.as_str()) {
            return Err(format!(
                "the item {name:?} of a module would shadow the prelude's in every module"
            ));
        }
    }
    Ok(())
}

/// The names of the `fn`s directly inside the block that opens at `open`.
fn block_fns(code: &[u8], open: usize) -> Result<Vec<String>, String> {
    let end = group_end(code, open)?;
    let mut names = Vec::new();
    let mut depth = 0usize;
    for i in open..end {
        match code[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            _ if depth == 1 && word_starts(code, i) && ident_at(code, i) == "fn" => {
                names.push(ident_at(code, skip_space(code, i + 2)).to_string());
            }
            _ => {}
        }
    }
    Ok(names)
}

/// Refuses a method name that one module could make resolve otherwise: a
/// method of the program's own trait named like std's or like an inherent
/// method (the trait, imported by some modules, is in scope in all), and an
/// inherent method named like a trait method (a private inherent method,
/// passed over for the trait's outside its module, is not any more).
fn refuse_method_clashes(code: &[u8]) -> Result<(), String> {
    let std_names: BTreeSet<&str> = crate::minify::STD_NAMES.lines().collect();
    let mut trait_fns = BTreeSet::new();
    let mut impl_fns = BTreeSet::new();
    let mut inherent = BTreeSet::new();
    let mut i = 0;
    while i < code.len() {
        if !word_starts(code, i) {
            i += 1;
            continue;
        }
        let word = ident_at(code, i);
        let after = i + word.len();
        if word != "trait" && word != "impl" {
            i = after;
            continue;
        }
        // The header runs to its block (or to `;`): generics and where
        // clauses hold no braces in this program's style.
        let Some(open) = code[after..]
            .iter()
            .position(|&c| c == b'{' || c == b';')
            .map(|k| after + k)
        else {
            break;
        };
        if code[open] == b'{' {
            let trait_impl = word == "impl" && code[after..open].windows(5).any(|w| w == b" for ");
            let set = match (word, trait_impl) {
                ("trait", _) => &mut trait_fns,
                (_, true) => &mut impl_fns,
                _ => &mut inherent,
            };
            set.extend(block_fns(code, open)?);
        }
        // Impls nested in function bodies are met as the scan goes on.
        i = open + 1;
    }
    if let Some(name) = trait_fns
        .iter()
        .find(|f| std_names.contains(f.as_str()) || inherent.contains(*f))
    {
        return Err(format!(
            "the program's trait method {name:?} is also a std or inherent method's name: \
             in one module its trait would be in scope for every call"
        ));
    }
    if let Some(name) = inherent
        .iter()
        .find(|f| impl_fns.contains(*f) || trait_fns.contains(*f))
    {
        return Err(format!(
            "the inherent method {name:?} is also a trait method's name: its privacy may \
             decide which one a call means"
        ));
    }
    Ok(())
}

/// One name a `use` binds: its path (`self` resolved to its parent) and
/// its alias.
#[derive(Debug, PartialEq)]
struct Leaf {
    path: Vec<String>,
    alias: Option<String>,
}

/// A use tree with one space between words (`t as c`) and none around
/// punctuation (`a::{b,c}`).
fn normalize(tree: &str) -> String {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        let glued = |c: Option<char>| c.is_some_and(|c| ":{},*".contains(c));
        if !out.is_empty() && !glued(out.chars().last()) && !glued(w.chars().next()) {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// The leaves of a use tree as [`normalize`] writes it
/// (`a::{b,c::{self,d as e}}`).
fn leaves(tree: &str) -> Result<Vec<Leaf>, String> {
    let mut out = Vec::new();
    expand(tree, &mut Vec::new(), &mut out).map_err(|e| format!("use {tree}: {e}"))?;
    Ok(out)
}

fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) -> Result<(), String> {
    if let Some(inner) = tree.strip_prefix('{') {
        let inner = inner.strip_suffix('}').ok_or("unclosed brace")?;
        let mut depth = 0usize;
        let mut from = 0;
        let bytes = inner.as_bytes();
        for k in 0..=bytes.len() {
            let end = k == bytes.len();
            if !end {
                match bytes[k] {
                    b'{' => depth += 1,
                    b'}' => depth -= 1,
                    _ => {}
                }
            }
            if end || (bytes[k] == b',' && depth == 0) {
                let part = &inner[from..k];
                if !part.is_empty() {
                    expand(part, &mut prefix.clone(), out)?;
                }
                from = k + 1;
            }
        }
        return Ok(());
    }
    if let Some((head, rest)) = tree.split_once("::") {
        prefix.push(head.to_string());
        return expand(rest, prefix, out);
    }
    let (name, alias) = match tree.split_once(" as ") {
        Some((n, a)) => (n, Some(a.to_string())),
        None => (tree, None),
    };
    if alias.as_deref().is_some_and(|a| !is_name(a)) {
        return Err(format!("cannot read {tree:?}"));
    }
    if !is_name(name) && name != "*" {
        return Err(format!("cannot read {tree:?}"));
    }
    let mut path = prefix.clone();
    if name != "self" {
        path.push(name.to_string());
    }
    if path.is_empty() {
        return Err("a bare `self`".into());
    }
    out.push(Leaf { path, alias });
    Ok(())
}

fn is_name(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(is_ident) && !s.as_bytes()[0].is_ascii_digit()
}

/// The imports that survive: std's as one `use std::{..};` (empty when
/// none), and the imports of a type's items, stripped of module paths.
fn sort_imports(
    leaves: &[Leaf],
    modules: &BTreeSet<String>,
) -> Result<(String, Vec<String>), String> {
    let mut std_names: BTreeMap<String, String> = BTreeMap::new();
    let mut tree = Tree::default();
    let mut kept = BTreeSet::new();
    for l in leaves {
        if STD_ROOTS.contains(&l.path[0].as_str()) {
            let path: Vec<String> = l.path[1..].to_vec();
            let bound = l
                .alias
                .clone()
                .unwrap_or_else(|| path.last().cloned().unwrap_or_default());
            if path.is_empty() || bound == "*" {
                return Err(format!("cannot gather the import {}", l.path.join("::")));
            }
            if modules.contains(&bound) {
                return Err(format!(
                    "std::{} binds {bound:?}, also a module's name",
                    path.join("::")
                ));
            }
            let full = path.join("::");
            // `use .. as _` binds no name.
            if bound == "_" {
                tree.insert(&path, l.alias.as_deref());
                continue;
            }
            if let Some(other) = std_names.insert(bound.clone(), full.clone()) {
                if other != full {
                    return Err(format!("std::{other} and std::{full} both bind {bound:?}"));
                }
            }
            tree.insert(&path, l.alias.as_deref());
            continue;
        }
        let rest: Vec<&str> = l
            .path
            .iter()
            .map(String::as_str)
            .skip_while(|s| modules.contains(*s) || RELATIVE.contains(s))
            .collect();
        let own_name = rest.len() == 1 && l.alias.as_deref().is_none_or(|a| a == rest[0]);
        if rest.is_empty() || rest == ["*"] || own_name {
            continue;
        }
        let alias = l
            .alias
            .as_ref()
            .map(|a| format!(" as {a}"))
            .unwrap_or_default();
        kept.insert(format!("{}{alias}", rest.join("::")));
    }
    let std_tree = match tree.entries().as_slice() {
        [] => String::new(),
        [one] => format!("use std::{one};"),
        many => format!("use std::{{{}}};", many.join(",")),
    };
    Ok((std_tree, kept.into_iter().collect()))
}

/// A tree of std paths, printed as a nested use list.
#[derive(Default)]
struct Tree {
    /// The path up to here is imported itself (`self` below it).
    here: bool,
    /// Names it is imported under (`self as x`).
    aliases: BTreeSet<String>,
    children: BTreeMap<String, Tree>,
}

impl Tree {
    fn insert(&mut self, path: &[String], alias: Option<&str>) {
        let mut node = self;
        for seg in path {
            node = node.children.entry(seg.clone()).or_default();
        }
        match alias {
            Some(a) => {
                node.aliases.insert(a.to_string());
            }
            None => node.here = true,
        }
    }

    /// This node's children as use-list entries.
    fn entries(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (name, child) in &self.children {
            let mut inner = Vec::new();
            let own = |alias: Option<&String>, nested: bool| match (alias, nested) {
                (None, true) => "self".to_string(),
                (None, false) => name.clone(),
                (Some(a), true) => format!("self as {a}"),
                (Some(a), false) => format!("{name} as {a}"),
            };
            let nested = !child.children.is_empty();
            if child.here {
                inner.push(own(None, nested));
            }
            for a in &child.aliases {
                inner.push(own(Some(a), nested));
            }
            if !nested {
                out.extend(inner);
                continue;
            }
            inner.extend(child.entries());
            out.push(match inner.as_slice() {
                [one] => format!("{name}::{one}"),
                many => format!("{name}::{{{}}}", many.join(",")),
            });
        }
        out
    }
}

/// The text without the deleted ranges, its visibilities and the module
/// words at the front of its paths.
fn rewrite(
    text: &str,
    code: &[u8],
    deletes: &[(usize, usize)],
    modules: &BTreeSet<String>,
) -> String {
    let mut out = String::with_capacity(text.len());
    let mut deletes = deletes.iter().peekable();
    // Where the last stripped path word ended: the next word continues
    // that path.
    let mut stripped_to = usize::MAX;
    let mut copied = 0; // text copied up to here
    let mut i = 0;
    let skip = |out: &mut String, copied: &mut usize, from: usize, to: usize| {
        out.push_str(&text[*copied..from]);
        *copied = to;
    };
    while i < code.len() {
        if let Some(&&(a, b)) = deletes.peek() {
            if i >= a {
                deletes.next();
                if b > i {
                    let from = i.max(copied);
                    skip(&mut out, &mut copied, from, b);
                    i = b;
                }
                continue;
            }
        }
        let dollar = code[i] == b'$' && code.get(i + 1).is_some_and(|&c| is_ident(c));
        let start = if dollar { i + 1 } else { i };
        if (dollar || word_starts(code, i)) && start < code.len() {
            let word = ident_at(code, start);
            let after = start + word.len();
            let path_start = i < 2 || &code[i - 2..i] != b"::" || stripped_to == i;
            let continues = code[after..].starts_with(b"::")
                && code
                    .get(after + 2)
                    .is_some_and(|&c| is_ident(c) || c == b'$');
            let module_word = modules.contains(word)
                || (RELATIVE.contains(&word) && !dollar)
                || (dollar && word == "crate");
            if path_start && continues && module_word {
                skip(&mut out, &mut copied, i, after + 2);
                i = after + 2;
                stripped_to = i;
                continue;
            }
            if word == "pub" && !dollar {
                let k = skip_space(code, after);
                let end = if code.get(k) == Some(&b'(') {
                    group_end(code, k).unwrap_or(after)
                } else {
                    after
                };
                let end = skip_space(code, end);
                skip(&mut out, &mut copied, i, end);
                i = end;
                continue;
            }
            i = after;
            continue;
        }
        i += 1;
    }
    if copied < text.len() {
        out.push_str(&text[copied..]);
    }
    out
}

/// The end of the inner attributes (`#![..]`) that open the file.
fn inner_attributes_end(code: &[u8]) -> usize {
    let mut i = 0;
    while code[i..].starts_with(b"#![") {
        match group_end(code, i + 2) {
            Ok(end) => i = end,
            Err(_) => break,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_trees_expand_to_their_leaves() {
        let l = leaves("std::io::{self,BufRead,Write}").unwrap();
        let paths: Vec<String> = l.iter().map(|l| l.path.join("::")).collect();
        assert_eq!(paths, ["std::io", "std::io::BufRead", "std::io::Write"]);
        let l = leaves(&normalize("ao :: bn :: t  as c")).unwrap();
        assert_eq!(
            l,
            [Leaf {
                path: vec!["ao".into(), "bn".into(), "t".into()],
                alias: Some("c".into())
            }]
        );
        let l = leaves(&normalize("super::{ last::*, r::*, * }")).unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(l[2].path, ["super", "*"]);
    }

    #[test]
    fn modules_go_and_their_paths_with_them() {
        let text = "#![allow(unused)]use m::n::S;mod m{use std::fmt;pub mod n{\
                    use std::fmt;use super::super::k::h;#[derive(Clone)]pub struct S(pub u8);\
                    impl fmt::Debug for S{fn fmt(&self,f:&mut fmt::Formatter)->fmt::Result{\
                    write!(f,\"m::n {}\",crate::k::h(self.0))}}}}\
                    #[allow(dead_code)]pub(crate) mod k{use core::fmt;use crate::e::E::*;\
                    pub fn h(x:u8)->u8{if x==0{0}else{super::k::g(A)}}fn g(e:crate::e::E)->u8{e as u8}}\
                    mod e{pub enum E{A}}fn main(){print!(\"{:?}\",S(1));}";
        let (out, n) = flatten(text).unwrap();
        assert_eq!(n, 4);
        assert_eq!(
            out,
            "#![allow(unused)]use std::fmt;use E::*;#[derive(Clone)]struct S(u8);\
             impl fmt::Debug for S{fn fmt(&self,f:&mut fmt::Formatter)->fmt::Result{\
             write!(f,\"m::n {}\",h(self.0))}}\
             fn h(x:u8)->u8{if x==0{0}else{g(A)}}fn g(e:E)->u8{e as u8}\
             enum E{A}fn main(){print!(\"{:?}\",S(1));}"
        );
        for program in [text, &out] {
            assert_eq!(
                crate::minify::rustc_errors(program).unwrap(),
                None,
                "{program}"
            );
        }
    }

    #[test]
    fn what_cannot_move_is_refused_by_name() {
        let cfg = "#[cfg(unix)]mod m{fn f(){}}fn main(){}";
        assert!(flatten(cfg)
            .unwrap_err()
            .contains("\"m\" at byte 12 is under a cfg"));
        let inner = "mod m{#![allow(dead_code)]fn f(){}}fn main(){}";
        assert!(flatten(inner).unwrap_err().contains("inner attribute"));
        let file = "mod m;fn main(){}";
        assert!(flatten(file).unwrap_err().contains("not inline"));
        let clash = "mod a{use std::fmt::Result;}mod b{use std::io::Result;}fn main(){}";
        let e = flatten(clash).unwrap_err();
        assert!(e.contains("fmt::Result") && e.contains("io::Result"), "{e}");
        let module = "mod a{use std::time;}mod time{}fn main(){}";
        assert!(flatten(module).unwrap_err().contains("\"time\""));
        let refusals = [
            (
                "mod a{#[cfg(unix)]use std::mem::forget;}fn main(){}",
                "under a cfg",
            ),
            ("mod a{}fn main(){} // a{", "a comment"),
            ("mod a{fn r#pub(){}}fn main(){}", "a raw identifier"),
            (
                "macro_rules! s{(pub $x:ident)=>{1}}mod a{}fn main(){}",
                "`pub` in its rules",
            ),
            (
                "macro_rules! s{()=>{1}}mod a{macro_rules! s{()=>{2}}}fn main(){}",
                "two macros",
            ),
            (
                "macro_rules! s{($a:ident)=>{$a::f()}}mod a{}fn main(){}",
                "`$a::`",
            ),
            (
                "mod m{}mod b{struct m;}fn main(){}",
                "both a module and an item",
            ),
            (
                "mod a{pub fn drop<T>(_:T){}}fn main(){}",
                "shadow the prelude",
            ),
            (
                "mod a{pub trait T{fn len(&self)->usize{9}}impl T for [u8;3]{}}fn main(){}",
                "trait method \"len\"",
            ),
            (
                "struct S;mod a{pub trait T{fn f(&self)->u8;}impl T for super::S{fn f(&self)->u8{2}}}\
                 impl S{fn f(&self)->u8{1}}fn main(){}",
                "\"f\"",
            ),
        ];
        for (program, why) in refusals {
            let e = flatten(program).unwrap_err();
            assert!(e.contains(why), "{program}: {e}");
        }
        let anonymous =
            "mod a{use std::fmt::Write as _;}mod b{use std::io::Write as _;}fn main(){}";
        assert!(flatten(anonymous).is_ok(), "`as _` binds no name");
    }
}
