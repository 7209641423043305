//! Names std also has, renamed where the program's own definition is the
//! only one a path can reach: an associated function of the program's own
//! type (`Grid::new`, `Self::new` in `impl Grid`), while `Vec::new` keeps
//! its name.
//!
//! A name `N` that std has is renamed this way only when every one of these
//! holds (otherwise it is kept everywhere, as before):
//! - every definition of `N` in the program is a function of an inherent
//!   `impl T` block (no trait, free function, field, constant... named `N`),
//!   and no trait impl of the program has an item `N`;
//! - at least one such `T` is eligible: a struct, enum or union the
//!   program defines under a name std does not have, and nothing else of
//!   the program has that name (no alias, trait or generic parameter).
//!   Only the eligible types' `N` is renamed: the program's `Lines::new`
//!   (a name std has) keeps its name;
//! - `N` is never called as a method (`x.N()`: the receiver's type is
//!   unknown) and never appears in a macro body the renamer does not parse;
//! - every path `P::N` has an eligible `P` (renamed), one of the other
//!   types that define `N` (kept), or a `P` the program does not define
//!   (std's: kept); a `P::N` with `P` an alias, a generic parameter, a
//!   trait, `<T>::N` or `Self` outside an impl of a named type keeps `N`
//!   everywhere.
//!
//! A mistake here cannot change what the program does: the new names are
//! fresh, so a path left unrenamed fails to compile (which `bundle minify
//! --check` and the bundle's compile check catch).

use std::collections::{BTreeMap, BTreeSet};

/// What the whole-file pass learns for this renaming.
#[derive(Default)]
pub struct AssocStats {
    /// Definitions of each name (every class).
    pub def_sites: BTreeMap<String, usize>,
    /// Struct, enum and union definitions of each name.
    pub adt_sites: BTreeMap<String, usize>,
    /// Functions of inherent impls, by name, and the impls' types.
    pub inherent: BTreeMap<String, (usize, BTreeSet<String>)>,
    /// Names called as methods.
    pub method_called: BTreeSet<String>,
    /// `P::N` paths: `N`, the prefixes `P` (`Self` resolved to the impl's
    /// type when it is one) and the number of paths.
    pub qualified: BTreeMap<String, (usize, BTreeSet<String>)>,
}

/// The prefix recorded for `Self` outside an impl of a named type, and for
/// `<T as Trait>::N`: never eligible.
pub const UNRESOLVED: &str = "<unresolved>";

impl AssocStats {
    /// Whether `t` is a type of the program whose paths resolve to it alone.
    pub fn eligible_type(&self, t: &str, std: &BTreeSet<String>) -> bool {
        let adts = self.adt_sites.get(t).copied().unwrap_or(0);
        adts > 0 && self.def_sites.get(t) == Some(&adts) && !std.contains(t)
    }

    /// The names that may be renamed on the eligible types, with their
    /// number of occurrences (definitions and paths). `kept` holds the
    /// program's own kept names (macro bodies, derived `Debug`, macros),
    /// `trait_items` the items of every trait impl.
    pub fn candidates(
        &self,
        std: &BTreeSet<String>,
        kept: &BTreeSet<String>,
        trait_items: &BTreeSet<String>,
    ) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        for (name, (sites, types)) in &self.inherent {
            let only_inherent = self.def_sites.get(name) == Some(sites);
            let ok = std.contains(name)
                && only_inherent
                && !kept.contains(name)
                && !trait_items.contains(name)
                && !self.method_called.contains(name)
                && types.iter().any(|t| self.eligible_type(t, std));
            if !ok {
                continue;
            }
            let (uses, prefixes) = self.qualified.get(name).cloned().unwrap_or_default();
            let paths_ok = prefixes.iter().all(|p| {
                p != UNRESOLVED
                    && (self.eligible_type(p, std)
                        || types.contains(p)
                        || !self.def_sites.contains_key(p))
            });
            if paths_ok {
                out.push((name.clone(), sites + uses));
            }
        }
        out
    }
}
