//! The HTML report (`--html`, `referee report`) of a small real match, in
//! a real browser: headless Chromium driven through the DevTools protocol
//! by the headless_chrome crate.
//!
//! Chromium comes from the system (`apt-get install chromium`; `$CHROMIUM`
//! names another binary). Where it is missing the browser test says so and
//! stops, unless `REFEREE_BROWSER=required` (CI sets it and installs
//! Chromium): then its absence is a failure.

use crate::common::{json, othello, run, scratch};
use crate::system;
use headless_chrome::Tab;
use othello::{Color, Game};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A 6-game match of two fixed-depth bots (reproducible), with its games
/// file, JSON summary and HTML report.
fn small_match(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let bot = othello();
    let (games, summary, html) = (
        dir.join("games.jsonl"),
        dir.join("summary.json"),
        dir.join("report.html"),
    );
    let p1 = format!("{} --depth 3", bot.display());
    let p2 = format!("{} --depth 2", bot.display());
    run(
        &[
            "--p1",
            &p1,
            "--p2",
            &p2,
            "--games",
            "6",
            "--seed",
            "11",
            "--random-openings",
            "4",
            "--games-out",
            games.to_str().unwrap(),
            "--json",
            summary.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ],
        0,
    );
    (games, summary, html)
}

fn eval(tab: &Arc<Tab>, script: &str) -> Value {
    tab.evaluate(script, false)
        .unwrap_or_else(|e| panic!("{script}: {e}"))
        .value
        .unwrap_or(Value::Null)
}

/// The `data-value` of a summary cell, parsed.
fn cell_value(tab: &Arc<Tab>, id: &str) -> Value {
    let text = eval(
        tab,
        &format!("document.getElementById('{id}').dataset.value"),
    );
    serde_json::from_str(
        text.as_str()
            .unwrap_or_else(|| panic!("#{id} has no value")),
    )
    .unwrap_or_else(|e| panic!("#{id}: {e}"))
}

/// Whether two JSON values are equal, numbers compared as numbers (the
/// page's `1` is the summary's `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        _ => a == b,
    }
}

/// The summary cell `id` shows `expected`.
fn assert_cell(tab: &Arc<Tab>, id: &str, expected: Value) {
    let shown = cell_value(tab, id);
    assert!(
        same(&shown, &expected),
        "#{id}: page {shown}, summary {expected}"
    );
}

/// The board as the page shows it: 64 characters a1..h8, `b`, `w` or `.`.
fn shown_board(tab: &Arc<Tab>) -> String {
    let text = eval(
        tab,
        "Array.from({length: 64}, (_, i) => { \
           const sq = String.fromCharCode(97 + i % 8) + String(1 + Math.floor(i / 8)); \
           return document.querySelector(`#board .cell[data-sq='${sq}']`).dataset.disc || '.'; \
         }).join('')",
    );
    text.as_str().expect("a string").to_string()
}

/// The library's board after `transcript`, in the page's notation.
fn library_board(transcript: &str) -> (String, u32) {
    let game = Game::from_transcript(transcript).expect("a legal transcript");
    let board = game.board();
    let (black, white) = match game.to_move() {
        Color::Black => (board.player, board.opponent),
        Color::White => (board.opponent, board.player),
    };
    let cells = (0..64)
        .map(|i| {
            let bit = 1u64 << i;
            if black & bit != 0 {
                'b'
            } else if white & bit != 0 {
                'w'
            } else {
                '.'
            }
        })
        .collect();
    (cells, board.moves().count())
}

