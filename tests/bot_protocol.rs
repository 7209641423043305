//! The bot binary on CodinGame's protocol: good input, CRLF and stray spaces,
//! action order, board/list disagreement, and each malformed input.

use crate::common;

use std::path::Path;
use std::process::Output;

const START_ROWS: &str =
    "........\n........\n........\n...10...\n...01...\n........\n........\n........\n";

fn run(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    common::run_with_input(Path::new(env!("CARGO_BIN_EXE_othello")), args, input)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Black's input for two turns: the start, then the board after d3 (black)
/// c3 (white) with its legal moves; and those moves.
fn two_turns() -> (String, Vec<String>) {
    let turn2 = "........\n........\n..13....\n...00...\n...01...\n........\n........\n........\n"
        .replace('3', ".");
    let board = othello::Game::from_transcript("d3c3").unwrap();
    let actions: Vec<String> = board
        .board()
        .moves()
        .squares()
        .map(|s| s.to_string())
        .collect();
    let input = format!(
        "0\n8\n{START_ROWS}4\nd3\nc4\nf5\ne6\n{turn2}{}\n{}\n",
        actions.len(),
        actions.join("\n")
    );
    (input, actions)
}

/// The move of each answer line, checked to have the `move MSG text` form.
fn moves_of(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .map(|line| {
            let (mv, msg) = line.split_once(" MSG ").expect("answer has MSG");
            assert!(msg.chars().count() <= 12, "MSG too long: {msg:?}");
            mv.to_string()
        })
        .collect()
}

#[test]
fn plays_a_listed_move_and_exits_quietly_at_eof() {
    let input = format!("0\n8\n{START_ROWS}4\nd3\nc4\nf5\ne6\n");
    let o = run(&["--depth", "3"], &input);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let mv = moves_of(&o);
    assert_eq!(mv.len(), 1);
    assert!(["d3", "c4", "f5", "e6"].contains(&mv[0].as_str()));
    assert_eq!(stderr(&o), "");
}

/// From the start position the bot plays the book's move at once and says
/// so; `--no-book` and a fixed depth search instead.
#[test]
fn the_opening_book_answers_the_start_position() {
    let input = format!("0\n8\n{START_ROWS}4\nd3\nc4\nf5\ne6\n");
    let book = othello::book::Book::compiled().expect("the compiled book decodes");
    let expected = book
        .lookup(&othello::Board::start())
        .expect("the start is in the book");
    let o = run(&[], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = stdout(&o);
    assert_eq!(
        line.trim_end(),
        format!("{} MSG book {:+}", expected.best, expected.score)
    );
    for args in [&["--no-book"][..], &["--depth", "4"]] {
        let o = run(args, &input);
        assert!(!stdout(&o).contains("book"), "{args:?}: {}", stdout(&o));
    }
    // With a margin the choice varies with the seed, among book moves.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let o = run(
            &["--book-margin", "64", "--seed", &seed.to_string()],
            &input,
        );
        let line = stdout(&o);
        assert!(line.contains(" MSG book "), "{line}");
        seen.insert(line.split(' ').next().unwrap_or_default().to_string());
    }
    assert!(seen
        .iter()
        .all(|m| ["d3", "c4", "f5", "e6"].contains(&m.as_str())));
}

