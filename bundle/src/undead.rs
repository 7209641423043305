//! `bundle undead`: drops the functions, methods, constants and statics
//! a one-file program never uses.
//!
//! cargo-equip puts the library in a module under `#[allow(unused)]`, so
//! what only the tools and tests call stays in the bundle unseen. This
//! step lets rustc's `dead_code` lint speak (the attribute becomes a
//! `warn` of the same length, so offsets stay put), reads its warnings
//! (JSON: a warning naming several items has a span for each), and
//! deletes each named `fn`, `const` or `static` whole: its attributes,
//! visibility and qualifiers, signature and body. The lint is computed
//! from `main`, so what it names is used by nothing live, and what uses it
//! is named too. Fields, variants and types it names stay (taking them out
//! would mean editing the code that builds or matches them).
//!
//! The same warnings name the imports nothing uses, the semicolons and
//! attributes that do nothing, the parentheses and braces that group
//! nothing and the `mut` of bindings never changed ([`FIXED_LINTS`]):
//! rustc's own machine-applicable fix for each is applied. Rounds repeat
//! until rustc names nothing more that can go; the result must compile.

use crate::is_ident;
use crate::minify::{rustc_errors, rustc_output};

/// The attribute cargo-equip puts on the library's module, and its
/// stand-in of the same length that lets the lint speak.
const SILENT: &str = "#[allow(unused)]";
const LOUD: &str = "#[warn(unused)] ";

/// The lints whose machine-applicable fixes are applied: each removes text
/// the compiler has found to mean nothing (an import nothing resolves
/// through, an empty statement, an attribute without effect, grouping
/// around a single operand, the `mut` of a binding never changed).
pub const FIXED_LINTS: [&str; 6] = [
    "unused_imports",
    "redundant_semicolons",
    "unused_attributes",
    "unused_parens",
    "unused_braces",
    "unused_mut",
];

/// At most this many rounds (the bot's bundle settles in two: the first
/// names everything dead, the second nothing).
pub const MAX_ROUNDS: usize = 6;

/// `text` without the items rustc calls never used, and how many went.
///
/// # Errors
/// `text` does not compile or already holds the stand-in attribute, the
/// result does not compile (named), or rustc cannot run.
pub fn undead(text: &str) -> Result<(String, usize), String> {
    if text.contains(LOUD) {
        // It would turn into `SILENT` on the way out.
        return Err(format!("the input already holds `{LOUD}`"));
    }
    if let Some(e) = rustc_errors(text)? {
        return Err(format!("the input does not compile: {e}"));
    }
    let mut code = text.replace(SILENT, LOUD);
    let mut dropped = 0;
    for _ in 0..MAX_ROUNDS {
        let lints = lint(&code)?;
        let ranges = item_ranges(&code, &lints.dead)?;
        // The fixes that fall outside the items going.
        let mut edits: Vec<Edit> = ranges
            .iter()
            .map(|&(start, end)| (start, end, String::new()))
            .collect();
        let outside = |&(s, e, _): &Edit| ranges.iter().all(|&(a, b)| e <= a || s >= b);
        edits.extend(lints.fixes.into_iter().filter(outside));
        edits.sort_by_key(|&(s, e, _)| (s, e));
        if edits.is_empty() {
            let out = code.replace(LOUD, SILENT);
            if let Some(e) = rustc_errors(&out)? {
                return Err(format!(
                    "without its unused items the program does not compile: {e}"
                ));
            }
            return Ok((out, dropped));
        }
        dropped += edits.len();
        // Right to left, each clear of the one after it.
        let mut limit = code.len();
        for (start, end, new) in edits.into_iter().rev() {
            if end <= limit {
                code.replace_range(start..end, &new);
                limit = start;
            }
        }
    }
    Err(format!(
        "the unused items did not settle in {MAX_ROUNDS} rounds"
    ))
}

/// A replacement: byte range and new text.
type Edit = (usize, usize, String);

/// What rustc's `unused` lints say of a program.
struct Lints {
    /// The byte offsets of the names the `dead_code` lint reports (every
    /// primary span of every such warning).
    dead: Vec<usize>,
    /// The machine-applicable fixes of the [`FIXED_LINTS`] warnings.
    fixes: Vec<Edit>,
}

/// Runs rustc on `code` and reads its JSON warnings.
fn lint(code: &str) -> Result<Lints, String> {
    let out = rustc_output(code, &["--error-format=json"])?;
    let mut lints = Lints {
        dead: Vec::new(),
        fixes: Vec::new(),
    };
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let name = &message["code"]["code"];
        if name == "dead_code" {
            for span in message["spans"].as_array().into_iter().flatten() {
                if span["is_primary"] == true {
                    if let Some(at) = span["byte_start"].as_u64() {
                        lints.dead.push(at as usize);
                    }
                }
            }
        } else if FIXED_LINTS.iter().any(|l| name == *l) {
            lints.fixes.extend(fixes(&message, code));
        }
    }
    Ok(lints)
}

