//! The renamer's tests: programs renamed, compiled and run against the
//! originals, and the refusals.

use super::*;
use std::path::PathBuf;
use std::process::Command;

/// Every rename, what a derived `Debug` prints included.
fn all() -> Options {
    Options {
        rename_debug: true,
        ..Options::default()
    }
}

fn renamed(src: &str) -> String {
    minify(src, &all()).unwrap_or_else(|e| panic!("{e}")).text
}

/// Compiles `src` (edition 2021) and runs it; its standard output.
fn run(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("bundle-minify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file: PathBuf = dir.join(format!("{name}.rs"));
    std::fs::write(&file, src).unwrap();
    let exe = dir.join(name);
    let out = crate::compiler::compile(&["--edition", "2021", "-A", "warnings"], &exe, &file)
        .expect("rustc runs");
    assert!(
        out.status.success(),
        "{name} does not compile:\n{}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).output().unwrap();
    assert!(out.status.success(), "{name} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// Renames `src`, checks that both versions compile and print the same,
/// and returns the renamed text.
fn same_behaviour(name: &str, src: &str) -> String {
    let text = renamed(src);
    let expected = run(&format!("{name}_orig"), src);
    assert!(
        !expected.is_empty(),
        "{name}: the test program prints nothing"
    );
    assert_eq!(run(&format!("{name}_new"), &text), expected, "{text}");
    text
}

fn words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut w = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            w.push(c);
        } else if !w.is_empty() {
            out.insert(std::mem::take(&mut w));
        }
    }
    out
}

#[test]
fn shadowing_and_scopes_keep_their_meaning() {
    let src = r#"
fn moves(n: u32) -> u32 { n * 3 }
fn main() {
    let value = 1;
    let value = value + 1;
    {
        let value = value * 10;
        println!("inner {}", value);
    }
    let moves = moves(value);
    let closure = |value: u32| value + moves;
    println!("{} {} {}", value, moves, closure(5));
    if let Some(value) = Some(7) { println!("{}", value); }
    match Some(3) { Some(moves) if moves > 2 => println!("m{}", moves), _ => {} }
    for value in 0..2 { println!("for {}", value); }
    println!("{}", value);
}"#;
    let text = same_behaviour("shadowing", src);
    assert!(!words(&text).contains("value"), "{text}");
    assert!(!words(&text).contains("closure"), "{text}");
}

#[test]
fn field_init_shorthand_and_struct_patterns_are_expanded() {
    let src = r#"
#[derive(Debug, Clone, Copy, PartialEq)]
struct Point { horizontal: i32, vertical: i32 }
fn make(horizontal: i32) -> Point { let vertical = horizontal * 2; Point { horizontal, vertical } }
fn main() {
    let p = make(4);
    let Point { horizontal, .. } = p;
    let Point { vertical: v, horizontal: ref h } = p;
    match p { Point { horizontal: 4, vertical } => println!("v {}", vertical), _ => {} }
    println!("{} {} {} {}", horizontal, v, h, p == make(4));
}"#;
    let text = same_behaviour("shorthand", src);
    for name in ["horizontal", "vertical", "Point", "make"] {
        assert!(!words(&text).contains(name), "{name} left in {text}");
    }
}

#[test]
fn a_field_and_a_method_with_the_same_name() {
    let src = r#"
struct Counter { total: u32 }
impl Counter {
    fn total(&self) -> u32 { self.total + 1 }
    fn bump(&mut self) { self.total += 2; }
}
fn main() { let mut c = Counter { total: 1 }; c.bump(); println!("{} {}", c.total, c.total()); }"#;
    let text = same_behaviour("field_method", src);
    assert!(!words(&text).contains("total"), "{text}");
}

#[test]
fn trait_methods_shared_with_std_are_kept() {
    let src = r#"
use std::fmt;
struct Digits { left: u32 }
impl Iterator for Digits {
    type Item = u32;
    fn next(&mut self) -> Option<u32> { if self.left == 0 { None } else { self.left -= 1; Some(self.left) } }
}
impl fmt::Display for Digits { fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "D{}", self.left) } }
impl Default for Digits { fn default() -> Self { Digits { left: 3 } } }
impl Digits { fn len(&self) -> usize { self.left as usize } fn custom_name(&self) -> u32 { 5 } }
fn main() {
    let d = Digits::default();
    println!("{} {} {}", d, d.len(), d.custom_name());
    let v: Vec<u32> = Digits::default().collect();
    println!("{:?} {}", v, v.len());
}"#;
    let text = same_behaviour("std_traits", src);
    let w = words(&text);
    for kept in ["next", "fmt", "default", "len", "Item", "Display"] {
        assert!(w.contains(kept), "{kept} renamed in {text}");
    }
    assert!(!w.contains("custom_name"), "{text}");
}

