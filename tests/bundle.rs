//! The submission, `bundle/othello.rs`: it compiles alone with plain rustc
//! under three editions, fits CodinGame's size limit, plays the same moves
//! as the native binary, and plays complete games within CodinGame's rules
//! and clock. Also: the fast (run-time dispatched) and portable
//! compilations of the hot code agree with each other and with the slow
//! reference rules.
//!
//! The games are refereed here through the library's own protocol and rules
//! (`format_turn`, `parse_answer`, `Game`).

mod common;

use othello::bench;
use othello::dispatch::Isa;
use othello::eval::{EvalKind, Evaluator};
use othello::game::{Color, Game};
use othello::kernels::{flips_with, moves_with};
use othello::perft::{perft_with, PUBLISHED};
use othello::protocol::{format_init, format_turn, parse_answer};
use othello::reference::{flips_slow, moves_slow};
use othello::rng::Rng;
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Strategy};
use othello::Board;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// CodinGame's code size limit in characters.
const CODE_LIMIT: usize = 100_000;
/// CodinGame's time limit for a player's first turn.
const FIRST_TURN_LIMIT: Duration = Duration::from_millis(2000);
/// CodinGame's time limit for every later turn.
const TURN_LIMIT: Duration = Duration::from_millis(150);
/// The bots' own budget in the refereed games: well inside [`TURN_LIMIT`],
/// so that a test machine busy with other tests does not make a late answer.
const GAME_BUDGET_MS: &str = "60";
/// Depth of the fixed-depth comparison of the bundle with the native binary.
const COMPARE_DEPTH: &str = "5";
/// Positions compared at [`COMPARE_DEPTH`].
const COMPARED_POSITIONS: usize = 240;
/// Positions with at most this many empty squares are also compared solved.
const SOLVED_EMPTIES: u32 = 14;

fn bundle_source() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bundle/othello.rs")
}

fn native_binary() -> &'static str {
    env!("CARGO_BIN_EXE_othello")
}

/// Compiles the bundle with `rustc` and `args` into the test's temporary
/// directory; panics with rustc's messages when it fails.
fn compile_bundle(name: &str, args: &[&str]) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let result = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg(bundle_source())
        .output()
        .expect("rustc runs");
    assert!(
        result.status.success(),
        "rustc {args:?} bundle/othello.rs failed:\n{}",
        String::from_utf8_lossy(&result.stderr)
    );
    out
}

/// Held by the tests that load the CPU (compiling, searching) and by the
/// timed games, so that the games' clocks do not run while rustc competes
/// for the machine's cores.
fn cpu() -> MutexGuard<'static, ()> {
    static CPU: Mutex<()> = Mutex::new(());
    CPU.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The bundle built as CodinGame's arena is believed to build it:
/// `rustc -O`, edition 2021, no target-cpu. Built once per test run.
fn bundle_binary() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let _cpu = cpu();
        compile_bundle("othello-bundle", &["-O", "--edition", "2021"])
    })
}

#[test]
fn bundle_compiles_alone_under_editions_2018_2021_2024() {
    assert!(bundle_binary().exists());
    // 2018 and 2024 unoptimised, as CodinGame's IDE may build: they must
    // compile and answer a turn.
    for edition in ["2018", "2024"] {
        let _cpu = cpu();
        let binary = compile_bundle(
            &format!("othello-bundle-{edition}"),
            &["--edition", edition],
        );
        let b = Board::start();
        let input = format!(
            "{}{}",
            format_init(Color::Black),
            format_turn(b.player, b.opponent, None, b.moves().0)
        );
        let output = run_with_input(&binary, &["--depth", "3"], &input);
        let answer = parse_answer(output.lines().next().unwrap_or("")).unwrap();
        assert!(b.is_legal(answer.square), "edition {edition}: {output}");
    }
}

#[test]
fn bundle_fits_codingame_size_limit_and_names_no_machine_path() {
    let text = std::fs::read_to_string(bundle_source()).unwrap();
    // CodinGame counts a character outside the BMP as 2: its UTF-16 length.
    let chars: usize = text.chars().map(char::len_utf16).sum();
    assert!(chars <= CODE_LIMIT, "bundle has {chars} characters");
    assert!(
        !text.contains("file:///"),
        "a machine path is in the bundle"
    );
    assert!(
        !text.contains(env!("CARGO_MANIFEST_DIR")),
        "the checkout's path is in the bundle"
    );
}

/// Starts `binary args` with piped stdin and stdout, for a conversation.
fn spawn(binary: &Path, args: &[&str]) -> Child {
    Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{binary:?} does not start: {e}"))
}

