//! Deliberately faulty bots: each fault loses the game for the right
//! player with the right reason, the match completes, and no process is
//! left behind.

use crate::common::{arg, bot, games, json, play, scratch};
use serde_json::Value;

/// Plays 2 games of `faulty` (p1) against a correct bot; returns the
/// summary and the game records.
fn match_against_first(test: &str, faulty: &str) -> (Value, Vec<Value>) {
    let dir = scratch(test);
    let summary = dir.join("summary.json");
    let games_out = dir.join("games.jsonl");
    play(
        faulty,
        &bot("first.sh"),
        &[
            "--games",
            "2",
            "--first-turn-ms",
            "1000",
            "--json",
            arg(&summary),
            "--games-out",
            arg(&games_out),
        ],
        0,
    );
    (json(&summary), games(&games_out))
}

/// Checks that p1 lost both games by `kind`, counted under `counter`.
fn assert_p1_lost_by(summary: &Value, records: &[Value], kind: &str, counter: &str) {
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["p1"]["losses"], 2, "{summary:#}");
    assert_eq!(summary["p1"][counter], 2, "{summary:#}");
    assert_eq!(summary["p2"]["wins"], 2);
    for key in ["timeouts", "crashes", "illegal", "no_output"] {
        assert_eq!(summary["p2"][key], 0, "p2 {key}");
    }
    assert_eq!(records.len(), 2);
    for r in records {
        assert_eq!(r["fault"]["by"], "p1", "{r}");
        assert_eq!(r["fault"]["kind"], kind, "{r}");
        assert_eq!(r["winner"], "p2");
    }
}

#[test]
fn a_crash_loses_with_its_exit_status_and_stderr() {
    let (s, r) = match_against_first("crash", &bot("crash.sh"));
    assert_p1_lost_by(&s, &r, "crash", "crashes");
    let fault = &r[0]["fault"];
    assert!(fault["detail"].as_str().unwrap().contains("exit status 3"));
    assert!(fault["stderr_tail"]
        .as_str()
        .unwrap()
        .contains("index out of bounds"));
}

#[test]
fn a_hang_loses_on_time_and_the_bot_and_its_child_are_killed() {
    let dir = scratch("hang-pids");
    let pids = dir.join("pids");
    let command = format!("{} {}", bot("hang.sh"), pids.display());
    let (s, r) = match_against_first("hang", &command);
    assert_p1_lost_by(&s, &r, "timeout", "timeouts");
    assert!(r[0]["fault"]["detail"]
        .as_str()
        .unwrap()
        .contains("no answer within 1000 ms"));
    assert_none_running(&pids, "two games, a shell and a child each");
}

/// Checks that the file `pids` lists 4 processes (`what` says which) and
/// that none of them still runs.
fn assert_none_running(pids: &std::path::Path, what: &str) {
    let text = std::fs::read_to_string(pids).expect("the bot wrote its pids");
    let pids: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(pids.len(), 4, "{what}");
    for pid in pids {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // Gone, or a zombie waiting for its reaper: either way not running.
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        assert!(
            stat.is_empty() || state.starts_with('Z'),
            "process {pid} survived: {stat}"
        );
    }
}

#[test]
fn processes_that_leave_the_bot_group_do_not_survive_the_match() {
    let dir = scratch("escape-pids");
    let pids = dir.join("pids");
    let command = format!("{} {}", bot("escape.sh"), pids.display());
    let (s, _) = match_against_first("escape", &command);
    assert_eq!(s["games"], 2);
    assert_none_running(&pids, "two games, two escaped processes each");
}

#[test]
fn garbage_is_unreadable_and_counts_as_illegal() {
    let (s, r) = match_against_first("garbage", &bot("garbage.sh"));
    assert_p1_lost_by(&s, &r, "unreadable", "illegal");
    assert_eq!(s["p1"]["unreadable"], 2);
    assert!(r[0]["fault"]["detail"]
        .as_str()
        .unwrap()
        .contains("hello world"));
}

#[test]
fn an_illegal_move_loses() {
    let (s, r) = match_against_first("illegal", &bot("illegal.sh"));
    assert_p1_lost_by(&s, &r, "illegal", "illegal");
    assert_eq!(s["p1"]["unreadable"], 0);
    assert!(r[0]["fault"]["detail"]
        .as_str()
        .unwrap()
        .starts_with("a1 is not legal here (legal: "));
}

