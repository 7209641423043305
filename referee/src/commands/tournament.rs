//! `referee tournament`: many bots, every pair of them (round-robin) or
//! the first against each of the others (gauntlet), each pair playing
//! paired openings with colours swapped as in a match; then one rating
//! list over all the games ([`crate::stats::standings`]).
//!
//! Games are numbered opening by opening ([`Numbering::ByOpening`]): the
//! two games of every pair's first opening, pair after pair, then those of
//! the second opening... Each game is game `k` of its pair's match (its
//! opening, colours), and its bot seeds follow from its number, so a shard
//! (`--shard I/N`: every N-th pair of games) or a resumed run plays exactly
//! the games the whole run would, and a larger `--games-per-pair` on
//! `--resume` only adds numbers after the last. Games are played in that
//! order, so that a tournament cut short is still balanced.

use crate::cli::{self, TournamentArgs};
use crate::files::games_file::{self, GamesWriter};
use crate::files::merge::{Gaps, Seen};
use crate::files::record::{BotEntry, GameRecord, Numbering, Shard, Side, TournamentHeader};
use crate::play::game::{GameSetup, PlayerSpec, TimeLimits};
use crate::stats::standings::{self, Standings};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where each game of a tournament goes: its pair of bots.
struct Schedule {
    header: TournamentHeader,
    pairs: Vec<(usize, usize)>,
}

impl Schedule {
    fn of(header: &TournamentHeader) -> Schedule {
        Schedule {
            header: header.clone(),
            pairs: header.pairs(),
        }
    }

    fn games(&self) -> usize {
        self.header.games()
    }

    /// The bots of game `game` (from 1), if the tournament has it.
    fn bots(&self, game: usize) -> Option<(usize, usize)> {
        self.header.place(game).map(|(pair, _)| self.pairs[pair])
    }
}

/// The `[[bot]]` tables of a `--bots` file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotsFile {
    #[serde(default)]
    bot: Vec<BotTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotTable {
    name: toml::Spanned<String>,
    command: String,
}

/// The line of byte `offset` in `text` (from 1).
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The bots of the command line: the `--bots` file's, then the `--bot`s'.
/// Each is `(entry, spec)`.
///
/// # Errors
/// An unreadable or malformed file (with its line), a `--bot` without
/// `NAME=`, an empty or repeated name, a program that cannot be found, or
/// `human`.
fn bots(args: &TournamentArgs) -> Result<Vec<(BotEntry, PlayerSpec)>, String> {
    // (name, command, where it was given)
    let mut given: Vec<(String, String, String)> = Vec::new();
    if let Some(path) = &args.bots {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("--bots {}: {e}", path.display()))?;
        let file: BotsFile = toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(1, |s| line_of(&text, s.start));
            format!(
                "--bots {}:{line}: {}",
                path.display(),
                e.message().trim_end()
            )
        })?;
        for b in file.bot {
            let line = line_of(&text, b.name.span().start);
            given.push((
                b.name.into_inner(),
                b.command,
                format!("--bots {}:{line}", path.display()),
            ));
        }
    }
    for spec in &args.bot {
        let (name, command) = spec
            .split_once('=')
            .ok_or_else(|| format!("--bot: expected NAME=COMMAND, found {spec:?}"))?;
        given.push((
            name.trim().to_string(),
            command.to_string(),
            format!("--bot {spec}"),
        ));
    }
    let mut out: Vec<(BotEntry, PlayerSpec)> = Vec::new();
    for (name, command, at) in given {
        if name.is_empty() {
            return Err(format!("{at}: empty bot name"));
        }
        if out.iter().any(|(b, _)| b.name == name) {
            return Err(format!("{at}: two bots are named {name:?}"));
        }
        if command.trim() == "human" {
            return Err(format!("{at}: a tournament is for bots, not human players"));
        }
        let player = cli::player(&at, &command, Some(name.as_str()))?;
        out.push((
            BotEntry {
                name,
                command: player.command,
            },
            player.spec,
        ));
    }
    if out.len() < 2 {
        return Err(format!(
            "a tournament needs at least two bots (--bot NAME=COMMAND, or --bots FILE), found {}",
            out.len()
        ));
    }
    Ok(out)
}