/// Runs `binary args` with `input` on stdin and returns its stdout.
fn run_with_input(binary: &Path, args: &[&str], input: &str) -> String {
    let output = common::run_with_input(binary, args, input);
    assert!(output.status.success(), "{binary:?} {args:?} failed");
    String::from_utf8(output.stdout).unwrap()
}

/// Positions of random games from fixed seeds, every ply, side to move first.
fn random_positions(games: u64) -> Vec<Board> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::seed_from_u64(seed);
        let mut game = Game::new();
        while !game.is_over() {
            out.push(game.board());
            let moves = game.board().moves().0;
            let sq = othello::Square::new(rng.pick_bit(moves) as u8);
            game.play(sq).unwrap();
        }
    }
    out
}

/// The answer line without its time: the move and the MSG's depth and score
/// (`d5 +3 12ms` becomes `d5 +3`; a message without a time stays whole).
fn without_time(line: &str) -> String {
    let answer = parse_answer(line).unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let message = answer.message.unwrap_or_default();
    let mut words: Vec<&str> = message.split_whitespace().collect();
    if words.len() > 1 {
        words.pop();
    }
    format!("{} {}", answer.square, words.join(" "))
}

/// Runs the native binary and the bundle with `args` on `boards` (one bot
/// process each, answering every position in turn as player 0, its table
/// carrying over the same way in both); checks that they give the same
/// answers (without the time) and returns them.
fn compare_with_native(boards: &[Board], args: &[&str]) -> Vec<String> {
    let mut input = format_init(Color::Black);
    for b in boards {
        input.push_str(&format_turn(b.player, b.opponent, None, b.moves().0));
    }
    let answers = |out: String| -> Vec<String> { out.lines().map(without_time).collect() };
    let bundle_binary = bundle_binary();
    let _cpu = cpu();
    let native = answers(run_with_input(Path::new(native_binary()), args, &input));
    let bundle = answers(run_with_input(bundle_binary, args, &input));
    assert_eq!(native.len(), boards.len());
    for (i, (n, b)) in native.iter().zip(&bundle).enumerate() {
        assert_eq!(b, n, "{args:?}, position {i}: {:?}", boards[i]);
    }
    assert_eq!(bundle.len(), native.len());
    native
}

#[test]
fn bundle_plays_the_same_moves_as_the_native_binary_at_fixed_depth() {
    // Midgame: 240 positions of 8 random games, every other ply, searched
    // at a fixed depth (the solver is off then).
    let positions = random_positions(8);
    let boards: Vec<Board> = positions
        .iter()
        .copied()
        .step_by(2)
        .take(COMPARED_POSITIONS)
        .collect();
    assert_eq!(boards.len(), COMPARED_POSITIONS);
    let answers = compare_with_native(&boards, &["--depth", COMPARE_DEPTH]);
    assert!(
        answers.iter().all(|a| a
            .split(' ')
            .nth(1)
            .is_some_and(|m| m.starts_with(['d', 's']))),
        "{answers:?}"
    );
    // Endgame: every position of the same games with at most
    // SOLVED_EMPTIES empty squares, solved exactly (a time budget, not a
    // depth, turns the solver on; these solves take milliseconds, so the
    // budget never ends one).
    let endgames: Vec<Board> = positions
        .iter()
        .copied()
        .filter(|b| b.empty_count() <= SOLVED_EMPTIES)
        .collect();
    assert!(
        endgames.len() >= 100,
        "{} endgame positions",
        endgames.len()
    );
    let answers = compare_with_native(&endgames, &["--time-ms", "60000"]);
    let exact = answers
        .iter()
        .filter(|a| a.split(' ').nth(1).is_some_and(|m| m.starts_with('e')))
        .count();
    assert_eq!(exact, endgames.len(), "not all solved exactly: {answers:?}");
    eprintln!(
        "{} midgame positions at depth {COMPARE_DEPTH} and {} exact solves: the same answers",
        boards.len(),
        endgames.len()
    );
}

#[test]
fn fast_and_portable_kernels_agree_with_the_reference() {
    let fast = Isa::detect();
    if !fast.is_fast() {
        eprintln!("this CPU lacks the fast features: only portable code is checked");
    }
    let mut boards = random_positions(200);
    // Unreachable positions too: random disjoint disc sets.
    let mut rng = Rng::seed_from_u64(7);
    for _ in 0..5000 {
        let a = rng.next_u64() & rng.next_u64();
        let b = rng.next_u64() & !a;
        boards.push(Board::new(a, b));
    }
    for b in &boards {
        let (p, o) = (b.player, b.opponent);
        let moves = moves_slow(p, o);
        assert_eq!(moves_with(Isa::PORTABLE, p, o), moves, "{b:?}");
        assert_eq!(moves_with(fast, p, o), moves, "{b:?}");
        for sq in 0..64 {
            if (p | o) >> sq & 1 == 0 {
                let flips = flips_slow(p, o, sq);
                assert_eq!(flips_with(Isa::PORTABLE, p, o, sq), flips, "{b:?} {sq}");
                assert_eq!(flips_with(fast, p, o, sq), flips, "{b:?} {sq}");
            }
        }
    }
}

