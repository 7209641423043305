//! The documentation stays true to the code: README.md stays short, each
//! page of `docs/` stays under its length, every relative link (file and
//! `#anchor`) resolves, and every `othello`, `referee` and `train` flag that
//! a page's commands show is one the binary's `--help` lists.
//!
//! Each check is a function that returns its problems, one line each with
//! the file and line, so that the tests below can run it on broken copies
//! (small strings, a scratch directory) as well as on the repository.

use crate::common::{othello, scratch};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The README's length, in characters (not bytes), as `wc -m` counts.
const README_MAX_CHARS: usize = 12_000;
/// A page of `docs/` (not the journal) at most this many lines (`wc -l`).
const PAGE_MAX_LINES: usize = 400;
/// The languages of fenced code blocks whose commands are checked: shell,
/// or none.
const SHELL_FENCES: &[&str] = &["", "sh", "bash", "shell", "console"];

/// The repository's root (the referee's crate is one of its members).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the referee's crate is in the workspace")
        .to_path_buf()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `path` relative to `root`, for messages.
fn shown(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

// ---------------------------------------------------------------- lengths

/// A problem if `text` has more than `max` characters.
fn too_many_chars(name: &str, text: &str, max: usize) -> Option<String> {
    let n = text.chars().count();
    (n > max).then(|| format!("{name}: {n} characters, more than {max}"))
}

/// A problem if `text` has more than `max` lines.
fn too_many_lines(name: &str, text: &str, max: usize) -> Option<String> {
    let n = text.lines().count();
    (n > max).then(|| format!("{name}: {n} lines, more than {max}"))
}

// ---------------------------------------------------------------- Markdown

/// One line of a Markdown file: its number (from 1), its text, and the info
/// string of the fenced code block it is in (`None` outside blocks).
struct MdLine<'a> {
    number: usize,
    text: &'a str,
    block: Option<&'a str>,
    /// The line opens or closes its block (it is not the block's text).
    fence: bool,
}

/// The lines of `md`, each marked inside or outside fenced code blocks
/// (``` or ~~~, possibly indented).
fn md_lines(md: &str) -> Vec<MdLine<'_>> {
    let mut out = Vec::new();
    // The open fence: its character, its length, its info string.
    let mut open: Option<(char, usize, &str)> = None;
    for (i, text) in md.lines().enumerate() {
        let trimmed = text.trim_start();
        let run = ['`', '~'].into_iter().find_map(|c| {
            let n = trimmed.chars().take_while(|&x| x == c).count();
            (n >= 3).then_some((c, n))
        });
        let (block, fence) = match (open, run) {
            (None, Some((c, n))) => {
                let info = trimmed[n..].split_whitespace().next().unwrap_or("");
                open = Some((c, n, info));
                (Some(info), true)
            }
            (Some((c, n, info)), Some((rc, rn)))
                if rc == c && rn >= n && trimmed[rn..].trim().is_empty() =>
            {
                open = None;
                (Some(info), true)
            }
            (Some((_, _, info)), _) => (Some(info), false),
            (None, None) => (None, false),
        };
        out.push(MdLine {
            number: i + 1,
            text,
            block,
            fence,
        });
    }
    out
}

