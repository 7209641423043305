//! Reading densely packed integers out of a string literal.
//!
//! CodinGame counts characters, not bytes, so the weights travel as BMP
//! characters that each carry [`BITS_PER_CHAR`] bits: code point
//! [`BASE`] + value. The range `U+3000..U+AFFF` holds no surrogate, quote,
//! backslash, line break or other character a string literal cannot hold.
//! Numbers are Exp-Golomb codes (`train` writes them).

/// Bits carried by one character.
pub const BITS_PER_CHAR: u32 = 15;
/// Code point of the character that carries the value 0.
pub const BASE: u32 = 0x3000;

/// Reads bits, most significant first, from packed characters.
#[derive(Debug)]
pub struct BitReader<'a> {
    chars: core::str::Chars<'a>,
    buf: u64,
    len: u32,
}

impl<'a> BitReader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a str) -> BitReader<'a> {
        BitReader {
            chars: data.chars(),
            buf: 0,
            len: 0,
        }
    }

    /// The next `n` (at most 32) bits as a number; zeros past the end.
    pub fn bits(&mut self, n: u32) -> u32 {
        while self.len < n {
            let c = self.chars.next().map_or(0, |c| c as u32 - BASE);
            self.buf = self.buf << BITS_PER_CHAR | u64::from(c);
            self.len += BITS_PER_CHAR;
        }
        self.len -= n;
        (self.buf >> self.len & ((1u64 << n) - 1)) as u32
    }

    /// An Exp-Golomb code of order `k`.
    pub fn exp_golomb(&mut self, k: u32) -> u32 {
        let mut zeros = 0;
        while self.bits(1) == 0 {
            zeros += 1;
        }
        let high = ((1u32 << zeros) | self.bits(zeros)) - 1;
        high << k | self.bits(k)
    }

    /// A signed number: an Exp-Golomb code of order `k` of its zigzag form
    /// (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...).
    pub fn signed(&mut self, k: u32) -> i32 {
        unzigzag(self.exp_golomb(k))
    }
}

/// 0, 1, 2, 3, ... -> 0, -1, 1, -2, ...
fn unzigzag(u: u32) -> i32 {
    (u >> 1) as i32 ^ -((u & 1) as i32)
}