/// `--depth N` alone is searched to depth N, however long it takes: the MSG
/// reports that depth (a selective search's `s<N>`), past the 100 ms
/// default; `--time-ms` with it bounds it again.
#[test]
fn a_fixed_depth_is_searched_in_full() {
    // Second turn: only the first turn had 1000 ms.
    let (input, _) = two_turns();
    let o = run(&["--depth", "14"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let last = stdout(&o).lines().last().unwrap_or_default().to_string();
    assert!(last.contains(" MSG s14 "), "{last}");
    let o = run(&["--depth", "14", "--time-ms", "1"], &input);
    let last = stdout(&o).lines().last().unwrap_or_default().to_string();
    assert!(!last.contains(" MSG s14 "), "{last}");
}

#[test]
fn accepts_crlf_and_stray_spaces() {
    let input = format!("0\n8\n{START_ROWS}4\nd3\nc4\nf5\ne6\n")
        .lines()
        .map(|l| format!("  {l} \r\n"))
        .collect::<String>();
    let o = run(&["--depth", "2"], &input);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(moves_of(&o).len(), 1);
}

#[test]
fn does_not_depend_on_the_order_of_the_actions() {
    // White to move after f5: its legal moves listed in two orders.
    let game = othello::Game::from_transcript("f5").unwrap();
    let b = game.board();
    let rows = othello::protocol::format_turn(b.opponent, b.player, None, b.moves().0);
    let (board_rows, rest) = rows.split_at(72);
    let mut actions: Vec<&str> = rest.lines().skip(1).collect();
    assert_eq!(actions.len(), 3);
    let forward = format!("1\n8\n{board_rows}3\n{}\n", actions.join("\n"));
    actions.reverse();
    let backward = format!("1\n8\n{board_rows}3\n{}\n", actions.join("\n"));
    let a = run(&["--depth", "4"], &forward);
    let b = run(&["--depth", "4"], &backward);
    assert_eq!(stderr(&a), "", "the board agrees with the list");
    assert_eq!(moves_of(&a), moves_of(&b));
}

#[test]
fn a_board_that_disagrees_with_the_list_still_plays_a_listed_move() {
    // Listed: only h8, which is not legal on the board.
    let o = run(&[], format!("0\n8\n{START_ROWS}1\nh8\n"));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(moves_of(&o), ["h8"]);
    assert_eq!(
        stderr(&o).lines().count(),
        1,
        "one warning line: {}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("warning"));
    // Listed: d3 and h8; only d3 is legal, so d3 is played.
    let o = run(&[], format!("0\n8\n{START_ROWS}2\nh8\nd3\n"));
    assert_eq!(moves_of(&o), ["d3"]);
}

#[test]
fn several_turns_in_one_game() {
    let (input, actions) = two_turns();
    let o = run(&["--depth", "2"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mv = moves_of(&o);
    assert_eq!(mv.len(), 2);
    assert!(actions.contains(&mv[1]));
}

#[test]
fn empty_input_exits_zero_silently() {
    let o = run(&[], "");
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "");
}

/// Each malformed input: exit status 2 and one stderr line naming the line.
#[test]
fn malformed_inputs_name_the_line_and_exit_2() {
    let cases: Vec<(String, &str)> = vec![
        ("x\n8\n".into(), "line 1"),
        ("0\nnine\n".into(), "line 2"),
        ("2\n8\n".into(), "line 1"),
        (
            format!("0\n8\n{}", START_ROWS.replacen("........", ".......", 1)),
            "line 3",
        ),
        (
            format!("0\n8\n{}", START_ROWS.replace("...10...", "...1x..."),),
            "line 6",
        ),
        (format!("0\n8\n{START_ROWS}four\n"), "line 11"),
        (format!("0\n8\n{START_ROWS}4\nd3\nc4\n"), "line 14"),
        (format!("0\n8\n{START_ROWS}1\nz9\n"), "line 12"),
        ("0\n8\n........\n........\n".into(), "line 5"),
    ];
    for (input, line) in cases {
        assert_malformed(input.as_bytes(), line);
    }
}

/// The bot fed `input` exits 2 with one short stderr line containing `what`.
fn assert_malformed(input: &[u8], what: &str) {
    let o = run(&[], input);
    let err = stderr(&o);
    let shown = String::from_utf8_lossy(&input[..input.len().min(80)]);
    assert_eq!(o.status.code(), Some(2), "input {shown:?}: {err}");
    assert_eq!(err.lines().count(), 1, "one line for {shown:?}: {err}");
    assert!(err.contains(what), "{shown:?} should name {what}: {err}");
    assert!(err.len() < 200, "{shown:?}: a long error: {err}");
}

/// Input that is not text, or a line without end: exit 2 and one short
/// line on stderr, not the end of input nor a growing buffer.
#[test]
fn bytes_that_are_not_text_and_endless_lines_exit_2() {
    let mut endless = b"0\n8\n".to_vec();
    endless.extend(std::iter::repeat_n(b'.', 10 << 20));
    let mut rng = othello::rng::Rng::seed_from_u64(12345);
    let noise: Vec<u8> = (0..1 << 17)
        .flat_map(|_| rng.next_u64().to_le_bytes())
        .collect();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"0\n8\n\xff\n".to_vec(), "line 3: not UTF-8"),
        (
            [b"0\n8\n", START_ROWS.as_bytes(), b"1\nd\xc3\n"].concat(),
            "line 12: not UTF-8",
        ),
        (noise, "not UTF-8"),
        (endless, "line 3: longer than 4096 bytes"),
    ];
    for (input, what) in cases {
        assert_malformed(&input, what);
    }
}

#[test]
fn bad_arguments_print_usage_and_exit_2() {
    for args in [
        &["--bogus"][..],
        &["--depth", "x"],
        &["--strategy", "nope"],
        &["perft"],
        &["solve", "--wld", "f.obf"],
        &["transition", "--cold", "b.txt"],
    ] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains("usage"), "{args:?}");
    }
    // The bot's and each tool's --help: the usage on stdout, status 0.
    for args in [&["--help"][..], &["transition", "--help"], &["bench", "-h"]] {
        let o = run(args, "");
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(stdout(&o).contains("--strategy"), "{args:?}");
        assert!(stdout(&o).contains("othello transition FILE"), "{args:?}");
    }
}

#[test]
fn perft_prints_the_count_first() {
    let o = run(&["perft", "6"], "");
    assert_eq!(stdout(&o).lines().next(), Some("8200"));
}
