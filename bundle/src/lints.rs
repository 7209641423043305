//! Drops the lint attributes that only serve our own checks: `allow`,
//! `deny`, `warn` and `expect` attributes whose lints are all Clippy's
//! (`clippy::...`) or [`DROPPED_RUSTC_LINTS`]. CodinGame runs neither Clippy
//! nor our `deny(unsafe_code)` policy, and a lint level cannot change what a
//! program that compiles does: a `deny` only adds errors, an `allow` only
//! removes warnings. Every other attribute stays (`allow(unused)` keeps
//! rustc's output quiet where `bundle undead` relies on it). A level with
//! an empty list (`#![deny()]`) goes too.

/// The rustc lints whose attributes go with Clippy's: the crate denies
/// `unsafe_code` and allows it on the few items that need it, so the pair
/// goes together.
pub const DROPPED_RUSTC_LINTS: &[&str] = &["unsafe_code"];

/// The lint levels whose attributes may go.
const LEVELS: &[&str] = &["allow", "deny", "warn", "expect"];

/// `text` without its droppable lint attributes (inner `#![..]` and outer
/// `#[..]`), literals untouched.
///
/// # Errors
/// When the text's literals cannot be read.
pub fn drop_lint_attributes(text: &str) -> Result<String, String> {
    // Literals blanked: a `#` or `)]` inside one is not code.
    let code = crate::code_bytes(text)?;
    let code = std::str::from_utf8(&code).map_err(|e| e.to_string())?;
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut i = 0;
    while i < code.len() {
        if code.as_bytes()[i] == b'#' {
            if let Some(end) = droppable_end(code, i) {
                out.push_str(&text[pos..i]);
                pos = end;
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[pos..]);
    Ok(out)
}

/// If a droppable lint attribute starts at `i`, the offset just past it.
fn droppable_end(text: &str, i: usize) -> Option<usize> {
    let rest = text[i + 1..].strip_prefix('!').unwrap_or(&text[i + 1..]);
    let rest = rest.strip_prefix('[')?;
    let level = LEVELS.iter().find(|l| rest.starts_with(&format!("{l}(")))?;
    let list_start = text.len() - rest.len() + level.len() + 1;
    let close = text[list_start..].find(")]")?;
    let lints = &text[list_start..list_start + close];
    let droppable = |lint: &str| {
        let lint = lint.trim();
        lint.starts_with("clippy::") || DROPPED_RUSTC_LINTS.contains(&lint)
    };
    // An empty list (cargo-equip leaves `#![deny()]` where it removed
    // `missing_docs`) does nothing either.
    lints
        .split(',')
        .all(|l| l.trim().is_empty() || droppable(l))
        .then_some(list_start + close + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_clippy_and_unsafe_code_levels_go() {
        let text = "#![deny(unsafe_code)]#![deny()]#![allow(nonstandard_style)]\
                    #[allow(clippy::too_many_arguments)]fn f(){}\
                    #[allow(unsafe_code,clippy::a)]fn g(){}#[allow(unused)]mod m{}\
                    #[allow(unsafe_code,dead_code)]fn h(){}#[inline]fn i(){}\
                    const S:&str=\"#[allow(clippy::x)]\";";
        assert_eq!(
            drop_lint_attributes(text).unwrap(),
            "#![allow(nonstandard_style)]fn f(){}fn g(){}#[allow(unused)]mod m{}\
             #[allow(unsafe_code,dead_code)]fn h(){}#[inline]fn i(){}\
             const S:&str=\"#[allow(clippy::x)]\";"
        );
    }
}
