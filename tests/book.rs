//! The compiled opening book: it decodes, every book move is legal, lookups
//! agree under the 8 symmetries, the packed form round-trips byte for byte,
//! corrupt data is refused (never a panic), and book values agree with a
//! fresh search within that search's own noise.

use othello::book::code::{encode, unpack};
use othello::book::{canonical, data, follow, Book};
use othello::eval::{EvalKind, Evaluator, SCALE};
use othello::rng::Rng;
use othello::search::alphabeta::AlphaBeta;
use othello::search::{Limits, Score, Strategy};
use othello::Board;

fn book() -> Book {
    Book::compiled().expect("the compiled book decodes")
}

#[test]
fn the_compiled_book_decodes_to_its_stated_size_and_starts_at_the_start() {
    let book = book();
    assert_eq!(book.len(), data::POSITIONS);
    assert_eq!(book.checksum(), data::CHECKSUM, "the data decodes to other positions: new evaluation weights? run `cargo run --release -p train -- book-write`");
    assert!(book.lookup(&Board::start()).is_some());
}

#[test]
fn every_book_move_is_legal() {
    for (&(p, o), e) in book().positions() {
        let b = Board::new(p, o);
        assert!(!b.moves().is_empty(), "a book position with no move\n{b}");
        assert!(
            b.moves().0 >> e.best & 1 == 1,
            "book move {} illegal in\n{b}",
            e.best
        );
        assert_eq!(canonical(&b).0, b, "a key that is not canonical");
    }
}

#[test]
fn lookups_agree_under_the_eight_symmetries() {
    let book = book();
    for (&(p, o), e) in book.positions().iter().take(3000) {
        let b = Board::new(p, o);
        let reference = book.lookup(&b).expect("in the book");
        assert_eq!(reference.score, i32::from(e.score));
        let after = canonical(&follow(&b, reference.best).0).0;
        for s in 0..8 {
            let image = b.symmetry(s);
            let m = book.lookup(&image).expect("an image is in the book");
            assert_eq!(m.score, reference.score);
            // The same move up to the symmetry: the same successor.
            assert_eq!(
                canonical(&follow(&image, m.best).0).0,
                after,
                "symmetry {s}"
            );
        }
    }
}

#[test]
fn the_packed_book_round_trips_byte_for_byte() {
    assert_eq!(encode(&book()).expect("encodes"), data::BOOK);
}

#[test]
fn corrupt_data_is_refused_or_decodes_without_a_panic() {
    let chars: Vec<char> = data::BOOK.chars().collect();
    let text = |c: &[char]| c.iter().collect::<String>();
    // Cut short, or with a character too many: refused.
    for cut in [1, 2, chars.len() / 2, chars.len() - 1] {
        assert!(
            unpack(&text(&chars[..chars.len() - cut])).is_err(),
            "cut {cut}"
        );
    }
    let mut longer = chars.clone();
    longer.push('\u{3001}');
    assert!(unpack(&text(&longer)).is_err(), "a character too many");
    assert!(unpack("").is_err());
    assert!(unpack("not a book").is_err());
    // A changed character: refused, or (rarely) another valid book.
    let mut rng = Rng::seed_from_u64(9);
    let mut refused = 0;
    for _ in 0..300 {
        let mut c = chars.clone();
        let i = rng.below(c.len() as u64) as usize;
        c[i] = char::from_u32(0x3000 + rng.below(1 << 15) as u32).unwrap();
        if unpack(&text(&c)).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 250, "only {refused} of 300 corruptions refused");
}

/// A fresh selective search's value in discs.
fn search_value(board: &Board, depth: u32) -> f64 {
    let mut ab = AlphaBeta::new(Evaluator::new(EvalKind::Pattern, 0));
    ab.set_exact_empties(0);
    match ab.choose(board, board.moves(), &Limits::depth(depth)).score {
        Score::Selective(s) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn book_values_agree_with_a_fresh_search_within_its_own_noise() {
    // The noise: how far a depth-10 search is from a depth-11 one on the
    // same positions. The book's values (deeper searches, backed up
    // through the book) should be no farther from depth 10 than that, plus
    // a disc.
    let book = book();
    let mut keys: Vec<_> = book.positions().keys().copied().collect();
    keys.sort();
    let sample: Vec<Board> = keys
        .iter()
        .step_by((keys.len() / 24).max(1))
        .map(|&(p, o)| Board::new(p, o))
        .collect();
    let (mut book_gap, mut noise) = (0.0, 0.0);
    for b in &sample {
        let v10 = search_value(b, 10);
        let v11 = search_value(b, 11);
        book_gap += (f64::from(book.lookup(b).unwrap().score) - v10).abs();
        noise += (v11 - v10).abs();
    }
    let n = sample.len() as f64;
    let (book_gap, noise) = (book_gap / n, noise / n);
    assert!(
        book_gap <= noise + 1.0,
        "book vs depth 10: {book_gap:.2} discs on average; depth 11 vs 10: {noise:.2} ({} positions, SCALE {SCALE})",
        sample.len()
    );
}

#[test]
fn random_consistent_books_round_trip() {
    // Books made here: random lines from the start, values a negamax of
    // random leaf values, so the encoder's checks hold.
    use othello::book::{value_for_mover, BookEntry};
    use std::collections::HashMap;
    let mut rng = Rng::seed_from_u64(3);
    for round in 0..20 {
        let mut positions = std::collections::BTreeSet::new();
        for _ in 0..40 {
            let mut b = Board::start();
            for _ in 0..(2 + rng.below(12)) {
                let (c, _) = canonical(&b);
                positions.insert((c.player, c.opponent));
                let moves: Vec<_> = b.moves().squares().collect();
                let m = moves[rng.below(moves.len() as u64) as usize];
                b = follow(&b, m).0;
                if b.moves().is_empty() {
                    break;
                }
            }
        }
        // Values bottom-up by disc count (successors have more discs).
        let mut order: Vec<(u64, u64)> = positions.iter().copied().collect();
        order.sort_by_key(|&(p, o)| std::cmp::Reverse((p | o).count_ones()));
        let mut entries: HashMap<(u64, u64), BookEntry> = HashMap::new();
        for k in order {
            let b = Board::new(k.0, k.1);
            let mut best: Option<(i32, u8)> = None;
            for m in b.moves().squares() {
                let (next, passed) = follow(&b, m);
                let (c, _) = canonical(&next);
                let v = match entries.get(&(c.player, c.opponent)) {
                    Some(e) => value_for_mover(i32::from(e.score), passed),
                    None => rng.below(21) as i32 - 10,
                };
                if best.is_none_or(|(bv, _)| v > bv) {
                    best = Some((v, m.index() as u8));
                }
            }
            let (value, best) = best.unwrap();
            entries.insert(
                k,
                BookEntry {
                    best,
                    score: value as i8,
                },
            );
        }
        let book = Book::from_entries(entries);
        let data = encode(&book).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert_eq!(unpack(&data).unwrap(), book, "round {round}");
    }
}