#[test]
fn a_slow_answer_loses_with_its_overrun() {
    let (s, r) = match_against_first("slow", &bot("slow.sh"));
    assert_p1_lost_by(&s, &r, "timeout", "timeouts");
    for g in &r {
        // The bot sleeps 300 ms against a 150 ms limit: about 150 ms late.
        let overrun = g["fault"]["overrun_ms"].as_f64().expect("overrun measured");
        assert!((100.0..500.0).contains(&overrun), "overrun {overrun}");
        // The late answer is quoted, MSG and all.
        let detail = g["fault"]["detail"].as_str().unwrap();
        assert!(
            detail.contains("ms after the 150 ms limit (the answer was \"")
                && detail.ends_with(" MSG slept 300ms\")"),
            "{detail}"
        );
        // It answered its first turn in time: exactly one move per game.
        let moves = g["moves"].as_array().unwrap();
        assert_eq!(moves.iter().filter(|m| m["by"] == "p1").count(), 1);
    }
}

#[test]
fn exiting_without_output_is_its_own_fault() {
    let (s, r) = match_against_first("silent", &bot("silent.sh"));
    assert_p1_lost_by(&s, &r, "no_output", "no_output");
    assert_eq!(s["p1"]["crashes"], 0);
}

#[test]
fn a_stderr_flood_is_capped_and_a_lingering_bot_is_killed() {
    let dir = scratch("flood");
    let games_out = dir.join("games.jsonl");
    let stderr_dir = dir.join("stderr");
    let out = play(
        &bot("flood.sh"),
        &bot("linger.sh"),
        &[
            "--games",
            "2",
            "--games-out",
            arg(&games_out),
            "--stderr-dir",
            arg(&stderr_dir),
        ],
        0,
    );
    // The bots' stderr never reaches the referee's output.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("xxxx"));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("xxxx"));
    for g in games(&games_out) {
        assert!(g["fault"].is_null(), "{g}");
        assert_eq!(g["killed_after_end"], serde_json::json!(["p2"]), "{g}");
    }
    let log = std::fs::read_to_string(stderr_dir.join("game-0001-p1.stderr")).unwrap();
    assert!(log.len() as u64 <= (1 << 20) + 100, "{}", log.len());
    assert!(log.ends_with("stderr cut at 1048576 bytes]\n"));
}

#[test]
fn expert_mode_sends_the_opponent_moves_line() {
    let dir = scratch("expert");
    let games_out = dir.join("games.jsonl");
    let expert = format!("{} expert", bot("first.sh"));
    play(
        &expert,
        &expert,
        &["--games", "2", "--games-out", arg(&games_out)],
        0,
    );
    // The bot exits with status 4 (a crash) if the line is missing or
    // malformed, so a full game without a fault proves it arrived.
    for g in games(&games_out) {
        assert!(g["fault"].is_null(), "{g}");
        assert!(g["moves"].as_array().unwrap().len() > 50);
    }
}

#[test]
fn a_bot_over_the_memory_limit_loses_and_one_under_it_plays_on() {
    let dir = scratch("memory");
    let summary = dir.join("summary.json");
    let games_out = dir.join("games.jsonl");
    let hog = format!("{} 64", bot("memory.sh"));
    let base = [
        "--games",
        "2",
        "--first-turn-ms",
        "2000",
        "--json",
        arg(&summary),
        "--games-out",
        arg(&games_out),
    ];
    play(
        &hog,
        &bot("first.sh"),
        &[&base[..], &["--memory-mb", "32"]].concat(),
        0,
    );
    let (s, r) = (json(&summary), games(&games_out));
    assert_p1_lost_by(&s, &r, "memory", "memory");
    let detail = r[0]["fault"]["detail"].as_str().unwrap();
    assert!(detail.contains("over the 32 MB limit"), "{detail}");
    // The default limit (768 MB) lets it play whole games.
    play(&hog, &bot("first.sh"), &base, 0);
    let s = json(&summary);
    assert_eq!(s["p1"]["memory"], 0, "{s:#}");
    assert_eq!(s["p1"]["crashes"], 0, "{s:#}");
}
