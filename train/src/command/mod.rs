//! `train`'s commands, one file each, and what they share.

pub mod all;
pub mod bench;
pub mod book;
pub mod corpus;
pub mod decode_time;
pub mod endgame;
pub mod features;
pub mod fit;
pub mod gen;
pub mod r#match;
pub mod midgame;
pub mod mpc;
pub mod openings;
pub mod probcut;
pub mod relabel;
pub mod repack;
pub mod transition;

use crate::cli::Options;

/// Runs the command called `name`.
///
/// # Errors
/// An unknown command, or the command's own error.
pub fn run(name: &str, o: &Options) -> Result<(), String> {
    match name {
        "all" => all::run(o),
        "gen" => gen::run(o),
        "corpus" => corpus::run(o),
        "endgame" => endgame::run(o),
        "fit" => fit::run(o),
        "features" => features::run(o),
        "match" => r#match::run(o),
        "bench" => bench::run(o),
        "mpc" => mpc::run(o),
        "book" => book::run(o),
        "book-write" => book::write_only(o),
        "openings" => openings::run(o),
        "transition" => transition::run(o),
        "relabel" => relabel::run(o),
        "midgame" => midgame::run(o),
        "probcut" => probcut::run(o),
        "repack" => repack::run(o),
        "decode-time" => decode_time::run(),
        other => Err(format!("unknown command {other:?}")),
    }
}

#[cfg(test)]
mod tests {
    //! The sharded commands' outputs read back ([`crate::data::load`]) as
    //! the whole run's.

    use crate::data::load;
    use std::path::{Path, PathBuf};

    /// A scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("train-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Runs the command of `args` (`train corpus` or `train gen`).
    fn run(args: &str) {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        let (command, o) = crate::cli::parse(&args).unwrap();
        assert!(["corpus", "gen"].contains(&command.as_str()), "{command}");
        super::run(&command, &o).unwrap();
    }

    /// Plays the corpus chunk of seed `seed` with the options `common`
    /// into `dir`, whole and in `n` shards: the whole chunk's file and the
    /// shards', in order.
    fn chunk_and_shards(dir: &Path, seed: u32, common: &str, n: u32) -> (PathBuf, Vec<PathBuf>) {
        let whole = dir.join(format!("games-seed{seed}.bin"));
        run(&format!(
            "corpus --seed {seed} {common} --out {}",
            whole.display()
        ));
        let parts: Vec<PathBuf> = (1..=n)
            .map(|i| dir.join(format!("games-seed{seed}-shard{i}of{n}.bin")))
            .collect();
        for (i, part) in parts.iter().enumerate() {
            run(&format!(
                "corpus --seed {seed} {common} --shard {}/{n} --out {}",
                i + 1,
                part.display()
            ));
        }
        (whole, parts)
    }

    fn samples(groups: &[Vec<PathBuf>]) -> Vec<(u64, u64, i8, u32)> {
        let (samples, _) = load(groups).unwrap();
        samples
            .iter()
            .map(|s| (s.board.player, s.board.opponent, s.label, s.game))
            .collect()
    }

    #[test]
    fn corpus_shards_merge_back_into_their_chunk_sample_for_sample() {
        let dir = scratch("corpus-shards");
        let (whole, parts) =
            chunk_and_shards(&dir, 5, "--games 7 --depth 2 --exact 8 --threads 2", 3);
        let one = |p: &PathBuf| vec![p.clone()];
        let expected = samples(&[one(&whole)]);
        assert!(!expected.is_empty());
        // In any order, as separate files: merged by their headers.
        assert_eq!(
            samples(&[one(&parts[2]), one(&parts[0]), one(&parts[1])]),
            expected
        );
        // Another run before them keeps both numberings apart, the same way.
        let other = dir.join("other.bin");
        run(&format!(
            "corpus --seed 6 --games 2 --depth 2 --exact 8 --out {}",
            other.display()
        ));
        let with_other = samples(&[one(&other), one(&whole)]);
        assert_eq!(
            samples(&[one(&other), one(&parts[1]), one(&parts[0]), one(&parts[2])]),
            with_other
        );
        // A missing shard is named.
        let e =
            load(&[one(&parts[0]), one(&parts[2])]).expect_err("two shards of three were accepted");
        assert!(e.contains("missing: 2/3"), "{e}");
    }

