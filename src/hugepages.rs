//! Large tables on huge pages where Linux allows it.
//!
//! The midgame search's transposition table (32 MiB) is read at random: with
//! 4 KiB pages nearly every read also misses the address translation
//! cache, and the page walk costs a good part of the read. Linux's
//! transparent huge pages (2 MiB) cover a table with a few dozen
//! translations. Many systems give them only to memory that asks
//! (`madvise` mode, as on the machines the project is measured on), so the
//! table asks, before its pages are first touched (it fills them when
//! made, in the first turn's 2 s). The endgame solver's table, touched
//! lazily during later turns, does not ask: faults of 2 MiB pages there
//! overran turns under load (docs/journal/search.md, "Huge pages under load"). The evaluation's
//! weights (2.3 MB) on huge pages measured no faster. A hint only: where
//! the call fails or the system gives no huge pages, nothing changes but
//! the speed (docs/journal/search.md, "Potential mobility in the sort, and huge
//! pages").

/// `MADV_HUGEPAGE` of Linux's `madvise`.
#[cfg(target_os = "linux")]
const MADV_HUGEPAGE: i32 = 14;

/// The size of the pages `madvise` wants its range aligned to.
#[cfg(target_os = "linux")]
const PAGE: usize = 4096;

#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
unsafe extern "C" {
    // The symbol's name is fixed here, so the bundle's minifier may rename
    // the Rust side.
    #[link_name = "madvise"]
    fn madvise(addr: *mut core::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// Asks the system to back the allocation of `v` (its whole capacity, the
/// whole pages inside it) with huge pages. Pages already touched keep their
/// size; call it before the elements are written.
#[allow(unsafe_code)]
pub fn advise<T>(v: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        let start = v.as_mut_ptr() as usize;
        let end = start + v.capacity() * core::mem::size_of::<T>();
        let first = start.next_multiple_of(PAGE);
        let last = end / PAGE * PAGE;
        if last > first {
            // SAFETY: the range is whole pages inside the vector's own
            // allocation; MADV_HUGEPAGE changes how its pages are backed,
            // never their contents, and a failure is only ignored.
            unsafe {
                madvise(first as *mut core::ffi::c_void, last - first, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// A vector of `len` copies of `value`, its memory on huge pages where the
/// system allows.
pub fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    advise(&mut v);
    v.resize(len, value);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filled_holds_its_values_at_every_size() {
        for len in [0, 1, 1000, 1 << 20] {
            let v = filled(len, 7u16);
            assert_eq!(v.len(), len);
            assert!(v.iter().all(|&x| x == 7));
        }
        let mut empty: Vec<u64> = Vec::new();
        advise(&mut empty);
        assert!(empty.is_empty());
    }
}
