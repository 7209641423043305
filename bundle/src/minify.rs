//! `bundle minify`: renames the identifiers of a one-file Rust program to
//! short names and prints it without spaces that are not needed.
//!
//! The program is parsed with `syn`; every identifier is classified by its
//! syntactic position, never by a regular expression.
//!
//! - **Crate names** (functions, methods, types, traits, fields, variants,
//!   constants, statics, modules, generic parameters): a name the program
//!   defines gets one short name everywhere it appears outside a local
//!   scope (a consistent, injective renaming of the whole file). A name is
//!   kept when std also has it ([`STD_NAMES`], rustdoc's list of std's
//!   public items, methods, fields, variants...; except on the program's
//!   own types, `assoc.rs`), when a trait the program does not define
//!   requires it (the items of `impl Trait for T`), when a derived `Debug`
//!   prints it (unless [`Options::rename_debug`]), or when it appears in a
//!   macro body that is not parsed (see below).
//! - **Locals** (parameters, `let`, closure arguments, match, `for`,
//!   `if let` and `while let` bindings): renamed per item, with real lexical
//!   scopes: `let moves = moves(p);` keeps calling the function. A local's
//!   new name avoids every non-local name that item refers to.
//! - Macros: the std formatting and assertion macros (`format!`,
//!   `write!`, `println!`, `assert!`, `vec!`...) are parsed as expressions,
//!   and the inline arguments of their format string (`{name}`,
//!   `{name:?}`, `{:width$}`) are renamed with them; nothing else in a
//!   string literal changes. A macro whose body is a function
//!   (cargo-equip's `fast_fn!{fn ...}`) is processed as that function. Any
//!   other macro body (and `macro_rules!` definitions) is left alone, and
//!   the names in it are kept everywhere, with those its string literals
//!   would use as inline format arguments (`format.rs`); it keeps its
//!   source's spacing (`stringify!`, `print.rs`).
//! - Doc comments are dropped first; `line!()` becomes the input's line.
//! - The output is checked (`checks.rs`): same string literals, it parses,
//!   and with `--check` it compiles; every refusal names the input's line.
//! - Never renamed: lifetimes and loop labels, attributes, macro names,
//!   `main`, keywords, raw identifiers of std.
//!
//! Shorter names go to the more frequent identifiers (ties broken by name;
//! the names themselves come from `names.rs`),
//! so the output is deterministic. A name keeps its case class: a name that
//! starts with an upper-case letter gets one that does too, so a local
//! binding never becomes a constant's or variant's name in a pattern.

mod assoc;
pub(crate) mod checks;
mod format;
mod names;
mod print;

pub use checks::{
    check_compiles, first_error, rustc_errors, rustc_output, rustc_stderr, CHECK_EDITION,
};
pub use print::{print, Printed};

use names::NameSource;

use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::{BTreeMap, BTreeSet};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{
    Arm, Expr, ExprClosure, ExprForLoop, ExprIf, ExprLet, ExprMethodCall, ExprPath, ExprStruct,
    ExprWhile, FieldPat, FieldValue, Ident, ImplItem, Item, Lit, Local, Macro, Member, Pat,
    TraitItem, UseTree,
};

/// std's names (rustdoc's items, methods, fields, variants, associated
/// constants and types of `std`, `core` and `alloc`), one a line; generated
/// by `bundle/std-names.sh`.
pub const STD_NAMES: &str = include_str!("std_names.txt");

/// Keywords (all editions, reserved ones included) and primitive types: never
/// a new name, never renamed.
const RESERVED: &str = "\
abstract as async await become box break const continue crate do dyn \
else enum extern false final fn for gen if impl in let loop macro \
match mod move mut override priv pub ref return self Self static \
struct super trait true try type typeof union unsafe unsized use \
virtual where while yield main bool char str u8 u16 u32 u64 u128 usize \
i8 i16 i32 i64 i128 isize f16 f32 f64 f128 std core alloc macro_rules \
auto default safe raw _";

/// Macros whose body is a comma-separated list of expressions, and the
/// index of their format string (if any).
const EXPR_MACROS: &[(&str, Option<usize>)] = &[
    ("format", Some(0)),
    ("print", Some(0)),
    ("println", Some(0)),
    ("eprint", Some(0)),
    ("eprintln", Some(0)),
    ("panic", Some(0)),
    ("unreachable", Some(0)),
    ("todo", Some(0)),
    ("unimplemented", Some(0)),
    ("format_args", Some(0)),
    ("write", Some(1)),
    ("writeln", Some(1)),
    ("assert", Some(1)),
    ("debug_assert", Some(1)),
    ("assert_eq", Some(2)),
    ("assert_ne", Some(2)),
    ("debug_assert_eq", Some(2)),
    ("debug_assert_ne", Some(2)),
    ("vec", None),
    ("dbg", None),
    ("is_x86_feature_detected", None),
];

/// The kinds of names, for turning a class of renames off (to measure what
/// each saves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Parameters and local bindings.
    Locals,
    /// Struct and variant fields.
    Fields,
    /// Functions and methods.
    Functions,
    /// Structs, enums, unions, traits, type aliases, associated types,
    /// generic parameters.
    Types,
    /// Enum variants.
    Variants,
    /// Constants, statics, const generic parameters.
    Constants,
    /// Modules and `use ... as` aliases.
    Modules,
}

impl Class {
    /// Every class, in report order.
    pub const ALL: [Class; 7] = [
        Class::Locals,
        Class::Fields,
        Class::Functions,
        Class::Types,
        Class::Variants,
        Class::Constants,
        Class::Modules,
    ];

