//! Searches against slow references: alpha-beta's fixed-depth value equals
//! plain minimax's; every strategy plays legal moves.

use othello::eval::{EvalKind, Evaluator};
use othello::rng::Rng;
use othello::search::alphabeta::AlphaBeta;
use othello::search::minimax::Minimax;
use othello::search::{create, Config, Limits, Score, Strategy, STRATEGY_NAMES};
use othello::{Board, Square};

/// Positions from random games, `plies` moves in.
fn random_positions(seed: u64, count: usize, plies: u32) -> Vec<Board> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = Board::start();
        for _ in 0..plies {
            let m = board.moves();
            if m.is_empty() {
                board = board.pass();
                continue;
            }
            board = board.play(Square::new(rng.pick_bit(m.0) as u8));
        }
        if !board.moves().is_empty() {
            out.push(board);
        }
    }
    out
}

/// With the classic evaluation and with the pattern one (whose leaves the
/// search evaluates from their parent's indices at depth 1).
#[test]
fn alphabeta_value_equals_minimax_value_at_fixed_depth() {
    for kind in [EvalKind::Classic, EvalKind::Pattern] {
        for (i, board) in random_positions(5, 40, 20).into_iter().enumerate() {
            let depth = 1 + (i as u32 % 4);
            let mut ab = AlphaBeta::with_table_bits(Evaluator::new(kind, 0), 16);
            ab.set_selective(false);
            let mut mm = Minimax::new(Evaluator::new(kind, 0));
            let a = ab.choose(&board, board.moves(), &Limits::depth(depth));
            let m = mm.choose(&board, board.moves(), &Limits::depth(depth));
            assert_eq!(
                a.score, m.score,
                "{kind:?}, position {i}, depth {depth}:\n{board}"
            );
            // The chosen move must reach that value too.
            let mut check = Minimax::new(Evaluator::new(kind, 0));
            let after = board.play(a.best);
            let value = if depth == 1 {
                let v = Evaluator::new(kind, 0).evaluate(&after);
                Score::Estimate(-(v as f64) / 256.0)
            } else if after.moves().is_empty() {
                a.score // a pass or a finished game: covered by the equality above
            } else {
                let r = check.choose(&after, after.moves(), &Limits::depth(depth - 1));
                match r.score {
                    Score::Estimate(s) => Score::Estimate(-s),
                    other => other,
                }
            };
            assert_eq!(value, a.score, "{kind:?}, best move's value, position {i}");
        }
    }
}

/// Plain fail-hard alpha-beta: no table, no ordering, no cut-offs beyond
/// the window; a pass keeps the depth, two end the game.
fn plain_alphabeta(
    eval: &mut Evaluator,
    board: &Board,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    passed: bool,
) -> i32 {
    let moves = board.moves();
    if moves.is_empty() {
        if passed {
            return board.final_score() * othello::eval::SCALE;
        }
        return -plain_alphabeta(eval, &board.pass(), depth, -beta, -alpha, true);
    }
    if depth == 0 {
        return eval.evaluate(board).clamp(alpha, beta);
    }
    for sq in moves.squares() {
        let v = -plain_alphabeta(eval, &board.play(sq), depth - 1, -beta, -alpha, false);
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// Deep enough for the search's table cut-offs, its enhanced transposition
/// cut-offs (from depth `ETC_MIN_DEPTH`) and its ordering by shallow
/// searches (from `SHALLOW_ORDER_MIN_DEPTH`): full width, its value is still
/// exactly the plain alpha-beta value.
#[test]
fn the_full_width_value_at_depth_9_equals_plain_alphabeta() {
    use othello::search::alphabeta::{ETC_MIN_DEPTH, SHALLOW_ORDER_MIN_DEPTH};
    let depth = 9;
    assert!(depth > ETC_MIN_DEPTH.max(SHALLOW_ORDER_MIN_DEPTH));
    for kind in [EvalKind::Classic, EvalKind::Pattern] {
        for (i, board) in random_positions(48, 4, 24).into_iter().enumerate() {
            let mut ab = AlphaBeta::with_table_bits(Evaluator::new(kind, 0), 12);
            ab.set_selective(false);
            let mut eval = Evaluator::new(kind, 0);
            let inf = 1 << 20;
            let expected = plain_alphabeta(&mut eval, &board, depth, -inf, inf, false);
            assert_eq!(
                ab.value(&board, depth),
                expected,
                "{kind:?}, position {i}:\n{board}"
            );
        }
    }
}

/// Multi-ProbCut prunes: to the same depth the selective search visits
/// fewer nodes than the full-width one, and its value stays near the
/// full-width value (within a few of the fitted deviations).
#[test]
fn the_selective_search_prunes_and_stays_near_the_full_width_value() {
    use othello::search::mpc;
    let depth = 10;
    let (mut selective_nodes, mut full_nodes) = (0, 0);
    for board in random_positions(11, 12, 20) {
        let mut full = AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), 18);
        full.set_selective(false);
        let exact = full.value(&board, depth);
        full_nodes += full.nodes();
        let mut sel = AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), 18);
        let v = sel.value(&board, depth);
        selective_nodes += sel.nodes();
        let sigma = mpc::sigma(depth, board.empty_count());
        assert!(
            (v - exact).abs() <= 4 * sigma,
            "selective {v} vs full width {exact} (sigma {sigma}) on\n{board}"
        );
    }
    assert!(
        selective_nodes * 3 < full_nodes,
        "selective {selective_nodes} nodes, full width {full_nodes}"
    );
}

