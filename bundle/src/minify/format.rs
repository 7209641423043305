//! Format strings: the inline arguments of the std formatting macros'
//! strings (`{name}`, `{name:?}`, `{:width$}`), renamed with the
//! names they refer to, and the names a string literal of an unparsed macro
//! may use that way (kept: the renamer cannot see which macro formats it).

/// The names `text` would use as inline format arguments if a formatting
/// macro received it: `{name}`, `{name:...}` and `name$` in a width or a
/// precision. `{{` and `}}` are not arguments.
pub fn inline_names(text: &str) -> Vec<String> {
    let b: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == '{' && b.get(i + 1) == Some(&'{') {
            i += 2;
            continue;
        }
        if b[i] != '{' {
            i += 1;
            continue;
        }
        let Some(close) = (i + 1..b.len()).find(|&j| b[j] == '}') else {
            break;
        };
        let inner: String = b[i + 1..close].iter().collect();
        let (arg, spec) = inner.split_once(':').unwrap_or((inner.as_str(), ""));
        if is_name(arg.trim()) {
            out.push(arg.trim().to_string());
        }
        let mut word = String::new();
        for ch in spec.chars() {
            if ch.is_alphanumeric() || ch == '_' {
                word.push(ch);
            } else {
                if ch == '$' && is_name(&word) {
                    out.push(word.clone());
                }
                word.clear();
            }
        }
        i = close + 1;
    }
    out
}

/// An identifier (not `_`, not a position).
fn is_name(arg: &str) -> bool {
    arg.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && arg != "_"
        && arg.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A format string's literal token (`old`, quotes included) with each
/// inline argument that is a name renamed by `rename` (`{name}`,
/// `{name:...}`, `name$` in a width or a precision); `{{` and `}}` kept.
/// `rename` is called on each name in order.
///
/// # Errors
/// An unclosed `{` (after the names before it were given to `rename`).
pub fn rename_arguments(
    old: &str,
    mut rename: impl FnMut(&str) -> String,
) -> Result<String, &'static str> {
    let mut name = |arg: &str| {
        if is_name(arg) {
            rename(arg)
        } else {
            arg.to_string()
        }
    };
    let b: Vec<char> = old.chars().collect();
    let mut out = String::with_capacity(old.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '{' && b.get(i + 1) == Some(&'{') {
            out.push_str("{{");
            i += 2;
            continue;
        }
        if c == '}' && b.get(i + 1) == Some(&'}') {
            out.push_str("}}");
            i += 2;
            continue;
        }
        if c != '{' {
            out.push(c);
            i += 1;
            continue;
        }
        let Some(close) = (i + 1..b.len()).find(|&j| b[j] == '}') else {
            return Err("an unclosed `{` in a format string");
        };
        let inner: String = b[i + 1..close].iter().collect();
        let (arg, spec) = match inner.find(':') {
            Some(k) => (&inner[..k], Some(&inner[k + 1..])),
            None => (inner.as_str(), None),
        };
        out.push('{');
        out.push_str(&name(arg.trim()));
        if let Some(spec) = spec {
            out.push(':');
            // `name$` in the width or the precision.
            let mut word = String::new();
            for ch in spec.chars() {
                if ch.is_alphanumeric() || ch == '_' {
                    word.push(ch);
                } else {
                    if ch == '$' && !word.is_empty() {
                        out.push_str(&name(&word));
                    } else {
                        out.push_str(&word);
                    }
                    word.clear();
                    out.push(ch);
                }
            }
            out.push_str(&word);
        }
        out.push('}');
        i = close + 1;
    }
    Ok(out)
}
