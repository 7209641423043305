//! The command-line flags of the endgame examples that take any (not
//! every one does: each includes this file only if it needs it).

/// Removes `name N` from `args` and returns N, or `default` without it; a
/// missing or bad N ends the program with a message naming `tool`.
pub fn number_flag(tool: &str, args: &mut Vec<String>, name: &str, default: i64) -> i64 {
    let Some(i) = args.iter().position(|a| a == name) else {
        return default;
    };
    let v = args
        .get(i + 1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            eprintln!("{tool}: {name} needs a number");
            std::process::exit(2)
        });
    args.drain(i..i + 2);
    v
}
