//! `bundle unpub`: drops the `pub`s a one-file program does not need.
//!
//! The library marks its API `pub` for its tools and tests; in the bundle
//! most of it is used only inside its own module. Every `pub` that declares
//! a named item or field loses its `pub`; the compiler then names each one
//! used from another module ("function `f` is private", "field `x` of
//! struct `S` is private"), which gets it back, round after round, until the
//! program compiles. Names are matched, not places, so a name that several
//! items share gets its `pub` back on all of them: it may keep a few more
//! than it needs, never fewer (docs/journal/bundle.md, "Unneeded `pub`s").
//!
//! Privacy changes which program compiles, and in three places which item
//! a name means; those `pub`s are never dropped:
//! - a private inherent method is skipped for a trait method of the same
//!   name: a function whose name is a standard one ([`STD_NAMES`]) or is
//!   declared anywhere without `pub` (a trait's) keeps its `pub`;
//! - a glob import skips a private item for the prelude's: an item whose
//!   name is a standard one keeps its `pub`;
//! - `pub use` re-exports and restricted `pub(..)`s are left as they are.

use crate::minify::STD_NAMES;
use crate::settle::settle;
use crate::{ident_at, is_ident, skip_space};
use std::collections::{BTreeMap, BTreeSet};

/// What a dropped `pub` declared.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Declared {
    /// A function, type, constant, static, trait or module, by name.
    Item(String),
    /// A named field of the struct `owner`.
    Field { owner: String, name: String },
    /// A field of the tuple struct `owner`.
    TupleField { owner: String },
}

/// The traits that declare a function of each name.
type TraitsOf = BTreeMap<String, BTreeSet<String>>;

/// One `pub` that can go: the byte range to delete (the word and the
/// spaces after it) and what it declares.
#[derive(Debug)]
struct Pub {
    start: usize,
    end: usize,
    declared: Declared,
}

/// Offsets of the whole word `word` in `code`.
fn words<'a>(code: &'a [u8], word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let w = word.as_bytes();
    (0..code.len().saturating_sub(w.len() - 1)).filter(move |&i| {
        code[i..].starts_with(w)
            && (i == 0 || !is_ident(code[i - 1]))
            && code.get(i + w.len()).is_none_or(|&c| !is_ident(c))
    })
}

/// The struct (`keyword` "struct") or trait whose body opens at `open`
/// (`{` or `(`): the name after the last `keyword` before it, if only
/// generics, bounds and a where clause lie between.
fn owner(code: &[u8], open: usize, keyword: &str) -> Option<String> {
    let at = words(&code[..open], keyword).last()?;
    let name_at = skip_space(code, at + keyword.len());
    let name = ident_at(code, name_at);
    let between = &code[name_at + name.len()..open];
    let clean = !between.iter().any(|c| matches!(c, b';' | b'{' | b'}'));
    (!name.is_empty() && clean).then(|| name.to_string())
}

/// The offset of the bracket (`{` or `(`) that encloses `i` (none at the
/// top level).
fn enclosing(code: &[u8], i: usize) -> Option<usize> {
    let mut depth = 0i32;
    for k in (0..i).rev() {
        match code[k] {
            b'}' | b')' | b']' => depth += 1,
            b'{' | b'(' | b'[' => {
                if depth == 0 {
                    return Some(k);
                }
                depth -= 1;
            }
            _ => {}
        }
    }
    None
}

/// Whether the `fn` at `at` is declared `pub` (`pub const unsafe fn` too).
fn marked_pub(code: &[u8], at: usize) -> bool {
    let mut k = at;
    loop {
        while k > 0 && code[k - 1].is_ascii_whitespace() {
            k -= 1;
        }
        let end = k;
        while k > 0 && is_ident(code[k - 1]) {
            k -= 1;
        }
        match &code[k..end] {
            b"pub" => return true,
            b"const" | b"unsafe" | b"async" | b"extern" => {}
            _ => return false,
        }
    }
}