/// The machine-applicable replacements a diagnostic suggests, in its spans
/// and its children's. rustc marks the removal of an empty statement's
/// `;` "maybe incorrect" (it may come from a macro); in the flat file it is
/// always an empty statement, and it goes too.
fn fixes(message: &serde_json::Value, code: &str) -> Vec<Edit> {
    let semicolon = message["code"]["code"] == "redundant_semicolons";
    let children = message["children"].as_array().into_iter().flatten();
    std::iter::once(message)
        .chain(children)
        .flat_map(|m| m["spans"].as_array().into_iter().flatten())
        .filter_map(|span| {
            let start = span["byte_start"].as_u64()? as usize;
            let end = span["byte_end"].as_u64()? as usize;
            let new = span["suggested_replacement"].as_str()?;
            let sure = span["suggestion_applicability"] == "MachineApplicable";
            let empty_statement = semicolon && new.is_empty() && code.get(start..end) == Some(";");
            (sure || empty_statement).then(|| (start, end, new.to_string()))
        })
        .collect()
}

/// The byte ranges of the `fn`, `const` and `static` items whose names
/// start at `names`, sorted, none inside another (a name that declares
/// anything else is skipped).
fn item_ranges(text: &str, names: &[usize]) -> Result<Vec<(usize, usize)>, String> {
    let code = crate::code_bytes(text)?;
    let mut ranges: Vec<(usize, usize)> = names
        .iter()
        .filter_map(|&at| item_range(&code, at))
        .collect();
    ranges.sort_unstable();
    ranges.dedup();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for r in ranges {
        match out.last() {
            Some(&(_, end)) if r.0 < end => {} // inside the previous one
            _ => out.push(r),
        }
    }
    Ok(out)
}

/// The identifier that ends at `end` (exclusive) and its start.
fn word_before(code: &[u8], end: usize) -> (usize, &[u8]) {
    let mut k = end;
    while k > 0 && is_ident(code[k - 1]) {
        k -= 1;
    }
    (k, &code[k..end])
}

