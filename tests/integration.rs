//! The integration tests that share one test crate (Cargo.toml, `[[test]]`):
//! each module is a file of this directory, as it was when each was a crate of
//! its own. `bundle.rs` and `transition_reproducers.rs` stay crates of their
//! own: their turns are timed.

mod common;

mod bench_positions;
mod book;
mod bot_protocol;
mod calibration;
mod montecarlo;
mod perft;
mod rng;
mod rules;
mod search;
mod solver;
mod transition;

/// Every `.rs` file of this directory is compiled: a module of this crate or
/// a `[[test]]` target of Cargo.toml. With `autotests = false`, Cargo would
/// silently skip a new file listed in neither.
#[test]
fn every_test_file_is_a_module_here_or_a_test_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let this = include_str!("integration.rs");
    let mut files = 0;
    for entry in std::fs::read_dir(root.join("tests")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap();
        let module = this.contains(&format!("\nmod {name};\n"));
        let target = manifest.contains(&format!("path = \"tests/{name}.rs\""));
        assert!(module || target, "tests/{name}.rs is neither a module of tests/integration.rs nor a [[test]] of Cargo.toml");
        files += 1;
    }
    assert!(files >= 14, "{files} test files found");
}
