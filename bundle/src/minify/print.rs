//! The compact printer of `bundle minify`: tokens without the spaces that
//! are not needed, a map from the output back to the input's lines (for
//! messages), and the source's own spacing inside the macro invocations
//! whose text a program may print (`stringify!`, a macro the renamer does
//! not parse).

use proc_macro2::{Delimiter, Group, LineColumn, Spacing, Span, TokenStream, TokenTree};
use std::collections::BTreeSet;

/// Where a macro invocation starts in the input (its name's first
/// character): line (1-based) and column (0-based, in characters).
pub type At = (usize, usize);

/// The printed text and, for each token, its byte offset in the text and
/// its span in the input.
#[derive(Clone, Debug)]
pub struct Printed {
    /// The program, on as few lines as its string literals allow.
    pub text: String,
    /// (byte offset in `text`, the token's input span), in increasing
    /// offset order.
    pub tokens: Vec<(usize, Span)>,
}

impl Printed {
    /// The input line (0 for a token the renamer made) and the input's
    /// spelling of the token printed at byte offset `at` of the output (the
    /// last token that starts at or before it).
    pub fn origin(&self, at: usize) -> (usize, String) {
        let k = self
            .tokens
            .partition_point(|&(o, _)| o <= at)
            .saturating_sub(1);
        let Some(&(start, span)) = self.tokens.get(k) else {
            return (0, String::new());
        };
        let end = self.tokens.get(k + 1).map_or(self.text.len(), |&(o, _)| o);
        let printed = self.text[start..end].trim().to_string();
        let source = span.source_text().filter(|s| !s.is_empty());
        (span.start().line, source.unwrap_or(printed))
    }
}