/// `[text](target)` -> `text`, for headings that hold links.
fn link_texts(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        match after.find("](").and_then(|close| {
            after[close + 2..]
                .find(')')
                .map(|end| (close, close + 2 + end))
        }) {
            Some((close, end)) => {
                out.push_str(&rest[..open]);
                out.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&rest[..=open]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// GitHub's anchor of a heading's text: lowercased; every character that is
/// not alphanumeric, a space, `-` or `_` dropped; spaces turned into `-`.
fn slug(heading: &str) -> String {
    link_texts(heading)
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text of an ATX heading (`## text ##`), if `line` is one.
fn heading(line: &str) -> Option<&str> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let line = &line[indent..];
    let level = line.chars().take_while(|&c| c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    let rest = rest.trim();
    // An optional closing sequence of `#`s after a space.
    let without = rest.trim_end_matches('#');
    Some(if without.is_empty() || without.ends_with(' ') {
        without.trim_end()
    } else {
        rest
    })
}

/// Every heading anchor of `md`, as GitHub makes them: a repeated one gets
/// `-1`, `-2`, ... Headings in code blocks are not headings.
fn anchors(md: &str) -> HashSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = HashSet::new();
    for line in md_lines(md).iter().filter(|l| l.block.is_none()) {
        let Some(text) = heading(line.text) else {
            continue;
        };
        let base = slug(text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

/// `line` with its inline code spans blanked out (their text is not
/// Markdown: a link in one is no link).
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let n = chars[i..].iter().take_while(|&&c| c == '`').count();
        // The closing run: exactly n backticks.
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                out[i..j + n].fill(' ');
                i = j + n;
            }
            None => i += n,
        }
    }
    out.into_iter().collect()
}

/// The targets of the links of `md` outside code (inline `](target)` and
/// reference definitions `[label]: target`, which cannot continue a
/// paragraph), with their line numbers.
fn links(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut after_blank = true;
    for line in md_lines(md) {
        let starts_block = std::mem::replace(&mut after_blank, line.text.trim().is_empty());
        if line.block.is_some() {
            after_blank = true;
            continue;
        }
        let text = without_code_spans(line.text);
        let trimmed = text.trim_start();
        let definition = trimmed
            .strip_prefix('[')
            .and_then(|rest| rest.split_once("]:"))
            .filter(|(label, _)| starts_block && !label.contains(']'));
        if let Some((_, rest)) = definition {
            if let Some(target) = rest.split_whitespace().next() {
                out.push((line.number, target.to_string()));
            }
        }
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            // The target ends at its matching `)`.
            let mut depth = 0usize;
            let mut end = after.len();
            for (k, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = k;
                        break;
                    }
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            let inside = after[..end].trim();
            let target = match inside.strip_prefix('<') {
                Some(angle) => angle.split('>').next().unwrap_or(""),
                None => inside.split_whitespace().next().unwrap_or(""),
            };
            out.push((line.number, target.to_string()));
            rest = &after[end.min(after.len())..];
        }
    }
    out
}

/// `%20` and the like in a link's path.
fn percent_decoded(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match hex {
            Some(b) if bytes[i] == b'%' => {
                out.push(b);
                i += 3;
            }
            _ => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The broken relative links of the Markdown file `file` (under `root`):
/// a target that does not exist, relative to the file, or an `#anchor` no
/// heading of the target `.md` file has. Web links are not checked.
fn broken_links(root: &Path, file: &Path) -> Vec<String> {
    let text = read(file);
    let dir = file.parent().expect("a file has a directory");
    let mut problems = Vec::new();
    let mut anchor_cache: HashMap<PathBuf, HashSet<String>> = HashMap::new();
    for (line, target) in links(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let at = format!("{}:{line}", shown(root, file));
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(percent_decoded(path))
        };
        if !resolved.exists() {
            problems.push(format!("{at}: ({target}): no such file"));
            continue;
        }
        let Some(anchor) = anchor else { continue };
        let is_md = resolved.extension().is_some_and(|e| e == "md");
        if !is_md || !resolved.is_file() {
            continue;
        }
        let known = anchor_cache
            .entry(resolved.clone())
            .or_insert_with(|| anchors(&read(&resolved)));
        if !known.contains(&percent_decoded(anchor)) {
            problems.push(format!(
                "{at}: ({target}): {} has no heading with the anchor #{anchor}",
                shown(root, &resolved)
            ));
        }
    }
    problems
}

/// The Markdown files under `dir`, at any depth, sorted.
fn markdown_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The Markdown files directly in `dir` (the pages of `docs/`, not the
/// journal), sorted.
fn pages_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
        .collect();
    out.sort();
    out
}

// ---------------------------------------------------------------- commands

/// The programs whose flags are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Program {
    Othello,
    Referee,
    Train,
}

impl Program {
    fn name(self) -> &'static str {
        match self {
            Program::Othello => "othello",
            Program::Referee => "referee",
            Program::Train => "train",
        }
    }

    /// The program a command word runs: by its file name, so that
    /// `target/release/othello`, `./referee` and `othello-2ed61fa` (a build
    /// of that commit) count.
    fn of(word: &str) -> Option<Program> {
        let name = word.rsplit('/').next().unwrap_or(word);
        let is = |p: &str| name == p || name.strip_prefix(p).is_some_and(|r| r.starts_with('-'));
        if is("othello") {
            Some(Program::Othello)
        } else if is("referee") {
            Some(Program::Referee)
        } else if name == "train" {
            Some(Program::Train)
        } else {
            None
        }
    }
}

