//! The bot's own xoshiro256++ produces rand_xoshiro's exact stream.

use othello::rng::Rng;
use rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

#[test]
fn stream_matches_rand_xoshiro_for_several_seeds() {
    for seed in [0u64, 1, 42, 0xdead_beef, u64::MAX] {
        let mut ours = Rng::seed_from_u64(seed);
        let mut theirs = Xoshiro256PlusPlus::seed_from_u64(seed);
        for i in 0..1000 {
            assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}, draw {i}");
        }
    }
}

#[test]
fn below_and_pick_bit_stay_in_range_and_cover_it() {
    let mut rng = Rng::seed_from_u64(9);
    let mut seen = [0u32; 7];
    for _ in 0..7000 {
        seen[rng.below(7) as usize] += 1;
    }
    assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    let mask = 0b1010_0110u64;
    for _ in 0..1000 {
        let b = rng.pick_bit(mask);
        assert!(mask >> b & 1 == 1);
    }
}