#[test]
fn report_and_html_flag_write_the_same_page_and_name_bad_lines() {
    let dir = scratch("report-cli");
    let (games, _, html) = small_match(&dir);
    let again = dir.join("again.html");
    run(
        &[
            "report",
            games.to_str().unwrap(),
            "-o",
            again.to_str().unwrap(),
        ],
        0,
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page, std::fs::read_to_string(&again).unwrap());
    assert!(page.len() < 200_000, "{} bytes for 6 games", page.len());
    assert!(!page.contains("http://") && !page.contains("https://cdn"));

    // A torn record in the middle, a foreign file: errors naming the line.
    let text = std::fs::read_to_string(&games).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = &lines[3][..lines[3].len() / 2];
    let torn = dir.join("torn.jsonl");
    std::fs::write(&torn, lines.join("\n") + "\n").unwrap();
    let out = run(&["report", torn.to_str().unwrap(), "-o", "/dev/null"], 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("torn.jsonl:4:"), "{err}");
    let foreign = dir.join("foreign.jsonl");
    std::fs::write(&foreign, "{\"hello\": 1}\n").unwrap();
    let out = run(&["report", foreign.to_str().unwrap(), "-o", "/dev/null"], 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("foreign.jsonl:1:"));

    // The same games in two files: refused, both places named.
    let out = run(
        &[
            "report",
            games.to_str().unwrap(),
            games.to_str().unwrap(),
            "-o",
            "/dev/null",
        ],
        2,
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is also in"), "{err}");

    // A partial match says so: drop games 3 and 6 (the games file is in
    // the order games finished).
    let partial = dir.join("partial.jsonl");
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !l.contains("\"game\":3,") && !l.contains("\"game\":6,"))
        .collect();
    std::fs::write(&partial, kept.join("\n") + "\n").unwrap();
    let page_out = dir.join("partial.html");
    run(
        &[
            "report",
            partial.to_str().unwrap(),
            "-o",
            page_out.to_str().unwrap(),
        ],
        0,
    );
    let page = std::fs::read_to_string(&page_out).unwrap();
    assert!(page.contains(
        "\"partial\":{\"played\":4,\"planned\":6,\"missing\":[3,6],\"missing_shards\":[]}"
    ));
}

#[test]
fn the_report_replays_a_real_match_in_a_browser() {
    let Some(chromium) = system::chromium() else {
        let required = std::env::var("REFEREE_BROWSER").is_ok_and(|v| v == "required");
        assert!(
            !required,
            "REFEREE_BROWSER=required but no Chromium: apt-get install chromium, or set $CHROMIUM"
        );
        eprintln!(
            "no Chromium found (apt-get install chromium, or set $CHROMIUM): browser test not run"
        );
        return;
    };
    let dir = scratch("report-browser");
    let (games, summary, html) = small_match(&dir);
    let expected = json(&summary);

    let browser = system::launch(chromium).expect("Chromium starts");
    let tab = browser.new_tab().expect("a tab");
    let url = format!("file://{}", html.display());
    tab.navigate_to(&url).expect("the page opens");
    tab.wait_for_element("body[data-ready='1']")
        .expect("the page's script finishes");

    // The summary shows the JSON summary's numbers.
    let p1 = &expected["p1"];
    assert_cell(&tab, "sum-games", expected["games"].clone());
    assert_cell(
        &tab,
        "sum-wld",
        serde_json::json!([p1["wins"], p1["losses"], p1["draws"]]),
    );
    assert_cell(
        &tab,
        "sum-elo",
        serde_json::json!([expected["elo"], expected["elo_error"]]),
    );
    assert_cell(&tab, "sum-los", expected["los"].clone());
    assert_cell(&tab, "sum-penta", expected["pentanomial"].clone());
    assert_cell(&tab, "sum-draws", expected["draw_ratio"].clone());

    // Open game 2 from the list, step k moves with the arrow key: the board
    // is the library's after those k moves, legal moves marked.
    let record: Value = std::fs::read_to_string(&games)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["game"] == 2)
        .expect("game 2 is recorded");
    let transcript: String = record["opening"].as_str().unwrap().to_string()
        + &record["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["square"].as_str().unwrap())
            .collect::<String>();
    let plies = transcript.len() / 2;
    tab.wait_for_element("#game-list tr[data-game='2']")
        .expect("game 2 is listed")
        .click()
        .expect("game 2 opens");
    for k in 0..=plies.min(24) {
        let (board, legal) = library_board(&transcript[..2 * k]);
        assert_eq!(shown_board(&tab), board, "after {k} moves");
        let label = eval(&tab, "document.getElementById('ply-label').textContent");
        assert_eq!(
            label.as_str(),
            Some(format!("move {k} of {plies}").as_str())
        );
        let marked = eval(
            &tab,
            "document.querySelectorAll('#board .cell[data-legal=\"1\"]').length",
        );
        assert_eq!(
            marked.as_u64(),
            Some(u64::from(legal)),
            "legal moves after {k}"
        );
        tab.press_key("ArrowRight").expect("a key press");
    }
    // End, then the last position is the game's end.
    tab.press_key("End").expect("a key press");
    let (board, _) = library_board(&transcript);
    assert_eq!(shown_board(&tab), board, "at the end");
    let shown_transcript = eval(&tab, "document.getElementById('transcript').value");
    assert_eq!(shown_transcript.as_str(), Some(transcript.as_str()));
}

