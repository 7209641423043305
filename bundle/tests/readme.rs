//! The figures for the submission's size stay true: every "N characters of
//! (CodinGame's) 100,000" in README.md and docs/bundle.md must be within 1%
//! of the characters of `bundle/othello.rs` (as `wc -m` counts them). When
//! the bundle grows or shrinks by more, update both pages with the new size
//! and its date.

/// How far the README's figure may be from the bundle's size.
const TOLERANCE: f64 = 0.01;

/// The sizes the README states: the numbers before "characters of
/// 100,000" or "characters of CodinGame's 100,000".
fn stated_sizes(readme: &str) -> Vec<usize> {
    let text = readme.replace("**", "");
    let mut sizes = Vec::new();
    for marker in [
        " characters of 100,000",
        " characters of CodinGame's 100,000",
    ] {
        let mut rest = text.as_str();
        while let Some(at) = rest.find(marker) {
            let before = &rest[..at];
            let start = before
                .rfind(|c: char| !(c.is_ascii_digit() || c == ','))
                .map_or(0, |i| i + 1);
            let digits: String = before[start..]
                .chars()
                .filter(char::is_ascii_digit)
                .collect();
            if let Ok(n) = digits.parse() {
                sizes.push(n);
            }
            rest = &rest[at + marker.len()..];
        }
    }
    sizes
}

/// The pages that state the bundle's size, from the workspace root.
const PAGES: [&str; 2] = ["README.md", "docs/bundle.md"];

#[test]
fn the_readme_states_the_bundles_size() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let bundle =
        std::fs::read_to_string(format!("{root}/bundle/othello.rs")).expect("bundle/othello.rs");
    let actual = bundle.chars().count();
    for page in PAGES {
        let text = std::fs::read_to_string(format!("{root}/{page}")).expect(page);
        let stated = stated_sizes(&text);
        assert!(
            !stated.is_empty(),
            "{page} states no size of the bundle (\"N characters of 100,000\")"
        );
        for n in stated {
            let off = (n as f64 - actual as f64).abs() / actual as f64;
            assert!(
                off <= TOLERANCE,
                "{page} says the bundle is {n} characters; bundle/othello.rs has {actual} \
                 ({:.1}% off, more than {:.0}%): update the page's figure and its date",
                off * 100.0,
                TOLERANCE * 100.0
            );
        }
    }
}