#[test]
fn fast_and_portable_perft_give_the_published_counts() {
    let start = Board::start();
    for depth in 1..=9 {
        let expected = PUBLISHED[depth as usize - 1];
        assert_eq!(perft_with(&start, depth, Isa::PORTABLE), expected);
        assert_eq!(perft_with(&start, depth, Isa::detect()), expected);
    }
}

#[test]
fn fast_and_portable_searches_visit_the_same_tree() {
    for board in bench::positions() {
        if board.moves().is_empty() {
            continue;
        }
        let _cpu = cpu();
        let run = |isa: Isa| {
            let mut search = AlphaBeta::new(Evaluator::new(EvalKind::Classic, 0));
            search.set_exact_empties(0);
            search.set_isa(isa);
            let r = search.choose(&board, board.moves(), &Limits::depth(7));
            (r.best, r.score, r.nodes)
        };
        assert_eq!(run(Isa::PORTABLE), run(Isa::detect()), "{board:?}");
    }
}

/// A bot process: its stdin, and its stdout lines arriving on a channel so
/// that the referee can wait with a timeout.
struct Bot {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    answered: bool,
}

impl Bot {
    fn start(name: &str, binary: &Path, args: &[&str]) -> Bot {
        let mut child = spawn(binary, args);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Bot {
            name: name.to_string(),
            child,
            stdin,
            lines,
            answered: false,
        }
    }

    /// Sends `text` and waits for one answer line within CodinGame's limit;
    /// returns the line and the time taken.
    fn ask(&mut self, text: &str) -> (String, Duration) {
        let limit = if self.answered {
            TURN_LIMIT
        } else {
            FIRST_TURN_LIMIT
        };
        self.answered = true;
        let start = Instant::now();
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        match self.lines.recv_timeout(limit) {
            Ok(line) => (line, start.elapsed()),
            Err(e) => panic!("{}: no answer within {limit:?} ({e})", self.name),
        }
    }

    /// Closes the input, as the referee does at the end, and checks that
    /// the bot then exits quietly with status 0.
    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{} exited with {status}", self.name);
    }
}

/// Plays one game under CodinGame's rules; returns black's final disc
/// difference and the slowest answer after the first of each side.
fn play(black: Bot, white: Bot) -> (i32, [Duration; 2]) {
    let mut bots = [black, white];
    let mut game = Game::new();
    for (i, bot) in bots.iter_mut().enumerate() {
        let init = format_init(Color::from_id(i).unwrap());
        bot.stdin.write_all(init.as_bytes()).unwrap();
    }
    let mut slowest = [Duration::ZERO; 2];
    while !game.is_over() {
        let color = game.to_move();
        let (black, white) = (game.discs(Color::Black), game.discs(Color::White));
        let legal = game.board().moves().0;
        let bot = &mut bots[color.id()];
        let first = !bot.answered;
        let (line, took) = bot.ask(&format_turn(black, white, None, legal));
        if !first {
            slowest[color.id()] = slowest[color.id()].max(took);
        }
        let answer = parse_answer(&line)
            .unwrap_or_else(|e| panic!("{}: unreadable answer {line:?}: {e}", bot.name));
        game.play(answer.square)
            .unwrap_or_else(|_| panic!("{}: illegal move {line:?}", bot.name));
    }
    let [black, white] = bots;
    black.finish();
    white.finish();
    (game.final_score_black(), slowest)
}

#[test]
fn bundle_plays_complete_games_against_random_and_native_bots() {
    let bundle = bundle_binary();
    let native = Path::new(native_binary());
    let budget = ["--time-ms", GAME_BUDGET_MS];
    let _cpu = cpu();
    for (opponent, args) in [
        ("random", vec!["--strategy", "random", "--seed", "11"]),
        ("native", budget.to_vec()),
    ] {
        for bundle_color in [Color::Black, Color::White] {
            let me = Bot::start("bundle", bundle, &budget);
            let them = Bot::start(opponent, native, &args);
            let (score, slowest) = match bundle_color {
                Color::Black => play(me, them),
                Color::White => play(them, me),
            };
            let mine = slowest[bundle_color.id()];
            eprintln!(
                "bundle as {bundle_color} vs {opponent}: black {score:+}, bundle's slowest later answer {mine:?}"
            );
            if opponent == "random" {
                let my_score = if bundle_color == Color::Black {
                    score
                } else {
                    -score
                };
                assert!(
                    my_score > 0,
                    "the bundle lost to random play ({my_score:+})"
                );
            }
        }
    }
}