    /// The class's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Class::Locals => "locals",
            Class::Fields => "fields",
            Class::Functions => "functions",
            Class::Types => "types",
            Class::Variants => "variants",
            Class::Constants => "constants",
            Class::Modules => "modules",
        }
    }

    /// The class named `name`.
    pub fn parse(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Std macros whose tokens no program prints as text: their invocations
/// are printed compactly even when they are not parsed (every other
/// unparsed invocation keeps its source's spacing, for `stringify!`).
const TEXTLESS_MACROS: &[&str] = &[
    "matches",
    "cfg",
    "env",
    "option_env",
    "include",
    "include_str",
    "include_bytes",
    "concat",
    "thread_local",
    "compile_error",
];

/// What to rename.
#[derive(Clone, Debug)]
pub struct Options {
    /// The classes renamed (all by default).
    pub classes: BTreeSet<Class>,
    /// Rename what a derived `Debug` prints (a struct's name, its fields, an
    /// enum's variants and their fields): off by default, since
    /// `println!("{:?}", Dir::Up)` would print the new name.
    pub rename_debug: bool,
    /// Drop the trailing commas that mean nothing (`S{a:1,}`, `f(a,b,)`;
    /// not `(x,)`, nor in a macro's body): on by default.
    pub trailing_commas: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            classes: Class::ALL.into_iter().collect(),
            rename_debug: false,
            trailing_commas: true,
        }
    }
}

/// The result of [`minify`].
#[derive(Clone, Debug)]
pub struct Minified {
    /// The renamed program, compactly printed, ending with a line break.
    pub text: String,
    /// The text (without the final line break) and where each token came
    /// from, for messages about the output.
    pub printed: Printed,
    /// Crate names renamed, and to what.
    pub renamed: BTreeMap<String, String>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// The whole file: definitions, kept names, frequencies.
    Global,
    /// One item's locals (nested items skipped).
    Context,
    /// Renaming.
    Apply,
}

#[derive(Default)]
struct ContextStats {
    /// Occurrences of each local name.
    locals: BTreeMap<String, usize>,
    /// Non-local names referred to (original spelling).
    others: BTreeSet<String>,
    /// Names in unparsed macro bodies.
    pinned: BTreeSet<String>,
}

struct Walker<'a> {
    mode: Mode,
    opts: &'a Options,
    global: &'a BTreeMap<String, String>,
    /// Bound local names, innermost scope last.
    scopes: Vec<Vec<String>>,
    /// The current item's local renames.
    locals: BTreeMap<String, String>,
    ctx: ContextStats,
    // Global mode's findings.
    defined: BTreeMap<String, BTreeSet<Class>>,
    counts: BTreeMap<String, usize>,
    kept: BTreeSet<String>,
    /// Names bound as locals somewhere.
    local_names: BTreeSet<String>,
    traits: BTreeSet<String>,
    /// `impl Trait for T`: the trait's name and the items' names.
    trait_impls: Vec<(String, Vec<String>)>,
    /// Format strings rewritten: (old literal, new literal).
    rewritten: Vec<(String, String)>,
    /// Unparsed macro invocations printed with their source's spacing.
    spaced: BTreeSet<print::At>,
    /// A `macro_rules!` body calls `line!()` (its invocations' lines).
    line_in_macro: bool,
    /// The current impl's type (its last name), if it has one.
    impl_self: Option<String>,
    /// Whether the current impl is inherent (no trait).
    impl_inherent: bool,
    /// Global mode: what renaming std's names on the program's types needs.
    assoc: assoc::AssocStats,
    /// Apply mode: std's names renamed on the eligible types, and those types.
    assoc_names: BTreeMap<String, String>,
    assoc_types: BTreeSet<String>,
    error: Option<String>,
}

fn name_of(i: &Ident) -> String {
    i.to_string()
}

fn bare(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

fn is_binding_name(name: &str) -> bool {
    bare(name)
        .chars()
        .next()
        .is_some_and(|c| c.is_lowercase() || c == '_')
}

fn line_of(span: proc_macro2::Span) -> usize {
    span.start().line
}

/// `line!()` at `span`: the input's line number, typed as `line!()` is.
fn line_literal(span: Span) -> Literal {
    let mut l = Literal::u32_suffixed(line_of(span) as u32);
    l.set_span(span);
    l
}

/// `tokens` with each `line!()` replaced by its line in the input (a
/// `std::line!()` path and `stringify!`'s text are left alone).
fn with_line_numbers(tokens: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        let after_path =
            k > 0 && matches!(&tokens[k - 1], TokenTree::Punct(p) if p.as_char() == ':');
        if let (TokenTree::Ident(i), Some(TokenTree::Punct(bang)), Some(TokenTree::Group(g))) =
            (&tokens[k], tokens.get(k + 1), tokens.get(k + 2))
        {
            if bang.as_char() == '!' {
                if i == "line" && g.stream().is_empty() && !after_path {
                    let span = i.span().join(g.span()).unwrap_or(i.span());
                    out.push(TokenTree::Literal(line_literal(span)));
                    k += 3;
                    continue;
                }
                if i == "stringify" {
                    out.extend(tokens[k..k + 3].iter().cloned());
                    k += 3;
                    continue;
                }
            }
        }
        out.push(match &tokens[k] {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), with_line_numbers(g.stream()));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            tt => tt.clone(),
        });
        k += 1;
    }
    out.into_iter().collect()
}