/// The `pub`s of `text` that can go, with what each declares, and the
/// traits that declare each function name (a trait's methods are as
/// private as the trait: rustc names the method).
fn scan(text: &str) -> Result<(Vec<Pub>, TraitsOf), String> {
    let code = crate::code_bytes(text)?;
    let std_names: BTreeSet<&str> = STD_NAMES.lines().collect();
    // Functions declared somewhere without `pub`: a trait's, perhaps.
    let mut unmarked = BTreeSet::new();
    let mut traits = TraitsOf::new();
    for at in words(&code, "fn") {
        if !marked_pub(&code, at) {
            let name = ident_at(&code, skip_space(&code, at + 2)).to_string();
            if let Some(t) = enclosing(&code, at).and_then(|open| owner(&code, open, "trait")) {
                traits.entry(name.clone()).or_default().insert(t);
            }
            unmarked.insert(name);
        }
    }
    let mut out = Vec::new();
    for start in words(&code, "pub") {
        let next = skip_space(&code, start + 3);
        if next == start + 3 {
            continue; // `pub(crate)` and the like
        }
        let mut k = next;
        let mut word = ident_at(&code, k);
        // Qualifiers of a function: `const fn`, `unsafe fn`.
        while matches!(word, "const" | "unsafe" | "async") {
            let after = skip_space(&code, k + word.len());
            let w = ident_at(&code, after);
            if word == "const" && w != "fn" && w != "unsafe" {
                break; // a constant
            }
            k = after;
            word = w;
        }
        let declared = match word {
            "fn" | "struct" | "enum" | "union" | "trait" | "type" | "const" | "static" | "mod" => {
                let mut name_at = skip_space(&code, k + word.len());
                if word == "static" && ident_at(&code, name_at) == "mut" {
                    name_at = skip_space(&code, name_at + 3);
                }
                let name = ident_at(&code, name_at).to_string();
                if name.is_empty() || std_names.contains(name.as_str()) {
                    continue;
                }
                if word == "fn" && unmarked.contains(&name) {
                    continue;
                }
                Declared::Item(name)
            }
            "use" | "impl" | "extern" => continue,
            _ => {
                let Some(open) = enclosing(&code, start) else {
                    continue;
                };
                let Some(owner) = owner(&code, open, "struct") else {
                    continue;
                };
                let colon = skip_space(&code, k + word.len());
                let named = !word.is_empty()
                    && code.get(colon) == Some(&b':')
                    && code.get(colon + 1) != Some(&b':');
                match (code[open], named) {
                    (b'{', true) => Declared::Field {
                        owner,
                        name: word.to_string(),
                    },
                    (b'(', false) => Declared::TupleField { owner },
                    _ => continue,
                }
            }
        };
        out.push(Pub {
            start,
            end: next,
            declared,
        });
    }
    Ok((out, traits))
}