#[test]
fn inline_format_arguments_follow_their_names() {
    let src = r#"
const LIMIT: u32 = 9;
fn main() {
    let count = 42;
    let width = 6;
    let label = "x";
    let s = format!("{count}|{count:>width$}|{label:?}|{LIMIT}|{{count}}|{}", count + 1);
    println!("{s}");
    eprintln!("{count}");
    assert!(count > 1, "count was {count}");
    let mut out = String::new();
    use std::fmt::Write;
    write!(out, "[{label}]").unwrap();
    println!("{out} {}", "{count} stays in a plain string");
}"#;
    let text = same_behaviour("format_args", src);
    assert!(
        text.contains("\"{count} stays in a plain string\""),
        "{text}"
    );
    assert!(text.contains("{{count}}"), "{text}");
    assert!(!words(&text).contains("width"), "{text}");
}

#[test]
fn closures_labels_and_raw_identifiers() {
    let src = r#"
struct Token { r#type: u8 }
fn main() {
    let r#match = 3;
    let t = Token { r#type: r#match };
    let add = |left: u32, right: u32| left + right + t.r#type as u32;
    let mut found = 0;
    'outer: for first in 0..10 {
        for second in 0..10 {
            if first * second == 12 { found = first; break 'outer; }
        }
    }
    println!("{} {} {}", add(1, 2), found, r#match);
}"#;
    let text = same_behaviour("closures_labels_raw", src);
    assert!(text.contains("'outer"), "{text}");
    assert!(!words(&text).contains("left"), "{text}");
}

#[test]
fn use_paths_reexports_self_consts_variants_and_generics() {
    let src = r#"
mod geometry {
    pub mod shapes {
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub enum Shape { Square(u32), Circle { radius: u32 }, Nothing }
        pub fn area_of(s: Shape) -> u32 {
            match s { Shape::Square(side) => side * side, Shape::Circle { radius } => 3 * radius * radius, Shape::Nothing => 0 }
        }
    }
    pub use shapes::area_of as area;
    pub use shapes::Shape;
}
use geometry::{area, Shape};
use Shape::*;
struct Grid;
impl Grid { const CELLS: usize = 4; fn cells() -> usize { Self::CELLS * 2 } }
fn largest<Item: PartialOrd + Copy, const COUNT: usize>(xs: [Item; COUNT]) -> Item {
    let mut best = xs[0];
    for x in xs { if x > best { best = x; } }
    best
}
fn main() {
    let shapes = [Square(3), Circle { radius: 2 }, Nothing];
    for s in shapes { let kind = match s { Square(_) => "square", Circle { .. } => "circle", Nothing => "none" }; println!("{} {}", kind, area(s)); }
    println!("{} {}", Grid::cells(), largest([3, 9, 4]));
}"#;
    let text = same_behaviour("paths_variants_generics", src);
    for name in [
        "geometry", "shapes", "area_of", "Square", "Circle", "CELLS", "COUNT", "largest",
    ] {
        assert!(!words(&text).contains(name), "{name} left in {text}");
    }
}

#[test]
fn the_most_frequent_names_get_the_shortest_and_output_is_deterministic() {
    let src = "fn rare()->u8{1}fn often()->u8{2}fn main(){let s=often()+often()+often()+rare();println!(\"{}\",s);}";
    let a = renamed(src);
    assert_eq!(a, renamed(src));
    let map = minify(src, &all()).unwrap().renamed;
    assert!(map["often"].len() <= map["rare"].len());
    assert!(map["often"] < map["rare"], "{map:?}");
    same_behaviour("frequency", src);
}

#[test]
fn classes_can_be_turned_off() {
    let src = "struct Holder{inner:u8}fn main(){let local_name=Holder{inner:3};println!(\"{}\",local_name.inner);}";
    let mut opts = all();
    opts.classes.remove(&Class::Fields);
    opts.classes.remove(&Class::Locals);
    let text = minify(src, &opts).unwrap().text;
    assert!(
        text.contains("inner") && text.contains("local_name"),
        "{text}"
    );
    assert!(!text.contains("Holder"), "{text}");
}

#[test]
fn failures_name_the_line() {
    let e = minify("fn main() {\n    let = 3;\n}\n", &all()).unwrap_err();
    assert!(e.starts_with("line 2:"), "{e}");
    let e = minify(
        "fn main() {\n let x = 1;\n println!(\"{x\", x);\n}\n",
        &all(),
    )
    .unwrap_err();
    assert!(e.contains("line 3") && e.contains("{x"), "{e}");
}

#[test]
fn unknown_macro_bodies_keep_their_names() {
    let src = r#"
macro_rules! twice { ($e:expr) => { $e * 2 } }
fn helper_value() -> u32 { 4 }
fn main() { let input_value = 3; println!("{} {}", twice!(input_value + helper_value()), stringify!(input_value)); }"#;
    let text = same_behaviour("unknown_macros", src);
    assert!(
        text.contains("input_value") && text.contains("helper_value"),
        "{text}"
    );
}

#[test]
fn the_printer_separates_only_what_would_fuse() {
    let src = "fn f<'a>(x:&'a [u8],y:i32)->bool{let z=y< -1;let w=&&y;let r=0..=3;x.len()as i32>y&&z||**w==0&&r.contains(&1)&&b\"q\"[0]==b'q'}";
    let text = print(syn::parse_file(src).unwrap().to_token_stream());
    assert_eq!(
        text,
        "fn f<'a>(x:&'a[u8],y:i32)->bool{let z=y< -1;let w=&&y;let r=0..=3;x.len()as i32>y&&z||**w==0&&r.contains(&1)&&b\"q\"[0]==b'q'}"
    );
}

#[test]
fn a_reference_after_a_bitwise_and_and_a_closure_returning_a_closure_stay_apart() {
    // `a & &b` is not `a && b`, and `|x| |y|` is not `|x||y|`.
    let src = "fn main() { let a = 6u8; let b = 3u8; let c = a & &b; let next = |_x: u8| |y: u8| y + 1; let wide = |_v: Vec<u8>| |i: usize| i * 2; let r = &&b; let z = || **r; println!(\"{} {} {} {}\", c, next(1)(2), wide(vec![1])(2), z()); }";
    let text = same_behaviour("fusing_pairs", src);
    assert!(text.contains("& &") && text.contains("| |"), "{text}");
    // Two references and an empty closure keep their characters together.
    assert!(text.contains("=&&") && text.contains("=||"), "{text}");
}

#[test]
fn doc_comments_are_dropped_before_the_string_check() {
    let src = "//! The crate.\n/// A function.\n/** A block doc. */\n#[doc = \"explicit\"]\nfn answer() -> u32 {\n    //! inner\n    42\n}\n/// On a field too.\nstruct Holder {\n    /// The value.\n    value: u32,\n}\nfn main() {\n    let h = Holder { value: answer() };\n    println!(\"{} {}\", h.value, \"kept\");\n}\n";
    let text = same_behaviour("docs", src);
    for gone in ["crate", "function", "block", "explicit", "inner", "field"] {
        assert!(!text.contains(gone), "{gone} left in {text}");
    }
    assert!(!words(&text).contains("answer"), "{text}");
}

#[test]
fn inline_arguments_in_unparsed_macros_keep_their_names() {
    let src = r#"
macro_rules! say { ($($t:tt)*) => { println!($($t)*) } }
const BONUS: u32 = 7;
fn main() {
    let score = 12;
    let width = 5;
    let other = 3;
    say!("{score} {BONUS} [{other:>width$}] {}", score + other);
}"#;
    let text = same_behaviour("unparsed_format", src);
    for kept in ["score", "BONUS", "width"] {
        assert!(words(&text).contains(kept), "{kept} renamed in {text}");
    }
}

#[test]
fn a_macro_rules_in_a_function_keeps_the_locals_it_names() {
    let src = "fn main() { let total = 5; macro_rules! show { () => { println!(\"{}\", total) } } show!(); }";
    let text = same_behaviour("nested_macro_rules", src);
    assert!(words(&text).contains("total"), "{text}");
}

#[test]
fn derived_debug_prints_the_same_unless_renamed_on_purpose() {
    let src = r#"
#[derive(Debug, Clone, Copy)]
enum Direction { Up, Left }
#[derive(Debug)]
struct Order { unit: u32, towards: Direction }
#[derive(Debug)]
struct Wrapper(u32);
struct Quiet { hidden_field: u32 }
fn main() {
    let q = Quiet { hidden_field: 1 };
    println!("{:?} {:?}", Direction::Up, Direction::Left);
    println!("{:?} {:?} {}", Order { unit: q.hidden_field, towards: Direction::Left }, Wrapper(2), q.hidden_field);
}"#;
    let default = minify(src, &Options::default()).unwrap().text;
    let expected = run("debug_orig", src);
    assert_eq!(run("debug_new", &default), expected, "{default}");
    let w = words(&default);
    for kept in ["Up", "Left", "Order", "unit", "towards", "Wrapper"] {
        assert!(w.contains(kept), "{kept} renamed in {default}");
    }
    assert!(!w.contains("hidden_field"), "{default}");
    let renamed = minify(src, &all()).unwrap().text;
    assert_ne!(run("debug_renamed", &renamed), expected, "{renamed}");
    assert!(!words(&renamed).contains("towards"), "{renamed}");
}

#[test]
fn line_numbers_stringify_and_float_ranges_print_the_same() {
    let src = r#"
macro_rules! show { ($($t:tt)*) => { println!("{} = {:?}", stringify!($($t)*), $($t)*) } }
macro_rules! here { ($label:expr, $line:expr) => { println!("{} at {}", $label, $line) } }
fn main() {
    let r = 0. ..1.;
    let first = 2;
    println!("{:?} {}", r, line!());
    here!("marker", line!());
    println!("{}", stringify!(first + 1 == 3));
    show!(first * 3 + 1);
}"#;
    let text = same_behaviour("line_stringify", src);
    assert!(text.contains("7u32") && text.contains("8u32"), "{text}");
}

#[test]
fn check_names_the_input_line_and_identifier_of_a_compile_error() {
    let input = "fn main() {\n    let value = 1;\n    println!(\"{}\", value);\n}\n";
    assert!(
        check_compiles(input, &minify(input, &all()).unwrap().printed)
            .unwrap()
            .is_none()
    );
    // An output whose third line names what the input does not define.
    let broken = input.replace("\"{}\", value", "\"{}\", missing_name");
    let file = syn::parse_file(&broken).unwrap();
    let printed = print::print_mapped(file.to_token_stream(), &BTreeSet::new(), false, false);
    let e = check_compiles(input, &printed).unwrap_err();
    assert!(e.starts_with("line 3: cannot rename `missing_name`"), "{e}");
    // An input that does not compile: a warning, not a refusal.
    let w = check_compiles("fn main() { nothing_here(); }", &printed).unwrap();
    assert!(w.is_some_and(|w| w.contains("the input does not compile")));
}

#[test]
fn string_check_failures_name_the_input_line() {
    let before = "fn main() {\n    let a = \"one\";\n    let b = \"two\";\n}\n";
    let after = "fn main(){let a=\"one\";let b=\"2\";}";
    let file = syn::parse_file(after).unwrap();
    let printed = print::print_mapped(file.to_token_stream(), &BTreeSet::new(), false, false);
    let e = checks::check_strings(before, &printed, &[], &[]).unwrap_err();
    assert!(e.starts_with("line 3: cannot rename `\"two\"`"), "{e}");
}

#[test]
fn a_line_macro_in_a_macro_rules_body_keeps_every_token_on_its_line() {
    let src = "macro_rules! here {\n    () => { line!() };\n}\nfn main() {\n    let first = here!();\n\n    println!(\"{} {}\", first, here!());\n}\n";
    let text = same_behaviour("line_in_macro_rules", src);
    assert_eq!(text.lines().count(), src.lines().count(), "{text}");
}

#[test]
fn macro_names_and_their_aliases_are_kept_and_their_paths_renamed() {
    let src = r#"
mod helpers {
    #[macro_export]
    macro_rules! double_it { ($e:expr) => { $e * 2 } }
    pub use crate::double_it as twice;
}
fn main() { println!("{} {}", helpers::twice!(4), crate::helpers::twice!(5)); }"#;
    let text = same_behaviour("macro_alias", src);
    assert!(
        words(&text).contains("twice") && !words(&text).contains("helpers"),
        "{text}"
    );
}

#[test]
fn trailing_commas_go_where_they_mean_nothing() {
    let src = r#"
struct Pair { left: u8, right: u8, }
fn sum(a: u8, b: u8,) -> u8 { a + b }
fn main() {
    let one = (7u8,);
    let mut two = (1u8,);
    let r = &mut (two.0,);
    r.0 += 1;
    two.0 += r.0;
    let p = Pair { left: 1, right: 2, };
    let v = [p.left, p.right,];
    let total = 'done: { break 'done (sum(v[0], v[1],),); };
    macro_rules! count { ($($x:expr,)*) => { 0 $(+ { let _ = $x; 1 })* } }
    println!("{:?} {:?} {} {:?} {}", one, two, p.left * 10 + p.right, total, count!(1, 2,));
}"#;
    let text = same_behaviour("trailing_commas", src);
    for gone in [",}", ",]", "b:u8,)", "[1],)"] {
        assert!(!text.contains(gone), "{gone} in {text}");
    }
    for kept in ["(7u8,)", "(1u8,)", "mut(", "[1]),)", "2,)", "expr,)"] {
        assert!(text.contains(kept), "{kept} not in {text}");
    }
    let opts = Options {
        trailing_commas: false,
        ..all()
    };
    assert!(minify(src, &opts).unwrap().text.contains(",}"));
}

#[test]
fn std_names_are_renamed_on_the_programs_own_types_only() {
    let src = r#"
struct Point { x: i32 }
impl Point {
    fn new(x: i32) -> Point { Point { x } }
    fn first() -> Point { Self::new(1) }
}
struct Lines { n: usize }
impl Lines { fn new() -> Lines { Lines { n: 2 } } }
enum Shape { Dot }
impl Shape { fn new() -> Shape { Shape::Dot } fn area(&self) -> i32 { 0 } }
fn main() {
    let v: Vec<Point> = (3..5).map(Point::new).collect();
    let mut w = Vec::new();
    w.push(Point::first().x + Lines::new().n as i32 + Shape::new().area());
    println!("{} {} {:?}", v[0].x, v[1].x, w);
}"#;
    let text = same_behaviour("assoc_std_names", src);
    assert!(text.contains("Vec::new()"), "{text}");
    assert_eq!(text.matches("::new").count(), 2, "{text}");
}

#[test]
fn a_std_name_called_as_a_method_or_through_an_alias_is_kept() {
    let src = r#"
struct Grid { cells: usize }
impl Grid { fn new() -> Grid { Grid { cells: 4 } } fn with(self, c: usize) -> Grid { Grid { cells: c } } }
type G = Grid;
fn main() { let g = G::new(); println!("{} {}", g.cells, Grid::new().with(2).cells); }"#;
    let text = same_behaviour("assoc_kept", src);
    assert!(
        text.contains("::new()") && text.contains(".with("),
        "{text}"
    );
}
