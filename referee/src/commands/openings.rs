//! `referee openings GAMES[:ANALYSIS]...`: openings for endgame matches,
//! cut from real games where a number of empties remain, kept when the
//! games' judge (`referee analyze`) puts the position near a draw. Each
//! argument is one match's games file with its analysis (by default the
//! one beside it); the transcripts print one per line, the counts of
//! empties in the order given, duplicates dropped, each with its count
//! and the judge's value as a comment, so `referee --openings` reads the
//! file (docs/referee.md, "Openings from real games").

use super::output;
use crate::cli::OpeningsArgs;
use crate::files::analysis_file::{default_output, GameAnalysis, Matcher};
use crate::files::merge;
use crate::files::outputs::{check_writable, write_file};
use crate::files::record::GameRecord;
use crate::judge::mistakes::empties_before;
use othello::Game;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// A position of a game where `empties` remain: the transcript that
/// reaches it and the judge's value there, for the side to move, in discs.
#[derive(Clone, Debug, PartialEq)]
pub struct Cut {
    /// Empty squares left.
    pub empties: u32,
    /// The judge's value of the position for the side to move.
    pub value: f64,
    /// The opening and the moves played up to the position.
    pub transcript: String,
}

/// The positions of `record` where each of `counts` empties remain and
/// the judge judged the move played there (positions inside the opening,
/// or after the game ended, have no verdict and give nothing).
///
/// # Errors
/// A transcript the rules refuse, or one that does not reach the count
/// the verdict's move number says: an analysis of other games.
pub fn cuts(
    record: &GameRecord,
    analysis: &GameAnalysis,
    counts: &[u32],
) -> Result<Vec<Cut>, String> {
    let mut out = Vec::new();
    for &empties in counts {
        // Move `n` is played with 61 - n empties (passes place no disc).
        let Some(i) = analysis
            .moves
            .iter()
            .position(|v| empties_before(v.n) == empties)
        else {
            continue;
        };
        let n = analysis.moves[i].n;
        let mut transcript = record.opening.clone();
        for m in &record.moves[..i] {
            transcript.push_str(&m.square);
        }
        let game =
            Game::from_transcript(&transcript).map_err(|e| format!("game {}: {e}", record.game))?;
        let left = game.board().empty_count();
        if left != empties || game.is_over() {
            return Err(format!(
                "game {}: move {n} is judged, but the moves before it leave {left} empties, not \
                 {empties} (an analysis of other games)",
                record.game
            ));
        }
        out.push(Cut {
            empties,
            value: analysis.moves[i].value,
            transcript,
        });
    }
    Ok(out)
}

/// `referee openings`: the openings file, on stdout or in `--output`.
/// An `--output` this run created is removed again if the run fails, so a
/// failure leaves nothing behind.
pub fn run(args: &OpeningsArgs) -> Result<(), String> {
    if let Some((i, e)) = args
        .empties
        .iter()
        .enumerate()
        .find(|&(i, e)| args.empties[..i].contains(e))
    {
        return Err(format!("--empties: {e} is given twice (count {})", i + 1));
    }
    let matches: Vec<Input> = args.files.iter().map(|s| Input::of(s)).collect();
    let created = match &args.output {
        Some(path) => {
            let named = matches.iter().flat_map(|m| [&m.games, &m.analysis]);
            if let Some(input) = named.into_iter().find(|i| same_file(i, path)) {
                return Err(format!(
                    "--output {}: is the input {}",
                    path.display(),
                    input.display()
                ));
            }
            let existed = path.exists();
            check_writable(path).map_err(|e| format!("--output {}: {e}", path.display()))?;
            (!existed).then_some(path)
        }
        None => None,
    };
    let result = openings(args, &matches);
    if let (Err(_), Some(path)) = (&result, created) {
        let _ = std::fs::remove_file(path);
    }
    result
}

/// One argument `GAMES[:ANALYSIS]`: a games file and its analysis.
struct Input {
    games: PathBuf,
    /// The analysis named after the colon, if any.
    given: Vec<PathBuf>,
    /// The analysis read: the one given, else the one beside the games.
    analysis: PathBuf,
}

