//! `train probcut`: the selective solve's cut deviations, measured on
//! positions of real games (docs/journal/endgame.md, "The selective solve's
//! cut, calibrated").

use crate::cli::Options;
use crate::endgame;
use crate::games::{read_games, Part};
use crate::probcut::{self, Appender, Row};
use othello::search::endgame::calibration::{claimed, Checked};
use othello::search::endgame::shallow_value;
use othello::Board;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// Where the measured rows go when `--values` is not given.
pub const DEFAULT_VALUES: &str = "train/corpus/probcut-values.txt";
/// Where the fit is written when `--out` is not given.
pub const FIT_PATH: &str = "src/search/endgame/probcut_fit.rs";
/// The empties measured when `--empties` is not given: from where the
/// selective solve's cuts start to its deepest roots.
pub const DEFAULT_EMPTIES: (u32, u32) = (8, 24);
/// The deepest shallow search measured when `--max-depth` is not given.
pub const DEFAULT_MAX_DEPTH: u32 = 6;

/// The rows of `path` (none if it does not exist).
pub fn read_rows(path: &Path) -> Result<Vec<Row>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => probcut::from_text(&text).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Runs the command: measures the positions of `--from` missing from the
/// values file, then prints the errors by empties and depth.
pub fn run(o: &Options) -> Result<(), String> {
    let values = o
        .values
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_VALUES));
    let depth = o.max_depth.unwrap_or(DEFAULT_MAX_DEPTH);
    let c = &o.transition;
    let empties = if c.empties == crate::cli::TRANSITION_EMPTIES {
        DEFAULT_EMPTIES
    } else {
        c.empties
    };
    if !c.check.is_empty() {
        if c.revalue.is_some() {
            return Err("--revalue and --check: one at a time".into());
        }
        return check(o);
    }
    if let Some(to) = &c.revalue {
        // The committed values and fit belong together: a revalued fit
        // goes where --out says, and the values file is never the target.
        if o.out.is_none() {
            return Err(format!(
                "--revalue {}: name the fit's file with --out (the default, {FIT_PATH}, \
                 is the fit of the committed values)",
                to.display()
            ));
        }
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(x), Ok(y)) => x == y,
            _ => a == b,
        };
        if same(to, &values) {
            return Err(format!(
                "--revalue {}: the values file itself; name another file",
                to.display()
            ));
        }
    }
    let mut rows = read_rows(&values)?;
    let chunks = endgame_chunks(&c.from)?;
    if !chunks.is_empty() {
        let have: HashSet<_> = rows.iter().map(|r| r.board).collect();
        let boards: Vec<(Board, i32)> = labelled(
            &chunks,
            o.endgame_part,
            empties,
            o.endgame.children,
            c.per_empties,
            o.gen.seed,
        )
        .into_iter()
        .filter(|(b, _)| !have.contains(b))
        .collect();
        eprintln!(
            "{} endgame chunk(s), {} exact positions to search ({} games, {}-{} empties, \
             at most {} a count, depths 0-{depth})",
            chunks.len(),
            boards.len(),
            o.endgame_part.name(),
            empties.0,
            empties.1,
            c.per_empties
        );
        let bar = crate::progress::bar(boards.len() as u64, "search");
        let new =
            crate::parallel::map_in_order(&boards, o.gen.threads, &bar, |&(board, exact)| Row {
                board,
                exact,
                values: (0..=depth).map(|d| shallow_value(&board, d)).collect(),
            });
        bar.finish();
        let text: String = new.iter().map(|r| probcut::to_line(r) + "\n").collect();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&values)
            .map_err(|e| format!("{}: {e}", values.display()))?;
        std::io::Write::write_all(&mut f, text.as_bytes())
            .map_err(|e| format!("{}: {e}", values.display()))?;
        rows = read_rows(&values)?;
    } else if !c.from.is_empty() {
        let games = read_games(&c.from, o.endgame_part)?;
        let have: HashSet<_> = rows.iter().map(|r| r.board).collect();
        let todo: Vec<_> = probcut::positions(&games, empties)?
            .into_iter()
            .filter(|b| !have.contains(b))
            .collect();
        eprintln!(
            "{} games, {} positions to measure ({}-{} empties, depths 0-{depth})",
            games.len(),
            todo.len(),
            empties.0,
            empties.1
        );
        if let Some(dir) = values.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let out = Appender::open(&values)?;
        let bar = crate::progress::bar(todo.len() as u64, "solve");
        probcut::measure(&todo, depth, o.gen.threads, &bar, &|row| out.push(&row));
        bar.finish();
        if let Some(e) = out.error.lock().expect("no panics").take() {
            return Err(format!("{}: {e}", values.display()));
        }
        rows = read_rows(&values)?;
    }
    if rows.is_empty() {
        return Err(format!(
            "{}: no rows: give --from GAMES to measure some",
            values.display()
        ));
    }
    let mut source = values.clone();
    if let Some(to) = &c.revalue {
        let bar = crate::progress::bar(rows.len() as u64, "search");
        rows = probcut::revalue(&rows, o.gen.threads, &bar);
        bar.finish();
        let text: String = rows.iter().map(|r| probcut::to_line(r) + "\n").collect();
        std::fs::write(to, text).map_err(|e| format!("{}: {e}", to.display()))?;
        eprintln!(
            "{} rows searched again with the compiled evaluation into {}",
            rows.len(),
            to.display()
        );
        source = to.clone();
    }
    print!("{}", report(&rows));
    let cells = crate::probcut_fit::cells(&rows);
    let fit = crate::probcut_fit::fit(&cells);
    print!("{}", crate::probcut_fit::report(&cells, &fit));
    print!("{}", crate::probcut_fit::by_estimate_report(&rows, &fit));
    let out = o.out.clone().unwrap_or_else(|| PathBuf::from(FIT_PATH));
    std::fs::write(&out, fit_source(&rows, &source.display().to_string()))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// The fit's source file from `rows`, read from `values` (named in its
