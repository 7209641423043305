//! xoshiro256++, the same stream as `rand_xoshiro::Xoshiro256PlusPlus`.
//!
//! The bot may use no crate, so it carries its own generator; a test proves
//! that [`Rng::seed_from_u64`] and [`Rng::next_u64`] match rand_xoshiro's.

/// The xoshiro256++ generator (Blackman and Vigna).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of SplitMix64, used to expand a 64-bit seed as rand_xoshiro does.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// Seeds the state with four SplitMix64 outputs of `seed`, exactly as
    /// `rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64` does.
    pub fn seed_from_u64(seed: u64) -> Rng {
        let mut state = seed;
        let s = [
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
            splitmix64(&mut state),
        ];
        Rng { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (Lemire's multiply-shift; the bias is at
    /// most n / 2^64, far below anything a game can notice).
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "below(0)");
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniformly chosen set bit of `mask` (which must not be 0).
    #[inline]
    pub fn pick_bit(&mut self, mask: u64) -> u32 {
        let mut n = self.below(mask.count_ones() as u64);
        let mut m = mask;
        while n > 0 {
            m &= m - 1;
            n -= 1;
        }
        m.trailing_zeros()
    }
}