/// `Config::selective` (the bot's `--full-width`) reaches the search that
/// `create` makes: off, alphabeta searches the same depths with more nodes.
#[test]
fn create_honours_the_full_width_setting() {
    let (mut selective_nodes, mut full_nodes) = (0, 0);
    for board in random_positions(13, 6, 20) {
        for selective in [true, false] {
            let config = Config {
                selective,
                ..Config::default()
            };
            let mut s = create("alphabeta", &config).unwrap();
            let r = s.choose(&board, board.moves(), &Limits::depth(9));
            assert_eq!(r.depth, 9);
            *if selective {
                &mut selective_nodes
            } else {
                &mut full_nodes
            } += r.nodes;
        }
    }
    assert!(
        selective_nodes * 2 < full_nodes,
        "selective {selective_nodes} nodes, full width {full_nodes}"
    );
}

/// `Config::progress` shows the search's best move as it goes (the bot's
/// watchdog answers with it when the machine holds the search): after an
/// iterative deepening it shows the move played.
#[test]
fn the_search_shows_the_move_it_plays() {
    use othello::search::Progress;
    use std::sync::atomic::AtomicU8;
    static CELL: AtomicU8 = AtomicU8::new(64);
    let progress = Progress(Some(&CELL));
    let config = Config {
        progress,
        ..Config::default()
    };
    let mut s = create("alphabeta", &config).unwrap();
    let mut shown = std::collections::HashSet::new();
    for board in random_positions(17, 8, 24) {
        let r = s.choose(&board, board.moves(), &Limits::depth(7));
        assert_eq!(progress.best(), Some(r.best), "{board}");
        shown.insert(r.best);
    }
    assert!(shown.len() > 1);
}

/// The submission's searcher, [`AlphaBeta::bot`], is the one `--strategy
/// alphabeta` builds from the default settings: the same moves, scores and
/// nodes, and the same progress shown, at fixed depths and exact solves.
#[test]
fn the_bots_searcher_is_the_default_configs() {
    use othello::search::Progress;
    use std::sync::atomic::AtomicU8;
    static BOT: AtomicU8 = AtomicU8::new(64);
    static CONFIGURED: AtomicU8 = AtomicU8::new(64);
    let mut bot = AlphaBeta::bot(Progress(Some(&BOT)));
    let mut configured = create(
        "alphabeta",
        &Config {
            progress: Progress(Some(&CONFIGURED)),
            ..Config::default()
        },
    )
    .unwrap();
    let boards = random_positions(21, 6, 24)
        .into_iter()
        .chain(random_positions(22, 6, 48));
    for board in boards {
        for limits in [
            Limits::depth(6),
            Limits::time(othello::time::Deadline::unlimited()),
        ] {
            if limits.depth.is_none() && board.empty_count() > 14 {
                continue;
            }
            let (a, b) = (
                bot.choose(&board, board.moves(), &limits),
                configured.choose(&board, board.moves(), &limits),
            );
            assert_eq!(
                (a.best, a.score, a.depth, a.nodes),
                (b.best, b.score, b.depth, b.nodes),
                "{board}"
            );
            assert_eq!(
                Progress(Some(&BOT)).best(),
                Progress(Some(&CONFIGURED)).best(),
                "{board}"
            );
        }
    }
}

/// The only legal move is played without a deep search.
#[test]
fn the_only_move_costs_no_search() {
    // Positions with one legal move, found in random games.
    let mut rng = Rng::seed_from_u64(12);
    let mut found = 0;
    while found < 5 {
        let mut board = Board::start();
        while !board.is_game_over() {
            let m = board.moves();
            if m.is_empty() {
                board = board.pass();
                continue;
            }
            if m.count() == 1 && board.empty_count() > 20 {
                let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
                let r = ab.choose(
                    &board,
                    m,
                    &Limits::time(othello::time::Deadline::from_now_ms(10_000)),
                );
                assert_eq!(Some(r.best), m.first());
                assert_eq!(r.depth, 1, "{r:?}");
                found += 1;
            }
            board = board.play(Square::new(rng.pick_bit(m.0) as u8));
        }
    }
}