/// provenance).
pub fn fit_source(rows: &[Row], values: &str) -> String {
    let fit = crate::probcut_fit::fit(&crate::probcut_fit::cells(rows));
    let how = format!(
        "{} positions of real games ({values}), {}-{} empties, shallow depths 0-{}.",
        rows.len(),
        fit.empties.0,
        fit.empties.1,
        rows.iter().map(|r| r.values.len()).min().unwrap_or(1) - 1
    );
    crate::probcut_fit::rust_source(&fit, &how)
}

/// The errors (exact - shallow value, discs) by empties and depth: count,
/// mean and standard deviation.
pub fn report(rows: &[Row]) -> String {
    let depths = rows.iter().map(|r| r.values.len()).min().unwrap_or(0);
    let mut by: BTreeMap<u32, Vec<&Row>> = BTreeMap::new();
    for r in rows {
        by.entry(r.empties()).or_default().push(r);
    }
    let mut s = String::from("empties     n |");
    for d in 0..depths {
        s += &format!("  d{d}: mean   sd |");
    }
    s.push('\n');
    for (n, list) in &by {
        s += &format!("{n:>7} {:>5} |", list.len());
        for d in 0..depths {
            let errs: Vec<f64> = list
                .iter()
                .map(|r| f64::from(r.exact) - f64::from(r.values[d]) / 256.0)
                .collect();
            let k = errs.len() as f64;
            let mean = errs.iter().sum::<f64>() / k;
            let sd = (errs.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / k).sqrt();
            s += &format!(" {mean:+9.2} {sd:5.2}|");
        }
        s.push('\n');
    }
    s
}

