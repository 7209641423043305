//! One game under CodinGame's rules between two players, using the
//! library's rules ([`othello::Game`]) and protocol text
//! ([`othello::protocol`]).

use crate::files::record::{Fault, FaultKind, GameRecord, MoveRecord, Side};
use crate::play::bot::{Bot, Reply};
use crate::play::human::Human;
use othello::protocol::{format_init, format_turn, parse_answer};
use othello::{Color, Game, Move};
use std::path::PathBuf;
use std::time::Duration;

/// How to start a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A bot process: program and arguments.
    Command(Vec<String>),
    /// A person typing moves at the referee's terminal.
    Human,
}

/// The time limits of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLimits {
    /// A player's first turn.
    pub first_turn: Duration,
    /// Every later turn.
    pub turn: Duration,
    /// Tolerance added to both.
    pub margin: Duration,
}

/// Everything one game needs besides the players.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// 1-based game number.
    pub game: usize,
    /// Who plays black.
    pub black: Side,
    /// The opening transcript, already checked to be legal.
    pub opening: String,
    /// Seeds for p1 and p2.
    pub seeds: [u64; 2],
    /// Where to keep each player's stderr (p1's file, p2's file).
    pub stderr_files: [Option<PathBuf>; 2],
    /// Time limits.
    pub limits: TimeLimits,
    /// Peak resident memory allowed to each bot, in MB (`None`: no limit).
    pub memory_mb: Option<u64>,
}

/// Something that plays moves.
enum Player {
    Bot(Bot),
    Human(Human),
}

/// A seat at the table: the player and what the protocol needs to know.
struct Seat {
    player: Option<Player>,
    asked: bool,
    expert: bool,
    /// The opponent's moves since this player's last move (EXPERT mode).
    since_last: Vec<Move>,
}

/// What the game reports to an observer after each move.
pub struct MoveEvent<'a> {
    /// The game after the move.
    pub game: &'a Game,
    /// The move.
    pub record: &'a MoveRecord,
}

