//! Turns cargo-equip's output into the committed CodinGame submission, and
//! measures it the way CodinGame does.
//!
//! cargo-equip (0.20.1, `--minify all --no-rustfmt`) leaves three things that
//! [`finish`] repairs:
//! - a doc header naming the bundled crate by its absolute path on this
//!   machine (`path+file:///home/.../othello`): the file would differ from one
//!   checkout to the next. Every `#[doc]` attribute is dropped, the header with
//!   them (docs are no use to the submission).
//! - the bin's own `//!` and `///` docs, kept as `#[doc="..."]` attributes
//!   although `--remove docs` is given.
//! - [`LIBRARY_INDENT`] spaces inserted at the start of every line of the
//!   library, *including the lines inside multi-line string literals*, which
//!   changes their text (the `--help` usage, for one).
//!
//!
//! [`finish`] also shortens the library's absolute paths: cargo-equip writes
//! every `use crate::...` of the library as [`LIBRARY_PATH`] (41 characters,
//! about 60 times); an alias at the crate root, [`LIBRARY_ALIAS`], makes them
//! 14 (about 1,700 characters less).
//!
//! cargo-equip resolves `cfg(cargo_equip)` in the library only. In the
//! binary's own modules (`src/bin/othello/`) [`finish`] does it
//! ([`resolve_bin_cfgs`], [`cfgs`]): it drops an item, a statement, a field,
//! a variant, a match arm or a parameter under [`NOT_IN_SUBMISSION`] (or
//! [`TESTS_ONLY`]) and strips [`ONLY_IN_SUBMISSION`] from the node it
//! precedes.
//!
//! [`finish`] also drops the lint attributes of Clippy and of our
//! `unsafe_code` policy ([`lints`]): they cannot change the program.
//!
//! After [`finish`], `bundle/make.sh` renames the identifiers with
//! [`minify::minify`] (`bundle minify`), which parses the file with `syn`.
//!
//! The file is scanned with a small lexer that knows Rust's string, raw
//! string, byte string and char literals, lifetimes and comments, so nothing
//! inside a literal is mistaken for code.

pub mod cfgs;
pub mod compiler;
pub mod flatten;
pub mod lints;
pub mod minify;
pub mod settle;
pub mod undead;
pub mod undebug;
pub mod unpub;

/// The spaces cargo-equip puts before each line of a bundled library: it
/// nests the library three modules deep (`mod __cargo_equip { pub(crate) mod
/// crates { pub mod othello {`) at 4 spaces a level.
pub const LIBRARY_INDENT: usize = 12;

/// Where the bundled libraries start in cargo-equip's output; lines before it
/// belong to the binary's code and are not indented.
pub const LIBRARY_MARKER: &str = "mod __cargo_equip{";

/// The path by which cargo-equip makes the library's modules refer to each
/// other.
pub const LIBRARY_PATH: &str = "crate::__cargo_equip::crates::othello::";

/// The crate-root alias that replaces [`LIBRARY_PATH`]'s prefix, and the item
/// that declares it (inserted just before [`LIBRARY_MARKER`]'s module).
pub const LIBRARY_ALIAS: (&str, &str) = (
    "crate::__oth::",
    "use __cargo_equip::crates::othello as __oth;",
);

/// The attribute of a binary's item that stays out of the submission.
pub const NOT_IN_SUBMISSION: &str = "#[cfg(not(cargo_equip))]";

/// The attribute of a binary's item that exists only in the submission.
pub const ONLY_IN_SUBMISSION: &str = "#[cfg(cargo_equip)]";

/// The attribute of a binary's unit tests, which the submission never
/// builds either.
pub const TESTS_ONLY: &str = "#[cfg(test)]";

/// CodinGame's code size limit, in characters.
pub const CODE_LIMIT: usize = 100_000;

/// A string literal or numeric array literal at least this long counts as
/// embedded data (evaluation weights) rather than code in the size report.
pub const DATA_MIN_CHARS: usize = 200;

