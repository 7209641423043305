//! The renamer's new names, shortest first, in the case class of the
//! name they replace.

use std::collections::BTreeSet;

/// New names, shortest first: `a`..`z`, then two characters and more.
pub struct NameSource {
    upper: bool,
    n: usize,
}

const FIRST_LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const FIRST_UPPER: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const REST: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

impl NameSource {
    pub fn new(upper: bool) -> NameSource {
        NameSource { upper, n: 0 }
    }

    pub fn nth(&self, mut k: usize) -> String {
        let first = if self.upper { FIRST_UPPER } else { FIRST_LOWER };
        if k < first.len() {
            return (first[k] as char).to_string();
        }
        k -= first.len();
        let mut len = 1;
        let mut block = first.len() * REST.len();
        while k >= block {
            k -= block;
            len += 1;
            block *= REST.len();
        }
        let mut tail = Vec::new();
        for _ in 0..len {
            tail.push(REST[k % REST.len()] as char);
            k /= REST.len();
        }
        let mut s = String::new();
        s.push(first[k] as char);
        s.extend(tail.iter().rev());
        s
    }

    pub fn next_free(&mut self, forbidden: &BTreeSet<String>) -> String {
        loop {
            let s = self.nth(self.n);
            self.n += 1;
            if !forbidden.contains(&s) {
                return s;
            }
        }
    }
}
