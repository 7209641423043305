//! `bundle undebug`: drops the `Debug` derives a program does not need.
//!
//! The library derives `Debug` on most types for its tests and tools; the
//! bot formats few of them. Every derive loses `Debug`, then the compiler
//! names each type that still needs it (E0277, "`T` doesn't implement
//! `Debug`"), which gets it back, round after round, until the program
//! compiles. Dropping a derive cannot change what a program that compiles
//! does: nothing but formatting can reach the impl. Deterministic for a
//! given rustc (docs/journal/bundle.md, "Unused `Debug` derives").

use crate::settle::settle;
use std::collections::BTreeSet;

/// One `#[derive(..)]` with `Debug` among its traits.
#[derive(Debug, PartialEq, Eq)]
struct Derive {
    /// Byte range of the whole attribute.
    start: usize,
    end: usize,
    /// Its traits, as written, in order.
    traits: Vec<String>,
    /// The struct, enum or union it precedes ("" if none is found).
    name: String,
}

/// The derives of `text` that list `Debug`. A derive's type is the first
/// identifier after `struct`, `enum` or `union` that follows it.
fn debug_derives(text: &str) -> Result<Vec<Derive>, String> {
    const OPEN: &str = "#[derive(";
    let literals = crate::string_literals(text)?;
    let in_literal = |at: usize| literals.iter().any(|l| l.start <= at && at < l.end);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = text[from..].find(OPEN) {
        let start = from + k;
        from = start + OPEN.len();
        if in_literal(start) {
            continue;
        }
        let Some(close) = text[from..].find(")]") else {
            return Err(format!("unclosed derive at byte {start}"));
        };
        let end = from + close + 2;
        let traits: Vec<String> = text[from..from + close]
            .split(',')
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
            .collect();
        if !traits.iter().any(|t| t == "Debug") {
            continue;
        }
        let name = type_after(&text[end..]);
        out.push(Derive {
            start,
            end,
            traits,
            name,
        });
    }
    Ok(out)
}

/// The name of the first struct, enum or union declared in `rest`.
fn type_after(rest: &str) -> String {
    let words: Vec<&str> = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .take(16)
        .collect();
    words
        .windows(2)
        .find(|w| matches!(w[0], "struct" | "enum" | "union"))
        .map_or(String::new(), |w| w[1].to_string())
}

/// `text` with `Debug` dropped from every derive but those of the types
/// in `keep` (an emptied derive goes whole).
fn without_debug(text: &str, derives: &[Derive], keep: &BTreeSet<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for d in derives.iter().filter(|d| !keep.contains(&d.name)) {
        out.push_str(&text[at..d.start]);
        let rest: Vec<&str> = d
            .traits
            .iter()
            .map(String::as_str)
            .filter(|&t| t != "Debug")
            .collect();
        if !rest.is_empty() {
            out.push_str("#[derive(");
            out.push_str(&rest.join(","));
            out.push_str(")]");
        }
        at = d.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The types rustc's short-format `stderr` says lack `Debug`.
fn missing_debug(stderr: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in stderr.lines().filter(|l| l.contains("error")) {
        let Some(k) = line.find("` doesn't implement `") else {
            continue;
        };
        let Some(open) = line[..k].rfind('`') else {
            continue;
        };
        // `a::T<U>` names `T`.
        let ty = line[open + 1..k].split('<').next().unwrap_or("");
        let ty = ty.rsplit("::").next().unwrap_or(ty);
        if line[k..].contains("Debug`") && !ty.is_empty() {
            names.insert(ty.to_string());
        }
    }
    names
}

/// `text` without the `Debug` derives it does not need, and how many it
/// dropped.
///
/// # Errors
/// `text` does not compile as it is, or the rounds do not settle (an
/// error other than a missing `Debug`), named; rustc cannot run.
pub fn undebug(text: &str) -> Result<(String, usize), String> {
    let derives = debug_derives(text)?;
    let (out, keep) = settle(
        text,
        "Debug derives",
        |keep| without_debug(text, &derives, keep),
        missing_debug,
    )?;
    let dropped = derives.iter().filter(|d| !keep.contains(&d.name)).count();
    Ok((out, dropped))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "#[derive(Clone, Copy, Debug)] struct Shown(u8);\n\
        #[derive(Debug)] pub struct Hidden { x: u8 }\n\
        #[derive(Clone, Debug)] struct Quiet;\n\
        #[derive(Debug, PartialEq)] enum Inner { A }\n\
        #[derive(Debug)] struct Outer(Inner);\n\
        fn main() { let s = \"#[derive(Debug)] struct InALiteral;\"; \
        println!(\"{:?} {} {:?} {}\", Shown(1), Hidden { x: 2 }.x, Outer(Inner::A), s); \
        let _ = (Inner::A == Inner::A, Quiet.clone()); }\n";

    /// Only the types formatted, directly or through a field, keep
    /// `Debug`; the other traits stay, an emptied derive goes, and a
    /// literal is left alone.
    #[test]
    fn only_the_formatted_types_keep_debug() {
        let (out, dropped) = undebug(PROGRAM).unwrap();
        assert_eq!(dropped, 2, "{out}");
        assert!(
            out.contains("#[derive(Clone, Copy, Debug)] struct Shown"),
            "{out}"
        );
        assert!(out.contains("\n pub struct Hidden"), "{out}");
        assert!(out.contains("\n#[derive(Clone)] struct Quiet"), "{out}");
        assert!(
            out.contains("#[derive(Debug, PartialEq)] enum Inner"),
            "{out}"
        );
        assert!(out.contains("#[derive(Debug)] struct Outer"), "{out}");
        assert!(
            out.contains("\"#[derive(Debug)] struct InALiteral;\""),
            "{out}"
        );
        assert!(crate::minify::rustc_stderr(&out).unwrap().is_none());
    }

    #[test]
    fn a_program_that_does_not_compile_is_refused() {
        let e = undebug("fn main() { nothing_here(); }").unwrap_err();
        assert!(e.contains("does not compile"), "{e}");
    }

    #[test]
    fn derives_name_their_types() {
        let d = debug_derives("#[derive(Debug)]#[repr(u8)]pub(crate) enum E{A}").unwrap();
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].name, "E");
        assert_eq!(type_after(" pub struct S<T>(T);"), "S");
    }

    #[test]
    fn rustc_s_messages_name_the_types() {
        let names = missing_debug(
            "m.rs:1:5: error[E0277]: `a::Ab<u8>` doesn't implement `Debug`\n\
             m.rs:2:5: error[E0277]: `Y` doesn't implement `std::fmt::Debug`\n\
             m.rs:3:5: error[E0277]: `Z` doesn't implement `std::fmt::Display`\n",
        );
        assert_eq!(names, BTreeSet::from(["Ab".to_string(), "Y".to_string()]));
    }
}