/// Two punctuation characters that make one token when written together.
fn fuses(a: char, b: char) -> bool {
    matches!(
        (a, b),
        ('<', '<' | '=' | '-')
            | ('>', '=')
            | ('=', '=' | '>')
            | ('!', '=')
            | ('-', '>' | '=')
            | ('+' | '*' | '%' | '^', '=')
            | ('/', '=' | '/' | '*')
            | ('*', '/')
            | ('&', '=')
            | ('|', '=')
            | (':', ':')
            | ('.', '.')
            | ('#', '#')
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Last {
    Start,
    Word,
    /// A literal that ends with a `.` (`0.`): a following `.` would fuse.
    Dotted,
    /// A punctuation character, and what came before it.
    Punct(char, Spacing, After),
    Open,
    Close,
}

/// What precedes a punctuation character: whether `& &` or `| |` may be
/// written `&&` or `||` (two references; an empty closure's bars) or not
/// (`a & &b`; `|x| |y|`, a closure returning one).
#[derive(Clone, Copy, PartialEq)]
enum After {
    /// A word, a literal, a closing delimiter or `?`: the character is a
    /// binary operator, or a closure's closing bar.
    Operand,
    /// `>`: a closing bar after a generic type (`|v: Vec<u8>| |i|`).
    Angle,
    Other,
}

struct Printer<'a> {
    out: String,
    tokens: Vec<(usize, Span)>,
    last: Last,
    /// Unparsed macro invocations printed with the source's spacing.
    spaced: &'a BTreeSet<At>,
    /// Inside such an invocation: where the previous token ended.
    source_end: Option<LineColumn>,
    /// Print each token on its input line (for a `line!()` in a
    /// `macro_rules!` body, which gives its invocation's line).
    keep_lines: bool,
    /// The output's current line (1-based).
    line: usize,
    /// Drop the trailing commas that mean nothing (see [`print_mapped`]).
    trailing_commas: bool,
    /// How many macro bodies the printer is in (their commas stay).
    in_macro: usize,
}

/// Keywords that may precede a parenthesized type, pattern or expression
/// (`mut (x,)`, `in (a,)`): a trailing comma there may make a tuple of one.
const KEYWORDS: &[&str] = &[
    "as", "box", "break", "const", "continue", "crate", "dyn", "else", "if", "impl", "in", "let",
    "loop", "match", "move", "mut", "ref", "return", "static", "super", "unsafe", "where", "while",
    "yield", "await", "async", "for", "fn", "pub", "use", "type", "self", "Self",
];

/// Prints tokens with a space only where two would otherwise fuse.
pub fn print(ts: TokenStream) -> String {
    print_mapped(ts, &BTreeSet::new(), false, false).text
}

/// Prints tokens compactly; the macro invocations that start at a position
/// of `spaced` keep one space wherever their source had white space or a
/// comment between two tokens (so `stringify!` prints the same text).
/// With `keep_lines`, each token is printed on its input line (line
/// breaks instead of spaces where the input's line changes). With
/// `trailing_commas`, the trailing comma of a brace or bracket group and of
/// a parenthesis group after a name (a call, parameters, a tuple struct) is
/// dropped, outside macro bodies.
pub fn print_mapped(
    ts: TokenStream,
    spaced: &BTreeSet<At>,
    keep_lines: bool,
    trailing_commas: bool,
) -> Printed {
    let mut p = Printer {
        out: String::new(),
        tokens: Vec::new(),
        last: Last::Start,
        spaced,
        source_end: None,
        keep_lines,
        line: 1,
        trailing_commas,
        in_macro: 0,
    };
    p.stream(ts, false);
    Printed {
        text: p.out,
        tokens: p.tokens,
    }
}

/// Where `span` starts in the input.
pub fn at(span: Span) -> At {
    let s = span.start();
    (s.line, s.column)
}

impl Printer<'_> {
    /// Inside a spaced invocation, a space where the source had one; with
    /// `keep_lines`, line breaks up to the token's input line first.
    fn source_space(&mut self, span: Span) {
        let line = span.start().line;
        if self.keep_lines && line > self.line {
            for _ in self.line..line {
                self.out.push('\n');
            }
            self.line = line;
            self.last = Last::Start;
        }
        if let Some(end) = self.source_end {
            if span.start() != end && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
                self.last = Last::Start;
            }
            self.source_end = Some(span.end());
        }
    }

    fn mark(&mut self, span: Span) {
        self.tokens.push((self.out.len(), span));
    }

    fn stream(&mut self, ts: TokenStream, trim: bool) {
        let mut tokens: Vec<TokenTree> = ts.into_iter().collect();
        if trim && self.in_macro == 0 {
            if let Some(TokenTree::Punct(p)) = tokens.last() {
                if p.as_char() == ',' {
                    tokens.pop();
                }
            }
        }
        let mut k = 0;
        while k < tokens.len() {
            let tt = &tokens[k];
            if let TokenTree::Group(g) = tt {
                let ident = |j: usize| matches!(tokens.get(j), Some(TokenTree::Ident(_)));
                let bang = |j: usize| matches!(tokens.get(j), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                // `name!(...)`, `macro_rules! name {...}` (and `!(...)`
                // after a keyword, which costs nothing to leave alone).
                let macro_body = (k >= 2 && bang(k - 1) && ident(k - 2))
                    || (k >= 3 && ident(k - 1) && bang(k - 2) && ident(k - 3));
                let trim = match g.delimiter() {
                    Delimiter::Brace | Delimiter::Bracket => true,
                    // A call, a function's parameters, a tuple struct: not
                    // `(x,)`, a tuple of one, nor `mut (x,)`, `'a (x,)`.
                    Delimiter::Parenthesis => {
                        let lifetime = k >= 2
                            && matches!(&tokens[k - 2], TokenTree::Punct(p) if p.as_char() == '\'');
                        k >= 1
                            && !lifetime
                            && matches!(&tokens[k - 1], TokenTree::Ident(i)
                                if !KEYWORDS.contains(&i.to_string().as_str()))
                    }
                    Delimiter::None => false,
                };
                self.in_macro += usize::from(macro_body);
                self.group(g, trim && self.trailing_commas);
                self.in_macro -= usize::from(macro_body);
                k += 1;
                continue;
            }
            // `name!(...)` whose source spacing is kept.
            if let (TokenTree::Ident(i), Some(TokenTree::Punct(bang)), Some(TokenTree::Group(g))) =
                (tt, tokens.get(k + 1), tokens.get(k + 2))
            {
                if bang.as_char() == '!'
                    && self.source_end.is_none()
                    && self.spaced.contains(&at(i.span()))
                {
                    self.token(&tokens[k]);
                    self.token(&tokens[k + 1]);
                    self.source_end = Some(g.span_open().start());
                    self.in_macro += 1;
                    self.group(g, false);
                    self.in_macro -= 1;
                    self.source_end = None;
                    k += 3;
                    continue;
                }
            }
            self.token(tt);
            k += 1;
        }
    }

    fn token(&mut self, tt: &TokenTree) {
        match tt {
            TokenTree::Ident(i) => {
                self.source_space(i.span());
                if matches!(self.last, Last::Word | Last::Dotted) {
                    self.out.push(' ');
                }
                self.mark(i.span());
                self.out.push_str(&i.to_string());
                self.last = Last::Word;
            }
            TokenTree::Literal(l) => {
                self.source_space(l.span());
                let s = l.to_string();
                if matches!(self.last, Last::Word | Last::Dotted | Last::Punct('\'', ..)) {
                    self.out.push(' ');
                }
                self.mark(l.span());
                self.out.push_str(&s);
                self.line += s.matches('\n').count();
                // `0.` then `..`: `0...` would not lex as the source did.
                self.last = if s.ends_with('.') {
                    Last::Dotted
                } else {
                    Last::Word
                };
            }
            TokenTree::Punct(p) => {
                self.source_space(p.span());
                let c = p.as_char();
                match self.last {
                    Last::Punct(a, Spacing::Alone, _) if fuses(a, c) => self.out.push(' '),
                    // `a & &b` is not `a && b`, `|x| |y|` not `|x||y|`;
                    // `&&b` and `||x` at an operand's place mean the same.
                    Last::Punct('&', Spacing::Alone, After::Operand) if c == '&' => {
                        self.out.push(' ');
                    }
                    Last::Punct('|', Spacing::Alone, After::Operand | After::Angle) if c == '|' => {
                        self.out.push(' ');
                    }
                    Last::Word if c == '\'' => self.out.push(' '),
                    Last::Dotted if c == '.' => self.out.push(' '),
                    _ => {}
                }
                self.mark(p.span());
                self.out.push(c);
                let after = match self.last {
                    Last::Word | Last::Dotted | Last::Close | Last::Punct('?', ..) => {
                        After::Operand
                    }
                    Last::Punct('>', ..) => After::Angle,
                    _ => After::Other,
                };
                self.last = Last::Punct(c, p.spacing(), after);
            }
            TokenTree::Group(g) => self.group(g, false),
        }
    }

    /// Prints a group; with `trim`, without its trailing comma.
    fn group(&mut self, g: &Group, trim: bool) {
        let (open, close) = match g.delimiter() {
            Delimiter::Parenthesis => ("(", ")"),
            Delimiter::Brace => ("{", "}"),
            Delimiter::Bracket => ("[", "]"),
            Delimiter::None => ("", ""),
        };
        if !open.is_empty() {
            self.source_space(g.span_open());
            self.mark(g.span_open());
            self.out.push_str(open);
            self.last = Last::Open;
        }
        self.stream(g.stream(), trim);
        if !close.is_empty() {
            self.source_space(g.span_close());
            self.mark(g.span_close());
            self.out.push_str(close);
            self.last = Last::Close;
        }
    }
}