/// Whether `tokens` call `line!()`.
fn calls_line(tokens: &TokenStream) -> bool {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    tokens.iter().enumerate().any(|(k, tt)| match tt {
        TokenTree::Ident(i) => {
            i == "line"
                && matches!(tokens.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!')
        }
        TokenTree::Group(g) => calls_line(&g.stream()),
        _ => false,
    })
}

/// Whether `attrs` derive `Debug`.
fn derives_debug(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("derive")
            && a.parse_args_with(Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
                .is_ok_and(|paths| {
                    paths
                        .iter()
                        .any(|p| p.segments.last().is_some_and(|s| s.ident == "Debug"))
                })
    })
}

/// Drops the doc attributes (`///`, `//!`, `/** */`, `#[doc = "..."]`)
/// from `tokens`; `dropped` receives the spans of their literals. (A
/// macro's `#[doc = $text]` pattern stays.)
fn strip_docs(tokens: TokenStream, dropped: &mut Vec<Span>) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tokens.len());
    let mut k = 0;
    while k < tokens.len() {
        if let TokenTree::Punct(hash) = &tokens[k] {
            let bang = matches!(tokens.get(k + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
            let at = k + 1 + usize::from(bang);
            if hash.as_char() == '#' {
                if let Some(TokenTree::Group(g)) = tokens.get(at) {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let is_doc = g.delimiter() == Delimiter::Bracket
                        && matches!(inner.first(), Some(TokenTree::Ident(i)) if i == "doc")
                        && matches!(inner.get(1), Some(TokenTree::Punct(p)) if p.as_char() == '=')
                        && inner.len() == 3
                        && matches!(inner[2], TokenTree::Literal(_));
                    if is_doc {
                        dropped.extend(inner.get(2).map(TokenTree::span));
                        k = at + 1;
                        continue;
                    }
                }
            }
        }
        out.push(match &tokens[k] {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), strip_docs(g.stream(), dropped));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            tt => tt.clone(),
        });
        k += 1;
    }
    out.into_iter().collect()
}

