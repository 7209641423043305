//! Resolving `cfg(cargo_equip)` in the binary's own modules, which
//! cargo-equip leaves as they are (it resolves them in the library only).
//!
//! The binary's text is parsed with `syn`, and every node that may carry
//! an attribute and can go alone is resolved: an item (also inside a
//! function, an `impl` or a trait), a statement, a named or unnamed field,
//! a field of a struct expression or pattern, an enum variant, a match arm,
//! a function parameter. A node under [`NOT_IN_SUBMISSION`] or
//! [`TESTS_ONLY`] is cut from the text, with the comma that follows it in a
//! list (cargo-equip leaves that comma, and with it a `,,`: the reason the
//! library gates items and arms only); [`ONLY_IN_SUBMISSION`] is cut alone
//! and its node kept. Everything else keeps its bytes. Such an attribute on
//! any other node (an expression inside another) is refused.

use crate::minify::checks::offset;
use crate::{NOT_IN_SUBMISSION, ONLY_IN_SUBMISSION, TESTS_ONLY};
use proc_macro2::Span;
use quote::ToTokens;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, Item, Stmt};

/// What an attribute says of its node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Not one of the three: the node and the attribute stay.
    Other,
    /// [`NOT_IN_SUBMISSION`] or [`TESTS_ONLY`]: the node goes.
    Drop,
    /// [`ONLY_IN_SUBMISSION`]: the attribute goes, the node stays.
    Keep,
}

/// The verdict of one attribute: compared without spaces, so `#[cfg(not(
/// cargo_equip))]` is [`NOT_IN_SUBMISSION`].
fn verdict(attr: &Attribute) -> Verdict {
    let text: String = attr
        .to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if text == NOT_IN_SUBMISSION || text == TESTS_ONLY {
        Verdict::Drop
    } else if text == ONLY_IN_SUBMISSION {
        Verdict::Keep
    } else {
        Verdict::Other
    }
}

/// Byte ranges of the text to cut.
struct Cuts<'a> {
    text: &'a str,
    ranges: Vec<(usize, usize)>,
}

impl Cuts<'_> {
    fn start(&self, span: Span) -> usize {
        let at = span.start();
        offset(self.text, at.line, at.column)
    }

    fn end(&self, span: Span) -> usize {
        let at = span.end();
        offset(self.text, at.line, at.column)
    }

    /// Whether the node with `attrs` and `span` goes (then it is cut, and
    /// `also`, a separator after it, if any). Its [`ONLY_IN_SUBMISSION`]
    /// attributes are cut when it stays.
    fn resolve(&mut self, attrs: &[Attribute], span: Span, also: Option<Span>) -> bool {
        if attrs.iter().any(|a| verdict(a) == Verdict::Drop) {
            let end = also.map_or(self.end(span), |s| self.end(s));
            self.ranges.push((self.start(span), end));
            return true;
        }
        for a in attrs.iter().filter(|a| verdict(a) == Verdict::Keep) {
            self.ranges.push((self.start(a.span()), self.end(a.span())));
        }
        false
    }

    /// The elements of a comma-separated list: each that goes takes its
    /// comma with it; `visit` walks into those that stay.
    fn list<T: Spanned, P: Spanned>(
        &mut self,
        list: &Punctuated<T, P>,
        attrs: fn(&T) -> &[Attribute],
        mut visit: impl FnMut(&mut Self, &T),
    ) {
        for pair in list.pairs() {
            let (node, comma) = pair.into_tuple();
            if !self.resolve(attrs(node), node.span(), comma.map(Spanned::span)) {
                visit(self, node);
            }
        }
    }
}

/// The outer attributes of an item.
fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The outer attributes of an expression that stands as a statement.
fn expr_attrs(expr: &Expr) -> &[Attribute] {
    match expr {
        Expr::Array(e) => &e.attrs,
        Expr::Assign(e) => &e.attrs,
        Expr::Async(e) => &e.attrs,
        Expr::Await(e) => &e.attrs,
        Expr::Binary(e) => &e.attrs,
        Expr::Block(e) => &e.attrs,
        Expr::Break(e) => &e.attrs,
        Expr::Call(e) => &e.attrs,
        Expr::Cast(e) => &e.attrs,
        Expr::Closure(e) => &e.attrs,
        Expr::Const(e) => &e.attrs,
        Expr::Continue(e) => &e.attrs,
        Expr::Field(e) => &e.attrs,
        Expr::ForLoop(e) => &e.attrs,
        Expr::Group(e) => &e.attrs,
        Expr::If(e) => &e.attrs,
        Expr::Index(e) => &e.attrs,
        Expr::Infer(e) => &e.attrs,
        Expr::Let(e) => &e.attrs,
        Expr::Lit(e) => &e.attrs,
        Expr::Loop(e) => &e.attrs,
        Expr::Macro(e) => &e.attrs,
        Expr::Match(e) => &e.attrs,
        Expr::MethodCall(e) => &e.attrs,
        Expr::Paren(e) => &e.attrs,
        Expr::Path(e) => &e.attrs,
        Expr::Range(e) => &e.attrs,
        Expr::RawAddr(e) => &e.attrs,
        Expr::Reference(e) => &e.attrs,
        Expr::Repeat(e) => &e.attrs,
        Expr::Return(e) => &e.attrs,
        Expr::Struct(e) => &e.attrs,
        Expr::Try(e) => &e.attrs,
        Expr::TryBlock(e) => &e.attrs,
        Expr::Tuple(e) => &e.attrs,
        Expr::Unary(e) => &e.attrs,
        Expr::Unsafe(e) => &e.attrs,
        Expr::While(e) => &e.attrs,
        Expr::Yield(e) => &e.attrs,
        _ => &[],
    }
}

