//! The worth of each technique of the endgame solver: solves the positions
//! of an OBF file with all techniques, then with each one turned off, and
//! prints nodes and time of each (docs/endgame.md).
//!
//! `cargo run --release --example endgame_ablation -- FILE.obf [CAP_MS]`
//! A solve over CAP_MS (default 600000) is cut and marked `>`. Besides the
//! wall time it prints the process's CPU time (Linux `/proc/self/stat`,
//! 10 ms ticks), steadier than the wall time on a shared machine.

use othello::obf;
use othello::search::endgame::{Solver, Techniques, SOLVE_TABLE_BITS};
use othello::time::Deadline;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: endgame_ablation FILE.obf [CAP_MS]");
        std::process::exit(2)
    };
    let cap_ms: u64 = match args.get(1).map(|s| s.parse()) {
        None => 600_000,
        Some(Ok(ms)) => ms,
        Some(Err(_)) => {
            eprintln!(
                "endgame_ablation: CAP_MS must be a number, found {:?}",
                args[1]
            );
            std::process::exit(2)
        }
    };
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        eprintln!("endgame_ablation: {file}: {e}");
        std::process::exit(2)
    });
    let mut boards = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match obf::parse_line(line) {
            Ok(Some(p)) => boards.push(p.board),
            Ok(None) => {}
            Err(e) => {
                eprintln!("endgame_ablation: {file}: line {}: {e}", i + 1);
                std::process::exit(2)
            }
        }
    }
    let all = Techniques::default();
    let variants = [
        ("all techniques", all),
        (
            "no negascout",
            Techniques {
                negascout: false,
                ..all
            },
        ),
        (
            "no fastest-first",
            Techniques {
                fastest_first: false,
                ..all
            },
        ),
        (
            "no parity",
            Techniques {
                parity: false,
                ..all
            },
        ),
        (
            "no last-n code",
            Techniques {
                shallow: false,
                ..all
            },
        ),
        (
            "no table",
            Techniques {
                table: false,
                ..all
            },
        ),
        (
            "no stability",
            Techniques {
                stability: false,
                ..all
            },
        ),
        (
            "no evaluation in the ordering",
            Techniques {
                eval_order: false,
                ..all
            },
        ),
        (
            "no selective passes",
            Techniques {
                iterative: false,
                ..all
            },
        ),
    ];
    let mut solver = Solver::with_table_bits(Deadline::unlimited(), SOLVE_TABLE_BITS);
    for (name, techniques) in variants {
        solver.set_techniques(techniques);
        let (mut nodes, mut ms, mut cut) = (0u64, 0.0, 0);
        let cpu0 = cpu_seconds();
        for board in &boards {
            solver.clear();
            solver.set_deadline(Deadline::from_now_ms(cap_ms));
            let t0 = Instant::now();
            if solver.solve_board(board, false).is_none() {
                cut += 1;
            }
            nodes += solver.nodes();
            ms += t0.elapsed().as_secs_f64() * 1e3;
        }
        let cpu = cpu_seconds() - cpu0;
        let mark = if cut > 0 { ">" } else { "" };
        println!(
            "{name:18} nodes {mark}{nodes:12} time {mark}{ms:10.1} ms  cpu {mark}{cpu:8.2} s  cut {cut}"
        );
    }
}

/// User + system CPU time of this process in seconds (0 where
/// `/proc/self/stat` cannot be read).
fn cpu_seconds() -> f64 {
    /// Clock ticks per second of `/proc` times on Linux.
    const TICKS_PER_SECOND: f64 = 100.0;
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which ends with ')'): utime and stime
    // are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<f64> = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse().ok())
        .collect();
    fields.iter().sum::<f64>() / TICKS_PER_SECOND
}