#[test]
fn every_strategy_plays_a_legal_move_everywhere() {
    let boards = random_positions(6, 30, 0)
        .into_iter()
        .chain(random_positions(7, 30, 30))
        .chain(random_positions(8, 30, 52));
    let config = Config::default();
    for board in boards {
        for name in STRATEGY_NAMES {
            let mut s = create(name, &config).unwrap();
            let limits = Limits {
                deadline: othello::time::Deadline::from_now_ms(50),
                depth: Some(2),
                nodes: None,
            };
            let r = s.choose(&board, board.moves(), &limits);
            assert!(
                board.is_legal(r.best),
                "{name} played {} on\n{board}",
                r.best
            );
            assert!(othello::protocol::message(&r).chars().count() <= 12);
        }
    }
}

#[test]
fn a_restricted_move_set_is_respected() {
    for board in random_positions(9, 20, 16) {
        let moves = board.moves();
        let only = othello::Bitboard(1u64 << moves.0.trailing_zeros());
        for name in STRATEGY_NAMES {
            let mut s = create(name, &Config::default()).unwrap();
            let r = s.choose(&board, only, &Limits::depth(3));
            assert_eq!(Some(r.best), only.first(), "{name}");
        }
    }
}

/// A fixed depth with a time limit and an exact solve that cannot finish
/// in it (`--depth N --time-ms T --exact E`): the solve gives up at its
/// share of the budget and the midgame search answers with the rest. It
/// used to get the whole budget and play its 38% pass (the test failed
/// with `Probable { cut: 50 }`), or with none finished leave the midgame
/// search past its limit with no iteration done (depth 0).
#[test]
fn a_timed_fixed_depth_solve_that_cannot_finish_leaves_the_midgame_search_time() {
    // 26 empties: an exact solve takes seconds, far over the 100 ms here.
    let boards = random_positions(26, 6, 34);
    let boards: Vec<Board> = boards
        .into_iter()
        .filter(|b| b.empty_count() == 26)
        .collect();
    assert!(boards.len() >= 3);
    for board in boards {
        let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
        ab.set_exact_empties(26);
        ab.set_fixed_depth_solves(true);
        let limits = Limits {
            deadline: othello::time::Deadline::from_now_ms(100),
            depth: Some(3),
            nodes: None,
        };
        let r = ab.choose(&board, board.moves(), &limits);
        assert!(board.is_legal(r.best));
        assert!(
            matches!(r.score, Score::Selective(_) | Score::Estimate(_)),
            "{r:?}"
        );
        assert!(r.depth >= 1, "the midgame search had no time: {r:?}");
    }
}

/// The turn's passes rise (the widest finished is the last finished) and
/// the first, which only orders the next, is narrower than any pass the
/// bot plays; the next is played.
#[test]
fn the_turns_passes_rise_and_only_the_first_is_never_played() {
    use othello::search::alphabeta::{MIN_PLAYED_CUT, PASS_CUTS};
    assert!(PASS_CUTS.windows(2).all(|w| w[0] < w[1]), "{PASS_CUTS:?}");
    assert!(PASS_CUTS[0] < MIN_PLAYED_CUT && MIN_PLAYED_CUT <= PASS_CUTS[1]);
}

/// The 99% pass runs from 22 empties only: below, the turn's passes end
/// at 98% and the exact search follows them.
#[test]
fn the_widest_pass_runs_only_from_its_empties() {
    use othello::search::alphabeta::{pass_cuts, PASS_CUTS, WIDEST_PASS_EMPTIES};
    let widest = PASS_CUTS[PASS_CUTS.len() - 1];
    assert_eq!(othello::search::endgame::confidence(widest), 99);
    for empties in 1..=60 {
        let cuts = pass_cuts(empties);
        assert_eq!(cuts, &PASS_CUTS[..cuts.len()], "{empties} empties");
        let has_widest = cuts.last() == Some(&widest);
        assert_eq!(
            has_widest,
            empties >= WIDEST_PASS_EMPTIES,
            "{empties} empties"
        );
        assert!(cuts.len() + 1 >= PASS_CUTS.len(), "{empties} empties");
    }
}

/// A timed turn runs the passes of `pass_cuts` at its count of empties, then
/// the exact search: with time to spare every one finishes, the 99% pass
/// only from 22 empties, and the proof is played.
#[test]
fn a_timed_turn_runs_the_passes_of_its_empties() {
    use othello::search::alphabeta::{pass_cuts, WIDEST_PASS_EMPTIES};
    for empties in [WIDEST_PASS_EMPTIES - 1, WIDEST_PASS_EMPTIES] {
        let boards: Vec<Board> = random_positions(u64::from(empties), 8, 60 - empties)
            .into_iter()
            .filter(|b| b.empty_count() == empties)
            .take(2)
            .collect();
        assert_eq!(boards.len(), 2, "{empties} empties");
        for board in boards {
            let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
            let limits = Limits::time(othello::time::Deadline::from_now_ms(600_000));
            let r = ab.choose(&board, board.moves(), &limits);
            assert!(matches!(r.score, Score::Exact(_)), "{r:?}");
            let ran: Vec<Option<i32>> = ab.solver().passes().iter().map(|p| p.cut).collect();
            let expected: Vec<Option<i32>> = pass_cuts(empties)
                .iter()
                .map(|&c| Some(c))
                .chain([None])
                .collect();
            assert_eq!(ran, expected, "{empties} empties");
        }
    }
}

