//! Work spread over threads: each item of a slice taken by the next free
//! thread, the results returned in the items' order (so they do not depend
//! on the thread count).

use indicatif::ProgressBar;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `f` of every item of `items`, in order, computed on `threads` threads;
/// `bar` counts the items done.
pub fn map_in_order<T: Sync, U: Send>(
    items: &[T],
    threads: usize,
    bar: &ProgressBar,
    f: impl Fn(&T) -> U + Sync,
) -> Vec<U> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, U)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, f(item)));
                        bar.inc(1);
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("no worker panics"))
            .collect()
    });
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, u)| u).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_once_in_order_whatever_the_threads() {
        let items: Vec<u64> = (0..2000).collect();
        for threads in [1, 3, 8] {
            let bar = ProgressBar::hidden();
            // Uneven work, so that the threads interleave.
            let out = map_in_order(&items, threads, &bar, |&x| {
                (0..x % 97).fold(x, |a, k| a.wrapping_mul(31).wrapping_add(k)) ^ x << 32
            });
            let expected: Vec<u64> = items
                .iter()
                .map(|&x| (0..x % 97).fold(x, |a, k| a.wrapping_mul(31).wrapping_add(k)) ^ x << 32)
                .collect();
            assert_eq!(out, expected, "{threads} threads");
            assert_eq!(bar.position(), 2000);
        }
    }
}
