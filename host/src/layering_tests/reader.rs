//! Reading a source file for the layering test: comments and strings
//! blanked, inline modules dropped, and the crate paths it names (`use`
//! trees, inline paths, and what it re-exports with `pub use`).

/// Blank comments and string/char literals, keeping line breaks.
pub(super) fn strip(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |out: &mut String, chars: &[char]| {
        for c in chars {
            out.push(if *c == '\n' { '\n' } else { ' ' });
        }
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied().unwrap_or('\0');
        let prev_ident = i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_');
        let end = if c == '/' && next == '/' {
            Some(
                b[i..]
                    .iter()
                    .position(|c| *c == '\n')
                    .map_or(b.len(), |p| i + p),
            )
        } else if c == '/' && next == '*' {
            Some(block_comment_end(&b, i))
        } else if (c == 'r' || (c == 'b' && next == 'r')) && !prev_ident && raw_start(&b, i) {
            Some(raw_string_end(&b, i))
        } else if c == '"' || (c == 'b' && next == '"' && !prev_ident) {
            Some(string_end(&b, i))
        } else if c == '\'' {
            char_literal_len(&b, i).map(|n| i + n)
        } else {
            None
        };
        match end {
            Some(end) => {
                blank(&mut out, &b[i..end.min(b.len())]);
                i = end;
            }
            None => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Where the block comment opening at `i` ends (comments nest).
fn block_comment_end(b: &[char], i: usize) -> usize {
    let (mut depth, mut j) = (1, i + 2);
    while j < b.len() && depth > 0 {
        if b[j] == '/' && b.get(j + 1) == Some(&'*') {
            depth += 1;
            j += 2;
        } else if b[j] == '*' && b.get(j + 1) == Some(&'/') {
            depth -= 1;
            j += 2;
        } else {
            j += 1;
        }
    }
    j
}

/// Where the raw string opening at `i` (`r#"`, `br"`) ends.
fn raw_string_end(b: &[char], i: usize) -> usize {
    let mut j = i + if b[i] == 'b' { 2 } else { 1 };
    let mut hashes = 0;
    while b.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    j += 1; // the opening quote
    while j < b.len() {
        if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
            return j + 1 + hashes;
        }
        j += 1;
    }
    j
}

/// Where the string opening at `i` (`"`, `b"`) ends.
fn string_end(b: &[char], i: usize) -> usize {
    let mut j = i + if b[i] == 'b' { 2 } else { 1 };
    while j < b.len() && b[j] != '"' {
        j += if b[j] == '\\' { 2 } else { 1 };
    }
    j + 1
}

/// The length of the char literal at `i` ('a', '\n', '\u{1F}'), or none
/// for a lifetime ('a).
fn char_literal_len(b: &[char], i: usize) -> Option<usize> {
    if b.get(i + 1) == Some(&'\\') {
        b[i + 2..].iter().position(|c| *c == '\'').map(|p| p + 3)
    } else if b.get(i + 2) == Some(&'\'') {
        Some(3)
    } else {
        None
    }
}

fn raw_start(b: &[char], i: usize) -> bool {
    let mut j = i + if b[i] == 'b' { 2 } else { 1 };
    while b.get(j) == Some(&'#') {
        j += 1;
    }
    b.get(j) == Some(&'"')
}

/// Remove the bodies of inline modules (`mod tests { ... }`).
pub(super) fn without_inline_modules(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(at) = out[from..].find("mod ").map(|p| p + from) {
        let word_start = at == 0 || !is_ident(out.as_bytes()[at - 1] as char);
        let rest = &out[at + 4..];
        let name_len = rest.chars().take_while(|c| is_ident(*c)).count();
        let after = rest[name_len..].trim_start();
        if word_start && name_len > 0 && after.starts_with('{') {
            let open = at + 4 + name_len + (rest[name_len..].len() - after.len());
            let mut depth = 0;
            let mut end = out.len();
            for (k, ch) in out[open..].char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = open + k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let blanked: String = out[open..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' })
                .collect();
            out.replace_range(open..end, &blanked);
        }
        from = at + 4;
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `a::{b, c::{d, e as f}, *}` as paths: `a::b`, `a::c::d`, `a::c::e`, `a`.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    expand_named(tree)
        .into_iter()
        .map(|(mut path, _)| {
            if path.last().is_some_and(|s| s == "*") {
                path.pop();
            }
            path
        })
        .collect()
}

/// [`expand_use`], each path with the name it brings into scope (its
/// alias, else its last segment); a glob keeps its `*` as last segment.
fn expand_named(tree: &str) -> Vec<(Vec<String>, String)> {
    fn walk(prefix: &[String], s: &str, out: &mut Vec<(Vec<String>, String)>) {
        let (mut depth, mut cur, mut parts) = (0, String::new(), Vec::new());
        for ch in s.chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            if ch == ',' && depth == 0 {
                parts.push(std::mem::take(&mut cur));
            } else {
                cur.push(ch);
            }
        }
        parts.push(cur);
        for p in parts.iter().filter(|p| !p.trim().is_empty()) {
            let segs = |head: &str| -> Vec<String> {
                head.split("::")
                    .filter(|x| !x.trim().is_empty())
                    .map(|x| x.split(" as ").next().unwrap_or(x).trim().to_string())
                    .collect()
            };
            if let Some((head, rest)) = p.split_once('{') {
                let mut next = prefix.to_vec();
                next.extend(segs(head));
                let inner = &rest[..rest.rfind('}').unwrap_or(rest.len())];
                walk(&next, inner, out);
            } else {
                let mut path = prefix.to_vec();
                path.extend(segs(p));
                if path.last().is_some_and(|s| s == "self") {
                    path.pop();
                }
                let alias = p.split_once(" as ").map(|(_, a)| a.trim().to_string());
                let name = alias.unwrap_or_else(|| path.last().cloned().unwrap_or_default());
                out.push((path, name));
            }
        }
    }
    let squeezed: String = tree
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" ::", "::")
        .replace(":: ", "::")
        .replace(", ", ",")
        .replace("{ ", "{")
        .replace(" }", "}");
    let mut out = Vec::new();
    walk(&[], &squeezed, &mut out);
    out
}

/// What `code` re-exports (`pub use`, `pub(crate) use`, `pub(super) use`
/// ...): each name it makes visible with the path it stands for, as
/// written (relative paths are the module's own). A glob re-export has the
/// name `*`.
pub(super) fn reexports(code: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = code[i..].find("use ").map(|p| p + i) {
        let end = code[at..].find(';').map_or(code.len(), |p| at + p);
        let word_start = at == 0 || !is_ident(code.as_bytes()[at - 1] as char);
        let before = code[..at].trim_end();
        let public = before.ends_with("pub")
            || (before.ends_with(')') && {
                let open = before.rfind('(').unwrap_or(0);
                before[..open].trim_end().ends_with("pub")
            });
        if word_start && public {
            for (path, name) in expand_named(&code[at + 4..end]) {
                out.push((name, path));
            }
        }
        i = end.max(at + 4);
    }
    out
}

/// Every crate path in `code`: the `use` trees and the inline paths.
pub(super) fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut rest_code = String::with_capacity(code.len());
    let mut i = 0;
    while let Some(at) = code[i..].find("use ").map(|p| p + i) {
        let word_start = at == 0 || !is_ident(code.as_bytes()[at - 1] as char);
        let end = code[at..].find(';').map_or(code.len(), |p| at + p);
        rest_code.push_str(&code[i..at]);
        if word_start {
            found.extend(expand_use(&code[at + 4..end]));
            rest_code.push_str(&" ".repeat(end - at));
        } else {
            rest_code.push_str(&code[at..end]);
        }
        i = end;
    }
    rest_code.push_str(&code[i..]);
    // Inline paths: `crate::a::b`, `super::super::x`, `self::x`.
    let chars: Vec<char> = rest_code.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        let boundary = k == 0 || !(is_ident(chars[k - 1]) || chars[k - 1] == ':');
        if boundary && is_ident(chars[k]) {
            let mut segs = Vec::new();
            let mut j = k;
            loop {
                let start = j;
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
                segs.push(chars[start..j].iter().collect::<String>());
                if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                    j += 2;
                } else {
                    break;
                }
            }
            if segs.len() > 1 && matches!(segs[0].as_str(), "crate" | "super" | "self") {
                found.push(segs);
            }
            k = j.max(k + 1);
        } else {
            k += 1;
        }
    }
    found
        .into_iter()
        .filter(|p| {
            p.first()
                .is_some_and(|s| matches!(s.as_str(), "crate" | "super" | "self"))
        })
        .collect()
}