/// Boards whose side to move (X) has more moves than a position reached
/// from the start can (33 at most): 34 and 35. An input board may be any
/// board, and the searches' fixed move lists overflowed on these (the
/// midgame search's held 32, the solver's 34) before they were sized by
/// `othello::board::MAX_MOVES`.
const CROWDED: [(&str, u32); 2] = [
    (
        "-X-X-----OXO--OO-OX-X-OX------OX---OX-X--OXXX-O--OXO-XO--X---X-X",
        34,
    ),
    (
        "----X----OO-OXO--OXX-XX---X--XO-XO--OX---XXXXXO--OXO-OO---------",
        35,
    ),
];

#[test]
fn boards_with_more_moves_than_a_game_reaches_are_searched() {
    use othello::search::endgame::Solver;
    use othello::time::Deadline;
    for (cells, count) in CROWDED {
        let board = Board::from_cells(cells, 'X', 'O').unwrap();
        assert_eq!(board.moves().count(), count, "{board}");
        // The full-width midgame search's value is minimax's.
        for depth in 1..=3 {
            let mut mm = Minimax::new(Evaluator::new(EvalKind::Pattern, 0));
            let m = mm.choose(&board, board.moves(), &Limits::depth(depth));
            let mut ab = AlphaBeta::with_table_bits(Evaluator::new(EvalKind::Pattern, 0), 16);
            ab.set_selective(false);
            let a = ab.choose(&board, board.moves(), &Limits::depth(depth));
            assert_eq!(a.score, m.score, "depth {depth}:\n{board}");
            assert!(board.is_legal(a.best));
            // The board as an inner node of the search (the root lists its
            // moves apart).
            let v = ab.value(&board, depth);
            assert_eq!(
                Score::Estimate(f64::from(v) / 256.0),
                m.score,
                "depth {depth}"
            );
        }
        // Every strategy, and the solver under a deadline (too many empties
        // to finish: it gives up instead of overflowing).
        for name in STRATEGY_NAMES {
            let mut s = create(name, &Config::default()).unwrap();
            let limits = Limits {
                deadline: Deadline::from_now_ms(50),
                depth: Some(3),
                nodes: None,
            };
            let r = s.choose(&board, board.moves(), &limits);
            assert!(board.is_legal(r.best), "{name} played {}", r.best);
        }
        let mut solver = Solver::with_table_bits(Deadline::from_now_ms(200), 16);
        assert_eq!(solver.solve_board(&board, false), None);
    }
}

/// A timed turn at `WARM_EMPTIES` plays the midgame search's move, then
/// spends the rest of its time on the selective passes (a node limit
/// stops the midgame search early, so every pass finishes); the turns
/// one more or one fewer empty away run none after the midgame search.
#[test]
fn the_turn_at_24_empties_warms_the_solvers_table() {
    use othello::search::alphabeta::{PASS_CUTS, SELECTIVE_EMPTIES, WARM_EMPTIES};
    for empties in [WARM_EMPTIES - 1, WARM_EMPTIES, WARM_EMPTIES + 1] {
        let board = random_positions(u64::from(empties) + 100, 8, 60 - empties)
            .into_iter()
            .find(|b| b.empty_count() == empties && b.moves().count() > 1)
            .expect("a position");
        let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
        let limits = Limits {
            deadline: othello::time::Deadline::from_now_ms(600_000),
            depth: None,
            nodes: Some(20_000),
        };
        let r = ab.choose(&board, board.moves(), &limits);
        let ran: Vec<Option<i32>> = ab.solver().passes().iter().map(|p| p.cut).collect();
        if empties <= SELECTIVE_EMPTIES {
            // The turn's own solve: its passes, then the proof, played.
            assert!(matches!(r.score, Score::Exact(_)), "{r:?}");
            assert_eq!(ran.last(), Some(&None), "{empties} empties");
        } else {
            assert!(matches!(r.score, Score::Selective(_)), "{r:?}");
            let expected: Vec<Option<i32>> = if empties == WARM_EMPTIES {
                PASS_CUTS.iter().map(|&c| Some(c)).collect()
            } else {
                Vec::new()
            };
            assert_eq!(ran, expected, "{empties} empties");
        }
    }
}
