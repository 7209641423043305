//! The training data: the files `train fit` reads (corpus chunks and their
//! shards, `train gen` files and their shards) as one list of samples.

use crate::gen::Sample;
use crate::{corpus, endgame, games, gen, outcome};
use othello::game::{Color, Game};
use othello::Move;
use shard::Shard;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// Where the search-labelled corpus lives, relative to the workspace root.
pub const CORPUS_DIR: &str = "train/corpus";

/// One run's data as `train fit` numbers it.
enum Run {
    /// A corpus chunk's file, header and games, in order.
    Chunk(PathBuf, String, Vec<corpus::Game>),
    /// The shards of a corpus chunk found so far: the chunk's header (its
    /// shard field left out), the count, and per index the file and its
    /// games.
    Shards(String, u32, BTreeMap<u32, (PathBuf, Vec<corpus::Game>)>),
    /// Samples of `train gen` (a `+` group: its shards, merged by game).
    Samples(Vec<Sample>),
    /// An endgame chunk's records found so far (its shards merged by game
    /// number): the shard count (0: not sharded) and the shards read.
    Endgame(u32, BTreeMap<u32, PathBuf>, Vec<endgame::Record>),
}

/// Reads the training data. Each group of `--data` (`a+b,c`: a and b form
/// one) is one run; corpus chunks that are shards of one chunk (the same
/// header but for its `shard=I/N`) are merged back into that chunk at the
/// place of the first, wherever they are listed. Games of different runs
/// are numbered apart for the holdout split, the games of a merged run as
/// the unsharded run numbers them: the fit is the same, weight for weight.
/// Also says whether every file was a corpus chunk.
pub fn load(groups: &[Vec<PathBuf>]) -> Result<(Vec<Sample>, bool), String> {
    load_blended(groups, None)
}

/// Labels of corpus games blended with their lines' values (`train fit
/// --outcome`): the training positions' labels become
/// `(1 - weight) * label + weight * line value` ([`crate::outcome`]); the
/// held-out ones (one game in `holdout_every`) keep theirs, so validation
/// still measures against the search's labels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Blend {
    /// The line values' share, 0 to 1.
    pub weight: f64,
    /// The fit's holdout: one game in this many.
    pub holdout_every: u32,
}

