//! `referee --p1 A --p2 B ...`: one match between two players (bots or a
//! human), its games played in pairs of openings with colours swapped,
//! saved, summarised and exported as it goes; also `--replay FILE:N`.

use super::output;
use crate::cli::{self, Args};
use crate::files::outputs::{check_outputs, write_file};
use crate::files::record::{self, GameRecord, Header, Settings, Side};
use crate::files::{games_file, ggf, merge};
use crate::html::report;
use crate::play::game::{
    self, bot_seed, clock_seed, stderr_files, GameSetup, PlayerSpec, TimeLimits,
};
use crate::play::openings::openings_for;
use crate::play::{runner, watch};
use crate::stats::summary;
use std::path::PathBuf;
use std::time::Duration;

/// Games of the demonstration match (no arguments).
const DEMO_GAMES: usize = 4;

pub fn run(mut args: Args, demo: bool) -> Result<(), String> {
    if let Some(spec) = &args.replay {
        return replay(spec, Duration::from_millis(args.delay_ms));
    }
    if demo {
        let bot = demo_bot()?;
        let bot = shlex::try_quote(&bot.to_string_lossy())
            .map_err(|e| e.to_string())?
            .into_owned();
        args.p1 = Some(bot.clone());
        args.p2 = Some(format!("{bot} --strategy greedy"));
        args.name1 = Some("othello".into());
        args.name2 = Some("othello-greedy".into());
        args.games = DEMO_GAMES;
    }
    let p1 = args
        .p1
        .as_deref()
        .ok_or("missing --p1 (a bot command, or human)")?;
    let p2 = args
        .p2
        .as_deref()
        .ok_or("missing --p2 (a bot command, or human)")?;
    let players = [
        cli::player("--p1", p1, args.name1.as_deref())?,
        cli::player("--p2", p2, args.name2.as_deref())?,
    ];
    let sprt = cli::sprt(args.sprt.as_deref())?;
    if args.play.turn_ms == 0 || args.play.first_turn_ms == 0 {
        return Err("--turn-ms and --first-turn-ms must be at least 1".into());
    }
    let human = players.iter().any(|p| p.spec == PlayerSpec::Human);
    let watch = args.watch || human;
    let games = if watch { 1 } else { args.games };
    if games == 0 {
        return Err("--games must be at least 1".into());
    }
    // A resumed match keeps its seed unless one is given (and then the
    // header check below says whether it is the same match).
    let previous = match &args.games_out {
        Some(path) if args.resume && path.exists() => Some((path, games_file::read(path)?)),
        _ => None,
    };
    let seed = args
        .seed
        .or(previous.as_ref().map(|(_, f)| f.header.seed))
        .unwrap_or_else(clock_seed);
    let (openings, openings_source) = openings(&args, games, seed)?;
    let header = Header {
        kind: Header::KIND.into(),
        p1: players[0].command.clone(),
        p2: players[1].command.clone(),
        seed,
        openings: openings_source,
        settings: Some(Settings {
            games,
            names: [players[0].name.clone(), players[1].name.clone()],
            turn_ms: args.play.turn_ms,
            first_turn_ms: args.play.first_turn_ms,
            margin_ms: args.play.margin_ms,
            memory_mb: args.play.memory_mb,
            sprt: args.sprt.clone(),
            shard: args.shard,
        }),
    };
    check_outputs(
        &[
            ("--json", &args.json),
            ("--ggf", &args.ggf),
            ("--html", &args.html),
        ],
        args.stderr_dir.as_deref(),
    )?;
    let limits = TimeLimits {
        first_turn: Duration::from_millis(args.play.first_turn_ms),
        turn: Duration::from_millis(args.play.turn_ms),
        margin: Duration::from_millis(args.play.margin_ms),
    };
    let setups: Vec<GameSetup> = (1..=games)
        .map(|game| GameSetup {
            game,
            black: if game % 2 == 1 { Side::P1 } else { Side::P2 },
            opening: openings[(game - 1) / 2 % openings.len()].clone(),
            seeds: Side::BOTH.map(|s| bot_seed(seed, game, s)),
            stderr_files: stderr_files(args.stderr_dir.as_deref(), game),
            limits,
            memory_mb: (args.play.memory_mb > 0).then_some(args.play.memory_mb),
        })
        .filter(|s| {
            args.shard
                .is_none_or(|shard| record::in_shard(shard, s.game))
        })
        .collect();
    let planned = setups.len();
    let in_match: std::collections::HashSet<usize> = setups.iter().map(|s| s.game).collect();

    // Resume: keep the games already in the file, play the others.
    let (mut records, mut writer) = match (previous, &args.games_out) {
        (Some((path, file)), _) => {
            if file.header.same_match(&header) && file.header.shard() != header.shard() {
                let name = |s: Option<record::Shard>| {
                    s.map_or("the whole match".into(), |s| format!("shard {s}"))
                };
                return Err(format!(
                    "--resume: {} holds {}, not {}",
                    path.display(),
                    name(file.header.shard()),
                    name(header.shard())
                ));
            }
            if !file.header.same_match(&header) {
                return Err(format!(
                    "--resume: {} belongs to another match (players, seed, openings or limits differ)",
                    path.display()
                ));
            }
            if let Some((i, r)) = file
                .records
                .iter()
                .enumerate()
                .find(|(_, r)| !in_match.contains(&r.game))
            {
                return Err(format!(
                    "--resume: {}:{}: game {} is outside this match of {games} games{} \
                     (give the --games and --shard of the match that wrote the file)",
                    path.display(),
                    i + 2,
                    r.game,
                    args.shard.map_or(String::new(), |s| format!(", shard {s}"))
                ));
            }
            let writer = games_file::GamesWriter::append(path, file.valid_len)?;
            (file.records, Some(writer))
        }
        (None, Some(path)) => (
            Vec::new(),
            Some(games_file::GamesWriter::create(path, &header)?),
        ),
        (None, None) => (Vec::new(), None),
    };
    let resumed_games = records.len();
    let done: std::collections::HashSet<usize> = records.iter().map(|r| r.game).collect();
    let todo: Vec<GameSetup> = setups
        .into_iter()
        .filter(|s| !done.contains(&s.game))
        .collect();

    let concurrency = runner::concurrency(args.play.concurrency, args.play.force_concurrency)?;
    let concurrency = if watch { 1 } else { concurrency };

    let names = [players[0].name.clone(), players[1].name.clone()];
    let specs = [players[0].spec.clone(), players[1].spec.clone()];
    let out = output::Output::new(planned, watch);
    // A shard cannot stop on the SPRT alone: the whole match decides, in
    // `referee summary` of the shards.
    let live_sprt = if args.shard.is_some() {
        if sprt.is_some() {
            out.note("--shard: this shard plays all its games; `referee summary` of the shards gives the SPRT's verdict");
        }
        None
    } else {
        sprt.as_ref()
    };
    if args.seed.is_none() && resumed_games == 0 && !watch {
        out.note(&format!(
            "seed {seed} (pass --seed {seed} to replay this match)"
        ));
    }
    if !done.is_empty() {
        out.note(&format!("resuming: {} games already played", done.len()));
    }
    let initial = summary::live(&records, live_sprt);
    out.start(records.len(), &initial);
    // A resumed match whose SPRT has already decided plays no more games.
    let todo = if initial.go_on { todo } else { Vec::new() };
    let mut write_error = None;
    let mut on_done = |record: GameRecord| {
        if let Some(w) = writer.as_mut() {
            if let Err(e) = w.write(&record) {
                write_error.get_or_insert(format!("--games-out: {e}"));
            }
        }
        out.game(&record, &names);
        records.push(record);
        let live = summary::live(&records, live_sprt);
        out.progress(records.len(), &live);
        live.go_on
    };
    let cpu_start = runner::cpu_time();
    if watch {
        let mut observer = watch::observer(names.clone(), Duration::from_millis(args.delay_ms));
        for setup in todo {
            watch::start(&setup, &names);
            let record = game::play(&setup, &specs, Some(&mut observer));
            on_done(record);
        }
    } else {
        runner::run(&specs, todo, concurrency, on_done);
    }
    out.finish();
    let moves: usize = records[resumed_games..].iter().map(|r| r.moves.len()).sum();
    if moves > 0 && !watch {
        let cpu = runner::cpu_time().saturating_sub(cpu_start);
        out.note(&format!(
            "referee CPU time: {:.1} ms for {moves} moves ({:.1} us per move)",
            cpu.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e6 / moves as f64
        ));
    }
    let mut failures: Vec<String> = write_error.into_iter().collect();

    records.sort_by_key(|r| r.game);
    let s = summary::of_match(&header, &records);
    output::print(&summary::text(&s));
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&s).expect("the summary serializes");
        failures.extend(write_file(path, &(text + "\n"), "--json"));
    }
    if let Some(path) = &args.ggf {
        failures.extend(ggf::write(
            path,
            records
                .iter()
                .map(|r| (r, [names[0].as_str(), names[1].as_str()])),
        ));
    }
    if let Some(path) = &args.html {
        let shards = header.shard().into_iter().collect();
        let gaps = merge::gaps(&header, &shards, &records);
        failures.extend(write_file(
            path,
            &report::html(&header, &records, &s, &gaps),
            "--html",
        ));
    }
    // The match was played and summarised; a lost output still fails.
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}

