//! Run-time dispatch to code compiled for newer x86-64 instructions.
//!
//! CodinGame compiles the bot without `-C target-cpu`, and so does a plain
//! `cargo build --release`: code may then use only the x86-64 baseline, where
//! `count_ones` is a dozen shifts and masks and `moves` runs on 64-bit
//! scalars. Its servers have popcnt, bmi1, bmi2, lzcnt and avx2 (Haswell
//! was seen in 2023), but hardware may change, so the choice is made at run
//! time, once per search: [`Isa::detect`].
//!
//! The pattern for a hot loop (see [`crate::perft`]): write the recursive
//! body once as an `#[inline(always)]` function generic over
//! `const FAST: bool`, and instantiate it twice: a portable function, and a
//! `fast_fn!` function whose whole body, with every kernel inlined into
//! it, is compiled for the fast instructions. The entry point branches on
//! [`Isa::is_fast`] once; the body's recursion calls the function of its own
//! kind. Calling a `fast_fn!` function is `unsafe` (the CPU must have the
//! features), hence the two `unsafe` blocks each such loop has.
//!
//! Measured on an AMD EPYC (2 shared cores, user CPU seconds, best of 3;
//! the release build and `rustc -O` on the bundle alike, see
//! docs/bundle.md): `perft 11` 0.48 s portable, 0.33 s dispatched; `bench`
//! 1.78 s portable, 1.34 s dispatched; everything compiled with the
//! features at build time gives the same as dispatched.

/// Wraps a function definition so that it is compiled for the fast
/// instructions (x86-64 only; elsewhere the function does not exist).
///
/// The features listed here must be exactly those [`Isa::detect`] checks.
/// Calling the function is `unsafe` unless the caller has the same
/// features: the caller must hold an [`Isa`] for which [`Isa::is_fast`] is
/// true.
macro_rules! fast_fn {
    ($(#[$meta:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx2")]
        $(#[$meta])*
        $vis fn $($rest)*
    };
}
pub(crate) use fast_fn;

/// The instruction set a hot loop may use. A fast `Isa` can only be obtained
/// from [`Isa::detect`] on a CPU that has every feature `fast_fn!`
/// enables, which is what makes the dispatch sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Isa {
    fast: bool,
}

impl Isa {
    /// The x86-64 baseline (or the target's own baseline elsewhere).
    pub const PORTABLE: Isa = Isa { fast: false };

    /// The best instruction set this CPU runs. Cheap (the standard library
    /// caches the CPU's answer); call it once per search, not per node.
    pub fn detect() -> Isa {
        Isa {
            fast: fast_features_present(),
        }
    }

    /// Whether the fast instructions may be used.
    #[inline]
    pub fn is_fast(self) -> bool {
        self.fast
    }

    /// `"avx2"` or `"portable"`: for messages and bench output.
    pub fn name(self) -> &'static str {
        if self.fast {
            "avx2"
        } else {
            "portable"
        }
    }
}

/// Whether the CPU has every feature `fast_fn!` enables.
#[cfg(target_arch = "x86_64")]
fn fast_features_present() -> bool {
    is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("avx2")
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_features_present() -> bool {
    false
}