/// Plays one game; `observer` sees the position after every move.
/// Players that fail to start lose by a crash; the function always returns
/// a record and leaves no process behind.
pub fn play(
    setup: &GameSetup,
    players: &[PlayerSpec; 2],
    mut observer: Option<&mut dyn FnMut(MoveEvent<'_>)>,
) -> GameRecord {
    let mut game = Game::from_transcript(&setup.opening).expect("openings are checked");
    let mut record = GameRecord {
        game: setup.game,
        black: setup.black,
        opening: setup.opening.clone(),
        moves: Vec::new(),
        winner: None,
        discs_black: 0,
        discs_white: 0,
        fault: None,
        seeds: setup.seeds,
        killed_after_end: Vec::new(),
    };
    let color_of = |side: Side| {
        if side == setup.black {
            Color::Black
        } else {
            Color::White
        }
    };
    let mut seats: Vec<Seat> = Vec::with_capacity(2);
    for side in Side::BOTH {
        let color = color_of(side);
        let player = match &players[side.index()] {
            PlayerSpec::Human => Ok(Player::Human(Human::new(color))),
            PlayerSpec::Command(argv) => Bot::spawn(
                argv,
                setup.seeds[side.index()],
                setup.stderr_files[side.index()].clone(),
            )
            .map(Player::Bot),
        };
        let player = match player {
            Ok(mut p) => {
                if let Player::Bot(bot) = &mut p {
                    // A failure shows at the first turn as a closed input.
                    let _ = bot.send(&format_init(color));
                }
                Some(p)
            }
            Err(e) => {
                record.fault.get_or_insert(Fault {
                    by: side,
                    kind: FaultKind::Crash,
                    detail: format!("cannot start: {e}"),
                    overrun_ms: None,
                    stderr_tail: None,
                });
                None
            }
        };
        seats.push(Seat {
            player,
            asked: false,
            expert: false,
            since_last: Vec::new(),
        });
    }

    while record.fault.is_none() && !game.is_over() {
        let side = if game.to_move() == color_of(Side::P1) {
            Side::P1
        } else {
            Side::P2
        };
        let seat = &mut seats[side.index()];
        let limit = if seat.asked {
            setup.limits.turn
        } else {
            setup.limits.first_turn
        } + setup.limits.margin;
        seat.asked = true;
        let actions = game.board().moves().0;
        let since_last = std::mem::take(&mut seat.since_last);
        let reply = match seat.player.as_mut().expect("started players only") {
            Player::Bot(bot) => {
                let text = format_turn(
                    game.discs(Color::Black),
                    game.discs(Color::White),
                    seat.expert.then_some(since_last.as_slice()),
                    actions,
                );
                bot.ask(&text, limit)
            }
            Player::Human(human) => human.ask(&game),
        };
        if let (Some(limit_mb), Some(Player::Bot(bot))) = (setup.memory_mb, seat.player.as_ref()) {
            if let Some(peak_kb) = bot.peak_memory_kb().filter(|&kb| kb > limit_mb * 1024) {
                record.fault = Some(Fault {
                    by: side,
                    kind: FaultKind::Memory,
                    detail: format!(
                        "peak resident memory {:.1} MB, over the {limit_mb} MB limit",
                        peak_kb as f64 / 1024.0
                    ),
                    overrun_ms: None,
                    stderr_tail: None,
                });
                break;
            }
        }
        match judge(reply, actions, limit, seat) {
            Ok((mv, expert)) => {
                seat.expert |= expert;
                let sq = othello::Square::parse(&mv.square).expect("judged legal");
                game.play(sq).expect("judged legal");
                let other = &mut seats[side.other().index()];
                other.since_last.push(Move::Play(sq));
                if game.history().last() == Some(&Move::Pass) && !game.is_over() {
                    seats[side.index()].since_last.push(Move::Pass);
                }
                let mv = MoveRecord { by: side, ..mv };
                if let Some(obs) = observer.as_mut() {
                    obs(MoveEvent {
                        game: &game,
                        record: &mv,
                    });
                }
                record.moves.push(mv);
            }
            Err(fault) => record.fault = Some(Fault { by: side, ..fault }),
        }
    }

    record.discs_black = game.discs(Color::Black).count_ones();
    record.discs_white = game.discs(Color::White).count_ones();
    record.winner = match &record.fault {
        Some(f) => Some(f.by.other()),
        None => game.winner().map(|c| {
            if c == color_of(Side::P1) {
                Side::P1
            } else {
                Side::P2
            }
        }),
    };
    for (side, seat) in Side::BOTH.into_iter().zip(seats) {
        if let Some(Player::Bot(bot)) = seat.player {
            if bot.finish() {
                record.killed_after_end.push(side);
            }
        }
    }
    record
}

/// How much of a late answer a timeout's detail quotes (characters).
const LATE_LINE_CHARS: usize = 80;

/// Turns a reply into a legal move (and whether it asked for EXPERT mode),
/// or the fault it is. The returned records carry p1 as a placeholder
/// side; the caller sets the real one.
fn judge(
    reply: Reply,
    actions: u64,
    limit: Duration,
    seat: &mut Seat,
) -> Result<(MoveRecord, bool), Fault> {
    let fault = |kind, detail: String| Fault {
        by: Side::P1,
        kind,
        detail,
        overrun_ms: None,
        stderr_tail: None,
    };
    match reply {
        Reply::Line(line, took) => {
            let answer = parse_answer(&line).map_err(|e| fault(FaultKind::Unreadable, e))?;
            if actions & answer.square.bit() == 0 {
                return Err(fault(
                    FaultKind::Illegal,
                    format!(
                        "{} is not legal here (legal: {}; the answer was {line:?})",
                        answer.square,
                        othello::Bitboard(actions)
                            .squares()
                            .map(|sq| sq.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    ),
                ));
            }
            Ok((
                MoveRecord {
                    by: Side::P1,
                    square: answer.square.to_string(),
                    ms: millis(took),
                    limit_ms: limit.as_secs_f64() * 1e3,
                    msg: answer.message,
                },
                answer.expert,
            ))
        }
        Reply::Timeout(late) => Err(Fault {
            overrun_ms: late.as_ref().map(|(d, _)| millis(*d)),
            ..fault(
                FaultKind::Timeout,
                match late {
                    // The late line is kept: its MSG often carries the
                    // bot's own clock, which tells a bot that overran its
                    // budget from one that was kept waiting.
                    Some((d, line)) => format!(
                        "answered {:.1} ms after the {} ms limit (the answer was {:?})",
                        d.as_secs_f64() * 1e3,
                        limit.as_millis(),
                        line.chars().take(LATE_LINE_CHARS).collect::<String>()
                    ),
                    None => format!(
                        "no answer within {} ms (nor {} ms after)",
                        limit.as_millis(),
                        crate::play::bot::LATE_ANSWER_GRACE.as_millis()
                    ),
                },
            )
        }),
        Reply::Closed { input } => {
            let player = seat.player.as_mut().expect("started players only");
            let (status, tail) = match player {
                Player::Bot(bot) => (bot.exit_status(), bot.stderr_tail()),
                Player::Human(_) => (None, String::new()),
            };
            let tail = (!tail.is_empty()).then_some(tail);
            Err(match status {
                Some(crate::play::bot::ExitKind::Code(0)) => fault(
                    FaultKind::NoOutput,
                    "exited with status 0 without answering".into(),
                ),
                Some(kind) => Fault {
                    stderr_tail: tail,
                    ..fault(FaultKind::Crash, format!("{kind} without answering"))
                },
                None if matches!(player, Player::Human(_)) => {
                    fault(FaultKind::NoOutput, "end of input".into())
                }
                None => Fault {
                    stderr_tail: tail,
                    ..fault(
                        FaultKind::Crash,
                        format!(
                            "closed its {} without answering",
                            if input { "input" } else { "output" }
                        ),
                    )
                },
            })
        }
    }
}

/// A duration in ms, rounded to the microsecond (records stay short).
fn millis(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1e3
}

/// The seed handed to `side` in game `game`: a hash of the match seed.
pub fn bot_seed(seed: u64, game: usize, side: Side) -> u64 {
    let n = (game as u64) * 2 + side.index() as u64;
    // 53 bits, so that every JSON reader keeps the seed exact.
    othello::rng::Rng::seed_from_u64(seed ^ n.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64() >> 11
}

/// A seed from the clock, for matches run without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        % 1_000_000_000
}

/// Where the bots' stderr of game `game` goes with `--stderr-dir DIR`:
/// `DIR/game-0007-p1.stderr` and `DIR/game-0007-p2.stderr`.
pub fn stderr_files(dir: Option<&std::path::Path>, game: usize) -> [Option<PathBuf>; 2] {
    Side::BOTH.map(|s| dir.map(|d| d.join(format!("game-{game:04}-{s}.stderr"))))
}