impl Input {
    /// A file of the argument's whole name is the games file, with the
    /// analysis beside it; otherwise the argument is split at its last
    /// colon (so an analysis named after a colon cannot hold one).
    fn of(spec: &str) -> Input {
        let (games, given) = match spec.rsplit_once(':') {
            Some((games, analysis))
                if !Path::new(spec).is_file() && !games.is_empty() && !analysis.is_empty() =>
            {
                (PathBuf::from(games), vec![PathBuf::from(analysis)])
            }
            _ => (PathBuf::from(spec), Vec::new()),
        };
        let analysis = given
            .first()
            .cloned()
            .unwrap_or_else(|| default_output(&games, None));
        Input {
            games,
            given,
            analysis,
        }
    }
}

/// [`run`]'s work on `matches`, once the output is known to be writable.
fn openings(args: &OpeningsArgs, matches: &[Input]) -> Result<(), String> {
    let mut all = Vec::new();
    for m in matches {
        let (games, analysis) = (&m.games, &m.analysis);
        let files = std::slice::from_ref(games);
        let mut matcher = Matcher::for_games(files, &m.given)?.ok_or_else(|| {
            format!(
                "{}: no analysis of these games: run `referee analyze` on them, or name one \
                 as GAMES:ANALYSIS",
                games.display()
            )
        })?;
        let (mut seen, mut judged) = (0usize, 0usize);
        let mut failure = None;
        merge::stream(files, |_, line, _, r| {
            seen += 1;
            if failure.is_some() {
                return;
            }
            if let Some(g) = matcher.game(&r) {
                judged += 1;
                match cuts(&r, g, &args.empties) {
                    Ok(c) => all.extend(c),
                    Err(e) => {
                        failure = Some(format!(
                            "{}:{line}: {e} in {}",
                            games.display(),
                            analysis.display()
                        ));
                    }
                }
            }
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
        matcher.finish()?;
        if judged < seen {
            eprintln!(
                "referee: warning: {}: {} of {seen} games have no analysis in {} and give no \
                 position",
                games.display(),
                seen - judged,
                analysis.display()
            );
        }
    }
    let text = render(&all, args);
    match &args.output {
        Some(path) => write_file(path, &text, "--output").map_or(Ok(()), Err),
        None => {
            output::print(&text);
            Ok(())
        }
    }
}

/// Whether two paths name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The file: a header saying how it was made, then the kept positions,
/// count by count in the order given, each transcript once.
fn render(all: &[Cut], args: &OpeningsArgs) -> String {
    let counts: Vec<String> = args.empties.iter().map(u32::to_string).collect();
    let mut text = format!(
        "# referee openings --empties {} --within {} {}\n\
         # positions of these games where {} empties remain, kept when the judge put them within \
         {} discs of a draw; the comment is its value for the side to move\n",
        counts.join(","),
        args.within,
        args.files.join(" "),
        counts.join(" and then "),
        args.within
    );
    let mut seen = HashSet::new();
    let mut kept = Vec::new();
    for &empties in &args.empties {
        let before = kept.len();
        for c in all.iter().filter(|c| c.empties == empties) {
            if c.value.abs() <= args.within && seen.insert(c.transcript.as_str()) {
                kept.push(format!(
                    "{} # {} empties, judge {:.1}\n",
                    c.transcript, c.empties, c.value
                ));
            }
        }
        let count = kept.len() - before;
        text.push_str(&format!("# {count} at {empties} empties\n"));
    }
    text.push_str(&kept.concat());
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::analysis_file::MoveVerdict;
    use crate::files::record::{MoveRecord, Side};
    use othello::square::Square;

    /// A game from `opening` whose bots then play `moves`, judged with
    /// value `i` on the move at index `i`.
    fn game(opening: &str, moves: &[&str]) -> (GameRecord, GameAnalysis) {
        let plies = opening.len() / 2;
        let mut g = Game::from_transcript(opening).unwrap();
        let mut verdicts = Vec::new();
        let mut records = Vec::new();
        for (i, &sq) in moves.iter().enumerate() {
            let by = if i % 2 == 0 { Side::P1 } else { Side::P2 };
            verdicts.push(MoveVerdict {
                n: 60 - g.board().empty_count() as usize + 1,
                by,
                square: sq.into(),
                best: sq.into(),
                value: i as f64,
                played_value: i as f64,
                loss: 0.0,
                exact: false,
            });
            records.push(MoveRecord {
                by,
                square: sq.into(),
                ms: 1.0,
                limit_ms: 150.0,
                msg: None,
            });
            g.play(Square::parse(sq).unwrap()).unwrap();
        }
        assert_eq!(verdicts[0].n, plies + 1);
        let record = GameRecord {
            game: 1,
            black: Side::P1,
            opening: opening.into(),
            moves: records,
            winner: None,
            discs_black: 0,
            discs_white: 0,
            fault: None,
            seeds: [0, 0],
            killed_after_end: Vec::new(),
        };
        let analysis = GameAnalysis {
            game: 1,
            file: "g.jsonl".into(),
            line: 2,
            moves_hash: String::new(),
            black: Side::P1,
            winner: None,
            result_black: None,
            moves: verdicts,
            positions: moves.len(),
            ms: 0.0,
        };
        (record, analysis)
    }

    #[test]
    fn each_count_is_cut_where_its_empties_remain() {
        // 4 opening plies (56 empties), then 4 moves judged at 56..53.
        let (r, a) = game("f5d6c3d3", &["c4", "f4", "f6", "f3"]);
        let c = cuts(&r, &a, &[54, 56, 50]).unwrap();
        assert_eq!(
            c,
            vec![
                Cut {
                    empties: 54,
                    value: 2.0,
                    transcript: "f5d6c3d3c4f4".into()
                },
                Cut {
                    empties: 56,
                    value: 0.0,
                    transcript: "f5d6c3d3".into()
                },
            ]
        );
        for cut in &c {
            assert_eq!(
                Game::from_transcript(&cut.transcript)
                    .unwrap()
                    .board()
                    .empty_count(),
                cut.empties
            );
        }
        // Inside the opening: nothing.
        assert!(cuts(&r, &a, &[58]).unwrap().is_empty());
    }

    #[test]
    fn a_game_with_a_pass_is_cut_after_it() {
        // A random game with a pass before its end (found by seed).
        let mut rng = othello::rng::Rng::seed_from_u64(1);
        let (moves, after) = loop {
            let mut g = Game::new();
            let mut moves = Vec::new();
            let mut after = None;
            while !g.is_over() {
                let sq = rng.pick_bit(g.board().moves().0);
                g.play(Square::new(sq as u8)).unwrap();
                moves.push(Square::new(sq as u8).to_string());
                if after.is_none() && g.history().contains(&othello::Move::Pass) {
                    after = Some(g.board().empty_count());
                }
            }
            match after {
                Some(e) if e >= 2 => break (moves, e - 1),
                _ => {}
            }
        };
        let squares: Vec<&str> = moves.iter().map(String::as_str).collect();
        let (r, a) = game("", &squares);
        let c = cuts(&r, &a, &[after]).unwrap();
        assert_eq!(c.len(), 1);
        let g = Game::from_transcript(&c[0].transcript).unwrap();
        assert_eq!(g.board().empty_count(), after);
        assert!(g.history().contains(&othello::Move::Pass));
        // Its value is that of the move played there.
        let i = c[0].transcript.len() / 2;
        assert_eq!(c[0].value, i as f64);
    }

    #[test]
    fn a_verdict_that_does_not_fit_the_moves_is_refused() {
        let (r, mut a) = game("f5d6c3d3", &["c4", "f4", "f6", "f3"]);
        a.moves[2].n = 5;
        a.moves[0].n = 99;
        let e = cuts(&r, &a, &[56]).unwrap_err();
        assert!(e.contains("leave 54 empties, not 56"), "{e}");
    }
}