impl<'a> Walker<'a> {
    fn new(mode: Mode, opts: &'a Options, global: &'a BTreeMap<String, String>) -> Walker<'a> {
        Walker {
            mode,
            opts,
            global,
            scopes: Vec::new(),
            locals: BTreeMap::new(),
            ctx: ContextStats::default(),
            defined: BTreeMap::new(),
            counts: BTreeMap::new(),
            kept: BTreeSet::new(),
            local_names: BTreeSet::new(),
            traits: BTreeSet::new(),
            trait_impls: Vec::new(),
            rewritten: Vec::new(),
            spaced: BTreeSet::new(),
            line_in_macro: false,
            impl_self: None,
            impl_inherent: false,
            assoc: assoc::AssocStats::default(),
            assoc_names: BTreeMap::new(),
            assoc_types: BTreeSet::new(),
            error: None,
        }
    }

    fn fail(&mut self, span: proc_macro2::Span, name: &str, why: &str) {
        if self.error.is_none() {
            self.error = Some(format!(
                "line {}: cannot rename `{name}`: {why}",
                line_of(span)
            ));
        }
    }

    fn define(&mut self, ident: &Ident, class: Class) {
        if self.mode == Mode::Global {
            *self.assoc.def_sites.entry(name_of(ident)).or_default() += 1;
            self.defined
                .entry(name_of(ident))
                .or_default()
                .insert(class);
        }
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes
            .iter()
            .rev()
            .any(|s| s.iter().any(|n| n == name))
    }

    /// A non-local occurrence of a name.
    fn other(&mut self, ident: &mut Ident, record: bool) {
        let name = name_of(ident);
        match self.mode {
            Mode::Global => *self.counts.entry(name).or_default() += 1,
            Mode::Context => {
                if record {
                    self.ctx.others.insert(name);
                }
            }
            Mode::Apply => {
                if let Some(new) = self.global.get(&name) {
                    *ident = Ident::new(new, ident.span());
                }
            }
        }
    }

    /// An occurrence of a local.
    fn local(&mut self, ident: &mut Ident) {
        let name = name_of(ident);
        match self.mode {
            Mode::Global => {
                self.local_names.insert(name);
            }
            Mode::Context => *self.ctx.locals.entry(name).or_default() += 1,
            Mode::Apply => {
                if let Some(new) = self.locals.get(&name) {
                    *ident = Ident::new(new, ident.span());
                }
            }
        }
    }

    /// A binding introduced by a pattern.
    fn bind(&mut self, ident: &mut Ident) {
        let name = name_of(ident);
        match self.scopes.last_mut() {
            Some(scope) => scope.push(name),
            None => self.scopes.push(vec![name]),
        }
        self.local(ident);
    }

    /// The new spelling of a name in value position (format strings).
    /// Renames the inline arguments of a format string.
    fn format_string(&mut self, s: &mut syn::LitStr) {
        let old = s.token().to_string();
        let span = s.span();
        let out = match format::rename_arguments(&old, |name| self.resolve_name(name, span)) {
            Ok(out) => out,
            Err(why) => {
                self.fail(span, &old, why);
                return;
            }
        };
        if out != old && self.mode == Mode::Apply {
            let lit = out
                .parse::<TokenStream>()
                .ok()
                .and_then(|ts| ts.into_iter().next())
                .and_then(|tt| match tt {
                    TokenTree::Literal(l) => Some(l),
                    _ => None,
                });
            match lit.map(Lit::new) {
                Some(Lit::Str(new)) => {
                    self.rewritten.push((old, out));
                    *s = new;
                }
                _ => self.fail(span, &old, "the renamed format string does not parse"),
            }
        }
    }

    fn resolve_name(&mut self, name: &str, span: proc_macro2::Span) -> String {
        let mut ident = match syn::parse_str::<Ident>(name) {
            Ok(mut i) => {
                i.set_span(span);
                i
            }
            Err(_) => return name.to_string(),
        };
        if self.is_local(name) {
            self.local(&mut ident);
        } else {
            self.other(&mut ident, true);
        }
        name_of(&ident)
    }

    /// Keeps `name` as it is: everywhere in the global pass, within the
    /// current item in the context pass.
    fn keep_name(&mut self, name: String) {
        match self.mode {
            Mode::Global => {
                self.kept.insert(name);
            }
            Mode::Context => {
                self.ctx.pinned.insert(name);
            }
            Mode::Apply => {}
        }
    }

    fn pin(&mut self, tokens: &TokenStream) {
        let mut prev_dollar = false;
        let mut prev_quote = false;
        for tt in tokens.clone() {
            match &tt {
                // Not a macro's metavariable (`$x`) nor a lifetime (`'a`).
                TokenTree::Ident(i) if !prev_dollar && !prev_quote => self.keep_name(name_of(i)),
                TokenTree::Group(g) => self.pin(&g.stream()),
                // `log!("{score}")`: the macro may format it.
                TokenTree::Literal(l) => {
                    if let Lit::Str(s) = Lit::new(l.clone()) {
                        for name in format::inline_names(&s.value()) {
                            self.keep_name(name);
                        }
                    }
                }
                _ => {}
            }
            prev_dollar = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '$');
            prev_quote = matches!(&tt, TokenTree::Punct(p) if p.as_char() == '\'');
        }
    }

    /// Runs `walk` as a new item context: its own scopes and locals.
    fn context<F: FnMut(&mut Self)>(&mut self, mut walk: F) {
        if self.mode == Mode::Context {
            return; // a nested item: its own context, later
        }
        let scopes = std::mem::take(&mut self.scopes);
        let locals = std::mem::take(&mut self.locals);
        let ctx = std::mem::take(&mut self.ctx);
        if self.mode == Mode::Apply {
            self.mode = Mode::Context;
            walk(self);
            self.mode = Mode::Apply;
            self.scopes.clear();
            self.assign_locals();
        }
        walk(self);
        self.scopes = scopes;
        self.locals = locals;
        self.ctx = ctx;
    }

    fn assign_locals(&mut self) {
        let ctx = std::mem::take(&mut self.ctx);
        self.locals.clear();
        if !self.opts.classes.contains(&Class::Locals) {
            return;
        }
        let mut forbidden: BTreeSet<String> =
            RESERVED.split_whitespace().map(str::to_string).collect();
        for n in &ctx.others {
            forbidden.insert(self.global.get(n).unwrap_or(n).clone());
        }
        forbidden.extend(ctx.pinned.iter().cloned());
        let mut order: Vec<(&String, &usize)> = ctx
            .locals
            .iter()
            .filter(|(n, _)| !ctx.pinned.contains(*n))
            .collect();
        // Pinned locals keep their names: no other local may take them.
        for n in ctx.locals.keys() {
            if ctx.pinned.contains(n) {
                forbidden.insert(n.clone());
            }
        }
        order.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let mut names = NameSource::new(false);
        for (name, _) in order {
            let new = names.next_free(&forbidden);
            self.locals.insert(name.clone(), new);
        }
    }

    fn walk_fn_body(&mut self, sig: &mut syn::Signature, block: Option<&mut syn::Block>) {
        self.scopes.push(Vec::new());
        self.visit_signature_mut(sig);
        if let Some(b) = block {
            self.visit_block_mut(b);
        }
        self.scopes.pop();
    }

    fn process_macro(&mut self, mac: &mut Macro) {
        let name = mac
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        // A macro's name is never renamed (nor a `use ... as` alias of it);
        // the modules of its path are.
        if self.mode == Mode::Global {
            self.kept.insert(name.clone());
        }
        let segments = mac.path.segments.len();
        for s in mac
            .path
            .segments
            .iter_mut()
            .take(segments.saturating_sub(1))
        {
            self.other(&mut s.ident, true);
        }
        if let Some(&(_, fmt)) = EXPR_MACROS.iter().find(|(n, _)| *n == name) {
            if name == "vec" {
                if let Ok((mut a, semi, mut b)) =
                    mac.parse_body_with(|input: syn::parse::ParseStream| {
                        let a: Expr = input.parse()?;
                        let semi: syn::Token![;] = input.parse()?;
                        let b: Expr = input.parse()?;
                        Ok((a, semi, b))
                    })
                {
                    self.visit_expr_mut(&mut a);
                    self.visit_expr_mut(&mut b);
                    if self.mode == Mode::Apply {
                        let mut ts = a.to_token_stream();
                        semi.to_tokens(&mut ts);
                        b.to_tokens(&mut ts);
                        mac.tokens = ts;
                    }
                    return;
                }
            }
            match mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated) {
                Ok(mut args) => {
                    for (k, arg) in args.iter_mut().enumerate() {
                        if Some(k) == fmt {
                            if let Expr::Lit(syn::ExprLit {
                                lit: Lit::Str(s), ..
                            }) = arg
                            {
                                self.format_string(s);
                                continue;
                            }
                        }
                        self.visit_expr_mut(arg);
                    }
                    if self.mode == Mode::Apply {
                        mac.tokens = args.to_token_stream();
                    }
                }
                Err(_) => self.unparsed(mac),
            }
            return;
        }
        // A macro whose body is a function (cargo-equip's `fast_fn!`).
        if let Ok(f) = mac.parse_body::<syn::ImplItemFn>() {
            let mut item = ImplItem::Fn(f);
            self.visit_impl_item_mut(&mut item);
            if self.mode == Mode::Apply {
                mac.tokens = item.to_token_stream();
            }
            return;
        }
        self.unparsed(mac);
    }

    /// A macro invocation whose body is not parsed: its names are kept,
    /// `line!()` in it becomes the input's line, and unless no program can
    /// print its text, the printer keeps its source's spacing.
    fn unparsed(&mut self, mac: &mut Macro) {
        self.pin(&mac.tokens.clone());
        if self.mode != Mode::Apply {
            return;
        }
        let Some(last) = mac.path.segments.last() else {
            return;
        };
        let name = last.ident.to_string();
        if !TEXTLESS_MACROS.contains(&name.as_str()) {
            self.spaced.insert(print::at(last.ident.span()));
        }
        if name != "stringify" {
            mac.tokens = with_line_numbers(mac.tokens.clone());
        }
    }

    fn use_tree(&mut self, tree: &mut UseTree) {
        match tree {
            UseTree::Path(p) => {
                self.other(&mut p.ident, true);
                self.use_tree(&mut p.tree);
            }
            UseTree::Name(n) => self.other(&mut n.ident, true),
            UseTree::Rename(r) => {
                self.other(&mut r.ident, true);
                self.define(&r.rename, Class::Modules);
                self.other(&mut r.rename, true);
            }
            UseTree::Glob(_) => {}
            UseTree::Group(g) => {
                for t in g.items.iter_mut() {
                    self.use_tree(t);
                }
            }
        }
    }

    fn generics(&mut self, g: &syn::Generics) {
        for p in &g.params {
            match p {
                syn::GenericParam::Type(t) => self.define(&t.ident, Class::Types),
                syn::GenericParam::Const(c) => self.define(&c.ident, Class::Constants),
                syn::GenericParam::Lifetime(_) => {}
            }
        }
    }

    /// A struct, enum or union named `ident`.
    fn adt(&mut self, ident: &Ident) {
        *self.assoc.adt_sites.entry(name_of(ident)).or_default() += 1;
    }

    /// Keeps the names of `fields` (a derived `Debug` prints them).
    fn keep_fields(&mut self, fields: &syn::Fields) {
        for f in fields {
            if let Some(i) = &f.ident {
                self.kept.insert(name_of(i));
            }
        }
    }

    fn fields(&mut self, fields: &syn::Fields) {
        for f in fields {
            if let Some(i) = &f.ident {
                self.define(i, Class::Fields);
            }
        }
    }
}

