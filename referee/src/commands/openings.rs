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
use crate::judge::analyze::{parse_squares, replay};
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

/// The positions of `record` where each of `counts` empties remain and a
/// move was played (the game replayed by the rules; positions inside the
/// opening, after the game's end or where a side must pass give nothing),
/// with the judge's value of the move played there, from `analysis`.
///
/// # Errors
/// A move the rules refuse, or an analysis that does not judge every move.
pub fn cuts(
    record: &GameRecord,
    analysis: &GameAnalysis,
    counts: &[u32],
) -> Result<Vec<Cut>, String> {
    if analysis.moves.len() != record.moves.len() {
        return Err(format!(
            "game {}: {} moves judged of {} (an analysis of other games)",
            record.game,
            analysis.moves.len(),
            record.moves.len()
        ));
    }
    let in_game = |e: String| format!("game {}: {e}", record.game);
    // One replay: it checks the moves legal as it cuts the game.
    let squares = parse_squares(record).map_err(in_game)?;
    let mut out = Vec::new();
    replay(&record.opening, &squares, |i, board, _| {
        let empties = board.empty_count();
        if counts.contains(&empties) {
            let mut transcript = record.opening.clone();
            for sq in &squares[..i] {
                transcript.push_str(&sq.to_string());
            }
            out.push(Cut {
                empties,
                value: analysis.moves[i].value,
                transcript,
            });
        }
    })
    .map_err(in_game)?;
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
        let mut matcher =
            Matcher::for_games(files, &m.given, "GAMES:ANALYSIS")?.ok_or_else(|| {
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
    use othello::Game;

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
                    empties: 56,
                    value: 0.0,
                    transcript: "f5d6c3d3".into()
                },
                Cut {
                    empties: 54,
                    value: 2.0,
                    transcript: "f5d6c3d3c4f4".into()
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
    fn an_analysis_or_a_record_that_does_not_fit_is_refused() {
        let (r, mut a) = game("f5d6c3d3", &["c4", "f4", "f6", "f3"]);
        a.moves.pop();
        let e = cuts(&r, &a, &[56]).unwrap_err();
        assert!(e.contains("3 moves judged of 4"), "{e}");
        let (mut r, a) = game("f5d6c3d3", &["c4", "f4", "f6", "f3"]);
        r.moves[1].square = "a1".into();
        let e = cuts(&r, &a, &[56]).unwrap_err();
        assert!(e.contains("move 2 (a1) is not legal"), "{e}");
    }
}