/// A long flag shown after a program in a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FlagUse {
    line: usize,
    program: Program,
    /// The word right after the program, when it may be a subcommand
    /// (`referee analyze`, `othello bench`, `train fit`).
    sub: Option<String>,
    flag: String,
}

/// A shell word or operator, with the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Token {
    text: String,
    line: usize,
    /// The word began with a quote: `"othello --depth 8"`, whose words are a
    /// command of their own.
    quoted: bool,
    /// `|`, `||`, `&&`, `;` or `&`: the end of a command.
    operator: bool,
}

/// Splits a command line (continuations joined with `\n`) into words and
/// operators as a shell would, dropping `#` comments to the end of their
/// line. `line` is the number of its first line.
fn tokenize(s: &str, line: usize) -> Vec<Token> {
    let chars: Vec<char> = s.chars().collect();
    let mut tokens = Vec::new();
    let mut line = line;
    let mut word = String::new();
    let mut in_word = false;
    let mut quoted = false;
    let mut start = line;
    let mut i = 0;
    macro_rules! finish {
        () => {
            if in_word {
                tokens.push(Token {
                    text: std::mem::take(&mut word),
                    line: start,
                    quoted,
                    operator: false,
                });
            }
            in_word = false;
            quoted = false;
        };
    }
    while i < chars.len() {
        let c = chars[i];
        if !in_word {
            start = line;
        }
        match c {
            '\n' => {
                finish!();
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => {
                finish!();
                i += 1;
            }
            '\'' | '"' => {
                if !in_word {
                    quoted = true;
                }
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != c {
                    if c == '"' && chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    }
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
                i += 1;
            }
            '\\' => {
                in_word = true;
                if let Some(&next) = chars.get(i + 1) {
                    word.push(next);
                }
                i += 2;
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '&' if in_word && word.ends_with('>') => {
                word.push(c);
                i += 1;
            }
            '|' | ';' | '&' => {
                finish!();
                let mut op = String::new();
                while i < chars.len() && matches!(chars[i], '|' | ';' | '&') {
                    op.push(chars[i]);
                    i += 1;
                }
                tokens.push(Token {
                    text: op,
                    line,
                    quoted: false,
                    operator: true,
                });
            }
            _ => {
                in_word = true;
                word.push(c);
                i += 1;
            }
        }
    }
    if in_word {
        tokens.push(Token {
            text: word,
            line: start,
            quoted,
            operator: false,
        });
    }
    tokens
}

/// The long flag a word is or begins with (`--games`, `[--wld]`,
/// `--json=FILE`), if any.
fn long_flag(word: &str) -> Option<String> {
    let word = word.trim_start_matches(['[', '(']);
    let name = word.strip_prefix("--")?;
    let name: String = name
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    let name = name.trim_end_matches('-');
    name.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        .then(|| format!("--{name}"))
}

/// Words that run the command after them (`time othello ...`).
const WRAPPERS: &[&str] = &[
    "$", "time", "nice", "env", "sudo", "exec", "nohup", "command", "timeout",
];

/// Whether `word` is an environment assignment (`NAME=value`).
fn assignment(word: &str) -> Option<&str> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    ((first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some(value)
}

/// What a command word starts.
#[derive(Debug, PartialEq, Eq)]
enum Start {
    /// One of the programs, its first argument at this index.
    Program(Program, usize),
    /// A command whose words are none of our programs' (`cargo test`,
    /// `cargo run -p bundle -- ...`): go on at this index.
    Skip(usize),
}

/// The index of the operator that ends the command at `i` (or the end).
fn command_end(tokens: &[Token], i: usize) -> usize {
    (i..tokens.len())
        .find(|&k| tokens[k].operator)
        .unwrap_or(tokens.len())
}

/// What the word `tokens[i]` starts. At the start of a command wrappers
/// and assignments are looked through, and `cargo` runs one of the
/// programs only as `cargo run ... [-p|--bin] NAME ... -- ARGS`; elsewhere
/// only a program's own name counts.
fn start_at(tokens: &[Token], mut i: usize, at_start: bool) -> Option<Start> {
    if at_start {
        while let Some(t) = tokens.get(i).filter(|t| !t.operator && !t.quoted) {
            let w = t.text.as_str();
            if WRAPPERS.contains(&w) {
                i += 1;
                // The wrapper's own options and their numbers.
                while tokens.get(i).is_some_and(|t| {
                    !t.operator && (t.text.starts_with('-') || t.text.parse::<f64>().is_ok())
                }) {
                    i += 1;
                }
            } else if let Some(value) = assignment(w) {
                if let Some(p) = Program::of(value) {
                    return Some(Start::Program(p, i + 1));
                }
                i += 1;
            } else {
                break;
            }
        }
        let t = tokens.get(i).filter(|t| !t.operator && !t.quoted)?;
        if t.text == "cargo" {
            let end = command_end(tokens, i);
            if tokens.get(i + 1).is_none_or(|t| t.text != "run") {
                return Some(Start::Skip(end));
            }
            let mut program = None;
            let mut k = i + 2;
            while k < end {
                match tokens[k].text.as_str() {
                    "--" => {
                        return Some(match program {
                            Some(p) => Start::Program(p, k + 1),
                            None => Start::Skip(end),
                        })
                    }
                    flag @ ("-p" | "--package" | "--bin") => {
                        if let Some(p) = tokens.get(k + 1).and_then(|t| Program::of(&t.text)) {
                            if program.is_none() || flag == "--bin" {
                                program = Some(p);
                            }
                        }
                        k += 2;
                    }
                    other => {
                        if let Some(p) = other.strip_prefix("-p").and_then(Program::of) {
                            program = Some(p);
                        }
                        k += 1;
                    }
                }
            }
            // `cargo run -p referee` without `--`: no arguments to check.
            return Some(Start::Skip(end));
        }
    }
    let t = tokens.get(i).filter(|t| !t.operator && !t.quoted)?;
    Program::of(&t.text).map(|p| Start::Program(p, i + 1))
}

/// The long flags shown after `othello`, `referee` or `train` in one command
/// line (its tokens), with the word that may be their subcommand.
///
/// - A quoted word holding a command (`--p2 "othello --strategy greedy"`)
///   is a command of its own.
/// - Within one of our commands, a program named right after a flag is the
///   flag's value (`--p1 target/release/othello`), not a command.
/// - Within another tool's command (`parallel --cleanup bin/referee --p1
///   ...`), a program named after one of its flags may be that flag's value
///   or the command the tool runs: the last such program is taken as the
///   command, as such tools put their command after their options.
fn uses_in(tokens: &[Token], out: &mut Vec<FlagUse>) {
    let mut context: Option<(Program, Option<String>)> = None;
    let mut at_start = true;
    let mut after_flag = false;
    let mut brackets = 0i32;
    // In another tool's command: the last program named after a flag.
    let mut candidate: Option<usize> = None;
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        if t.operator {
            // `[--depth N | --time-ms T]` in a usage line is no pipe.
            if brackets <= 0 {
                if let Some(c) = candidate.take() {
                    uses_in(&tokens[c..i], out);
                }
                context = None;
                at_start = true;
                after_flag = false;
            }
            i += 1;
            continue;
        }
        if t.quoted && t.text.contains(char::is_whitespace) {
            uses_in(&tokenize(&t.text, t.line), out);
            at_start = false;
            after_flag = false;
            i += 1;
            continue;
        }
        if at_start || !after_flag {
            match start_at(tokens, i, at_start) {
                Some(Start::Program(program, first)) => {
                    let sub = tokens
                        .get(first)
                        .filter(|t| !t.operator && !t.quoted)
                        .map(|t| t.text.as_str())
                        .filter(|w| {
                            w.starts_with(|c: char| c.is_ascii_lowercase())
                                && w.chars().all(|c| {
                                    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'
                                })
                        })
                        .map(str::to_string);
                    context = Some((program, sub));
                    candidate = None;
                    at_start = false;
                    after_flag = false;
                    i = first;
                    continue;
                }
                Some(Start::Skip(next)) => {
                    context = None;
                    at_start = false;
                    after_flag = false;
                    i = next;
                    continue;
                }
                None => {}
            }
        } else if context.is_none() && !t.quoted && Program::of(&t.text).is_some() {
            candidate = Some(i);
        }
        at_start = false;
        if !t.quoted {
            brackets += t.text.matches('[').count() as i32 - t.text.matches(']').count() as i32;
        }
        if let (Some((program, sub)), Some(flag)) = (&context, long_flag(&t.text)) {
            out.push(FlagUse {
                line: t.line,
                program: *program,
                sub: sub.clone(),
                flag,
            });
        }
        after_flag = t.text.starts_with('-') && !t.text.contains('=');
        i += 1;
    }
    if let Some(c) = candidate {
        uses_in(&tokens[c..], out);
    }
}

/// The flag uses in the shell code blocks of `md`, continued lines (`\`)
/// joined.
fn flag_uses(md: &str) -> Vec<FlagUse> {
    let mut out = Vec::new();
    let mut command = String::new();
    let mut first = 0;
    for line in md_lines(md) {
        let shell = line.block.is_some_and(|info| SHELL_FENCES.contains(&info));
        if line.fence || !shell {
            if !command.is_empty() {
                uses_in(&tokenize(&command, first), &mut out);
                command.clear();
            }
            continue;
        }
        if command.is_empty() {
            first = line.number;
        }
        match line.text.trim_end().strip_suffix('\\') {
            Some(continued) => {
                command.push_str(continued);
                command.push('\n');
            }
            None => {
                command.push_str(line.text);
                uses_in(&tokenize(&command, first), &mut out);
                command.clear();
            }
        }
    }
    out
}

/// Whether `help` lists `flag` as a whole word (`--book` is not in
/// `--book-margin`).
fn lists(help: &str, flag: &str) -> bool {
    help.match_indices(flag).any(|(at, _)| {
        let before = help[..at].chars().next_back();
        let after = help[at + flag.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '-')
            && !after.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// The flag uses of `file` (named `name` in messages) that the programs'
/// help does not list. `help(program, sub)` is the `--help` text of `program
/// sub`, or of `program` alone with `None`; `None` back when that is no
/// subcommand (or the program is missing). A flag after a word that is a
/// subcommand is looked up in the subcommand's help, any other in the
/// program's. Uses of a program with no help at all are skipped.
fn unknown_flags(
    name: &str,
    uses: &[FlagUse],
    help: &mut dyn FnMut(Program, Option<&str>) -> Option<String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for u in uses {
        let (text, shown) = match u
            .sub
            .as_deref()
            .and_then(|s| help(u.program, Some(s)).map(|h| (h, s)))
        {
            Some((h, s)) => (h, format!("{} {s}", u.program.name())),
            None => match help(u.program, None) {
                Some(h) => (h, u.program.name().to_string()),
                None => continue,
            },
        };
        if !lists(&text, &u.flag) {
            problems.push(format!(
                "{name}:{}: {} is not in `{shown} --help`",
                u.line, u.flag
            ));
        }
    }
    problems
}

/// The `--help` texts of the built binaries, cached.
struct Helps {
    binaries: HashMap<Program, PathBuf>,
    cache: HashMap<(Program, Option<String>), Option<String>>,
}

impl Helps {
    /// The binaries next to the referee under test: `othello` must be there
    /// (`cargo test --workspace --release` builds it); `train` is checked
    /// only when it is.
    fn of_this_build() -> Helps {
        let referee = PathBuf::from(env!("CARGO_BIN_EXE_referee"));
        let mut binaries = HashMap::from([
            (Program::Referee, referee.clone()),
            (Program::Othello, othello()),
        ]);
        let train = referee.with_file_name("train");
        if train.is_file() {
            binaries.insert(Program::Train, train);
        } else {
            eprintln!(
                "{} is missing: the `train` flags of the docs are not checked \
                 (`cargo build --release --workspace` builds it)",
                train.display()
            );
        }
        Helps {
            binaries,
            cache: HashMap::new(),
        }
    }

    /// `program [sub] --help`'s output, `None` when it fails (no such
    /// subcommand) or the program is missing.
    fn help(&mut self, program: Program, sub: Option<&str>) -> Option<String> {
        let key = (program, sub.map(str::to_string));
        if let Some(h) = self.cache.get(&key) {
            return h.clone();
        }
        let text = self.binaries.get(&program).and_then(|bin| {
            let out = Command::new(bin)
                .args(sub)
                .arg("--help")
                .stdin(Stdio::null())
                .output()
                .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
            out.status.success().then(|| {
                String::from_utf8_lossy(&out.stdout).into_owned()
                    + &String::from_utf8_lossy(&out.stderr)
            })
        });
        self.cache.insert(key, text.clone());
        text
    }
}

/// The problems of the flags of `files` against this build's binaries, and
/// how many flag uses were checked.
fn unknown_flags_in(root: &Path, files: &[PathBuf]) -> (Vec<String>, usize) {
    let mut helps = Helps::of_this_build();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in files {
        let uses = flag_uses(&read(file));
        checked += uses.len();
        problems.extend(unknown_flags(&shown(root, file), &uses, &mut |p, s| {
            helps.help(p, s)
        }));
    }
    (problems, checked)
}

/// Panics with every problem, one a line.
fn assert_none(what: &str, problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{what}: {} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

// ---------------------------------------------------------------- the repository

#[test]
fn the_readme_is_short() {
    let root = root();
    let problems: Vec<String> = too_many_chars(
        "README.md",
        &read(&root.join("README.md")),
        README_MAX_CHARS,
    )
    .into_iter()
    .collect();
    assert_none("README.md's length", &problems);
}

#[test]
fn each_page_of_docs_is_short() {
    let root = root();
    let problems: Vec<String> = pages_in(&root.join("docs"))
        .iter()
        .filter_map(|p| too_many_lines(&shown(&root, p), &read(p), PAGE_MAX_LINES))
        .collect();
    assert_none("the pages' length", &problems);
}

#[test]
fn every_relative_link_resolves() {
    let root = root();
    let mut files = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join(".ci/README.md"),
    ];
    files.extend(markdown_under(&root.join("docs")));
    let problems: Vec<String> = files
        .iter()
        .flat_map(|f| {
            if f.is_file() {
                broken_links(&root, f)
            } else {
                vec![format!("{}: missing", shown(&root, f))]
            }
        })
        .collect();
    assert_none("broken links", &problems);
}

#[test]
fn every_flag_the_pages_show_exists() {
    let root = root();
    let mut files = vec![root.join("README.md")];
    files.extend(pages_in(&root.join("docs")));
    let (problems, checked) = unknown_flags_in(&root, &files);
    eprintln!("{checked} flags checked in {} files", files.len());
    // The pages show many commands: none found means the parser broke.
    assert!(checked > 0, "no flag found in the pages' commands");
    assert_none("flags the binaries do not have", &problems);
}

// ---------------------------------------------------------------- the checks on broken copies

#[test]
fn lengths_count_characters_and_lines() {
    // 12,000 two-byte characters are 24,000 bytes and still fit.
    assert_eq!(too_many_chars("R", &"é".repeat(12_000), 12_000), None);
    let long = too_many_chars("R", &"é".repeat(12_001), 12_000).expect("a problem");
    assert!(long.contains("12001 characters"), "{long}");
    assert_eq!(too_many_lines("p", &"x\n".repeat(400), 400), None);
    assert!(too_many_lines("p", &"x\n".repeat(401), 400).is_some());
}

#[test]
fn anchors_are_githubs() {
    let md = "# Title\n\
              ## 2026-12-01: A 99% pass at 22-23 empties (kept)\n\
              ### `othello bench` and its signature\n\
              ### The σ table: `train mpc`\n\
              ## See [the page](x.md) now ##\n\
              ## Title\n\
              ## Title\n\
              ```sh\n\
              # not a heading\n\
              ```\n\
              #not-a-heading either\n";
    let a = anchors(md);
    for expected in [
        "title",
        "2026-12-01-a-99-pass-at-22-23-empties-kept",
        "othello-bench-and-its-signature",
        "the-σ-table-train-mpc",
        "see-the-page-now",
        "title-1",
        "title-2",
    ] {
        assert!(a.contains(expected), "{expected} not in {a:?}");
    }
    assert_eq!(a.len(), 7, "{a:?}");
}

#[test]
fn links_outside_code_are_found() {
    let md = "See [a](a.md#x) and [b](<b c.md> \"title\"), ![img](p.png).\n\
              `[not](code.md)` and [web](https://example.com)\n\
              ```\n\
              [in a block](nope.md)\n\
              ```\n\
              [ref]: r.md\n\
              [t](f(1).md)\n\
              [69, 46]: within 0, a paragraph's line, no definition\n";
    let found: Vec<(usize, String)> = links(md);
    let expected: Vec<(usize, String)> = [
        (1, "a.md#x"),
        (1, "b c.md"),
        (1, "p.png"),
        (2, "https://example.com"),
        (6, "r.md"),
        (7, "f(1).md"),
    ]
    .into_iter()
    .map(|(l, t)| (l, t.to_string()))
    .collect();
    assert_eq!(found, expected);
}

#[test]
fn broken_links_are_each_reported_with_file_and_line() {
    let dir = scratch("docs-links");
    std::fs::create_dir_all(dir.join("docs/journal")).unwrap();
    std::fs::write(
        dir.join("docs/journal/x.md"),
        "# X\n## 2026-12-01: Kept (yes)\n```\n## Hidden\n```\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("README.md"),
        "# Read me\n\
         [good](docs/journal/x.md#2026-12-01-kept-yes) [self](#read-me)\n\
         [no file](docs/nope.md)\n\
         [no anchor](docs/journal/x.md#hidden)\n\
         [own anchor](#nowhere) [web](https://example.com/x.md#y)\n\
         ```\n\
         [in code](missing.md)\n\
         ```\n",
    )
    .unwrap();
    let problems = broken_links(&dir, &dir.join("README.md"));
    assert_eq!(problems.len(), 3, "{problems:#?}");
    assert!(problems[0].starts_with("README.md:3: (docs/nope.md): no such file"));
    assert!(problems[1].starts_with("README.md:4: (docs/journal/x.md#hidden)"));
    assert!(problems[1].contains("no heading with the anchor #hidden"));
    assert!(problems[2].starts_with("README.md:5: (#nowhere)"));
    // From the journal, the same file is one directory up.
    std::fs::write(
        dir.join("docs/journal/y.md"),
        "[up](../../README.md#read-me) [bad](../README.md)\n",
    )
    .unwrap();
    let problems = broken_links(&dir, &dir.join("docs/journal/y.md"));
    assert_eq!(
        problems,
        ["docs/journal/y.md:1: (../README.md): no such file"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `(line, program, sub, flag)` of each use, for comparisons.
fn summary(md: &str) -> Vec<(usize, &'static str, Option<String>, String)> {
    flag_uses(md)
        .into_iter()
        .map(|u| (u.line, u.program.name(), u.sub, u.flag))
        .collect()
}

fn u(
    line: usize,
    program: &'static str,
    sub: Option<&str>,
    flag: &str,
) -> (usize, &'static str, Option<String>, String) {
    (line, program, sub.map(str::to_string), flag.to_string())
}

#[test]
fn flags_are_found_after_each_form_of_command() {
    let md = "text --not-code\n\
              ```sh\n\
              target/release/othello bench --depth 8   # --in-a-comment\n\
              othello --strategy greedy | tail --lines 3\n\
              ./referee --p1 target/release/othello --p2 \"othello-2ed61fa --time-ms 135\" \\\n\
              \x20   --games 10 --json=out.json\n\
              cargo run --release -p referee -- analyze run.jsonl --depth 4\n\
              cargo run --release -p train -- fit --steps 10\n\
              cargo run --release -p referee\n\
              cargo test --release --bin othello watchdog --nocapture\n\
              $ time referee summary a.jsonl --partial\n\
              othello solve FILE.obf [--wld] [--depth N | --time-ms T]\n\
              # referee --in-a-comment-line\n\
              parallel --basefile bin/referee ::: 1 2 \\\n\
              \x20   bin/referee --shard {}/2\n\
              parallel --basefile bin/referee --cleanup bin/referee --seed 42 ::: 1 2\n\
              parallel --basefile bin/referee ::: 1 2\n\
              cargo run --release -p bundle -- minify IN.rs -o OUT.rs --check\n\
              ```\n\
              ```rust\n\
              othello --in-rust\n\
              ```\n\
              ```\n\
              othello --no-book\n\
              ```\n";
    assert_eq!(
        summary(md),
        [
            u(3, "othello", Some("bench"), "--depth"),
            u(4, "othello", None, "--strategy"),
            u(5, "referee", None, "--p1"),
            u(5, "referee", None, "--p2"),
            u(5, "othello", None, "--time-ms"),
            u(6, "referee", None, "--games"),
            u(6, "referee", None, "--json"),
            u(7, "referee", Some("analyze"), "--depth"),
            u(8, "train", Some("fit"), "--steps"),
            u(11, "referee", Some("summary"), "--partial"),
            u(12, "othello", Some("solve"), "--wld"),
            u(12, "othello", Some("solve"), "--depth"),
            u(12, "othello", Some("solve"), "--time-ms"),
            u(15, "referee", None, "--shard"),
            u(16, "referee", None, "--seed"),
            u(24, "othello", None, "--no-book"),
        ]
    );
}

#[test]
fn unknown_flags_are_reported_against_the_right_help() {
    let md = "```sh\n\
              referee --games 10 --bogus\n\
              referee analyze x.jsonl --depth 4 --games 10\n\
              referee games --games 2\n\
              train fit --anything\n\
              othello --book\n\
              ```\n";
    let mut asked = Vec::new();
    let mut help = |p: Program, sub: Option<&str>| {
        asked.push((p, sub.map(str::to_string)));
        match (p, sub) {
            (Program::Referee, None) => Some("--games N  games\n--p1 CMD".to_string()),
            (Program::Referee, Some("analyze")) => Some("--depth D\n--exact E".to_string()),
            (Program::Othello, None) => Some("--book-margin D\n--no-book".to_string()),
            _ => None,
        }
    };
    let problems = unknown_flags("R.md", &flag_uses(md), &mut help);
    assert_eq!(
        problems,
        [
            "R.md:2: --bogus is not in `referee --help`",
            "R.md:3: --games is not in `referee analyze --help`",
            "R.md:6: --book is not in `othello --help`",
        ]
    );
    // `games` is no subcommand: its flag is looked up in the program's
    // help; `train` has no help here, so it is skipped.
    assert!(asked.contains(&(Program::Referee, Some("games".to_string()))));
    assert!(asked.contains(&(Program::Train, None)));
}

#[test]
fn a_bogus_flag_fails_against_the_real_binaries() {
    let dir = scratch("docs-flags");
    let readme = dir.join("README.md");
    std::fs::write(
        &readme,
        "```sh\n\
         target/release/othello bench --depth 8 --bogus-bench\n\
         target/release/referee --p1 human --p2 \"othello --time-ms 50 --bogus-bot\" --games 2\n\
         target/release/referee analyze run.jsonl --depth 4 --games 2\n\
         ```\n",
    )
    .unwrap();
    let (problems, checked) = unknown_flags_in(&dir, std::slice::from_ref(&readme));
    assert_eq!(checked, 9);
    assert_eq!(
        problems,
        [
            "README.md:2: --bogus-bench is not in `othello bench --help`",
            "README.md:3: --bogus-bot is not in `othello --help`",
            "README.md:4: --games is not in `referee analyze --help`",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
