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
    /// Whether a read went past the last character.
    overrun: bool,
}

impl<'a> BitReader<'a> {
    /// A reader at the start of `data`.
    pub fn new(data: &'a str) -> BitReader<'a> {
        BitReader {
            chars: data.chars(),
            buf: 0,
            len: 0,
            overrun: false,
        }
    }

    /// Whether every character was read and no read went past the last
    /// one, the bits left over all zero (the writer's padding).
    pub fn at_end(&mut self) -> bool {
        let rest = self.buf & ((1u64 << self.len) - 1);
        !self.overrun && rest == 0 && self.chars.next().is_none()
    }

    /// The next `n` (at most 32) bits as a number; zeros past the end.
    pub fn bits(&mut self, n: u32) -> u32 {
        while self.len < n {
            let c = match self.chars.next() {
                Some(c) => (c as u32).wrapping_sub(BASE) & ((1 << BITS_PER_CHAR) - 1),
                None => {
                    self.overrun = true;
                    0
                }
            };
            self.buf = self.buf << BITS_PER_CHAR | u64::from(c);
            self.len += BITS_PER_CHAR;
        }
        self.len -= n;
        (self.buf >> self.len & ((1u64 << n) - 1)) as u32
    }

    /// Whether a read went past the last character (or met a code too
    /// long to be one): what was read since is zeros.
    pub fn overrun(&self) -> bool {
        self.overrun
    }

    /// An Exp-Golomb code of order `k`; 0, and [`BitReader::overrun`], for
    /// a code longer than 32 bits or one cut by the end of the data.
    pub fn exp_golomb(&mut self, k: u32) -> u32 {
        let mut zeros = 0;
        while self.bits(1) == 0 {
            zeros += 1;
            if zeros + k > 31 || self.overrun {
                self.overrun = true;
                return 0;
            }
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

/// Writes bits most significant first into [`BITS_PER_CHAR`]-bit
/// characters, for [`BitReader`] (the `train` crate packs the weights and
/// the book with it).
#[cfg(not(cargo_equip))]
#[derive(Debug, Default)]
pub struct BitWriter {
    out: String,
    buf: u64,
    len: u32,
}

#[cfg(not(cargo_equip))]
impl BitWriter {
    /// Appends the low `n` bits of `value`.
    pub fn bits(&mut self, value: u64, n: u32) {
        for i in (0..n).rev() {
            self.buf = self.buf << 1 | (value >> i & 1);
            self.len += 1;
            if self.len == BITS_PER_CHAR {
                let c = char::from_u32(BASE + self.buf as u32).expect("a BMP character");
                self.out.push(c);
                self.buf = 0;
                self.len = 0;
            }
        }
    }

    /// Appends the Exp-Golomb code of order `k` of `x`.
    pub fn exp_golomb(&mut self, x: u32, k: u32) {
        let q = (u64::from(x) >> k) + 1;
        let n = 64 - q.leading_zeros();
        self.bits(0, n - 1);
        self.bits(q, n);
        self.bits(u64::from(x), k);
    }

    /// Appends a signed number (zigzag form, order `k`).
    pub fn signed(&mut self, v: i32, k: u32) {
        self.exp_golomb(((v << 1) ^ (v >> 31)) as u32, k);
    }

    /// Bits written so far.
    pub fn bit_len(&self) -> u64 {
        self.out.chars().count() as u64 * u64::from(BITS_PER_CHAR) + u64::from(self.len)
    }

    /// The characters, the last one padded with zeros.
    pub fn finish(mut self) -> String {
        if self.len > 0 {
            self.bits(0, BITS_PER_CHAR - self.len);
        }
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_writer_writes_the_reader_reads() {
        let mut w = BitWriter::default();
        for x in 0..300u32 {
            w.exp_golomb(x * 7, x % 4);
            w.signed(x as i32 - 150, 1);
            w.bits(u64::from(x), 9);
        }
        let data = w.finish();
        let mut r = BitReader::new(&data);
        for x in 0..300u32 {
            assert_eq!(r.exp_golomb(x % 4), x * 7);
            assert_eq!(r.signed(1), x as i32 - 150);
            assert_eq!(r.bits(9), x);
        }
        assert!(r.at_end());
        let mut r = BitReader::new(&data);
        r.bits(20);
        assert!(!r.at_end(), "characters left");
        let mut r = BitReader::new(&data[..data.len() - 3]);
        while !r.overrun {
            r.bits(30);
        }
        assert!(!r.at_end(), "read past the end");
    }
}
