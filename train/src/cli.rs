//! `train`'s command line: every option of every command, parsed without
//! I/O so that tests can check the errors.

use crate::arena::MatchConfig;
use crate::book::BookConfig;
use crate::corpus::CorpusConfig;
use crate::endgame::EndgameConfig;
use crate::gen::GenConfig;
use crate::net::NetConfig;
use othello::eval::EvalKind;
use shard::Shard;
use std::path::PathBuf;

/// The usage text printed by `--help`.
pub const USAGE: &str = "\
usage:
  train all   [--games N] [--threads N] [--seed N] [--depth N] [--exact N] [fit options]
              generate train/data/chunk-seed*.bin (4000 games per seed), fit,
              write the weights (default out: src/eval/weights.rs)
  train corpus [--seed N] [--games N] [--threads N] [--depth N] [--exact N] [--epsilon X]
              [--plies A-B] [--shard I/N] [--out FILE]   play one chunk of the
              search-labelled corpus (default 5000 games, depth 8, exact from 18
              empties, the first 2-20 plies random; out:
              train/corpus/games-seed<N>.bin, a shard's games-seed<N>-shard<I>of<N>.bin);
              an existing file is resumed; --shard I/N plays the chunk's games g
              with g % N = I - 1, and `fit` merges the shards back into the chunk
  train relabel --from CHUNK --depth D --out FILE [--games N] [--threads N]
              a corpus chunk's first N games (default: all) kept move for
              move, every search label made again by a depth-D search with the
              compiled weights (the exact ones kept): labels of the same games
              at two depths; FILE is resumed
  train endgame --from FILE[,FILE..] [--seed N] [--empties A-B] [--exact E]
              [--children C] [--cut T] [--threads N] [--shard I/N] [--out FILE]
              label one chunk of the strong-play endgame corpus: the positions of
              the games (referee games files or transcripts) at A-B empties
              (default 8-24) and those one move off them at most C empties
              (default 20), each once; exact labels up to E empties (default
              22), a selective solve at cut T above (default 280, the bot's 99%
              pass); the seed draws the held-out games (one in 20); out
              (default train/endgame/chunk-seed<N>.bin, a shard's
              chunk-seed<N>-shard<I>of<N>.bin) is resumed; `fit --data` reads it
  train gen   --out FILE [--games N] [--threads N] [--seed N] [--depth N] [--exact N]
              [--epsilon X] [--plies A-B] [--eval NAME] [--shard I/N]
              (NAME: the self-play search's evaluation)
  train fit   [--data FILE[+FILE..][,FILE..]] [--steps N] [--batches N] [--lr X]
              [--hidden A,B,..] [--groups A,B,..] [--anchors A,B,..] [--bits N]
              [--threads N] [--bootstrap K] [--rounds N] [--quantize-from S] [--teacher FILE]
              [--init FILE] [--freeze G[,G..]] [--outcome W] [--out FILE]
              fit the pattern networks (default: 6000 steps, 32 batches, step size
              0.01, hidden 64,32, anchors 0,10,..,60 in groups 3,4, 8 bits;
              --quantize-from S: from step S the fit sees the parameters rounded
              to --bits, quantization-aware; --teacher FILE: the training positions
              labelled by the networks of a weights file, distillation;
              --init FILE: start from a weights file's networks, a fine-tune;
              --freeze G: with --init, group G's networks (0: the first
              anchors') stay as they start; --outcome W: the corpus's training
              labels blended with what each position's line reached, the next
              random move's label or the solver's, W its share, 0 to 1);
              (repack, features: a .txt or .jsonl in --data, transcripts or
              referee games files, adds its finished games' positions, labelled
              by their results, to the held-out set only; fit refuses them);
              default data: every train/corpus/*.bin chunk in seed order, which
              rebuilds the committed weights byte for byte (about 17 minutes on 2
              cores); files of `gen` are read too, and `a+b+c` joins the shards of
              one `gen` run
  train features [--data FILE[,FILE..]] [--by-empties N]   how much of the compiled
              evaluation's held-out error a per-empties linear term in mobility,
              potential mobility, corner moves or odd quadrants would explain;
              --by-empties N: instead, its error's mean, spread and MAE at each
              count of empties, on the positions labelled within N discs of a draw
              (64: all)
  train match [--pairs N] [--time-ms N] [--depth N] [--threads N] [--seed N]
              [--evals A,B]   paired games of eval A (default pattern) vs B (classic)
  train mpc   [--positions N] [--max-depth D] [--threads N] [--seed N] [--values FILE]
              [--out FILE]   fit Multi-ProbCut's deviations: N self-play positions
              (2 per game) searched full width to depths 0..D (default 1500, 10);
              FILE keeps the values, appended every 100 positions (a second run
              resumes it, or fits it alone when it holds N positions);
              writes src/search/mpc_table.rs
  train book  [--minutes M] [--target N] [--depth D] [--exact E] [--threads N] [--batch N]
              [--margin X] [--loss-plies X] [--max-ply P] [--free-plies F] [--bot-margin X]
              [--max-chars N] [--dir DIR] [--export-chunks N] [--deep-depth D]
              [--deep-plies P] [--from FILE[,FILE..]] [--out FILE]
              grow the opening book for M minutes (default 40) into a new chunk of search
              records, DIR/chunk-NNN.bin (default train/book), resumed from the chunks
              before it; then write the packed book from all the chunks
              (--export-chunks N: the first N; default out: src/book/data.rs, at
              most 13000 characters); selective depth 14 (13 at odd empties), batches of 16 new positions,
              lines whose deviating side loses at most 6 discs in all, priority = ply +
              4 plies a disc of loss, to ply 40, both sides deviating before ply 4 (every
              move a candidate there), the bot's side also growing moves within 1 disc of
              its book move (docs/book.md); --deep-depth D --from FILE[,FILE..]
              [--deep-plies P]: first search the book positions on the games' lines
              before ply P (default 24) again to depth D (D-1 at odd empties)
  train book-write [walk options]   rebuild src/book/data.rs from the chunks alone,
              byte for byte (the same as book --minutes 0)
  train openings --out FILE [--plies A-B] [--count N] [--within X] [--depth D] [--seed S]
              [--threads N]   N random openings of A-B moves (one per position up to
              symmetry) scored within X discs of even (default 2000, 2) by a selective
              depth-D search (default 14); --count 0: every opening of A-B moves, unscored
  train transition --from FILE[,FILE..] [--per-empties N] [--empties A-B] [--seed S]
              [--labels exact|wld] [--threads N] [--out FILE]   the transition bench:
              up to N positions (default 40) per count of A-B empties (default 20-26)
              drawn from the games (referee games files or transcripts), every legal
              move solved exactly, or for its result only with --labels wld
              (default out: tests/data/transition.txt; resumes it);
              an endgame chunk in FILE gives its --part's games (held-out: a
              bench of games the fit never saw)
  train midgame --from FILE[,FILE..] [--per-empties N] [--empties A-B] [--seed S]
              [--out FILE]   the midgame bench: up to N positions (default 16) per
              count of A-B empties (default 30-48) drawn as transition draws them,
              as transcripts (default out: tests/data/midgame.txt)
  train probcut [--from FILE[,FILE..]] [--empties A-B] [--max-depth D] [--threads N]
              [--values FILE] [--revalue FILE] [--out FILE]   the selective solve's cut:
              solve the positions of the games (default 8-24 empties, shallow depths
              0-6) into the values file (default train/corpus/probcut-values.txt,
              resumed), report the errors by empties and depth, fit them (default
              out: src/search/endgame/probcut_fit.rs); --revalue FILE: the values
              file's positions with their exact scores kept and the shallow values
              searched again with the compiled evaluation, written to FILE and fitted
              into --out (required with --revalue)
              FILE may also be endgame chunks (`train endgame`): then their
              exactly labelled positions of --part training (default),
              held-out or all games (the line's positions, and those one move
              off it up to --children C empties, default 20; 0: the line's
              alone), at most --per-empties N of each count (seeded), are
              searched to the shallow depths, nothing solved
  train probcut --check FILE[,FILE..] [--empties A-B] [--per-empties N] [--seed S]
              [--threads N]   whether the passes' cut decisions hold as often as
              they claim, on positions of held-out games, each decision solved
              exactly
  train repack [--weights FILE] [--bits N] [--data FILE[,FILE..]] [--out FILE]
              the compiled networks (or FILE's, a weights file) quantized again
              to N magnitude bits per layer (default 8): their packed characters
              and held-out error by empties against the compiled ones (default
              data: the committed corpus); --out writes them as a weights file
  train decode-time           time to decode the compiled weights
  train bench [--depth N] [--evals A,B]   othello's bench with evaluations A and B
  train --help, train COMMAND --help (or -h)   this text
";

/// The command [`parse`] gives for `--help` or `-h` anywhere: print
/// [`USAGE`].
pub const HELP: &str = "--help";

/// Default quantization of the networks' parameters: magnitude bits per
/// layer (docs/evaluation.md, generation 3).
const DEFAULT_BITS: u32 = 8;

/// Every option of every subcommand.
#[derive(Clone)]
pub struct Options {
    pub gen: GenConfig,
    pub corpus: CorpusConfig,
    pub endgame: EndgameConfig,
    pub fit: NetConfig,
    /// `--bits`: magnitude bits of the quantized network parameters.
    pub bits: u32,
    /// `--quantize-from`: the step from which `fit` sees the parameters
    /// rounded to `--bits` (quantization-aware fitting).
    pub quantize_from: Option<u32>,
    /// `--data`: groups of files, each group one run (`a+b`: its shards).
    pub data: Vec<Vec<PathBuf>>,
    pub out: Option<PathBuf>,
    pub bootstrap: Option<usize>,
    pub rounds: u32,
    pub arena: MatchConfig,
    pub positions: usize,
    /// `--max-depth`, when given (each command has its default).
    pub max_depth: Option<u32>,
    pub values: Option<PathBuf>,
    pub book: BookConfig,
    pub openings: OpeningsConfig,
    pub transition: TransitionConfig,
    /// `features --by-empties N`: the error by empties, labels within N.
    pub by_empties: Option<i32>,
    /// `repack --weights`: a weights file to read instead of the compiled
    /// networks.
    pub weights: Option<PathBuf>,
    /// `fit --teacher`: a weights file whose networks label the training
    /// positions (distillation).
    pub teacher: Option<PathBuf>,
    /// `fit --init`: a weights file whose networks the fit starts from.
    pub init: Option<PathBuf>,
    /// `--depth` and `--games` as given (`relabel` has no default depth
    /// and reads every game without `--games`).
    pub depth_given: Option<u32>,
    pub games_given: Option<u32>,
    /// `fit --outcome W`: the line values' share in the corpus's training
    /// labels ([`crate::outcome`]).
    pub outcome: Option<f64>,
    /// `--part`: which games of endgame chunks (`probcut`, `endgame`).
    pub endgame_part: crate::games::Part,
}

/// Parses the arguments after the program name: the command's name and
/// the options.
///
/// # Errors
/// A one-line message naming the flag, for a missing or bad value or an
/// unknown flag.
pub fn parse(args: &[String]) -> Result<(String, Options), String> {
    let command = args.first().ok_or("missing command")?.clone();
    let mut o = Options {
        gen: GenConfig::default(),
        corpus: CorpusConfig::default(),
        endgame: EndgameConfig::default(),
        fit: NetConfig::default(),
        bits: DEFAULT_BITS,
        quantize_from: None,
        data: Vec::new(),
        out: None,
        bootstrap: None,
        rounds: 1,
        arena: MatchConfig {
            evals: [EvalKind::Pattern, EvalKind::Classic],
            pairs: 100,
            time_ms: othello::time::DEFAULT_TURN_BUDGET_MS,
            depth: None,
            opening_plies: 8,
            threads: 2,
            seed: 1,
        },
        positions: 1500,
        max_depth: None,
        values: None,
        book: BookConfig::default(),
        openings: OpeningsConfig::default(),
        transition: TransitionConfig::default(),
        by_empties: None,
        endgame_part: crate::games::Part::Training,
        weights: None,
        teacher: None,
        init: None,
        outcome: None,
        depth_given: None,
        games_given: None,
    };
    // `train --help`, and `--help` (or `-h`) after a command: the command
    // [`HELP`], with the default options.
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok((HELP.to_string(), o));
    }
    let mut it = args[1..].iter();
    let nothing = String::new();
    while let Some(flag) = it.next() {
        // Every flag takes a value; a last flag without one is still named
        // as unknown if it is (`apply` says whether the flag is known).
        let (value, absent) = match it.next() {
            Some(v) => (v, false),
            None => (&nothing, true),
        };
        let num = |v: &str| -> Result<u64, String> {
            v.parse()
                .map_err(|_| format!("{flag}: expected a non-negative number, found {v:?}"))
        };
        let float = |v: &str| -> Result<f64, String> {
            v.parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| format!("{flag}: expected a number >= 0, found {v:?}"))
        };
        let eval =
            |v: &str| EvalKind::parse(v).ok_or_else(|| format!("{flag}: unknown evaluation {v:?}"));
        // `A-B` with A <= B <= 60 (plies or empties).
        let range = |v: &str| {
            v.split_once('-')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .filter(|&(a, b): &(u32, u32)| a <= b && b <= 60)
                .ok_or_else(|| format!("{flag}: expected A-B with A <= B <= 60, found {v:?}"))
        };
        let mut apply = || -> Result<bool, String> {
            match flag.as_str() {
                "--games" => {
                    o.gen.games = num(value)? as u32;
                    o.games_given = Some(o.gen.games);
                    o.corpus.games = o.gen.games;
                }
                "--threads" => {
                    o.gen.threads = num(value)?.max(1) as usize;
                    o.corpus.threads = o.gen.threads;
                    o.arena.threads = o.gen.threads;
                    o.book.threads = o.gen.threads;
                    o.fit.threads = o.gen.threads;
                    o.endgame.threads = o.gen.threads;
                }
                "--seed" => {
                    o.gen.seed = num(value)?;
                    o.corpus.seed = o.gen.seed;
                    o.endgame.seed = o.gen.seed;
                    o.fit.seed = o.gen.seed;
                    o.arena.seed = o.gen.seed;
                }
                "--depth" => {
                    o.gen.depth = num(value)?.clamp(1, 60) as u32;
                    o.depth_given = Some(o.gen.depth);
                    o.corpus.depth = o.gen.depth;
                    o.arena.depth = Some(o.gen.depth);
                    o.book.depth = o.gen.depth;
                    o.openings.depth = o.gen.depth;
                }
                "--exact" => {
                    o.gen.exact_empties = num(value)?.min(60) as u32;
                    o.corpus.exact_empties = o.gen.exact_empties;
                    o.book.exact = o.gen.exact_empties;
                    o.endgame.exact = o.gen.exact_empties;
                }
                "--epsilon" => {
                    o.gen.epsilon = value
                        .parse()
                        .ok()
                        .filter(|e| (0.0..=1.0).contains(e))
                        .ok_or_else(|| {
                            format!("--epsilon: expected a number in 0..1, found {value:?}")
                        })?;
                    o.corpus.epsilon = o.gen.epsilon;
                }
                "--steps" => {
                    o.fit.steps = num(value)? as u32;
                    if o.fit.steps == 0 {
                        return Err("--steps: must be at least 1".into());
                    }
                }
                "--batches" => o.fit.batches = num(value)?.clamp(1, 1000) as u32,
                "--bits" => o.bits = num(value)?.clamp(2, 20) as u32,
                "--weights" => o.weights = Some(PathBuf::from(value)),
                "--teacher" => o.teacher = Some(PathBuf::from(value)),
                "--init" => o.init = Some(PathBuf::from(value)),
                "--outcome" => {
                    o.outcome = Some(
                        value
                            .parse()
                            .ok()
                            .filter(|w| (0.0..=1.0).contains(w))
                            .ok_or_else(|| {
                                format!("--outcome: expected a number in 0..1, found {value:?}")
                            })?,
                    );
                }
                "--freeze" => {
                    o.fit.frozen_groups = value
                        .split(',')
                        .map(|v| num(v).map(|n| n as usize))
                        .collect::<Result<_, _>>()?;
                }
                "--quantize-from" => o.quantize_from = Some(num(value)? as u32),
                "--hidden" => {
                    o.fit.hidden = value
                        .split(',')
                        .map(|v| num(v).map(|n| n as usize))
                        .collect::<Result<_, _>>()?;
                    if o.fit.hidden.iter().any(|&h| h == 0 || h > 256) {
                        return Err(format!("--hidden: sizes must be 1..256, found {value:?}"));
                    }
                }
                "--groups" => {
                    o.fit.groups = value
                        .split(',')
                        .map(|v| num(v).map(|n| n as usize))
                        .collect::<Result<_, _>>()?;
                    if o.fit.groups.contains(&0) {
                        return Err(format!(
                            "--groups: a group needs an output, found {value:?}"
                        ));
                    }
                }
                "--bootstrap" => o.bootstrap = Some(num(value)? as usize),
                "--rounds" => o.rounds = num(value)? as u32,
                "--lr" => {
                    o.fit.learning_rate = value
                        .parse()
                        .map_err(|_| format!("--lr: expected a number, found {value:?}"))?
                }
                "--anchors" => {
                    let at: Vec<u32> = value
                        .split(',')
                        .map(|v| num(v).map(|n| n as u32))
                        .collect::<Result<_, _>>()?;
                    if at.len() < 2
                        || at[0] != 0
                        || at[at.len() - 1] != 60
                        || at.windows(2).any(|w| w[0] >= w[1])
                    {
                        return Err(format!(
                            "--anchors: need increasing empties from 0 to 60, found {value:?}"
                        ));
                    }
                    o.fit.anchors = at;
                }
                "--data" => {
                    o.data = value
                        .split(',')
                        .map(|group| group.split('+').map(PathBuf::from).collect())
                        .collect()
                }
                "--plies" => {
                    o.corpus.random_plies = range(value)?;
                    o.gen.random_plies = o.corpus.random_plies;
                }
                "--shard" => {
                    let shard = Shard::parse(value).map_err(|e| format!("--shard: {e}"))?;
                    o.gen.shard = Some(shard);
                    o.corpus.shard = Some(shard);
                    o.endgame.shard = Some(shard);
                }
                "--out" => o.out = Some(PathBuf::from(value)),
                "--minutes" => o.book.minutes = float(value)?,
                "--target" => o.book.target = num(value)? as usize,
                "--batch" => o.book.batch = num(value)?.max(1) as usize,
                "--margin" => o.book.margin = float(value)?,
                "--loss-plies" => o.book.loss_plies = float(value)?,
                "--max-ply" => o.book.max_ply = num(value)?.min(60) as u32,
                "--free-plies" => o.book.free_plies = num(value)?.min(60) as u32,
                "--bot-margin" => o.book.bot_margin = float(value)?,
                "--max-chars" => o.book.max_chars = num(value)? as usize,
                "--dir" => o.book.dir = PathBuf::from(value),
                "--export-chunks" => o.book.export_chunks = num(value)? as usize,
                "--deep-depth" => o.book.deep_depth = num(value)?.min(60) as u32,
                "--deep-plies" => o.book.deep_plies = num(value)?.min(60) as u32,
                "--from" => {
                    o.transition.from = value.split(',').map(PathBuf::from).collect();
                    o.book.deep_from.clone_from(&o.transition.from);
                }
                "--check" => o.transition.check = value.split(',').map(PathBuf::from).collect(),
                "--per-empties" => o.transition.per_empties = num(value)?.max(1) as usize,
                "--labels" => {
                    o.transition.wld = match value.as_str() {
                        "exact" => false,
                        "wld" => true,
                        _ => {
                            return Err(format!("--labels: expected exact or wld, found {value:?}"))
                        }
                    }
                }
                "--empties" => {
                    o.transition.empties = range(value)?;
                    o.endgame.empties = o.transition.empties;
                }
                "--part" => {
                    o.endgame_part = crate::games::Part::parse(value).ok_or_else(|| {
                        format!("--part: expected training, held-out or all, found {value:?}")
                    })?
                }
                "--children" => o.endgame.children = num(value)?.min(60) as u32,
                "--cut" => {
                    let cut = num(value)?;
                    if cut == 0 || cut > 2550 || cut % 10 != 0 {
                        return Err(format!(
                            "--cut: expected a multiple of 10 in 10..2550 (hundredths of a \
                             deviation), found {value:?}"
                        ));
                    }
                    o.endgame.cut = cut as i32;
                }
                "--count" => o.openings.count = num(value)? as usize,
                "--within" => o.openings.within = float(value)?,
                "--positions" => o.positions = num(value)?.max(1) as usize,
                "--max-depth" => o.max_depth = Some(num(value)?.clamp(1, 30) as u32),
                "--values" => o.values = Some(PathBuf::from(value)),
                "--by-empties" => o.by_empties = Some(num(value)?.min(64) as i32),
                "--revalue" => o.transition.revalue = Some(PathBuf::from(value)),
                "--pairs" => o.arena.pairs = num(value)? as u32,
                "--time-ms" => o.arena.time_ms = num(value)?.max(1),
                "--eval" => o.gen.eval = eval(value)?,
                "--evals" => {
                    let (a, b) = value
                        .split_once(',')
                        .ok_or_else(|| format!("--evals: expected A,B, found {value:?}"))?;
                    o.arena.evals = [eval(a)?, eval(b)?];
                }
                _ => return Ok(false),
            }
            Ok(true)
        };
        match apply() {
            Ok(false) => return Err(format!("unknown argument {flag:?}")),
            _ if absent => return Err(format!("{flag} needs a value")),
            Err(e) => return Err(e),
            Ok(true) => {}
        }
    }
    o.fit.quantize_from = o.quantize_from.map(|step| (step.max(1), o.bits));
    let outputs: usize = o.fit.groups.iter().sum();
    if outputs != o.fit.anchors.len() {
        if args.iter().any(|a| a == "--groups") {
            return Err(format!(
                "--groups: the groups' outputs add up to {outputs}, the anchors are {}",
                o.fit.anchors.len()
            ));
        }
        o.fit.groups = vec![o.fit.anchors.len()];
    }
    Ok((command, o))
}

/// How `train openings` makes its openings.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningsConfig {
    /// Openings to keep (0: every opening, unscored).
    pub count: usize,
    /// Most discs from even a kept opening may score.
    pub within: f64,
    /// Depth of the selective search that scores an opening.
    pub depth: u32,
}

impl Default for OpeningsConfig {
    fn default() -> OpeningsConfig {
        OpeningsConfig {
            count: 2000,
            within: 2.0,
            depth: 14,
        }
    }
}

/// What `train transition` draws and solves.
#[derive(Clone, Debug)]
pub struct TransitionConfig {
    /// `--from`: games files (JSON lines of the referee) or transcripts.
    pub from: Vec<PathBuf>,
    /// `--per-empties`: positions drawn per number of empties.
    pub per_empties: usize,
    /// `--empties A-B`: the empties drawn from.
    pub empties: (u32, u32),
    /// `--labels wld`: each move solved for its result only (27-30
    /// empties, where exact solves of every move cost too much).
    pub wld: bool,
    /// `--check`: `train probcut`'s held-out games.
    pub check: Vec<PathBuf>,
    /// `--revalue`: where `train probcut` writes the values file's rows
    /// with their shallow values searched again.
    pub revalue: Option<PathBuf>,
}

/// `train transition`'s default positions per number of empties.
pub const TRANSITION_PER_EMPTIES: usize = 40;
/// `train transition`'s default empties: the transition, where the
/// midgame search hands over to the solver.
pub const TRANSITION_EMPTIES: (u32, u32) = (20, 26);

impl Default for TransitionConfig {
    fn default() -> TransitionConfig {
        TransitionConfig {
            from: Vec::new(),
            per_empties: TRANSITION_PER_EMPTIES,
            empties: TRANSITION_EMPTIES,
            wld: false,
            check: Vec::new(),
            revalue: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_set_the_random_opening_of_both_self_play_commands() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let (_, o) = parse(&args("corpus --plies 8-42")).unwrap();
        assert_eq!(o.corpus.random_plies, (8, 42));
        assert_eq!(o.gen.random_plies, (8, 42));
        let (_, o) = parse(&args("corpus")).unwrap();
        assert_eq!(o.corpus.random_plies, (2, 20));
    }

    #[test]
    fn help_anywhere_is_the_usage() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        for asked in [
            "--help",
            "fit --help",
            "probcut --values v.txt -h",
            "fit --bogus -h",
        ] {
            assert_eq!(
                parse(&args(asked)).map(|(c, _)| c),
                Ok(HELP.to_string()),
                "{asked}"
            );
        }
        assert_eq!(parse(&args("fit")).map(|(c, _)| c), Ok("fit".to_string()));
    }

    #[test]
    fn bad_values_are_refused_with_their_flag() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        for (bad, flag) in [
            ("fit --steps 0", "--steps"),
            ("fit --steps x", "--steps"),
            ("fit --hidden 8,0", "--hidden"),
            ("fit --groups 2,2", "--groups"),
            ("fit --anchors 0,30,60 --groups 1,1", "--groups"),
            ("corpus --shard 3/2", "--shard"),
            ("gen --shard 0/2", "--shard"),
            ("corpus --seed", "--seed needs a value"),
            ("corpus --plies 9-8", "--plies"),
            ("corpus --plies 8", "--plies"),
            ("corpus --plies 2-61", "--plies"),
            ("transition --empties 26-20", "--empties"),
            ("probcut --values", "--values needs a value"),
            ("probcut --bogus", "unknown argument \"--bogus\""),
            ("probcut --bogus x", "unknown argument \"--bogus\""),
            ("fit --outcome 1.5", "--outcome"),
            ("fit --outcome x", "--outcome"),
        ] {
            let e = parse(&args(bad))
                .err()
                .unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(e.contains(flag), "{bad}: {e}");
        }
    }
}
