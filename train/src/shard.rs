//! `--shard I/N` of `train gen` and `train corpus`: part I (from 1) of N of
//! a run holds its games `g` (from 0) with `g % N == I - 1`. Game `g` depends
//! on the seed and `g` alone, so the parts together are the run, game for
//! game; `train fit` merges them back (`load` in data.rs).

/// Part `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shard {
    /// 1..=count.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// Parses `I/N` with 1 <= I <= N.
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard: expected I/N with 1 <= I <= N (as 2/4), found {text:?}");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.parse().map_err(|_| bad())?;
        let count: u32 = n.parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The `k`-th game (from 0) of this part, as a game of the whole run.
    pub fn game(self, k: u32) -> u32 {
        self.index - 1 + k * self.count
    }

    /// How many of the run's `games` games this part holds.
    pub fn games_of(self, games: u32) -> u32 {
        games.saturating_sub(self.index - 1).div_ceil(self.count)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_cover_the_run_once() {
        for count in 1..5 {
            for games in 0..12 {
                let mut all: Vec<u32> = (1..=count)
                    .flat_map(|index| {
                        let s = Shard { index, count };
                        (0..s.games_of(games)).map(move |k| s.game(k))
                    })
                    .collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..games).collect::<Vec<_>>(),
                    "{count} parts of {games}"
                );
            }
        }
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "2/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