/// A long string literal is text (a usage message), not packed data, when
/// at least one character in this many is whitespace.
pub const TEXT_WHITESPACE_EVERY: usize = 50;

/// The span (byte offsets, end exclusive) of a string literal, prefix and
/// quotes included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Literal {
    /// Byte offset of the first character (`"`, `r`, or `b`).
    pub start: usize,
    /// Byte offset just past the closing quote (and `#`s).
    pub end: usize,
}

/// The first offset at or after `i` that is not ASCII whitespace.
pub(crate) fn skip_space(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The identifier that starts at `i` of `code` (empty when none does,
/// or when `i` is past the end).
pub(crate) fn ident_at(code: &[u8], i: usize) -> &str {
    let i = i.min(code.len());
    let end = i + code[i..].iter().take_while(|&&c| is_ident(c)).count();
    std::str::from_utf8(&code[i..end]).unwrap_or("")
}

/// A byte of an identifier.
pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The string literals of `text`, in order.
///
/// # Errors
/// An unterminated literal or block comment, with its byte offset.
pub fn string_literals(text: &str) -> Result<Vec<Literal>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && is_ident(b[i - 1]);
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let start = i;
                let mut depth = 0;
                loop {
                    if i + 1 >= b.len() {
                        return Err(format!("unterminated block comment at byte {start}"));
                    }
                    if b[i] == b'/' && b[i + 1] == b'*' {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b[i + 1] == b'/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' => {
                let end = quoted_end(b, i)?;
                out.push(Literal { start: i, end });
                i = end;
            }
            b'b' if !prev_ident && b.get(i + 1) == Some(&b'"') => {
                let end = quoted_end(b, i + 1)?;
                out.push(Literal { start: i, end });
                i = end;
            }
            b'r' | b'b' if !prev_ident && raw_start(b, i).is_some() => {
                let (hashes, quote) = raw_start(b, i).unwrap_or_default();
                let end = raw_end(b, quote, hashes)?;
                out.push(Literal { start: i, end });
                i = end;
            }
            b'\'' => i = after_quote(b, i),
            _ => i += 1,
        }
    }
    Ok(out)
}

/// `text`'s bytes with every string and char literal blanked out (spaces,
/// same length), so that a scan of the code sees no literal's braces or
/// words; lifetimes stay.
///
/// # Errors
/// As [`string_literals`].
pub fn code_bytes(text: &str) -> Result<Vec<u8>, String> {
    let mut b = text.as_bytes().to_vec();
    for l in string_literals(text)? {
        b[l.start..l.end].fill(b' ');
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\'' {
            let end = after_quote(&b, i);
            if end > i + 1 {
                b[i..end].fill(b' ');
            }
            i = end;
        } else {
            i += 1;
        }
    }
    Ok(b)
}

/// The end of a `"..."` literal whose opening quote is at `open`.
fn quoted_end(b: &[u8], open: usize) -> Result<usize, String> {
    let mut i = open + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(format!("unterminated string literal at byte {open}"))
}

/// For `r"`, `r#"`, `br##"`... at `i`: the number of `#` and the offset of
/// the opening quote.
fn raw_start(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    if b[j] == b'b' {
        j += 1;
    }
    if b.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = b[j..].iter().take_while(|&&c| c == b'#').count();
    (b.get(j + hashes) == Some(&b'"')).then_some((hashes, j + hashes))
}

fn raw_end(b: &[u8], quote: usize, hashes: usize) -> Result<usize, String> {
    let mut i = quote + 1;
    while i < b.len() {
        if b[i] == b'"'
            && b[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == b'#')
                .count()
                == hashes
        {
            return Ok(i + 1 + hashes);
        }
        i += 1;
    }
    Err(format!("unterminated raw string literal at byte {quote}"))
}

/// Skips a char literal (`'x'`, `'\n'`, `'\u{1F600}'`, `'"'`) or a lifetime
/// or label (`'a`) starting at `i`.
fn after_quote(b: &[u8], i: usize) -> usize {
    if b.get(i + 1) == Some(&b'\\') {
        // Skip the backslash and the escaped character (`'\''`, `'\\'`).
        let mut j = i + 3;
        while j < b.len() && b[j] != b'\'' {
            j += 1;
        }
        return j + 1;
    }
    // One character, which may take up to 4 bytes, then a closing quote.
    for len in 1..=4 {
        if b.get(i + 1 + len) == Some(&b'\'') && b.get(i + 1) != Some(&b'\'') {
            let ch = std::str::from_utf8(&b[i + 1..i + 1 + len]);
            if ch.map(|s| s.chars().count() == 1).unwrap_or(false) {
                return i + 2 + len;
            }
        }
    }
    i + 1 // a lifetime or label: the name is ordinary code
}

/// Characters as CodinGame counts them: a character outside the Basic
/// Multilingual Plane counts 2 (its UTF-16 length).
pub fn codingame_chars(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// Repairs cargo-equip's output (see the module docs). `root` is the
/// absolute path of the workspace, which must not survive.
///
/// # Errors
/// When the output does not have the shape this repair relies on: a line
/// break outside a string literal, a library line without the expected
/// indentation, or a machine path left over.
pub fn finish(raw: &str, root: &str) -> Result<String, String> {
    let literals = string_literals(raw)?;
    let library_start = raw.find(LIBRARY_MARKER).ok_or_else(|| {
        format!("no {LIBRARY_MARKER:?} in cargo-equip's output: its format changed")
    })?;
    let b = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut pos = 0; // next byte of `raw` to copy
    let mut lit = literals.iter().peekable();
    let mut i = 0;
    while i < b.len() {
        if let Some(l) = lit.peek().copied().filter(|l| l.start == i) {
            lit.next();
            // Inside the literal: undo the indentation after each line break.
            let mut j = l.start;
            while j < l.end {
                if b[j] == b'\n' && j > library_start {
                    out.push_str(&raw[pos..=j]);
                    let spaces = b[j + 1..].iter().take_while(|&&c| c == b' ').count();
                    let blank = b.get(j + 1) == Some(&b'\n');
                    if spaces < LIBRARY_INDENT && !blank {
                        return Err(format!(
                            "a library line at byte {} has {spaces} spaces of indentation, \
                             expected at least {LIBRARY_INDENT}",
                            j + 1
                        ));
                    }
                    pos = if blank { j + 1 } else { j + 1 + LIBRARY_INDENT };
                }
                j += 1;
            }
            i = l.end;
            continue;
        }
        if b[i] == b'\n' && i + 1 < b.len() {
            return Err(format!(
                "a line break outside a string literal at byte {i}: \
                 is the bundle really minified?"
            ));
        }
        if let Some(end) = doc_attribute_end(raw, i, &literals) {
            out.push_str(&raw[pos..i]);
            pos = end;
            i = end;
            while lit.peek().is_some_and(|l| l.start < end) {
                lit.next();
            }
            continue;
        }
        i += 1;
    }
    out.push_str(&raw[pos..]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let out = resolve_bin_cfgs(&out)?;
    let out = shorten_library_paths(&out)?;
    let out = lints::drop_lint_attributes(&out)?;
    let root = root.trim_end_matches('/');
    if !root.is_empty() && out.contains(root) {
        return Err(format!("the machine path {root:?} is still in the bundle"));
    }
    if out.contains("file:///") {
        return Err("a file:/// path is still in the bundle".into());
    }
    Ok(out)
}

/// Resolves `cfg(cargo_equip)` in the binary (the text before
/// [`LIBRARY_MARKER`]): a node under [`NOT_IN_SUBMISSION`] or
/// [`TESTS_ONLY`] is dropped, the attribute [`ONLY_IN_SUBMISSION`] is
/// removed and its node kept ([`cfgs`]). The library is left as it is.
///
/// # Errors
/// The binary does not parse, or such an attribute is on a node that cannot
/// go alone (an expression inside another).
pub fn resolve_bin_cfgs(text: &str) -> Result<String, String> {
    let split = text.find(LIBRARY_MARKER).ok_or_else(|| {
        format!("no {LIBRARY_MARKER:?} in the bundle: cargo-equip's format changed")
    })?;
    let (bin, library) = text.split_at(split);
    // The item that holds the library starts with its attribute.
    let bin_end = bin.strip_suffix("#[allow(unused)]").unwrap_or(bin);
    let mut out = cfgs::resolve(bin_end)?;
    out.push_str(&bin[bin_end.len()..]);
    out.push_str(library);
    Ok(out)
}

/// Replaces [`LIBRARY_PATH`] by [`LIBRARY_ALIAS`] and declares the alias
/// once, before the item that holds the library (`#[allow(unused)]mod
/// __cargo_equip{`).
///
/// # Errors
/// When a string literal contains the path (its text would change), or the
/// library module or the alias's name is not where expected.
fn shorten_library_paths(text: &str) -> Result<String, String> {
    let (alias, declaration) = LIBRARY_ALIAS;
    let alias_name = &alias["crate::".len()..alias.len() - 2];
    if text.contains(alias_name) {
        return Err(format!("{alias_name:?} is already used in the bundle"));
    }
    for l in string_literals(text)? {
        if text[l.start..l.end].contains(LIBRARY_PATH) {
            return Err(format!(
                "a string literal at byte {} contains {LIBRARY_PATH:?}",
                l.start
            ));
        }
    }
    let item = format!("#[allow(unused)]{LIBRARY_MARKER}");
    let at = text
        .find(&item)
        .ok_or_else(|| format!("no {item:?} in the bundle: cargo-equip's format changed"))?;
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..at].replace(LIBRARY_PATH, alias));
    out.push_str(declaration);
    out.push_str(&text[at..].replace(LIBRARY_PATH, alias));
    Ok(out)
}

/// If a `#[doc="..."]` or `#![doc="..."]` attribute starts at `i`, the
/// offset just past it.
fn doc_attribute_end(text: &str, i: usize, literals: &[Literal]) -> Option<usize> {
    let rest = &text[i..];
    let open = if rest.starts_with("#[doc=") {
        6
    } else if rest.starts_with("#![doc=") {
        7
    } else {
        return None;
    };
    let l = literals.iter().find(|l| l.start == i + open)?;
    (text.as_bytes().get(l.end) == Some(&b']')).then_some(l.end + 1)
}

/// The size of a bundle, in CodinGame characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// All characters.
    pub total: usize,
    /// Characters of embedded data: long string literals that are not text
    /// (see [`TEXT_WHITESPACE_EVERY`]) and long numeric array literals (at
    /// least [`DATA_MIN_CHARS`] each).
    pub data: usize,
}