/// The offset before the spaces that end at `i`.
fn back_space(code: &[u8], mut i: usize) -> usize {
    while i > 0 && code[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    i
}

/// The opening bracket that matches the closing one at `close`.
fn opening(code: &[u8], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for k in (0..=close).rev() {
        match code[k] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The whole item whose name starts at `name` in `code` (literals
/// blanked): from its first attribute to its closing `}` or `;`. `None`
/// unless the name follows `fn`, `const` or `static`.
fn item_range(code: &[u8], name: usize) -> Option<(usize, usize)> {
    let (mut start, keyword) = word_before(code, back_space(code, name));
    let kind = match keyword {
        b"fn" => b'{',
        b"const" | b"static" => b';',
        b"mut" => {
            let (at, word) = word_before(code, back_space(code, start));
            if word != b"static" {
                return None;
            }
            start = at;
            b';'
        }
        _ => return None,
    };
    // Qualifiers, visibility and attributes, right to left.
    loop {
        let k = back_space(code, start);
        if k == 0 {
            break;
        }
        let (at, word) = word_before(code, k);
        if matches!(word, b"pub" | b"const" | b"unsafe" | b"async" | b"default") {
            start = at;
        } else if word.is_empty() && code[k - 1] == b')' {
            // `pub(crate)`, `pub(super)`...
            let open = opening(code, k - 1)?;
            let (at, word) = word_before(code, back_space(code, open));
            if word != b"pub" {
                break;
            }
            start = at;
        } else if word.is_empty() && code[k - 1] == b']' {
            let open = opening(code, k - 1)?;
            let hash = back_space(code, open);
            if hash == 0 || code[hash - 1] != b'#' {
                break;
            }
            start = hash - 1;
        } else {
            break;
        }
    }
    // Forward to the body's end (a function) or the `;` (a constant).
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(name) {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.checked_sub(1)?,
            b'{' if depth == 0 && kind == b'{' => {
                let mut braces = 0usize;
                for (j, &d) in code.iter().enumerate().skip(k) {
                    match d {
                        b'{' => braces += 1,
                        b'}' => {
                            braces -= 1;
                            if braces == 0 {
                                return Some((start, j + 1));
                            }
                        }
                        _ => {}
                    }
                }
                return None;
            }
            b'{' => depth += 1,
            b'}' => depth = depth.checked_sub(1)?,
            b';' if depth == 0 => return Some((start, k + 1)),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program whose library module (under cargo-equip's attribute)
    /// holds live and dead items of every kind the step knows, and a few
    /// it must leave alone.
    const PROGRAM: &str = r#"fn main() {
    let s = lib::S::new(2);
    println!("{}", s.live() + lib::LIVE + lib::twice(3));
}
#[allow(unused)]
mod lib {
    pub const LIVE: u32 = 1;
    const DEAD: &str = "fn x() { ; } const Y: u8 = 0;";
    pub(crate) static DEAD_STATIC: [u8; 2] = [1, 2];
    static mut DEAD_MUT: u32 = 0;
    pub struct S {
        v: u32,
        unread: u32,
    }
    impl S {
        pub fn new(v: u32) -> S {
            S { v, unread: 0 }
        }
        #[inline]
        pub fn live(&self) -> u32 {
            self.v
        }
        #[inline(always)]
        pub const fn dead(&self) -> char {
            '}'
        }
        const ALSO_DEAD: u32 = 3;
    }
    pub fn twice(x: u32) -> u32 {
        x * 2
    }
    pub fn dead_caller() -> u32 {
        dead_callee(if true { 1 } else { 2 })
    }
    fn dead_callee<T>(x: T) -> T
    where
        T: Copy,
    {
        x
    }
}
"#;

    #[test]
    fn drops_what_nothing_live_uses_and_keeps_the_rest() {
        let (out, dropped) = match undead(PROGRAM) {
            Ok(r) => r,
            Err(e) if e.starts_with("cannot run") => return eprintln!("skipped: {e}"),
            Err(e) => panic!("{e}"),
        };
        for gone in [
            "DEAD",
            "DEAD_STATIC",
            "DEAD_MUT",
            "fn dead",
            "ALSO_DEAD",
            "dead_caller",
            "dead_callee",
            "inline(always)",
            "where",
        ] {
            assert!(!out.contains(gone), "{gone} stayed:\n{out}");
        }
        for kept in [
            "pub const LIVE: u32 = 1;",
            "pub fn new",
            "#[inline]\n        pub fn live",
            "pub fn twice",
            "unread: u32",
            "#[allow(unused)]\nmod lib",
        ] {
            assert!(out.contains(kept), "{kept} went:\n{out}");
        }
        assert_eq!(dropped, 7);
        assert_eq!(rustc_errors(&out).unwrap(), None);
        // Nothing more to drop: the step is idempotent.
        assert_eq!(undead(&out).unwrap(), (out.clone(), 0));
    }

    /// The fixes of the unused lints: in the library and at the root.
    #[test]
    fn applies_the_fixes_of_the_unused_lints() {
        let program = "use std::fmt;\n\
            fn main() { let mut x = (lib::f()); println!(\"{x}\"); }\n\
            #[allow(unused)]\n\
            mod lib {\n\
                #![deny()]\n\
                use std::collections::{HashMap, HashSet};\n\
                pub fn f() -> usize { ;let s: HashSet<u8> = HashSet::new(); s.len() }\n\
            }\n";
        let (out, fixed) = match undead(program) {
            Ok(r) => r,
            Err(e) if e.starts_with("cannot run") => return eprintln!("skipped: {e}"),
            Err(e) => panic!("{e}"),
        };
        for gone in [
            "use std::fmt;",
            "HashMap",
            "let mut",
            "(lib::f())",
            "#![deny()]",
            "{ ;",
        ] {
            assert!(!out.contains(gone), "{gone} stayed:\n{out}");
        }
        for kept in [
            "use std::collections::HashSet;",
            "let x = lib::f() ;",
            "#[allow(unused)]",
        ] {
            assert!(out.contains(kept), "{kept} went:\n{out}");
        }
        assert!(fixed >= 6, "{fixed}:\n{out}");
        assert_eq!(rustc_errors(&out).unwrap(), None);
        assert_eq!(undead(&out).unwrap(), (out.clone(), 0));
    }

    #[test]
    fn the_stand_in_attribute_is_refused_in_the_input() {
        let text = "#[warn(unused)] fn main() {}";
        assert!(undead(text).unwrap_err().contains("already holds"));
    }

    #[test]
    fn a_program_that_does_not_compile_is_refused() {
        match undead("fn main() { let x: u32 = \"no\"; }") {
            Err(e) if e.starts_with("cannot run") => eprintln!("skipped: {e}"),
            Err(e) => assert!(e.contains("does not compile"), "{e}"),
            Ok(_) => panic!("accepted a program that does not compile"),
        }
    }

    #[test]
    fn items_are_found_whole_from_their_names() {
        let text = "#[a] #[b(c)] pub(crate) const unsafe fn f<T>(x: [u8; 2]) -> u8 where T: Copy { if x[0] > 0 { 1 } else { 2 } } struct S { f: u8 }";
        let code = crate::code_bytes(text).unwrap();
        let at = text.find("f<T>").unwrap();
        let (s, e) = item_range(&code, at).unwrap();
        assert_eq!(&text[s..e], &text[..text.find(" struct").unwrap()]);
        // A field's name declares no item.
        assert_eq!(item_range(&code, text.find("f: u8").unwrap()), None);
        let text = "pub static mut X: [&str; 1] = [\";\"]; fn g() {}";
        let code = crate::code_bytes(text).unwrap();
        let (s, e) = item_range(&code, text.find("X:").unwrap()).unwrap();
        assert_eq!(&text[s..e], "pub static mut X: [&str; 1] = [\";\"];");
    }
}