/// `referee tournament`.
///
/// # Errors
/// Bad arguments or input files, before any game; after the games, an
/// output that could not be written, or games that cannot be rated (the
/// summary is printed first).
pub fn run(args: &TournamentArgs) -> Result<(), String> {
    let bots = bots(args)?;
    let per_pair = args.games_per_pair;
    if per_pair == 0 || per_pair % 2 == 1 {
        return Err(format!(
            "--games-per-pair must be even and at least 2 (each opening is played twice, \
             colours swapped), found {per_pair}"
        ));
    }
    if args.play.turn_ms == 0 || args.play.first_turn_ms == 0 {
        return Err("--turn-ms and --first-turn-ms must be at least 1".into());
    }
    let anchor = match &args.anchor {
        Some(name) => bots
            .iter()
            .position(|(b, _)| &b.name == name)
            .ok_or_else(|| {
                let names: Vec<&str> = bots.iter().map(|(b, _)| b.name.as_str()).collect();
                format!(
                    "--anchor: no bot is named {name:?} (the bots: {})",
                    names.join(", ")
                )
            })?,
        None => 0,
    };
    // A resumed tournament keeps its seed unless one is given.
    let previous = match &args.games_out {
        Some(path) if args.resume && path.exists() => Some((path, read_file(path)?)),
        _ => None,
    };
    let seed = args
        .seed
        .or(previous.as_ref().map(|(_, f)| f.header.seed))
        .unwrap_or_else(crate::play::game::clock_seed);
    let (openings, openings_source) = crate::play::openings::openings_for(
        args.play.openings.as_deref(),
        args.play.random_openings,
        per_pair / 2,
        seed,
    )?;
    let header = TournamentHeader {
        kind: TournamentHeader::KIND.into(),
        bots: bots.iter().map(|(b, _)| b.clone()).collect(),
        format: args.format,
        games_per_pair: per_pair,
        seed,
        openings: openings_source,
        turn_ms: args.play.turn_ms,
        first_turn_ms: args.play.first_turn_ms,
        margin_ms: args.play.margin_ms,
        memory_mb: args.play.memory_mb,
        anchor: bots[anchor].0.name.clone(),
        shard: args.shard,
        // A resumed file keeps its numbering (older files number by pair).
        numbering: previous
            .as_ref()
            .map_or(Numbering::ByOpening, |(_, f)| f.header.numbering),
    };
    crate::files::outputs::check_outputs(
        &[
            ("--json", &args.json),
            ("--ggf", &args.ggf),
            ("--html", &args.html),
        ],
        args.stderr_dir.as_deref(),
    )?;
    let schedule = Schedule::of(&header);
    let total = schedule.games();
    let limits = TimeLimits {
        first_turn: Duration::from_millis(args.play.first_turn_ms),
        turn: Duration::from_millis(args.play.turn_ms),
        margin: Duration::from_millis(args.play.margin_ms),
    };
    let specs: Vec<PlayerSpec> = bots.iter().map(|(_, s)| s.clone()).collect();
    let mut setups: Vec<(GameSetup, [PlayerSpec; 2])> = (1..=total)
        .filter(|&g| {
            args.shard
                .is_none_or(|s| crate::files::record::in_shard(s, g))
        })
        .map(|game| {
            let (pair, local) = header.place(game).expect("in the schedule");
            let (a, b) = schedule.pairs[pair];
            let setup = GameSetup {
                game,
                black: if local % 2 == 1 { Side::P1 } else { Side::P2 },
                opening: openings[(local - 1) / 2 % openings.len()].clone(),
                seeds: Side::BOTH.map(|s| crate::play::game::bot_seed(seed, game, s)),
                stderr_files: crate::play::game::stderr_files(args.stderr_dir.as_deref(), game),
                limits,
                memory_mb: (args.play.memory_mb > 0).then_some(args.play.memory_mb),
            };
            (setup, [specs[a].clone(), specs[b].clone()])
        })
        .collect();
    // Round by round: the first opening of every pair, then the second...
    // (the order of the numbers, unless an older file numbers by pair).
    setups.sort_by_key(|(s, _)| {
        let (pair, local) = header.place(s.game).expect("in the schedule");
        ((local - 1) / 2, pair, local)
    });
    let planned = setups.len();
    let in_tournament: BTreeSet<usize> = setups.iter().map(|(s, _)| s.game).collect();

    let mut standings = Standings::new(bots.len());
    // With --ggf every game is kept for the file, the resumed ones too.
    let mut kept: Vec<GameRecord> = Vec::new();
    let (mut writer, done) = match (previous, &args.games_out) {
        (Some((path, file)), _) => {
            if file.header.same_tournament(&header) && file.header.shard != header.shard {
                let name = |s: Option<Shard>| {
                    s.map_or("the whole tournament".into(), |s| format!("shard {s}"))
                };
                return Err(format!(
                    "--resume: {} holds {}, not {}",
                    path.display(),
                    name(file.header.shard),
                    name(header.shard)
                ));
            }
            if !file.header.same_tournament(&header) {
                return Err(format!(
                    "--resume: {} belongs to another tournament (bots, format, seed, openings \
                     or limits differ)",
                    path.display()
                ));
            }
            let before = file.header.games_per_pair;
            if before > per_pair {
                return Err(format!(
                    "--resume: {} holds a tournament of {before} games per pair: \
                     --games-per-pair can grow, not shrink (found {per_pair})",
                    path.display()
                ));
            }
            if before < per_pair && file.header.numbering == Numbering::ByPair {
                return Err(format!(
                    "--resume: {} numbers its games pair by pair (an older referee's file), \
                     so more games per pair would renumber them: give --games-per-pair \
                     {before}, or start a new file",
                    path.display()
                ));
            }
            if let Some((line, r)) = file
                .records
                .iter()
                .find(|(_, r)| !in_tournament.contains(&r.game))
            {
                return Err(format!(
                    "--resume: {}:{line}: game {} is outside this tournament of {total} games{}",
                    path.display(),
                    r.game,
                    args.shard.map_or(String::new(), |s| format!(", shard {s}"))
                ));
            }
            let done: BTreeSet<usize> = file.records.iter().map(|(_, r)| r.game).collect();
            for (_, r) in &file.records {
                standings.add(schedule.bots(r.game).expect("checked"), r);
            }
            if args.ggf.is_some() {
                kept.extend(file.records.into_iter().map(|(_, r)| r));
            }
            // A tournament that grows gets the new games per pair in its
            // header; its games keep their numbers.
            let writer = if before < per_pair {
                GamesWriter::rewrite(path, &header, file.valid_len)?
            } else {
                GamesWriter::append(path, file.valid_len)?
            };
            (Some(writer), done)
        }
        (None, Some(path)) => (
            Some(GamesWriter::create_with(path, &header)?),
            BTreeSet::new(),
        ),
        (None, None) => (None, BTreeSet::new()),
    };
    let todo: Vec<(GameSetup, [PlayerSpec; 2])> = setups
        .into_iter()
        .filter(|(s, _)| !done.contains(&s.game))
        .collect();

    let concurrency =
        crate::play::runner::concurrency(args.play.concurrency, args.play.force_concurrency)?;

    let names: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
    let out = crate::commands::output::Output::new(planned, false);
    if args.seed.is_none() && done.is_empty() {
        out.note(&format!(
            "seed {seed} (pass --seed {seed} to replay this tournament)"
        ));
    }
    if !done.is_empty() {
        out.note(&format!(
            "resuming: {} games already played, {} to play",
            done.len(),
            todo.len()
        ));
    }
    let status = |s: &Standings| crate::stats::summary::Live {
        status: format!("{} games", s.games),
        go_on: true,
    };
    out.start(done.len(), &status(&standings));
    let mut write_error = None;
    let mut moves = 0;
    let cpu_start = crate::play::runner::cpu_time();
    crate::play::runner::run_each(todo, concurrency, |record| {
        let (a, b) = schedule.bots(record.game).expect("in the schedule");
        if let Some(w) = writer.as_mut() {
            let line = Line {
                record: &record,
                bots: [&names[a], &names[b]],
            };
            if let Err(e) = w.write_value(&line) {
                write_error.get_or_insert(format!("--games-out: {e}"));
            }
        }
        out.game(&record, &[names[a].clone(), names[b].clone()]);
        moves += record.moves.len();
        standings.add((a, b), &record);
        if args.ggf.is_some() {
            kept.push(record);
        }
        out.progress(standings.games as usize, &status(&standings));
        true
    });
    out.finish();
    if moves > 0 {
        let cpu = crate::play::runner::cpu_time().saturating_sub(cpu_start);
        out.note(&format!(
            "referee CPU time: {:.1} ms for {moves} moves ({:.1} us per move)",
            cpu.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e6 / moves as f64
        ));
    }
    let mut failures: Vec<String> = write_error.into_iter().collect();
    // Every planned game was played (nothing stops a tournament early); a
    // shard is not the whole tournament and is summarised alone.
    let gaps = if header.shard.is_some() {
        Gaps::default()
    } else {
        gaps(&header, &BTreeSet::new(), |g| in_tournament.contains(&g))
    };
    let summary = standings::summarize(&header, &standings, anchor);
    crate::commands::output::print(&standings::text(&summary));
    if let Some(path) = &args.ggf {
        kept.sort_by_key(|r| r.game);
        failures.extend(crate::files::ggf::write(
            path,
            kept.iter().map(|r| {
                let (a, b) = schedule.bots(r.game).expect("in the schedule");
                (r, [names[a].as_str(), names[b].as_str()])
            }),
        ));
    }
    failures.extend(write_outputs(
        &header,
        &summary,
        &gaps,
        args.json.as_deref(),
        args.html.as_deref(),
    ));
    match (&summary.unrated, header.shard) {
        (Some(_), Some(shard)) => out.note(&format!(
            "shard {shard}: its games alone cannot be rated; `referee summary` of all the \
             shards rates the tournament"
        )),
        (Some(why), None) => failures.push(why.clone()),
        (None, _) => {}
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// Writes `--json` and `--html`: the errors, if any.
pub fn write_outputs(
    header: &TournamentHeader,
    summary: &standings::TournamentSummary,
    gaps: &Gaps,
    json: Option<&Path>,
    html: Option<&Path>,
) -> Vec<String> {
    let mut failures = Vec::new();
    if let Some(path) = json {
        let text = serde_json::to_string_pretty(summary).expect("the summary serializes");
        failures.extend(crate::files::outputs::write_file(
            path,
            &(text + "\n"),
            "--json",
        ));
    }
    if let Some(path) = html {
        let page = crate::html::tournament_report::html(header, summary, gaps);
        failures.extend(crate::files::outputs::write_file(path, &page, "--html"));
    }
    failures
}

/// A game line of a tournament's games file: the record, and the names of
/// its p1 and p2 for readers (the schedule decides them).
#[derive(Serialize)]
struct Line<'a> {
    #[serde(flatten)]
    record: &'a GameRecord,
    bots: [&'a str; 2],
}

/// A tournament's games file read back whole (for `--resume`).
struct TournamentFile {
    header: TournamentHeader,
    /// Each record with its line.
    records: Vec<(usize, GameRecord)>,
    valid_len: u64,
}

fn read_file(path: &Path) -> Result<TournamentFile, String> {
    let mut records = Vec::new();
    let (header, valid_len) = games_file::stream(path, TournamentHeader::KIND, |line, _, r| {
        records.push((line, r));
        Ok(())
    })?;
    Ok(TournamentFile {
        header,
        records,
        valid_len,
    })
}

/// What a tournament of `header` lacks: shards without a file (of
/// `shards`, those present), games without a record.
fn gaps(header: &TournamentHeader, shards: &BTreeSet<Shard>, has: impl Fn(usize) -> bool) -> Gaps {
    let planned = header.games();
    let missing_shards = match header.shard {
        Some(s) => s.all().filter(|s| !shards.contains(s)).collect(),
        None => Vec::new(),
    };
    Gaps {
        planned,
        missing_shards,
        missing_games: (1..=planned).filter(|&g| !has(g)).collect(),
    }
}

/// A tournament read back from its games files, game by game.
pub struct Read {
    /// The first file's header.
    pub header: TournamentHeader,
    /// Its results.
    pub standings: Standings,
    /// What it lacks.
    pub gaps: Gaps,
}

/// Reads and merges the games files of one tournament (one file, a resumed
/// one, or its shards), keeping only the results.
///
/// # Errors
/// As [`crate::files::merge::stream`]: a file that cannot be read (with its line),
/// a file of another tournament, a shard given twice, a game recorded in
/// two files or outside the tournament (or its file's shard).
pub fn read(files: &[PathBuf]) -> Result<Read, String> {
    let mut first: Option<(PathBuf, TournamentHeader)> = None;
    let mut seen = Seen::default();
    let mut results: Option<(Schedule, Standings)> = None;
    for (file, path) in files.iter().enumerate() {
        let header: TournamentHeader = games_file::header(path, TournamentHeader::KIND)?;
        if let Some((first_path, h0)) = &first {
            if h0.shard.is_some() != header.shard.is_some() {
                return Err(format!(
                    "{}: {} a shard and {} is not: give the shards of one tournament, or one file",
                    path.display(),
                    if header.shard.is_some() {
                        "is"
                    } else {
                        "is not"
                    },
                    first_path.display()
                ));
            }
            let count = |h: &TournamentHeader| (h.shard.map(|s| s.count), h.games_per_pair);
            if !h0.same_tournament(&header) || count(h0) != count(&header) {
                return Err(format!(
                    "{}: another tournament than {} (bots, format, games per pair, seed, \
                     openings, limits or shard count differ)",
                    path.display(),
                    first_path.display()
                ));
            }
        }
        seen.file(path, header.shard)?;
        let (schedule, standings) = results
            .get_or_insert_with(|| (Schedule::of(&header), Standings::new(header.bots.len())));
        games_file::stream::<TournamentHeader>(path, TournamentHeader::KIND, |line, _, r| {
            let Some(bots) = schedule.bots(r.game) else {
                return Err(format!(
                    "{}:{line}: game {} is outside this tournament of {} games",
                    path.display(),
                    r.game,
                    schedule.games()
                ));
            };
            seen.game(files, file, line, header.shard, r.game)?;
            standings.add(bots, &r);
            Ok(())
        })?;
        if first.is_none() {
            first = Some((path.clone(), header));
        }
    }
    let (_, header) = first.ok_or("no games file given")?;
    let (_, standings) = results.expect("a file was read");
    let present: BTreeSet<Shard> = seen.shards.into_keys().collect();
    let gaps = gaps(&header, &present, |g| seen.games.contains_key(&g));
    Ok(Read {
        header,
        standings,
        gaps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::tournament_header as header;
    use crate::files::record::Format;

    #[test]
    fn schedules_of_round_robins_and_gauntlets() {
        let rr = header(4, Format::RoundRobin, 4);
        assert_eq!(
            rr.pairs(),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(rr.games(), 24);
        // Opening by opening: games 1-12 are the six pairs' first openings
        // (two games each), 13-24 their second.
        let s = Schedule::of(&rr);
        assert_eq!(s.bots(1), Some((0, 1)));
        assert_eq!(s.bots(2), Some((0, 1)));
        assert_eq!(s.bots(4), Some((0, 2)));
        assert_eq!(s.bots(12), Some((2, 3)));
        assert_eq!(s.bots(13), Some((0, 1)));
        assert_eq!(s.bots(24), Some((2, 3)));
        assert_eq!(s.bots(25), None);
        assert_eq!(s.bots(0), None);
        assert_eq!(rr.place(12), Some((5, 2)));
        assert_eq!(rr.place(13), Some((0, 3)));
        assert_eq!(rr.place(24), Some((5, 4)));
        // Growing keeps every number: game 24 of 6 per pair is the same.
        let mut grown = rr.clone();
        grown.games_per_pair = 6;
        assert!((1..=24).all(|g| grown.place(g) == rr.place(g)));
        assert_eq!(grown.place(36), Some((5, 6)));
        // Older files number pair by pair.
        let mut old = rr.clone();
        old.numbering = Numbering::ByPair;
        assert_eq!(old.place(4), Some((0, 4)));
        assert_eq!(old.place(5), Some((1, 1)));
        assert_eq!(old.place(24), Some((5, 4)));
        assert!(!rr.same_tournament(&old));
        let g = header(4, Format::Gauntlet, 2);
        assert_eq!(g.pairs(), vec![(0, 1), (0, 2), (0, 3)]);
        assert_eq!(g.games(), 6);
        let mut other = rr.clone();
        other.shard = Some(Shard { index: 1, count: 2 });
        other.anchor = "b2".into();
        other.games_per_pair = 6;
        assert!(rr.same_tournament(&other), "grown, the same tournament");
        other.seed = 2;
        assert!(!rr.same_tournament(&other));
        // The header as written in a games file, and read back.
        let text = serde_json::to_string(&g).unwrap();
        assert!(text.contains("\"format\":\"gauntlet\""), "{text}");
        assert!(!text.contains("shard"), "{text}");
        assert_eq!(serde_json::from_str::<TournamentHeader>(&text).unwrap(), g);
        assert!(text.contains("\"numbering\":\"by-opening\""), "{text}");
        let older = text.replace(",\"numbering\":\"by-opening\"", "");
        let read: TournamentHeader = serde_json::from_str(&older).unwrap();
        assert_eq!(read.numbering, Numbering::ByPair);
        let rr_text = serde_json::to_string(&rr).unwrap();
        assert!(rr_text.contains("\"format\":\"round-robin\""), "{rr_text}");
    }

    #[test]
    fn lines_are_found_for_messages() {
        assert_eq!(line_of("a\nb\nc", 0), 1);
        assert_eq!(line_of("a\nb\nc", 2), 2);
        assert_eq!(line_of("a\nb\nc", 4), 3);
    }
}