/// [`load`], with the corpus chunks' training labels blended as `blend`
/// says (other data is read as it is).
///
/// # Errors
/// As [`load`]; and a chunk whose random moves its seed does not draw
/// again (its lines cannot be followed).
pub fn load_blended(
    groups: &[Vec<PathBuf>],
    blend: Option<Blend>,
) -> Result<(Vec<Sample>, bool), String> {
    let mut runs: Vec<Run> = Vec::new();
    let mut sharded: HashMap<String, usize> = HashMap::new();
    let mut all_corpus = true;
    for group in groups {
        let mut samples: Option<Vec<Sample>> = None;
        for path in group {
            let name = path.display();
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            if endgame::is_chunk(&bytes) {
                add_endgame(&mut runs, &mut sharded, path, &bytes)?;
                continue;
            }
            if is_games_file(path) {
                // Held out only: the training data's kind (and so the
                // default bootstrap) does not change.
                runs.push(Run::Samples(game_outcomes(path, &bytes)?));
                continue;
            }
            if !corpus::is_chunk(&bytes) {
                all_corpus = false;
                let s = gen::read(&mut bytes.as_slice()).map_err(|e| format!("{name}: {e}"))?;
                samples.get_or_insert_with(Vec::new).extend(s);
                continue;
            }
            let chunk = corpus::parse_complete(&name.to_string(), &bytes)?;
            let (base, shard) =
                corpus::split_shard(&chunk.header).map_err(|e| format!("{name}: {e}"))?;
            let Some(shard) = shard else {
                runs.push(Run::Chunk(path.clone(), chunk.header, chunk.games));
                continue;
            };
            let at = *sharded.entry(base.to_string()).or_insert_with(|| {
                runs.push(Run::Shards(base.to_string(), shard.count, BTreeMap::new()));
                runs.len() - 1
            });
            let Run::Shards(_, count, parts) = &mut runs[at] else {
                unreachable!("sharded runs are Shards");
            };
            if *count != shard.count {
                return Err(format!(
                    "{name}: shard {shard} of a chunk cut in {count} elsewhere"
                ));
            }
            if let Some((other, _)) = parts.insert(shard.index, (path.clone(), chunk.games)) {
                return Err(format!("{name}: shard {shard} is also {}", other.display()));
            }
        }
        if let Some(mut s) = samples {
            // Shards of one run: back in the run's order (stable: a game's
            // positions keep theirs).
            s.sort_by_key(|x| x.game);
            runs.push(Run::Samples(s));
        }
    }
    if blend.is_some()
        && !runs
            .iter()
            .any(|r| matches!(r, Run::Chunk(..) | Run::Shards(..)))
    {
        return Err(
            "--outcome blends the labels of corpus chunks (`train corpus`), and the \
                    data holds none"
                .into(),
        );
    }
    let mut all = Vec::new();
    for (n, run) in runs.into_iter().enumerate() {
        // Keep games of different runs apart for the holdout split.
        let first = n as u32 * 1_000_003;
        match run {
            Run::Chunk(path, header, games) => {
                all.extend(chunk_samples(&path, &header, &games, first, blend)?);
            }
            Run::Shards(header, count, parts) => {
                let missing: Vec<String> = (1..=count)
                    .filter(|i| !parts.contains_key(i))
                    .map(|i| format!("{i}/{count}"))
                    .collect();
                if !missing.is_empty() {
                    let (path, _) = parts.values().next().expect("a shard was read");
                    return Err(format!(
                        "{}: shards of its chunk missing: {}",
                        path.display(),
                        missing.join(", ")
                    ));
                }
                let path = parts.values().next().expect("a shard was read").0.clone();
                let mut games: Vec<(u32, corpus::Game)> = parts
                    .into_iter()
                    .flat_map(|(index, (_, games))| {
                        let shard = Shard { index, count };
                        games
                            .into_iter()
                            .enumerate()
                            .map(move |(k, g)| (shard.item(k as u32), g))
                    })
                    .collect();
                games.sort_by_key(|&(g, _)| g);
                // Line values replay each game by its number in the chunk.
                if let (Some(_), Some((k, (g, _)))) = (
                    blend,
                    games.iter().enumerate().find(|(k, (g, _))| *k as u32 != *g),
                ) {
                    return Err(format!(
                        "{}: its chunk's shards lack game {k} (they hold {g} next): an \
                         interrupted shard cannot be blended (`--outcome`); finish it first",
                        path.display()
                    ));
                }
                let games: Vec<corpus::Game> = games.into_iter().map(|(_, g)| g).collect();
                all.extend(chunk_samples(&path, &header, &games, first, blend)?);
            }
            Run::Samples(samples) => all.extend(samples.into_iter().map(|mut s| {
                s.game = s.game.wrapping_add(first);
                s
            })),
            Run::Endgame(count, parts, mut records) => {
                let missing: Vec<String> = (1..=count)
                    .filter(|i| !parts.contains_key(i))
                    .map(|i| format!("{i}/{count}"))
                    .collect();
                if let (false, Some(path)) = (missing.is_empty(), parts.values().next()) {
                    return Err(format!(
                        "{}: shards of its endgame chunk missing: {}",
                        path.display(),
                        missing.join(", ")
                    ));
                }
                records.sort_by_key(|r| r.game);
                all.extend(endgame::samples(&records, first));
            }
        }
    }
    Ok((all, all_corpus))
}

/// Whether `path` names recorded games (a referee games file or
/// transcripts: `.jsonl` or `.txt`), not a binary data file.
pub fn is_games_file(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("jsonl" | "txt")
    )
}

/// The positions of the recorded games in `bytes` (of `path`), each
/// labelled by its game's final score for the side to move, and all held
/// out: a validation set of real play (strong games' outcomes) for `fit`
/// and `repack`, never trained on. Games that did not end on the board (a
/// fault) are left out; their positions carry no result.
///
/// # Errors
/// A file that is not text, a bad record or an illegal move (naming the
/// line's game).
fn game_outcomes(path: &Path, bytes: &[u8]) -> Result<Vec<Sample>, String> {
    let name = path.display();
    let text = std::str::from_utf8(bytes).map_err(|_| format!("{name}: not text"))?;
    let mut out = Vec::new();
    for (g, t) in games::transcripts(path, text)?.iter().enumerate() {
        let end = Game::from_transcript(t)
            .map_err(|e| format!("{name}: game {} of the file: {e}", g + 1))?;
        if !end.is_over() {
            continue;
        }
        let final_black = end.final_score_black();
        let mut game = Game::new();
        for &mv in end.history() {
            if let Move::Play(sq) = mv {
                let label = if game.to_move() == Color::Black {
                    final_black
                } else {
                    -final_black
                };
                out.push(Sample {
                    board: game.board(),
                    label: label as i8,
                    game: g as u32,
                    held_out: Some(true),
                });
                game.play(sq).expect("a move of a replayed game");
            }
        }
    }
    Ok(out)
}

