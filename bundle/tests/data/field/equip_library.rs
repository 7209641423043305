// A competitive-programming solution with its library bundled the way
// cargo-equip bundles it: `mod __cargo_equip` with crates, generic traits,
// a `#[macro_export]`-style macro through `$crate`, re-exports.
pub use __cargo_equip::prelude::*;

use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut scanner = Scanner::new(stdin.lock());
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let n: usize = scanner.next();
    let queries: usize = scanner.next();
    let values: Vec<i64> = (0..n).map(|_| scanner.next()).collect();
    let mut sums = SegTree::<Sum>::from_slice(&values);
    let mut mins = SegTree::<Min>::from_slice(&values);
    let mut groups = UnionFind::new(n);
    for _ in 0..queries {
        let kind: String = scanner.next();
        match kind.as_str() {
            "set" => {
                let (index, value): (usize, i64) = (scanner.next(), scanner.next());
                sums.set(index, value);
                mins.set(index, value);
            }
            "sum" => {
                let (l, r): (usize, usize) = (scanner.next(), scanner.next());
                writeln!(out, "{}", sums.fold(l, r)).unwrap();
            }
            "min" => {
                let (l, r): (usize, usize) = (scanner.next(), scanner.next());
                writeln!(out, "{}", mins.fold(l, r)).unwrap();
            }
            "join" => {
                let (a, b): (usize, usize) = (scanner.next(), scanner.next());
                let merged = groups.unite(a, b);
                writeln!(out, "{} {}", merged, groups.size(a)).unwrap();
            }
            other => panic!("unknown query {other}"),
        }
    }
    let total = chmax!(0, sums.fold(0, n), mins.fold(0, n) * n as i64);
    writeln!(out, "total {total}").unwrap();
}

#[allow(unused)]
mod __cargo_equip {
    pub(crate) mod crates {
        pub mod seg {
            pub use crate::__cargo_equip::macros::seg::*;
            /// An associative operation with an identity.
            pub trait Monoid {
                type Value: Copy;
                const IDENTITY: Self::Value;
                fn operate(left: Self::Value, right: Self::Value) -> Self::Value;
            }
            pub struct Sum;
            impl Monoid for Sum {
                type Value = i64;
                const IDENTITY: i64 = 0;
                fn operate(left: i64, right: i64) -> i64 {
                    left + right
                }
            }
            pub struct Min;
            impl Monoid for Min {
                type Value = i64;
                const IDENTITY: i64 = i64::MAX;
                fn operate(left: i64, right: i64) -> i64 {
                    left.min(right)
                }
            }
            /// A segment tree over a monoid.
            pub struct SegTree<M: Monoid> {
                size: usize,
                tree: Vec<M::Value>,
            }
            impl<M: Monoid> SegTree<M> {
                pub fn from_slice(values: &[M::Value]) -> Self {
                    let size = values.len().next_power_of_two();
                    let mut tree = vec![M::IDENTITY; 2 * size];
                    tree[size..size + values.len()].copy_from_slice(values);
                    for node in (1..size).rev() {
                        tree[node] = M::operate(tree[2 * node], tree[2 * node + 1]);
                    }
                    SegTree { size, tree }
                }
                pub fn set(&mut self, index: usize, value: M::Value) {
                    let mut node = index + self.size;
                    self.tree[node] = value;
                    while node > 1 {
                        node /= 2;
                        self.tree[node] = M::operate(self.tree[2 * node], self.tree[2 * node + 1]);
                    }
                }
                /// The fold of `[l, r)`.
                pub fn fold(&self, l: usize, r: usize) -> M::Value {
                    let (mut left, mut right) = (M::IDENTITY, M::IDENTITY);
                    let (mut lo, mut hi) = (l + self.size, r + self.size);
                    while lo < hi {
                        if lo & 1 == 1 {
                            left = M::operate(left, self.tree[lo]);
                            lo += 1;
                        }
                        if hi & 1 == 1 {
                            hi -= 1;
                            right = M::operate(self.tree[hi], right);
                        }
                        lo /= 2;
                        hi /= 2;
                    }
                    M::operate(left, right)
                }
            }
        }
        pub mod dsu {
            pub struct UnionFind {
                parent: Vec<usize>,
                sizes: Vec<usize>,
            }
            impl UnionFind {
                pub fn new(n: usize) -> Self {
                    UnionFind { parent: (0..n).collect(), sizes: vec![1; n] }
                }
                pub fn root(&mut self, x: usize) -> usize {
                    if self.parent[x] != x {
                        let r = self.root(self.parent[x]);
                        self.parent[x] = r;
                    }
                    self.parent[x]
                }
                pub fn unite(&mut self, a: usize, b: usize) -> bool {
                    let (mut ra, mut rb) = (self.root(a), self.root(b));
                    if ra == rb {
                        return false;
                    }
                    if self.sizes[ra] < self.sizes[rb] {
                        std::mem::swap(&mut ra, &mut rb);
                    }
                    self.parent[rb] = ra;
                    self.sizes[ra] += self.sizes[rb];
                    true
                }
                pub fn size(&mut self, x: usize) -> usize {
                    let r = self.root(x);
                    self.sizes[r]
                }
            }
        }
        pub mod scan {
            use std::io::BufRead;
            use std::str::FromStr;
            pub struct Scanner<R: BufRead> {
                reader: R,
                buffer: Vec<String>,
            }
            impl<R: BufRead> Scanner<R> {
                pub fn new(reader: R) -> Self {
                    Scanner { reader, buffer: Vec::new() }
                }
                pub fn next<T: FromStr>(&mut self) -> T {
                    loop {
                        if let Some(token) = self.buffer.pop() {
                            return token.parse().ok().expect("a token of the right type");
                        }
                        let mut line = String::new();
                        self.reader.read_line(&mut line).expect("input");
                        self.buffer = line.split_whitespace().rev().map(String::from).collect();
                    }
                }
            }
        }
    }
    pub(crate) mod macros {
        pub mod seg {
            pub use crate::__cargo_equip_macro_def_seg_chmax as chmax;
        }
    }
    pub(crate) mod prelude {
        pub use crate::__cargo_equip::crates::{dsu::*, scan::*, seg::*};
    }
}
#[macro_export]
macro_rules! __cargo_equip_macro_def_seg_chmax {
    ($first:expr $(, $rest:expr)*) => {{
        let mut best = $first;
        $(
            let candidate = $rest;
            if candidate > best {
                best = candidate;
            }
        )*
        best
    }};
}
