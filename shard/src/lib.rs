//! `--shard I/N`: part `I` (from 1) of `N` of a run holds the run's items
//! `k` (from 0) with `k % N == I - 1`. The referee's items are the pairs of
//! games of a match or tournament, `train`'s the games of a chunk; each
//! item depends on the run's seed and its own number alone, so the parts
//! together are the run.

/// Part `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shard {
    /// Which part, 1..=count.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

impl Shard {
    /// Parses `I/N` with 1 <= I <= N (spaces around the numbers allowed).
    ///
    /// # Errors
    /// Anything else, with what was expected.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 1 <= I <= N (as 2/4), found {text:?}");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Every part of this one's run, 1/N to N/N.
    pub fn all(self) -> impl Iterator<Item = Shard> {
        let count = self.count;
        (1..=count).map(move |index| Shard { index, count })
    }

    /// Whether item `k` (from 0) of the run is in this part.
    pub fn holds(self, k: u64) -> bool {
        k % u64::from(self.count) == u64::from(self.index - 1)
    }

    /// This part's `k`-th item (from 0), as an item of the whole run.
    pub fn item(self, k: u32) -> u32 {
        self.index - 1 + k * self.count
    }

    /// How many of a run's `items` items this part holds.
    pub fn items_of(self, items: u32) -> u32 {
        items.saturating_sub(self.index - 1).div_ceil(self.count)
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
            for items in 0..12 {
                let whole = Shard { index: 1, count };
                let mut all: Vec<u32> = whole
                    .all()
                    .flat_map(|s| (0..s.items_of(items)).map(move |k| s.item(k)))
                    .collect();
                all.sort_unstable();
                assert_eq!(
                    all,
                    (0..items).collect::<Vec<_>>(),
                    "{count} parts of {items}"
                );
                for s in whole.all() {
                    let held: Vec<u32> = (0..items).filter(|&k| s.holds(k.into())).collect();
                    let listed: Vec<u32> = (0..s.items_of(items)).map(|k| s.item(k)).collect();
                    assert_eq!(held, listed, "part {s} of {items}");
                }
            }
        }
    }

    #[test]
    fn parse_takes_i_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert_eq!(Shard::parse(" 3 / 8 "), Ok(Shard { index: 3, count: 8 }));
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
        for bad in ["0/4", "5/4", "2", "a/b", "2/0", "-1/2", ""] {
            let e = Shard::parse(bad).unwrap_err();
            assert!(
                e.contains("expected I/N") && e.contains(&format!("{bad:?}")),
                "{e}"
            );
        }
    }
}