/// The samples of a chunk's `games` (file `path`, header `header`; a
/// sharded chunk's games merged in order), numbered from
/// `first`, their training labels blended as `blend` says.
fn chunk_samples(
    path: &Path,
    header: &str,
    games: &[corpus::Game],
    first: u32,
    blend: Option<Blend>,
) -> Result<Vec<Sample>, String> {
    let mut samples = corpus::samples(games, first);
    let Some(blend) = blend else {
        return Ok(samples);
    };
    let name = path.display();
    let cfg = corpus::CorpusConfig::from_header(header).map_err(|e| format!("{name}: {e}"))?;
    let mut at = 0;
    for (g, game) in games.iter().enumerate() {
        let values =
            outcome::line_values(&cfg, g as u32, game).map_err(|e| format!("{name}: {e}"))?;
        for (s, v) in samples[at..at + values.len()].iter_mut().zip(values) {
            if !s.is_held_out(blend.holdout_every) {
                s.label = outcome::blend(s.label, v, blend.weight);
            }
        }
        at += game.moves.len();
    }
    Ok(samples)
}

/// Adds the endgame chunk (or shard) `bytes` of `path` to `runs`: a
/// shard joins the run of its chunk's other shards (same header but for
/// the shard), wherever they are listed.
fn add_endgame(
    runs: &mut Vec<Run>,
    sharded: &mut HashMap<String, usize>,
    path: &Path,
    bytes: &[u8],
) -> Result<(), String> {
    let name = path.display();
    let chunk = endgame::parse(bytes).map_err(|e| format!("{name}: {e}"))?;
    if chunk.complete_len < bytes.len() {
        return Err(format!(
            "{name}: the last game is torn at byte {} (an interrupted `train endgame`: \
             run it again to finish the chunk)",
            chunk.complete_len
        ));
    }
    let (base, shard) = endgame::split_shard(&chunk.header).map_err(|e| format!("{name}: {e}"))?;
    let Some(shard) = shard else {
        runs.push(Run::Endgame(0, BTreeMap::new(), chunk.records));
        return Ok(());
    };
    let at = *sharded.entry(base.to_string()).or_insert_with(|| {
        runs.push(Run::Endgame(shard.count, BTreeMap::new(), Vec::new()));
        runs.len() - 1
    });
    let Run::Endgame(count, parts, records) = &mut runs[at] else {
        unreachable!("an endgame chunk's shards are an Endgame run");
    };
    if *count != shard.count {
        return Err(format!(
            "{name}: shard {shard} of an endgame chunk cut in {count} elsewhere"
        ));
    }
    if let Some(other) = parts.insert(shard.index, path.to_path_buf()) {
        return Err(format!("{name}: shard {shard} is also {}", other.display()));
    }
    records.extend(chunk.records);
    Ok(())
}

/// The file groups `--data` names, or without it every chunk of the
/// committed corpus in seed order, each its own group.
pub fn data_or_corpus(data: &[Vec<PathBuf>]) -> Result<Vec<Vec<PathBuf>>, String> {
    if !data.is_empty() {
        return Ok(data.to_vec());
    }
    Ok(corpus_files(Path::new(CORPUS_DIR))?
        .into_iter()
        .map(|p| vec![p])
        .collect())
}

/// The corpus chunks in seed order (`games-seed2.bin` before
/// `games-seed10.bin`), then by name.
pub fn corpus_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let name = dir.display();
    let dir = std::fs::read_dir(dir).map_err(|e| format!("{name}: {e}"))?;
    let mut files: Vec<PathBuf> = dir
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    files.sort_by_key(|p| {
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let digits: String = name.chars().filter(char::is_ascii_digit).collect();
        (digits.len(), digits, name)
    });
    if files.is_empty() {
        return Err(format!("no chunk in {name} (make one with `train corpus`)"));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::Board;

    #[test]
    fn recorded_games_are_held_out_positions_labelled_by_their_result() {
        let strong = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/strong-games.txt"),
        )
        .unwrap();
        let game = strong.lines().find(|l| !l.starts_with('#')).unwrap();
        let dir = std::env::temp_dir().join(format!("train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        // A comment, a finished game and an unfinished one (no result).
        std::fs::write(&path, format!("# two games\n{game}\n{}\n", &game[..20])).unwrap();
        let (samples, all_corpus) = load(&[vec![path.clone()]]).unwrap();
        assert!(
            all_corpus,
            "held-out games do not change the training data's kind"
        );
        assert_eq!(samples.len(), game.len() / 2);
        assert!(samples.iter().all(|s| s.held_out == Some(true)));
        // The result counted from the final discs, empties to the winner.
        let end = Game::from_transcript(game).unwrap();
        let (b, w) = (
            end.discs(Color::Black).count_ones() as i32,
            end.discs(Color::White).count_ones() as i32,
        );
        let empties = 64 - b - w;
        let result = (b - w) + (b - w).signum() * empties;
        assert_eq!(i32::from(samples[0].label), result, "black moves first");
        assert_eq!(i32::from(samples[1].label), -result, "then white");
        assert_eq!(samples[0].board, Board::start());

        std::fs::write(&path, "f5d6c3d3c4f4f6f3e6e7d7c6b6b5xx\n").unwrap();
        let e = load(&[vec![path.clone()]]).unwrap_err();
        assert!(e.contains("games.txt: game 1 of the file: move 15"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