/// The openings of the pairs, and a description of where they came from.
fn openings(args: &Args, games: usize, seed: u64) -> Result<(Vec<String>, String), String> {
    openings_for(
        args.play.openings.as_deref(),
        args.play.random_openings,
        games.div_ceil(2),
        seed,
    )
}

/// The `othello` bot for the demonstration: next to this executable. When
/// run by `cargo run` and the bot is not built yet, builds it with the
/// same profile first.
fn demo_bot() -> Result<PathBuf, String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find the referee itself: {e}"))?;
    let dir = exe.parent().ok_or("the referee has no directory")?;
    let bot = dir.join("othello");
    if !bot.is_file() {
        if let Some(cargo) = std::env::var_os("CARGO") {
            eprintln!("referee: building the othello bot for the demo...");
            let mut build = std::process::Command::new(cargo);
            build.args(["build", "--package", "othello", "--bin", "othello"]);
            if dir.file_name().is_some_and(|n| n == "release") {
                build.arg("--release");
            }
            let _ = build.status();
        }
    }
    if bot.is_file() {
        Ok(bot)
    } else {
        Err(format!(
            "the demo match needs the othello bot at {}: run `cargo build --release` first",
            bot.display()
        ))
    }
}

/// `--replay FILE:N`.
pub fn replay(spec: &str, delay: Duration) -> Result<(), String> {
    let (path, n) = cli::replay(spec)?;
    let file = games_file::read(&path)?;
    let record = file
        .records
        .iter()
        .find(|r| r.game == n)
        .ok_or_else(|| format!("--replay: {} has no game {n}", path.display()))?;
    watch::replay(record, [&file.header.p1, &file.header.p2], delay);
    Ok(())
}