impl VisitMut for Walker<'_> {
    fn visit_item_mut(&mut self, item: &mut Item) {
        if self.mode == Mode::Context {
            // A `macro_rules!` inside a function may name its locals.
            if let Item::Macro(m) = item {
                if m.mac.path.is_ident("macro_rules") {
                    let tokens = m.mac.tokens.clone();
                    self.pin(&tokens);
                }
            }
            return;
        }
        if let Item::Macro(m) = item {
            if m.mac.path.is_ident("macro_rules") {
                if let Some(i) = &m.ident {
                    if self.mode == Mode::Global {
                        self.kept.insert(name_of(i));
                    }
                }
                self.line_in_macro |= calls_line(&m.mac.tokens);
                let tokens = m.mac.tokens.clone();
                self.pin(&tokens);
                return;
            }
        }
        if self.mode == Mode::Global {
            match &*item {
                Item::Fn(f) => {
                    self.define(&f.sig.ident, Class::Functions);
                    self.generics(&f.sig.generics);
                }
                Item::Struct(s) => {
                    self.define(&s.ident, Class::Types);
                    self.adt(&s.ident);
                    self.generics(&s.generics);
                    self.fields(&s.fields);
                    if !self.opts.rename_debug && derives_debug(&s.attrs) {
                        self.kept.insert(name_of(&s.ident));
                        self.keep_fields(&s.fields);
                    }
                }
                Item::Union(u) => {
                    self.define(&u.ident, Class::Types);
                    self.adt(&u.ident);
                    self.generics(&u.generics);
                    for f in &u.fields.named {
                        if let Some(i) = &f.ident {
                            self.define(i, Class::Fields);
                        }
                    }
                }
                Item::Enum(e) => {
                    self.define(&e.ident, Class::Types);
                    self.adt(&e.ident);
                    self.generics(&e.generics);
                    let debug = !self.opts.rename_debug && derives_debug(&e.attrs);
                    for v in &e.variants {
                        self.define(&v.ident, Class::Variants);
                        self.fields(&v.fields);
                        if debug {
                            self.kept.insert(name_of(&v.ident));
                            self.keep_fields(&v.fields);
                        }
                    }
                }
                Item::Trait(t) => {
                    self.define(&t.ident, Class::Types);
                    self.traits.insert(name_of(&t.ident));
                    self.generics(&t.generics);
                    for ti in &t.items {
                        match ti {
                            TraitItem::Fn(f) => {
                                self.define(&f.sig.ident, Class::Functions);
                                self.generics(&f.sig.generics);
                            }
                            TraitItem::Const(c) => self.define(&c.ident, Class::Constants),
                            TraitItem::Type(ty) => self.define(&ty.ident, Class::Types),
                            _ => {}
                        }
                    }
                }
                Item::Type(t) => {
                    self.define(&t.ident, Class::Types);
                    self.generics(&t.generics);
                }
                Item::Const(c) => self.define(&c.ident, Class::Constants),
                Item::Static(s) => self.define(&s.ident, Class::Constants),
                Item::Mod(m) => self.define(&m.ident, Class::Modules),
                Item::Impl(i) => {
                    self.generics(&i.generics);
                    if let Some((_, path, _)) = &i.trait_ {
                        let t = path
                            .segments
                            .last()
                            .map(|s| s.ident.to_string())
                            .unwrap_or_default();
                        let names = i
                            .items
                            .iter()
                            .filter_map(|ii| match ii {
                                ImplItem::Fn(f) => Some(name_of(&f.sig.ident)),
                                ImplItem::Const(c) => Some(name_of(&c.ident)),
                                ImplItem::Type(t) => Some(name_of(&t.ident)),
                                _ => None,
                            })
                            .collect();
                        self.trait_impls.push((t, names));
                    }
                }
                _ => {}
            }
        }
        if let Item::Use(u) = item {
            self.use_tree(&mut u.tree);
            return;
        }
        self.context(|w| visit_mut::visit_item_mut(w, item));
    }

    fn visit_impl_item_mut(&mut self, item: &mut ImplItem) {
        if self.mode == Mode::Context {
            return;
        }
        if self.mode == Mode::Global {
            match &*item {
                ImplItem::Fn(f) => {
                    self.define(&f.sig.ident, Class::Functions);
                    self.generics(&f.sig.generics);
                    if self.impl_inherent {
                        let ty = self.impl_self.clone().unwrap_or(assoc::UNRESOLVED.into());
                        let entry = self
                            .assoc
                            .inherent
                            .entry(name_of(&f.sig.ident))
                            .or_default();
                        entry.0 += 1;
                        entry.1.insert(ty);
                    }
                }
                ImplItem::Const(c) => self.define(&c.ident, Class::Constants),
                ImplItem::Type(t) => self.define(&t.ident, Class::Types),
                _ => {}
            }
        }
        self.context(|w| visit_mut::visit_impl_item_mut(w, item));
    }

    fn visit_trait_item_mut(&mut self, item: &mut TraitItem) {
        if self.mode == Mode::Context {
            return;
        }
        self.context(|w| visit_mut::visit_trait_item_mut(w, item));
    }

    fn visit_item_fn_mut(&mut self, f: &mut syn::ItemFn) {
        for a in &mut f.attrs {
            self.visit_attribute_mut(a);
        }
        self.visit_visibility_mut(&mut f.vis);
        self.walk_fn_body(&mut f.sig, Some(&mut *f.block));
    }

    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        self.visit_visibility_mut(&mut f.vis);
        self.walk_fn_body(&mut f.sig, Some(&mut f.block));
        if self.mode == Mode::Apply && self.impl_inherent {
            let on_eligible = self
                .impl_self
                .as_ref()
                .is_some_and(|t| self.assoc_types.contains(t));
            if let Some(new) = self.assoc_names.get(&name_of(&f.sig.ident)) {
                if on_eligible {
                    f.sig.ident = Ident::new(new, f.sig.ident.span());
                }
            }
        }
    }

    fn visit_item_impl_mut(&mut self, i: &mut syn::ItemImpl) {
        let ty = match &*i.self_ty {
            syn::Type::Path(p) if p.qself.is_none() => {
                p.path.segments.last().map(|s| name_of(&s.ident))
            }
            _ => None,
        };
        let saved = (self.impl_self.take(), self.impl_inherent);
        self.impl_self = ty;
        self.impl_inherent = i.trait_.is_none();
        visit_mut::visit_item_impl_mut(self, i);
        (self.impl_self, self.impl_inherent) = saved;
    }

    fn visit_path_mut(&mut self, p: &mut syn::Path) {
        let n = p.segments.len();
        if n < 2 {
            visit_mut::visit_path_mut(self, p);
            return;
        }
        let name = name_of(&p.segments[n - 1].ident);
        let prefix = name_of(&p.segments[n - 2].ident);
        let prefix = if prefix == "Self" {
            self.impl_self.clone().unwrap_or(assoc::UNRESOLVED.into())
        } else {
            prefix
        };
        if self.mode == Mode::Global {
            let entry = self.assoc.qualified.entry(name).or_default();
            entry.0 += 1;
            entry.1.insert(prefix);
            visit_mut::visit_path_mut(self, p);
            return;
        }
        let new = self
            .assoc_names
            .get(&name)
            .filter(|_| self.assoc_types.contains(&prefix))
            .cloned();
        visit_mut::visit_path_mut(self, p);
        if let (Some(new), Mode::Apply) = (new, self.mode) {
            let last = &mut p.segments[n - 1].ident;
            *last = Ident::new(&new, last.span());
        }
    }

    fn visit_trait_item_fn_mut(&mut self, f: &mut syn::TraitItemFn) {
        self.walk_fn_body(&mut f.sig, f.default.as_mut());
    }

    fn visit_attribute_mut(&mut self, _: &mut syn::Attribute) {}

    fn visit_lifetime_mut(&mut self, _: &mut syn::Lifetime) {}

    fn visit_macro_mut(&mut self, mac: &mut Macro) {
        self.process_macro(mac);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Macro(m) = e {
            let p = &m.mac.path;
            let std_path = p.segments.len() == 1
                || (p.segments.len() == 2
                    && matches!(p.segments[0].ident.to_string().as_str(), "std" | "core"));
            let is_line = std_path
                && p.segments.last().is_some_and(|s| s.ident == "line")
                && m.mac.tokens.is_empty();
            if is_line {
                // The output is one line: `line!()` would be 1.
                if self.mode == Mode::Apply {
                    let span = m.mac.path.span();
                    *e = Expr::Lit(syn::ExprLit {
                        attrs: std::mem::take(&mut m.attrs),
                        lit: Lit::new(line_literal(span)),
                    });
                }
                return;
            }
        }
        visit_mut::visit_expr_mut(self, e);
    }

    fn visit_ident_mut(&mut self, i: &mut Ident) {
        self.other(i, true);
    }

    fn visit_member_mut(&mut self, m: &mut Member) {
        if let Member::Named(i) = m {
            self.other(i, false);
        }
    }

    fn visit_expr_method_call_mut(&mut self, e: &mut ExprMethodCall) {
        if self.mode == Mode::Global {
            self.assoc.method_called.insert(name_of(&e.method));
        }
        self.visit_expr_mut(&mut e.receiver);
        self.other(&mut e.method, false);
        if let Some(t) = &mut e.turbofish {
            self.visit_angle_bracketed_generic_arguments_mut(t);
        }
        for a in e.args.iter_mut() {
            self.visit_expr_mut(a);
        }
    }

    fn visit_expr_path_mut(&mut self, e: &mut ExprPath) {
        if let (Some(_), Some(last), Mode::Global) = (&e.qself, e.path.segments.last(), self.mode) {
            // `<T>::N`, `<T as Trait>::N`: not resolved here.
            let entry = self
                .assoc
                .qualified
                .entry(name_of(&last.ident))
                .or_default();
            entry.1.insert(assoc::UNRESOLVED.into());
        }
        let p = &mut e.path;
        if e.qself.is_none()
            && p.leading_colon.is_none()
            && p.segments.len() == 1
            && p.segments[0].arguments.is_none()
            && self.is_local(&name_of(&p.segments[0].ident))
        {
            self.local(&mut p.segments[0].ident);
            return;
        }
        visit_mut::visit_expr_path_mut(self, e);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        self.scopes.push(Vec::new());
        for s in &mut b.stmts {
            self.visit_stmt_mut(s);
        }
        self.scopes.pop();
    }

    fn visit_local_mut(&mut self, l: &mut Local) {
        if let Some(init) = &mut l.init {
            self.visit_expr_mut(&mut init.expr);
            if let Some((_, d)) = &mut init.diverge {
                self.visit_expr_mut(d);
            }
        }
        self.visit_pat_mut(&mut l.pat);
    }

    fn visit_expr_closure_mut(&mut self, c: &mut ExprClosure) {
        self.scopes.push(Vec::new());
        for p in c.inputs.iter_mut() {
            self.visit_pat_mut(p);
        }
        self.visit_return_type_mut(&mut c.output);
        self.visit_expr_mut(&mut c.body);
        self.scopes.pop();
    }

    fn visit_arm_mut(&mut self, a: &mut Arm) {
        self.scopes.push(Vec::new());
        self.visit_pat_mut(&mut a.pat);
        if let Some((_, g)) = &mut a.guard {
            self.visit_expr_mut(g);
        }
        self.visit_expr_mut(&mut a.body);
        self.scopes.pop();
    }

    fn visit_expr_if_mut(&mut self, e: &mut ExprIf) {
        self.scopes.push(Vec::new());
        self.visit_expr_mut(&mut e.cond);
        self.visit_block_mut(&mut e.then_branch);
        self.scopes.pop();
        if let Some((_, els)) = &mut e.else_branch {
            self.visit_expr_mut(els);
        }
    }

    fn visit_expr_while_mut(&mut self, e: &mut ExprWhile) {
        self.scopes.push(Vec::new());
        self.visit_expr_mut(&mut e.cond);
        self.visit_block_mut(&mut e.body);
        self.scopes.pop();
    }

    fn visit_expr_for_loop_mut(&mut self, e: &mut ExprForLoop) {
        self.visit_expr_mut(&mut e.expr);
        self.scopes.push(Vec::new());
        self.visit_pat_mut(&mut e.pat);
        self.visit_block_mut(&mut e.body);
        self.scopes.pop();
    }

    fn visit_expr_let_mut(&mut self, e: &mut ExprLet) {
        self.visit_expr_mut(&mut e.expr);
        self.visit_pat_mut(&mut e.pat);
    }

    fn visit_expr_struct_mut(&mut self, e: &mut ExprStruct) {
        if let Some(q) = &mut e.qself {
            self.visit_qself_mut(q);
        }
        self.visit_path_mut(&mut e.path);
        for f in e.fields.iter_mut() {
            self.visit_field_value_mut(f);
        }
        if let Some(r) = &mut e.rest {
            self.visit_expr_mut(r);
        }
    }

    fn visit_field_value_mut(&mut self, f: &mut FieldValue) {
        self.visit_member_mut(&mut f.member);
        self.visit_expr_mut(&mut f.expr);
        if f.colon_token.is_none() {
            let same = match (&f.member, &f.expr) {
                (Member::Named(m), Expr::Path(p)) => p.path.is_ident(m),
                _ => true,
            };
            if !same {
                f.colon_token = Some(Default::default());
            }
        }
    }

    fn visit_field_pat_mut(&mut self, f: &mut FieldPat) {
        self.visit_member_mut(&mut f.member);
        self.visit_pat_mut(&mut f.pat);
        if f.colon_token.is_none() {
            let same = match (&f.member, &*f.pat) {
                (Member::Named(m), Pat::Ident(p)) => p.ident == *m,
                _ => true,
            };
            if !same {
                f.colon_token = Some(Default::default());
            }
        }
    }

    fn visit_pat_mut(&mut self, p: &mut Pat) {
        match p {
            Pat::Ident(pi) => {
                let name = name_of(&pi.ident);
                if is_binding_name(&name) {
                    self.bind(&mut pi.ident);
                } else {
                    self.other(&mut pi.ident, true);
                }
                if let Some((_, sub)) = &mut pi.subpat {
                    self.visit_pat_mut(sub);
                }
            }
            _ => visit_mut::visit_pat_mut(self, p),
        }
    }
}