fn stmt_attrs(stmt: &Stmt) -> &[Attribute] {
    match stmt {
        Stmt::Local(l) => &l.attrs,
        Stmt::Item(i) => item_attrs(i),
        Stmt::Expr(e, _) => expr_attrs(e),
        Stmt::Macro(m) => &m.attrs,
    }
}

impl<'ast> Visit<'ast> for Cuts<'_> {
    fn visit_file(&mut self, file: &'ast syn::File) {
        for item in &file.items {
            self.visit_item(item);
        }
    }

    fn visit_item(&mut self, item: &'ast Item) {
        if !self.resolve(item_attrs(item), item.span(), None) {
            visit::visit_item(self, item);
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => return,
        };
        if !self.resolve(attrs, item.span(), None) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let attrs = match item {
            syn::TraitItem::Const(i) => &i.attrs,
            syn::TraitItem::Fn(i) => &i.attrs,
            syn::TraitItem::Type(i) => &i.attrs,
            syn::TraitItem::Macro(i) => &i.attrs,
            _ => return,
        };
        if !self.resolve(attrs, item.span(), None) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_block(&mut self, block: &'ast syn::Block) {
        for stmt in &block.stmts {
            if !self.resolve(stmt_attrs(stmt), stmt.span(), None) {
                match stmt {
                    // An item's own attributes were resolved just now.
                    Stmt::Item(i) => visit::visit_item(self, i),
                    _ => visit::visit_stmt(self, stmt),
                }
            }
        }
    }

    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.visit_expr(&m.expr);
        for arm in &m.arms {
            // An arm's span takes its comma.
            if !self.resolve(&arm.attrs, arm.span(), None) {
                visit::visit_arm(self, arm);
            }
        }
    }

    fn visit_fields_named(&mut self, f: &'ast syn::FieldsNamed) {
        self.list(&f.named, |f| &f.attrs, |v, f| visit::visit_field(v, f));
    }

    fn visit_fields_unnamed(&mut self, f: &'ast syn::FieldsUnnamed) {
        self.list(&f.unnamed, |f| &f.attrs, |v, f| visit::visit_field(v, f));
    }

    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.visit_generics(&e.generics);
        self.list(&e.variants, |v| &v.attrs, |v, x| visit::visit_variant(v, x));
    }

    fn visit_expr_struct(&mut self, e: &'ast syn::ExprStruct) {
        self.visit_path(&e.path);
        self.list(
            &e.fields,
            |f| &f.attrs,
            |v, f| visit::visit_field_value(v, f),
        );
        if let Some(rest) = &e.rest {
            self.visit_expr(rest);
        }
    }

    fn visit_pat_struct(&mut self, p: &'ast syn::PatStruct) {
        self.visit_path(&p.path);
        self.list(&p.fields, |f| &f.attrs, |v, f| visit::visit_field_pat(v, f));
    }

    fn visit_signature(&mut self, s: &'ast syn::Signature) {
        self.visit_generics(&s.generics);
        self.list(
            &s.inputs,
            |a| match a {
                syn::FnArg::Receiver(r) => &r.attrs,
                syn::FnArg::Typed(t) => &t.attrs,
            },
            |v, a| visit::visit_fn_arg(v, a),
        );
        self.visit_return_type(&s.output);
    }
}

/// Resolves the three attributes in `bin`, the binary's text (whole items,
/// as cargo-equip writes them).
///
/// # Errors
/// `bin` does not parse, or one of the attributes is left on a node that
/// cannot go alone, named with what follows it.
pub fn resolve(bin: &str) -> Result<String, String> {
    let file = syn::parse_file(bin).map_err(|e| {
        let at = e.span().start();
        format!(
            "the binary does not parse at line {} column {}: {e}",
            at.line,
            at.column + 1
        )
    })?;
    let mut cuts = Cuts {
        text: bin,
        ranges: Vec::new(),
    };
    cuts.visit_file(&file);
    cuts.ranges.sort_unstable();
    let mut out = String::with_capacity(bin.len());
    let mut at = 0;
    for (start, end) in cuts.ranges {
        // A cut inside one already made (an attribute of a dropped node).
        if start < at {
            continue;
        }
        out.push_str(&bin[at..start]);
        at = end;
    }
    out.push_str(&bin[at..]);
    let code = crate::code_bytes(&out)?;
    for attribute in [NOT_IN_SUBMISSION, TESTS_ONLY, ONLY_IN_SUBMISSION] {
        if let Some(k) = code
            .windows(attribute.len())
            .position(|w| w == attribute.as_bytes())
        {
            let next: String = out[k + attribute.len()..].chars().take(30).collect();
            return Err(format!(
                "{attribute} at byte {k} of the binary is on a node that cannot go alone \
                 (it is on {next:?}): only items, statements, fields, variants, match arms \
                 and function parameters can be resolved"
            ));
        }
    }
    Ok(out)
}
