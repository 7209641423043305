//! The committed openings files (`openings/`): the referee's own reader
//! (`openings::parse`) takes each whole, no file repeats a transcript, and
//! the endgame matches' positions leave the empties their comments name.

use othello::game::Game;
use referee::play::openings;
use std::collections::HashSet;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../openings")
}

/// The text of `openings/NAME` and its transcripts as the referee reads them.
fn read(name: &str) -> (String, Vec<String>) {
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    let list = openings::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    (text, list)
}

#[test]
fn every_openings_file_reads_without_a_repeat() {
    let mut files = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let (_, list) = read(&name);
        let distinct: HashSet<&String> = list.iter().collect();
        assert_eq!(distinct.len(), list.len(), "{name}: a transcript twice");
        files += 1;
    }
    assert!(files >= 4, "{files} files");
    let (_, balanced) = read("balanced-8.txt");
    assert_eq!(balanced.len(), 2000);
    assert!(balanced.iter().all(|t| t.len() == 16));
    let (_, short) = read("start-2-4.txt");
    assert!(short.iter().all(|t| (4..=8).contains(&t.len())));
}

/// The endgame matches' positions (docs/journal/endgame.md, "Endgame matches"):
/// each line's comment names its empties, which the transcript leaves, and
/// the judge's value there, within 6 discs of a draw; no position is in
/// both files.
#[test]
fn the_endgame_openings_leave_the_empties_they_say() {
    let mut all = HashSet::new();
    for (name, counts) in [
        ("strong-26-24.txt", [(26, 127), (24, 126)]),
        ("strong-25-23.txt", [(25, 114), (23, 120)]),
    ] {
        let (text, list) = read(name);
        let lines: Vec<(&str, &str)> = text
            .lines()
            .filter_map(|l| l.split_once('#'))
            .filter(|(t, _)| !t.trim().is_empty())
            .collect();
        let transcripts: Vec<&str> = lines.iter().map(|(t, _)| t.trim()).collect();
        assert_eq!(transcripts, list, "{name}: every position has its comment");
        let mut found = [0; 2];
        for (transcript, comment) in lines {
            let words: Vec<&str> = comment.split_whitespace().collect();
            let empties: u32 = words[0].parse().unwrap_or_else(|_| panic!("{comment}"));
            let value: f64 = words[3].parse().unwrap_or_else(|_| panic!("{comment}"));
            let game = Game::from_transcript(transcript).unwrap();
            assert_eq!(game.board().empty_count(), empties, "{transcript}");
            assert!((0.0..=6.0).contains(&value), "{comment}");
            let slot = counts.iter().position(|&(e, _)| e == empties);
            found[slot.unwrap_or_else(|| panic!("{name}: {empties} empties"))] += 1;
            assert!(
                all.insert(transcript.trim().to_string()),
                "{transcript}: in both files"
            );
        }
        assert_eq!(found, [counts[0].1, counts[1].1], "{name}");
    }
}