/// `text` without the `pub`s of `pubs` but those whose declaration is in
/// `keep`.
fn without_pubs(text: &str, pubs: &[Pub], keep: &BTreeSet<Declared>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for p in pubs.iter().filter(|p| !keep.contains(&p.declared)) {
        out.push_str(&text[at..p.start]);
        at = p.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The names in backquotes of `message`, their paths and generics dropped.
fn quoted(message: &str) -> Vec<String> {
    message
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|q| {
            let q = q.split('<').next().unwrap_or(q);
            q.rsplit("::").next().unwrap_or(q).to_string()
        })
        .collect()
}

/// What rustc's short-format `stderr` says is private: every declaration
/// that may be the one meant (a field's index names the tuple struct's
/// fields; a tuple struct's constructor is private while a field is; a
/// method, the traits that declare one of its name, from `traits`).
fn private(stderr: &str, pubs: &[Pub], traits: &TraitsOf) -> BTreeSet<Declared> {
    let mut out = BTreeSet::new();
    for line in stderr.lines().filter(|l| l.contains("error")) {
        // `PATH:LINE:COL: error[E0603]: MESSAGE` (some have no code).
        let Some(k) = line.find(" error") else {
            continue;
        };
        let Some((_, message)) = line[k..].split_once(": ") else {
            continue;
        };
        let names = quoted(message);
        // "field `x` of struct `S`", "fields `x`, `y` and `z` of struct `S`".
        if message.starts_with("field") && names.len() >= 2 {
            let (owner, fields) = names.split_last().unwrap_or((&names[0], &[]));
            for name in fields {
                out.insert(Declared::Field {
                    owner: owner.clone(),
                    name: name.clone(),
                });
            }
            out.insert(Declared::TupleField {
                owner: owner.clone(),
            });
            continue;
        }
        for name in names {
            for t in traits.get(&name).into_iter().flatten() {
                out.insert(Declared::Item(t.clone()));
            }
            out.insert(Declared::TupleField {
                owner: name.clone(),
            });
            out.insert(Declared::Item(name));
        }
    }
    // Only what a dropped `pub` declared.
    out.retain(|d| pubs.iter().any(|p| &p.declared == d));
    out
}

/// `text` without the `pub`s it does not need, and how many it dropped.
///
/// # Errors
/// `text` does not compile as it is, or the rounds do not settle (an error
/// that names nothing private), named; rustc cannot run.
pub fn unpub(text: &str) -> Result<(String, usize), String> {
    let (pubs, traits) = scan(text)?;
    let (out, keep) = settle(
        text,
        "unneeded pubs",
        |keep| without_pubs(text, &pubs, keep),
        |stderr| private(stderr, &pubs, &traits),
    )?;
    let dropped = pubs.iter().filter(|p| !keep.contains(&p.declared)).count();
    Ok((out, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "mod a {\n\
        pub struct S { pub x: u8, pub y: u8 }\n\
        pub struct T(pub u8, pub u8);\n\
        pub struct U(pub u8);\n\
        impl S { pub fn new() -> S { S { x: 1, y: helper() } } pub fn get(&self) -> u8 { self.y } pub fn len(&self) -> u8 { 0 } }\n\
        pub fn helper() -> u8 { 2 }\n\
        pub fn used() -> u8 { U(3).0 }\n\
        pub const C: u8 = 4;\n\
        pub trait Tr { fn go(&self) -> u8; }\n\
        impl Tr for S { fn go(&self) -> u8 { 5 } }\n\
        pub use std::fmt::Write;\n\
        }\n\
        mod b { pub fn other() -> u8 { 6 } }\n\
        use a::Tr;\n\
        fn main() { let s = a::S::new(); let t = a::T(1, 2); \
        let words = \"pub struct InALiteral;\"; \
        println!(\"{} {} {} {} {} {} {}\", s.x, s.get(), s.go(), s.len(), t.0, a::used(), words); \
        let _ = a::C; let _ = b::other(); }\n";

    /// Only what is used from another module keeps its `pub`: the struct,
    /// its field `x` and its methods `new` and `get`, the tuple struct
    /// built outside with its fields, the function and constant used
    /// outside; `y`, `helper`, `U`'s field go. A standard name (`len`),
    /// the trait, the re-export and the literal keep theirs.
    #[test]
    fn only_what_other_modules_use_stays_pub() {
        let (out, dropped) = unpub(PROGRAM).unwrap();
        for kept in [
            "pub struct S { pub x: u8, y: u8 }",
            "pub struct T(pub u8, pub u8)",
            "pub fn new()",
            "pub fn get(",
            "pub fn len(",
            "pub fn used()",
            "pub const C",
            "pub trait Tr",
            "pub use std::fmt::Write",
            "mod b { pub fn other()",
            "\"pub struct InALiteral;\"",
        ] {
            assert!(out.contains(kept), "{kept} is missing from\n{out}");
        }
        for gone in ["struct U(u8)", "\nfn helper()", "pub struct U"] {
            assert_eq!(out.contains(gone), gone != "pub struct U", "{gone}\n{out}");
        }
        assert_eq!(dropped, 4, "{out}");
        assert!(crate::minify::rustc_stderr(&out).unwrap().is_none());
    }

    #[test]
    fn a_program_that_does_not_compile_is_refused() {
        let e = unpub("fn main() { nothing_here(); }").unwrap_err();
        assert!(e.contains("does not compile"), "{e}");
    }

    #[test]
    fn declarations_are_read() {
        let text = "mod m{pub const fn f(){}pub static mut G:u8=0;pub struct P<T>where T:Copy{pub q:T}pub(crate) fn h(){}}";
        let d: Vec<Declared> = scan(text)
            .unwrap()
            .0
            .into_iter()
            .map(|p| p.declared)
            .collect();
        assert_eq!(
            d,
            [
                Declared::Item("f".into()),
                Declared::Item("G".into()),
                Declared::Item("P".into()),
                Declared::Field {
                    owner: "P".into(),
                    name: "q".into()
                },
            ]
        );
    }

    #[test]
    fn rustc_s_messages_name_the_private_declarations() {
        let text = "mod m{pub struct S{pub x:u8,pub y:u8}pub struct T(pub u8);pub fn f(){}}";
        let pubs = scan(text).unwrap().0;
        let named = private(
            "m.rs:1:5: error[E0616]: field `x` of struct `m::S` is private: private field\n\
             m.rs:1:9: error[E0451]: fields `y` and `z` of struct `S` are private: private field\n\
             m.rs:2:5: error[E0603]: tuple struct constructor `T` is private: private\n\
             m.rs:3:5: error[E0603]: function `g` is private: private function\n",
            &pubs,
            &BTreeMap::new(),
        );
        assert_eq!(
            named,
            BTreeSet::from([
                Declared::Item("T".into()),
                Declared::Field {
                    owner: "S".into(),
                    name: "x".into()
                },
                Declared::Field {
                    owner: "S".into(),
                    name: "y".into()
                },
                Declared::TupleField { owner: "T".into() },
            ])
        );
    }
}