    #[test]
    fn blended_loads_change_training_labels_only_and_agree_across_shards() {
        use crate::corpus::{parse, CorpusConfig};
        use crate::data::{load_blended, Blend};
        use crate::outcome::line_values;
        let dir = scratch("blend");
        let common = "--games 6 --depth 2 --exact 8 --epsilon 0.1 --threads 2";
        let (whole, parts) = chunk_and_shards(&dir, 8, common, 2);
        let blend = Blend {
            weight: 1.0,
            holdout_every: 2,
        };
        let one = |p: &PathBuf| vec![p.clone()];
        let (plain, _) = load(&[one(&whole)]).unwrap();
        let (blended, _) = load_blended(&[one(&whole)], Some(blend)).unwrap();
        // Game by game: held-out games keep their search labels, the
        // others take their line values (weight 1).
        let chunk = parse(&std::fs::read(&whole).unwrap()).unwrap();
        let cfg = CorpusConfig::from_header(&chunk.header).unwrap();
        let mut at = 0;
        let mut changed = 0;
        for (g, game) in chunk.games.iter().enumerate() {
            let values = line_values(&cfg, g as u32, game).unwrap();
            for (k, v) in values.iter().enumerate() {
                let (p, b) = (&plain[at + k], &blended[at + k]);
                assert_eq!(p.board, b.board);
                let want = if p.is_held_out(2) { p.label } else { *v };
                assert_eq!(b.label, want, "game {g} move {k}");
                changed += usize::from(b.label != p.label);
            }
            at += values.len();
        }
        assert_eq!(at, plain.len());
        assert!(changed > 0, "no training label changed");
        let (sharded, _) = load_blended(&[one(&parts[1]), one(&parts[0])], Some(blend)).unwrap();
        assert_eq!(sharded, blended);
        // Data with no corpus chunk has nothing to blend.
        let gen = dir.join("gen.bin");
        run(&format!(
            "gen --seed 3 --games 1 --depth 2 --exact 8 --out {}",
            gen.display()
        ));
        let e = load_blended(&[one(&gen)], Some(blend)).unwrap_err();
        assert!(e.contains("--outcome") && e.contains("none"), "{e}");
        // A chunk whose games are not its seed's is named.
        let mut bytes = std::fs::read(&whole).unwrap();
        let nl = bytes.iter().position(|&b| b == b'\n').unwrap();
        let header = String::from_utf8(bytes[..nl].to_vec())
            .unwrap()
            .replace("seed=8", "seed=9");
        bytes.splice(..nl, header.into_bytes());
        let forged = dir.join("forged.bin");
        std::fs::write(&forged, bytes).unwrap();
        let e = load_blended(&[one(&forged)], Some(blend)).unwrap_err();
        assert!(
            e.contains("forged.bin: game ") && e.contains("seed 9"),
            "{e}"
        );
    }

    #[test]
    fn gen_shards_joined_with_plus_equal_the_whole_run() {
        let dir = scratch("gen-shards");
        let common = "--seed 3 --games 5 --depth 2 --exact 8 --threads 2";
        let whole = dir.join("whole.bin");
        run(&format!("gen {common} --out {}", whole.display()));
        let parts: Vec<PathBuf> = (1..=2).map(|i| dir.join(format!("part{i}.bin"))).collect();
        for (i, part) in parts.iter().enumerate() {
            run(&format!(
                "gen {common} --shard {}/2 --out {}",
                i + 1,
                part.display()
            ));
        }
        let expected = samples(&[vec![whole]]);
        assert!(!expected.is_empty());
        assert_eq!(
            samples(&[vec![parts[1].clone(), parts[0].clone()]]),
            expected
        );
    }
}