/// The endgame chunks among `files` (`train endgame`'s), read and
/// checked; the other files are games. Both at once are refused.
fn endgame_chunks(files: &[PathBuf]) -> Result<Vec<endgame::Chunk>, String> {
    let mut chunks = Vec::new();
    for f in files {
        let bytes = std::fs::read(f).map_err(|e| format!("{}: {e}", f.display()))?;
        if endgame::is_chunk(&bytes) {
            chunks.push(endgame::parse(&bytes).map_err(|e| format!("{}: {e}", f.display()))?);
        }
    }
    if !chunks.is_empty() && chunks.len() < files.len() {
        return Err("--from: endgame chunks and games files at once; give one kind".into());
    }
    Ok(chunks)
}

/// The exactly labelled positions of `chunks` in `part` of their games
/// with `empties` empties, each once: the games' line positions and those
/// one move off the line with at most `children` empties; at most
/// `per_empties` of each count, drawn with `seed` (most empties first).
pub fn labelled(
    chunks: &[endgame::Chunk],
    part: Part,
    empties: (u32, u32),
    children: u32,
    per_empties: usize,
    seed: u64,
) -> Vec<(Board, i32)> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut seen = HashSet::new();
    let mut by: BTreeMap<u32, Vec<(Board, i32)>> = BTreeMap::new();
    for chunk in chunks {
        let samples = endgame::samples(&chunk.records, 0);
        let kinds = chunk.records.iter().flat_map(|r| {
            r.positions.iter().map(|p| {
                (
                    p.level == endgame::EXACT,
                    p.entry.child == endgame::NO_CHILD,
                )
            })
        });
        for (s, (exact, line)) in samples.iter().zip(kinds) {
            let e = s.board.empty_count();
            if !line && e > children {
                continue;
            }
            let held = s.held_out == Some(true);
            let wanted = match part {
                Part::Training => !held,
                Part::HeldOut => held,
                Part::All => true,
            };
            if exact && wanted && (empties.0..=empties.1).contains(&e) && seen.insert(s.board) {
                by.entry(e).or_default().push((s.board, i32::from(s.label)));
            }
        }
    }
    let mut out = Vec::new();
    for (e, mut list) in by.into_iter().rev() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed ^ u64::from(e) << 32);
        list.shuffle(&mut rng);
        list.truncate(per_empties);
        out.extend(list);
    }
    out
}

/// The calibration check's roots when `--empties` is not given: their cut
/// nodes (fewer empties) are solved exactly to verify the cuts.
pub const CHECK_EMPTIES: (u32, u32) = (16, 20);
/// Cut decisions verified per root and pass, at most.
pub const CHECK_PER_PASS: usize = 100;

/// `train probcut --check GAMES`: the bot's passes on positions of the
/// held-out games, each pass's cut decisions verified by exact solves.
fn check(o: &Options) -> Result<(), String> {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let c = &o.transition;
    let range = if c.empties == crate::cli::TRANSITION_EMPTIES {
        CHECK_EMPTIES
    } else {
        c.empties
    };
    let games = read_games(&c.check, o.endgame_part)?;
    let mut roots = Vec::new();
    let all = probcut::positions(&games, range)?;
    for e in range.0..=range.1 {
        let mut here: Vec<_> = all
            .iter()
            .filter(|b| b.empty_count() == e)
            .copied()
            .collect();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(o.gen.seed ^ u64::from(e));
        here.shuffle(&mut rng);
        here.truncate(c.per_empties);
        roots.extend(here);
    }
    let cuts = othello::search::alphabeta::PASS_CUTS;
    eprintln!(
        "{} games, {} roots ({}-{} empties), passes {cuts:?}",
        games.len(),
        roots.len(),
        range.0,
        range.1
    );
    let bar = crate::progress::bar(roots.len() as u64, "check");
    let checked = probcut::check(
        &roots,
        cuts,
        CHECK_PER_PASS,
        o.gen.seed,
        o.gen.threads,
        &bar,
    );
    bar.finish();
    print!("{}", check_report(cuts, &checked));
    Ok(())
}

