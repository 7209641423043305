//! The field test of `bundle minify` (docs/journal/bundle.md, "Field test"): single
//! -file programs in the styles real bots use (`tests/data/field/*.rs`, each
//! with its input `*.in`) are minified with the default options, both
//! versions are compiled with rustc and run on the input, and their standard
//! output, standard error and exit status must be the same.
//!
//! It needs rustc (`$RUSTC` or the `rustc` on the PATH), as cargo does:
//! without one it fails, saying so, rather than passing untested.

use bundle::codingame_chars;
use bundle::compiler;
use bundle::minify::{minify, Options};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The field programs' directory.
const FIELD_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/field");

/// The edition the programs are compiled with.
const EDITION: &str = "2021";

/// Compiles `src` into `dir/name` and returns the executable's path.
fn compile(dir: &Path, name: &str, src: &str) -> PathBuf {
    let file = dir.join(format!("{name}.rs"));
    std::fs::write(&file, src).unwrap();
    let exe = dir.join(name);
    let out = compiler::compile(
        &["--edition", EDITION, "-A", "warnings", "--crate-name", name],
        &exe,
        &file,
    )
    .expect("rustc runs");
    assert!(
        out.status.success(),
        "{name} does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn run(exe: &Path, input: &[u8]) -> Output {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn field_programs_print_the_same_once_minified() {
    if let Err(e) = Command::new(compiler::rustc()).arg("--version").output() {
        panic!("rustc cannot run ({e}): set $RUSTC or put rustc on the PATH");
    }
    let dir = std::env::temp_dir().join(format!("bundle-field-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(FIELD_DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    programs.sort();
    assert!(programs.len() >= 4, "field programs missing in {FIELD_DIR}");
    eprintln!("| program | before | after | same output |");
    for path in programs {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let src = std::fs::read_to_string(&path).unwrap();
        let input = std::fs::read(path.with_extension("in")).expect("an input file");
        let min = minify(&src, &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .text;
        assert_eq!(
            minify(&src, &Options::default()).unwrap().text,
            min,
            "{name}: not deterministic"
        );
        let (before, after) = (codingame_chars(&src), codingame_chars(&min));
        assert!(after < before, "{name}: {before} -> {after}");
        let original = run(&compile(&dir, &format!("{name}_orig"), &src), &input);
        let minified = run(&compile(&dir, &format!("{name}_min"), &min), &input);
        assert!(!original.stdout.is_empty(), "{name} prints nothing");
        assert_eq!(
            original.status.code(),
            minified.status.code(),
            "{name}: exit status"
        );
        assert_eq!(
            String::from_utf8_lossy(&original.stdout),
            String::from_utf8_lossy(&minified.stdout),
            "{name}: standard output\n{min}"
        );
        assert_eq!(
            String::from_utf8_lossy(&original.stderr),
            String::from_utf8_lossy(&minified.stderr),
            "{name}: standard error\n{min}"
        );
        eprintln!("| {name} | {before} | {after} | yes |");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
