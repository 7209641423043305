//! `bundle`: the steps of `bundle/make.sh` after cargo-equip.
//!
//! ```text
//! bundle finish RAW OUT ROOT   repair cargo-equip's RAW output into OUT, then report
//!                              (over the limit only a warning: the renaming follows)
//! bundle size FILE             report FILE's size as CodinGame counts it
//! bundle minify IN -o OUT [--no CLASS]... [--rename-debug] [--check]
//!                              rename IN's identifiers into OUT (CLASS: locals,
//!                              fields, functions, types, variants, constants,
//!                              modules), print the sizes before and after;
//!                              --rename-debug: also what a derived `Debug`
//!                              prints; --check: refuse an output that does
//!                              not compile when IN does (rustc)
//! bundle undead IN -o OUT      drop the functions, methods, constants and
//!                              statics IN never uses (rustc says which),
//!                              print the sizes
//! bundle undebug IN -o OUT     drop the `Debug` derives IN does not need
//!                              (rustc says which it does), print the sizes
//! bundle unpub IN -o OUT       drop the `pub`s IN does not need (rustc says
//!                              which it does), print the sizes
//! bundle flatten IN -o OUT     put IN's modules' items in one module (no
//!                              `mod`, internal `use` or `pub` left), print
//!                              the sizes
//! ```

use bundle::minify::{check_compiles, minify, Class, Options};
use bundle::{finish, measure, CODE_LIMIT};
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "usage: bundle finish RAW OUT ROOT | bundle size FILE | \
                     bundle minify IN -o OUT [--no CLASS]... [--rename-debug] [--check] | \
                     bundle undead IN -o OUT | bundle undebug IN -o OUT | bundle unpub IN -o OUT | \
                     bundle flatten IN -o OUT";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bundle: {e}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

fn run(args: &[String]) -> Result<(), String> {
    let strs: Vec<&str> = args.iter().map(String::as_str).collect();
    match strs.as_slice() {
        ["finish", raw, out, root] => {
            let text = finish(&read(raw)?, root).map_err(|e| format!("{raw}: {e}"))?;
            std::fs::write(out, &text).map_err(|e| format!("cannot write {out}: {e}"))?;
            // The renaming comes next: only its output must fit.
            report(out, &text, false)
        }
        ["size", file] => report(file, &read(file)?, true),
        ["minify", input, "-o", out, rest @ ..] => {
            let mut opts = Options::default();
            let mut check = false;
            let mut flags = rest.iter();
            while let Some(flag) = flags.next() {
                match *flag {
                    "--rename-debug" => opts.rename_debug = true,
                    "--check" => check = true,
                    "--no" => {
                        let name = flags
                            .next()
                            .ok_or_else(|| format!("--no needs a class\n{USAGE}"))?;
                        let class = Class::parse(name)
                            .ok_or_else(|| format!("unknown class {name:?}\n{USAGE}"))?;
                        opts.classes.remove(&class);
                    }
                    _ => return Err(format!("bad arguments {args:?}\n{USAGE}")),
                }
            }
            let before = read(input)?;
            // On failure nothing is written.
            let after = minify(&before, &opts).map_err(|e| format!("{input}: {e}"))?;
            if check {
                if let Some(warning) =
                    check_compiles(&before, &after.printed).map_err(|e| format!("{input}: {e}"))?
                {
                    eprintln!("bundle: warning: {input}: {warning}");
                }
            }
            std::fs::write(out, &after.text).map_err(|e| format!("cannot write {out}: {e}"))?;
            let (b, a) = (measure(&before)?, measure(&after.text)?);
            let line = format!(
                "{input}: {} characters (code {}, data {}) -> {out}: {} (code {}, data {}), {} fewer\n",
                b.total,
                b.code(),
                b.data,
                a.total,
                a.code(),
                a.data,
                b.total as i64 - a.total as i64
            );
            let _ = std::io::stdout().write_all(line.as_bytes());
            Ok(())
        }
        ["undead", input, "-o", out] => {
            drop_step(input, out, "unused items", bundle::undead::undead)
        }
        ["undebug", input, "-o", out] => drop_step(input, out, "Debug derives", |text| {
            bundle::undebug::undebug(text)
        }),
        ["unpub", input, "-o", out] => drop_step(input, out, "pubs", bundle::unpub::unpub),
        ["flatten", input, "-o", out] => drop_step(input, out, "modules", bundle::flatten::flatten),
        _ => Err(format!("bad arguments {args:?}\n{USAGE}")),
    }
}

/// A step that drops what a program does not need (`undead`, `undebug`,
/// `unpub`, `flatten`):
/// reads `input`, writes `out` (nothing on failure), prints the sizes and
/// how many `what` went.
fn drop_step(
    input: &str,
    out: &str,
    what: &str,
    step: impl Fn(&str) -> Result<(String, usize), String>,
) -> Result<(), String> {
    let before = read(input)?;
    let (after, dropped) = step(&before).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(out, &after).map_err(|e| format!("cannot write {out}: {e}"))?;
    let (b, a) = (measure(&before)?, measure(&after)?);
    let line = format!(
        "{input}: {} characters -> {out}: {}, {dropped} {what} dropped, {} fewer\n",
        b.total,
        a.total,
        b.total as i64 - a.total as i64
    );
    let _ = std::io::stdout().write_all(line.as_bytes());
    Ok(())
}

/// Prints `text`'s size; over the limit, an error when `enforce`, else a
/// warning on stderr.
fn report(name: &str, text: &str, enforce: bool) -> Result<(), String> {
    let size = measure(text).map_err(|e| format!("{name}: {e}"))?;
    let pct = |n: usize| 100.0 * n as f64 / size.total.max(1) as f64;
    let lines = format!(
        "{name}: {} characters (CodinGame count)\n  \
         headroom: {} of {CODE_LIMIT} ({:.1}% used)\n  \
         code: {} ({:.1}%), embedded data: {} ({:.1}%)\n",
        size.total,
        size.headroom(),
        100.0 * size.total as f64 / CODE_LIMIT as f64,
        size.code(),
        pct(size.code()),
        size.data,
        pct(size.data)
    );
    // A closed stdout (`| head`) is not an error of the bundle.
    let _ = std::io::stdout().write_all(lines.as_bytes());
    if size.headroom() < 0 {
        let over = format!("{name} is over CodinGame's {CODE_LIMIT}-character limit");
        if enforce {
            return Err(over);
        }
        eprintln!("bundle: warning: {over} before renaming");
    }
    Ok(())
}