#[test]
fn the_report_shows_the_judges_analysis_in_a_browser() {
    let Some(chromium) = system::chromium() else {
        let required = std::env::var("REFEREE_BROWSER").is_ok_and(|v| v == "required");
        assert!(!required, "REFEREE_BROWSER=required but no Chromium");
        eprintln!("no Chromium found: browser test not run");
        return;
    };
    let dir = scratch("report-analysis-browser");
    let (games, _, _) = small_match(&dir);
    let analysis = dir.join("analysis.jsonl");
    let html = dir.join("analysed.html");
    let (g, a, h) = (
        games.to_str().unwrap(),
        analysis.to_str().unwrap(),
        html.to_str().unwrap(),
    );
    run(&["analyze", g, "-o", a, "--depth", "3", "--exact", "10"], 0);
    run(&["report", g, "--analysis", a, "-o", h], 0);
    // What the analysis says: game 2's losses, p1's moves 21-40.
    let lines: Vec<Value> = std::fs::read_to_string(&analysis)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let game2 = lines
        .iter()
        .find(|l| l["game"] == 2)
        .expect("game 2 judged");
    let losses: Vec<f64> = game2["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["loss"].as_f64().unwrap())
        .collect();
    let mistakes = losses.iter().filter(|&&l| l >= 2.0).count();

    let browser = system::launch(chromium).expect("Chromium starts");
    let tab = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("file://{}", html.display()))
        .expect("the page opens");
    tab.wait_for_element("body[data-ready='1']")
        .expect("the page's script finishes");
    assert_eq!(
        eval(&tab, "document.getElementById('analysis').hidden"),
        false
    );
    // A cell of the analysis's tables against p1's moves whose number
    // `pick` takes: their mean loss, mistakes, count and results given
    // away (an exact verdict whose played value has a worse sign than the
    // best move's).
    let sign = |v: &Value| {
        let v = v.as_f64().unwrap();
        i32::from(v > 0.0) - i32::from(v < 0.0)
    };
    let shows = |id: &str, pick: &dyn Fn(u64) -> bool| {
        let (mut moves, mut loss, mut marked, mut given) = (0u64, 0.0, 0u64, 0u64);
        for m in lines.iter().flat_map(|l| l["moves"].as_array().unwrap()) {
            if m["by"] == "p1" && pick(m["n"].as_u64().unwrap()) {
                moves += 1;
                loss += m["loss"].as_f64().unwrap();
                marked += u64::from(m["loss"].as_f64().unwrap() >= 2.0);
                given +=
                    u64::from(m["exact"] == true && sign(&m["played_value"]) < sign(&m["value"]));
            }
        }
        let shown = cell_value(&tab, id);
        assert!(
            (shown[0].as_f64().unwrap() - loss / moves as f64).abs() < 1e-9,
            "{id}: {shown}"
        );
        assert_eq!(
            (shown[1].as_u64(), shown[2].as_u64(), shown[3].as_u64()),
            (Some(marked), Some(moves), Some(given)),
            "{id}"
        );
        given
    };
    shows("loss-p1-1", &|n| (21..=40).contains(&n));
    // By empties before the move (61 - n): the second table's 40-27.
    shows("loss-e-p1-1", &|n| (27..=40).contains(&(61 - n)));
    // Where the judge is exact (10 empties down): moves 41-60, and 20-1.
    let late = shows("loss-p1-2", &|n| (41..=60).contains(&n));
    shows("loss-e-p1-4", &|n| (1..=20).contains(&(61 - n)));
    // The row's sum ("all") adds the phases' counts.
    let all = shows("loss-p1-all", &|_| true);
    // The match gives some results away where the judge is exact, so a
    // page that showed none would fail above.
    assert!(late > 0 && all >= late, "{late} {all}");
    assert_eq!(
        eval(
            &tab,
            "[...document.querySelectorAll('#analysis-empties-table th')].map(e => e.textContent).slice(0, 6).join('|')"
        ),
        "mean loss per move|empties 60-41|empties 40-27|empties 26-23|empties 22-21|empties 20-1"
    );
    tab.wait_for_element("#game-list tr[data-game='2']")
        .expect("game 2 is listed")
        .click()
        .expect("game 2 opens");
    let count = |selector: &str| {
        eval(
            &tab,
            &format!("document.querySelectorAll('{selector}').length"),
        )
        .as_u64()
        .unwrap() as usize
    };
    assert_eq!(count("#chart-judge svg"), 1);
    assert_eq!(count("#chart-judge circle.mistake"), mistakes);
    assert_eq!(count("#moves td.mistake"), mistakes);
    // One loss cell per judged move, in order.
    let cells = eval(
        &tab,
        "JSON.stringify([...document.querySelectorAll('#moves tr[data-ply]')].map(r => r.children[5]).filter(c => c && c.textContent !== '').map(c => Number(c.textContent)))",
    );
    let rounded: Vec<f64> = losses.iter().map(|l| (l * 10.0).round() / 10.0).collect();
    let cells: Value = serde_json::from_str(cells.as_str().expect("a JSON text")).unwrap();
    assert!(
        same(&cells, &serde_json::json!(rounded)),
        "{cells} {rounded:?}"
    );
}