/// Renames `src`'s identifiers (see the module docs) and prints it compactly.
///
/// # Errors
/// When `src` does not parse, or a rename fails: the message names the
/// identifier and its line.
pub fn minify(src: &str, opts: &Options) -> Result<Minified, String> {
    let parsed = syn::parse_file(src).map_err(|e| {
        let at = e.span().start();
        format!("line {}:{}: cannot parse: {e}", at.line, at.column + 1)
    })?;
    // Doc comments are no part of the program: dropped before anything else
    // (the string check then skips the `#[doc = "..."]` literals).
    let mut doc_spans = Vec::new();
    let tokens = strip_docs(parsed.to_token_stream(), &mut doc_spans);
    let mut file: syn::File = syn::parse2(tokens).map_err(|e| {
        format!(
            "line {}: cannot parse once the doc comments are dropped: {e}",
            line_of(e.span())
        )
    })?;
    let dropped: Vec<usize> = doc_spans
        .iter()
        .map(|s| checks::offset(src, s.start().line, s.start().column))
        .collect();
    let empty = BTreeMap::new();
    let mut g = Walker::new(Mode::Global, opts, &empty);
    g.visit_file_mut(&mut file);
    if let Some(e) = g.error {
        return Err(e);
    }
    // Names kept: std's, keywords, those a foreign trait requires, pinned.
    let mut kept: BTreeSet<String> = STD_NAMES.lines().map(str::to_string).collect();
    kept.extend(RESERVED.split_whitespace().map(str::to_string));
    kept.extend(g.kept.iter().cloned());
    for (t, names) in &g.trait_impls {
        if !g.traits.contains(t) {
            kept.extend(names.iter().cloned());
        }
    }
    let renamable: Vec<(&String, usize)> = g
        .defined
        .iter()
        .filter(|(n, classes)| {
            !kept.contains(*n)
                && !kept.contains(bare(n))
                && classes.iter().all(|c| opts.classes.contains(c))
        })
        .map(|(n, _)| (n, g.counts.get(n).copied().unwrap_or(0)))
        .collect();
    let renamable_set: BTreeSet<&String> = renamable.iter().map(|(n, _)| *n).collect();
    // New names avoid every name that stays.
    let mut forbidden = kept.clone();
    for n in g.counts.keys() {
        if !renamable_set.contains(n) {
            forbidden.insert(n.clone());
        }
    }
    if !opts.classes.contains(&Class::Locals) {
        forbidden.extend(g.local_names.iter().cloned());
    }
    // Std's names on the program's own types (`Grid::new`): minify/assoc.rs.
    let std_names: BTreeSet<String> = STD_NAMES.lines().map(str::to_string).collect();
    let trait_items: BTreeSet<String> = g
        .trait_impls
        .iter()
        .flat_map(|(_, names)| names.iter().cloned())
        .collect();
    let assoc_candidates = if opts.classes.contains(&Class::Functions) {
        g.assoc.candidates(&std_names, &g.kept, &trait_items)
    } else {
        Vec::new()
    };
    let assoc_types: BTreeSet<String> = g
        .assoc
        .adt_sites
        .keys()
        .filter(|t| g.assoc.eligible_type(t, &std_names))
        .cloned()
        .collect();
    let mut sorted: Vec<(&String, usize, bool)> =
        renamable.iter().map(|&(n, c)| (n, c, false)).collect();
    sorted.extend(assoc_candidates.iter().map(|(n, c)| (n, *c, true)));
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut lower = NameSource::new(false);
    let mut upper = NameSource::new(true);
    let mut global = BTreeMap::new();
    let mut assoc_names = BTreeMap::new();
    for (name, _, is_assoc) in sorted {
        let source = if is_binding_name(name) {
            &mut lower
        } else {
            &mut upper
        };
        let new = source.next_free(&forbidden);
        if is_assoc {
            assoc_names.insert(name.clone(), new);
        } else {
            global.insert(name.clone(), new);
        }
    }
    let mut a = Walker::new(Mode::Apply, opts, &global);
    a.assoc_names = assoc_names;
    a.assoc_types = assoc_types;
    a.visit_file_mut(&mut file);
    if let Some(e) = a.error {
        return Err(e);
    }
    if !global.is_empty() {
        // Short names break Rust's naming conventions on purpose: one
        // attribute instead of a warning per name (141 on the bot).
        file.attrs
            .insert(0, syn::parse_quote!(#![allow(nonstandard_style)]));
    }
    // A `line!()` in a `macro_rules!` body gives its invocation's line:
    // then every token stays on its line.
    let printed = print::print_mapped(
        file.to_token_stream(),
        &a.spaced,
        a.line_in_macro,
        opts.trailing_commas,
    );
    checks::check_strings(src, &printed, &a.rewritten, &dropped)?;
    checks::check_parses(&printed)?;
    let mut text = printed.text.clone();
    text.push('\n');
    Ok(Minified {
        text,
        printed,
        renamed: global,
    })
}

/// The line of the first token of `node` (for messages).
pub fn line<T: Spanned>(node: &T) -> usize {
    line_of(node.span())
}

#[cfg(test)]
mod tests;