impl Size {
    /// Characters of code (everything that is not data).
    pub fn code(&self) -> usize {
        self.total - self.data
    }

    /// Characters left before [`CODE_LIMIT`] (negative when over).
    pub fn headroom(&self) -> i64 {
        CODE_LIMIT as i64 - self.total as i64
    }
}

/// Measures `text`.
///
/// # Errors
/// As [`string_literals`].
pub fn measure(text: &str) -> Result<Size, String> {
    let literals = string_literals(text)?;
    let mut data = 0;
    for l in &literals {
        let body = &text[l.start..l.end];
        let n = codingame_chars(body);
        let spaces = body.chars().filter(|c| c.is_whitespace()).count();
        if n >= DATA_MIN_CHARS && spaces * TEXT_WHITESPACE_EVERY < n {
            data += n;
        }
    }
    // Numeric arrays: `[` then only digits, signs, dots, commas, spaces,
    // `_` and type suffixes, then `]`, outside string literals.
    let b = text.as_bytes();
    let mut lit = literals.iter().peekable();
    let mut i = 0;
    while i < b.len() {
        if let Some(l) = lit.peek().copied().filter(|l| l.start <= i) {
            lit.next();
            i = i.max(l.end);
            continue;
        }
        if b[i] == b'[' {
            let len = b[i + 1..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || b"-+.,_ ".contains(&c))
                .count();
            let close = i + 1 + len;
            let numeric = b[i + 1..close].iter().any(u8::is_ascii_digit);
            if b.get(close) == Some(&b']') && numeric && len + 2 >= DATA_MIN_CHARS {
                data += len + 2;
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    Ok(Size {
        total: codingame_chars(text),
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_found_past_chars_lifetimes_and_raw_strings() {
        let text = r####"let a='"';fn f<'a>(x:&'a str){} let s="x\"y"; let r=r#"q"q"#; b"z"; '\u{22}'; ('\'','"',"w"); '\\'"####;
        let lits: Vec<&str> = string_literals(text)
            .unwrap()
            .iter()
            .map(|l| &text[l.start..l.end])
            .collect();
        assert_eq!(lits, [r#""x\"y""#, r###"r#"q"q"#"###, r#"b"z""#, r#""w""#]);
    }

    #[test]
    fn finish_strips_docs_and_undoes_library_indentation() {
        let raw = "#![doc=\" bin\"]fn main(){}#[doc=\"  - `path+file:///home/me/o#o@0.1.0`\"]\
                   #[allow(unused)]mod __cargo_equip{const U:&str=\"a\n              b\n\n            c\";}";
        let out = finish(raw, "/home/me/o").unwrap();
        assert_eq!(
            out,
            "fn main(){}use __cargo_equip::crates::othello as __oth;\
             #[allow(unused)]mod __cargo_equip{const U:&str=\"a\n  b\n\nc\";}\n"
        );
    }

    #[test]
    fn finish_shortens_library_paths_outside_literals_only() {
        let raw = "fn main(){}#[allow(unused)]mod __cargo_equip{pub mod a{\
                   use crate::__cargo_equip::crates::othello::b::B;}}";
        let out = finish(raw, "/x").unwrap();
        assert_eq!(
            out,
            "fn main(){}use __cargo_equip::crates::othello as __oth;\
             #[allow(unused)]mod __cargo_equip{pub mod a{use crate::__oth::b::B;}}\n"
        );
        let in_literal = "fn main(){}#[allow(unused)]mod __cargo_equip{\
                          const S:&str=\"crate::__cargo_equip::crates::othello::x\";}";
        assert!(finish(in_literal, "/x")
            .unwrap_err()
            .contains("string literal"));
        let taken = "fn main(){let __oth=1;}#[allow(unused)]mod __cargo_equip{}";
        assert!(finish(taken, "/x").unwrap_err().contains("already used"));
        assert!(finish("fn main(){}mod __cargo_equip{}", "/x").is_err());
    }

    #[test]
    fn the_binarys_cfgs_are_resolved_item_by_item() {
        let lib = "#[allow(unused)]mod __cargo_equip{#[cfg(not(cargo_equip))]fn stays(){}}";
        let bin = "use a::b;#[cfg(not(cargo_equip))]mod t{fn f(){let c='}';g(\"}\",{1});}}\
                   #[cfg(cargo_equip)]mod t{pub enum T{}}\
                   #[cfg(not(cargo_equip))]#[derive(Debug)]pub struct S(u8);\
                   #[cfg(not(cargo_equip))]use x::{y,z};#[cfg(test)]mod tests{fn t(){}}\
                   #[cfg(not(cargo_equip))]const K:P=P{a:[1;2]};\
                   #[cfg(cargo_equip)]const U:&str=\"#[cfg(not(cargo_equip))]\";fn main(){}";
        let out = resolve_bin_cfgs(&format!("{bin}{lib}")).unwrap();
        assert_eq!(
            out,
            format!("use a::b;mod t{{pub enum T{{}}}}const U:&str=\"#[cfg(not(cargo_equip))]\";fn main(){{}}{lib}")
        );
        let open = format!("#[cfg(not(cargo_equip))]fn f(){{{lib}");
        assert!(resolve_bin_cfgs(&open).is_err());
    }

    /// Inside items: statements, fields, field values and patterns,
    /// variants, arms and parameters go with their commas.
    #[test]
    fn the_binarys_cfgs_are_resolved_inside_items() {
        let lib = "#[allow(unused)]mod __cargo_equip{}";
        let resolve =
            |bin: &str| resolve_bin_cfgs(&format!("{bin}{lib}")).map(|o| o.replace(lib, ""));
        let bin = "struct S{a:u8,#[cfg(not(cargo_equip))]b:u8,#[cfg(test)]c:u8,d:u8}\
                   struct T(u8,#[cfg(not(cargo_equip))]u16);\
                   enum E{A,#[cfg(not(cargo_equip))]B(u8),C}\
                   impl S{#[cfg(not(cargo_equip))]fn g(&self){}#[cfg(cargo_equip)]fn h(&self){}}\
                   fn f(x:u8,#[cfg(not(cargo_equip))]y:u8)->u8{\
                   #[cfg(not(cargo_equip))]let z=y;\
                   #[cfg(cargo_equip)]let z=x;\
                   #[cfg(not(cargo_equip))]g(z);\
                   #[cfg(not(cargo_equip))]println!(\"{z}\");\
                   #[cfg(not(cargo_equip))]fn inner(){}\
                   let S{a,#[cfg(not(cargo_equip))]b,..}=S{a:1,#[cfg(not(cargo_equip))]b:2,d:3};\
                   match z{0=>{}#[cfg(not(cargo_equip))]1=>{g()}#[cfg(not(cargo_equip))]2=>3,_=>{}}z}";
        assert_eq!(
            resolve(bin).unwrap(),
            "struct S{a:u8,d:u8}struct T(u8,);enum E{A,C}impl S{fn h(&self){}}\
             fn f(x:u8,)->u8{let z=x;let S{a,..}=S{a:1,d:3};match z{0=>{}_=>{}}z}"
        );
        // Not a node that can go alone: an operand.
        let e = resolve("fn f()->u8{1+#[cfg(not(cargo_equip))]2}").unwrap_err();
        assert!(e.contains("cannot go alone"), "{e}");
    }

    #[test]
    fn finish_rejects_unexpected_shapes() {
        assert!(finish("fn main(){}\nmod __cargo_equip{}", "/x").is_err());
        assert!(finish("mod __cargo_equip{const U:&str=\"a\n  b\";}", "/x").is_err());
        assert!(finish("fn main(){}", "/x").is_err());
        assert!(finish("mod __cargo_equip{const P:&str=\"/x/y\";}", "/x").is_err());
    }

    #[test]
    fn sizes_count_non_bmp_twice_and_split_data() {
        assert_eq!(codingame_chars("aあ😀"), 1 + 1 + 2);
        let weights = format!("const W:[i16;100]=[{}];", vec!["-1"; 100].join(","));
        let packed = format!("const P:&str=\"{}\";", "あ".repeat(300));
        let usage = format!("const U:&str=\"{}\";", "usage: othello\n".repeat(30));
        let text = format!("fn main(){{}}{weights}{packed}{usage}");
        let size = measure(&text).unwrap();
        assert_eq!(size.total, codingame_chars(&text));
        assert_eq!(size.data, (100 * 3 - 1 + 2) + 302);
        assert_eq!(size.code(), size.total - size.data);
    }
}