#[test]
fn the_report_shows_the_standings_in_a_browser() {
    let Some(chromium) = system::chromium() else {
        let required = std::env::var("REFEREE_BROWSER").is_ok_and(|v| v == "required");
        assert!(!required, "REFEREE_BROWSER=required but no Chromium");
        eprintln!("no Chromium found: browser test not run");
        return;
    };
    let dir = scratch("report-standing-browser");
    let games = dir.join("games.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/standing-games.jsonl"),
        &games,
    )
    .unwrap();
    let (standing, summary, html) = (
        dir.join("s.jsonl"),
        dir.join("s.json"),
        dir.join("page.html"),
    );
    let g = games.to_str().unwrap();
    let s = standing.to_str().unwrap();
    run(
        &[
            "standing",
            g,
            "--empties",
            "20,12",
            "-o",
            s,
            "--json",
            summary.to_str().unwrap(),
        ],
        0,
    );
    run(
        &["report", g, "--standing", s, "-o", html.to_str().unwrap()],
        0,
    );
    let expected = json(&summary);

    let browser = system::launch(chromium).expect("Chromium starts");
    let tab = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("file://{}", html.display()))
        .expect("the page opens");
    tab.wait_for_element("body[data-ready='1']")
        .expect("the page's script finishes");
    assert_eq!(
        eval(&tab, "document.getElementById('standing').hidden"),
        false
    );
    // Each table's cells: p1's rows are the JSON's table; p2's the same
    // games from its side (rows and columns mirrored).
    let cells = |id: &str| {
        let text = eval(
            &tab,
            &format!(
                "JSON.stringify([...document.querySelectorAll('#{id} tr')].slice(1).map(r => \
                 [...r.querySelectorAll('td')].slice(1).map(c => Number(c.textContent))))"
            ),
        );
        serde_json::from_str::<Value>(text.as_str().expect("a string")).expect("JSON")
    };
    for (k, e) in [20, 12].iter().enumerate() {
        let table = &expected["stages"][k]["table"];
        let shown = cells(&format!("standing-{e}-p1"));
        assert!(same(&shown, table), "at {e}: {shown} {table}");
        let t: Vec<Vec<u64>> = serde_json::from_value(table.clone()).unwrap();
        let mirrored: Vec<Vec<u64>> = t
            .iter()
            .rev()
            .map(|r| r.iter().rev().copied().collect())
            .collect();
        assert!(
            same(
                &cells(&format!("standing-{e}-p2")),
                &serde_json::json!(mirrored)
            ),
            "at {e}"
        );
    }
    assert_eq!(
        eval(
            &tab,
            "document.querySelectorAll('#chart-standing canvas').length"
        ),
        1,
        "the chart of the score by stage"
    );
    // Game 4 ended at 39 empties; game 1's scores are the JSON's.
    let row = |n: u64| {
        eval(
            &tab,
            &format!(
                "[...document.querySelectorAll('#game-list tr[data-game=\"{n}\"] td')].slice(-2).map(c => c.textContent).join('|')"
            ),
        )
    };
    assert_eq!(row(4), "ended before|ended before");
    let scores = &expected["per_game"][0]["scores"];
    let signed = |v: &Value| {
        let v = v.as_i64().unwrap();
        if v > 0 {
            format!("+{v}")
        } else {
            v.to_string()
        }
    };
    assert_eq!(
        row(1),
        format!("{}|{}", signed(&scores[0]), signed(&scores[1]))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
