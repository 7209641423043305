//! The rounds `bundle undebug` and `bundle unpub` share: drop everything,
//! then give back what rustc names, until the program compiles.

use crate::minify::{first_error, rustc_errors, rustc_stderr};
use std::collections::BTreeSet;

/// At most this many compile rounds: each one gives back what the last one
/// named, and name resolution reports before type checking, so a few
/// rounds settle it (the bot's bundle: two for `undebug`, six for `unpub`).
pub const MAX_ROUNDS: usize = 8;

/// The program `without(keep)` for the smallest `keep` that compiles,
/// found in rounds: each round adds to `keep` what `named` reads in
/// rustc's short-format stderr. Returns the program and the final `keep`.
/// `what` names the things dropped, for the errors.
///
/// # Errors
/// `text` does not compile as it is, or the rounds do not settle (an error
/// that names nothing new), named; rustc cannot run.
pub fn settle<K: Ord + Clone>(
    text: &str,
    what: &str,
    without: impl Fn(&BTreeSet<K>) -> String,
    named: impl Fn(&str) -> BTreeSet<K>,
) -> Result<(String, BTreeSet<K>), String> {
    if let Some(e) = rustc_errors(text)? {
        return Err(format!("the input does not compile: {e}"));
    }
    let mut keep = BTreeSet::new();
    for _ in 0..MAX_ROUNDS {
        let candidate = without(&keep);
        let Some(e) = rustc_stderr(&candidate)? else {
            return Ok((candidate, keep));
        };
        let new: Vec<K> = named(&e).difference(&keep).cloned().collect();
        if new.is_empty() {
            return Err(format!(
                "without its {what} the program does not compile: {}",
                first_error(&e)
            ));
        }
        keep.extend(new);
    }
    Err(format!("the {what} did not settle in {MAX_ROUNDS} rounds"))
}