/// The check's table: per pass, the decisions made and verified, the share
/// confirmed (with a 95% Wilson interval) against the pass's confidence
/// (two-sided) and the one-sided share a calibrated cut promises; then the
/// confirmed share by empties of the cut node.
pub fn check_report(cuts: &[i32], checked: &[Checked]) -> String {
    use othello::search::endgame::normal_within;
    let mut s = String::from(
        "pass  cut  made verified confirmed (95% interval)  claimed: two-sided one-sided\n",
    );
    for (&cut, ch) in cuts.iter().zip(checked) {
        let (n, k) = ch.totals();
        let (share, lo, hi) = wilson(k, n);
        let two = normal_within(cut);
        s += &format!(
            "{:>3}% {cut:>4} {:>5} {n:>8} {:>8.1}% ({:.1}-{:.1}%)  {:>16.1}% {:>8.1}%\n",
            (two * 100.0).round(),
            ch.made,
            share * 100.0,
            lo * 100.0,
            hi * 100.0,
            two * 100.0,
            claimed(cut) * 100.0
        );
    }
    s += "\nconfirmed by empties of the cut node (verified: share)\n";
    let mut empties: Vec<u32> = checked
        .iter()
        .flat_map(|c| c.by_empties.keys().copied())
        .collect();
    empties.sort_unstable();
    empties.dedup();
    s += "empties";
    for &cut in cuts {
        s += &format!(" {:>16}", format!("cut {cut}"));
    }
    s.push('\n');
    for e in empties {
        s += &format!("{e:>7}");
        for ch in checked {
            let cell = match ch.by_empties.get(&e) {
                Some(&(n, k)) if n > 0 => format!("{n}: {:.1}%", 100.0 * k as f64 / n as f64),
                _ => "-".into(),
            };
            s += &format!(" {cell:>16}");
        }
        s.push('\n');
    }
    s
}

/// The share `k / n` and its 95% Wilson score interval.
pub fn wilson(k: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    let (k, n) = (k as f64, n as f64);
    let z = 1.96f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `train probcut` without `--from` rebuilds the committed fit from the
    /// committed values, byte for byte.
    #[test]
    fn the_committed_fit_rebuilds_from_the_committed_values() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let rows = read_rows(&root.join(DEFAULT_VALUES)).unwrap();
        assert!(rows.len() > 5000, "{}", rows.len());
        let committed = std::fs::read_to_string(root.join(FIT_PATH)).unwrap();
        assert_eq!(fit_source(&rows, DEFAULT_VALUES), committed);
    }

    /// The committed values were measured with the committed weights, so
    /// searching their shallow values again gives them back, row by row in
    /// order (on 3 threads over 400 rows, so that the threads interleave).
    #[test]
    fn revaluing_the_committed_values_gives_them_back() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let rows = read_rows(&root.join(DEFAULT_VALUES)).unwrap();
        let first = &rows[..400];
        let bar = indicatif::ProgressBar::hidden();
        let again = probcut::revalue(first, 3, &bar);
        assert!(again == first, "the revalued rows differ");
    }

    #[test]
    fn revalue_refuses_to_overwrite_the_committed_values_or_fit() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let run_with = |a: &str| run(&crate::cli::parse(&args(a)).unwrap().1).unwrap_err();
        let e = run_with("probcut --revalue /tmp/x.txt");
        assert!(e.contains("--out"), "{e}");
        let e = run_with(&format!(
            "probcut --revalue {}/../{DEFAULT_VALUES} --values {}/../{DEFAULT_VALUES} --out /tmp/f.rs",
            env!("CARGO_MANIFEST_DIR"),
            env!("CARGO_MANIFEST_DIR")
        ));
        assert!(e.contains("the values file itself"), "{e}");
        let e = run_with("probcut --revalue /tmp/x.txt --check a.txt");
        assert!(e.contains("one at a time"), "{e}");
    }
}
