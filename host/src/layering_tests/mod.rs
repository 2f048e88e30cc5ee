//! The crate's files import each other one way: no circles through
//! `broker/`, `runtime/` or `browser/`. Every `use crate::`/`use super::`
//! tree and every inline `crate::x::`/`super::x::` path in code (comments
//! and strings blanked) is an edge from its file to the module file it
//! names; an edge to one of the file's own ancestor modules follows the
//! module tree, not an import, and is left out, as are inline test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Blank comments and string/char literals, keeping line breaks.
fn strip(src: &str) -> String {
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
        if c == '/' && next == '/' {
            let end = b[i..]
                .iter()
                .position(|c| *c == '\n')
                .map_or(b.len(), |p| i + p);
            blank(&mut out, &b[i..end]);
            i = end;
        } else if c == '/' && next == '*' {
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
            blank(&mut out, &b[i..j.min(b.len())]);
            i = j;
        } else if (c == 'r' || (c == 'b' && next == 'r')) && !prev_ident && raw_start(&b, i) {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1; // the opening quote
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            blank(&mut out, &b[i..j.min(b.len())]);
            i = j;
        } else if c == '"' || (c == 'b' && next == '"' && !prev_ident) {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            while j < b.len() && b[j] != '"' {
                j += if b[j] == '\\' { 2 } else { 1 };
            }
            j += 1;
            blank(&mut out, &b[i..j.min(b.len())]);
            i = j;
        } else if c == '\'' {
            // A char literal ('a', '\n', '\u{1F}'), not a lifetime ('a).
            let len = if next == '\\' {
                b[i + 2..].iter().position(|c| *c == '\'').map(|p| p + 3)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(3)
            } else {
                None
            };
            match len {
                Some(n) => {
                    blank(&mut out, &b[i..(i + n).min(b.len())]);
                    i += n;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn raw_start(b: &[char], i: usize) -> bool {
    let mut j = i + if b[i] == 'b' { 2 } else { 1 };
    while b.get(j) == Some(&'#') {
        j += 1;
    }
    b.get(j) == Some(&'"')
}

/// Remove the bodies of inline modules (`mod tests { ... }`).
fn without_inline_modules(code: &str) -> String {
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
    fn walk(prefix: &[String], s: &str, out: &mut Vec<Vec<String>>) {
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
        for p in parts.iter().filter(|p| !p.is_empty()) {
            let segs = |head: &str| -> Vec<String> {
                head.split("::")
                    .filter(|x| !x.is_empty() && *x != "*")
                    .map(|x| x.split(" as ").next().unwrap_or(x).to_string())
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
                out.push(path);
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

/// Every crate path in `code`: the `use` trees and the inline paths.
fn paths_in(code: &str) -> Vec<Vec<String>> {
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

/// The module files under `root`: module path -> file.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root).unwrap_or(&path).with_extension("");
            let mut parts: Module = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().to_string())
                .collect();
            if parts == ["lib"] {
                parts.clear();
            } else if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            out.insert(parts, path);
        }
    }
    out
}

/// The longest module prefix of `path` seen from module `here`.
fn resolve(path: &[String], here: &Module, mods: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let (mut base, mut rest) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        _ => (here.clone(), path),
    };
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    let mut best = mods.contains_key(&base).then(|| base.clone());
    for seg in rest {
        base.push(seg.clone());
        if mods.contains_key(&base) {
            best = Some(base.clone());
        } else {
            break;
        }
    }
    best
}

/// The import graph of the crate at `root` (ancestor edges left out).
fn graph(root: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mods = modules(root);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (here, file) in &mods {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let code = without_inline_modules(&strip(&text));
        let targets = edges.entry(here.clone()).or_default();
        for path in paths_in(&code) {
            if let Some(to) = resolve(&path, here, &mods) {
                let ancestor = here.starts_with(&to);
                if !ancestor {
                    targets.insert(to);
                }
            }
        }
    }
    edges
}

/// The strongly connected components with more than one module (Tarjan).
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: BTreeSet<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            let edges = self.edges;
            for w in edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low[v];
                    self.low.insert(v, lv.min(lw));
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low[v];
                    self.low.insert(v, lv.min(iw));
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    comp.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "lib".into()
    } else {
        m.join("/")
    }
}

#[test]
fn no_import_circles_through_broker_runtime_or_browser() {
    // BP_LAYERING_ROOT reads another tree (an older checkout's host/src).
    let root = std::env::var_os("BP_LAYERING_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let edges = graph(&root);
    assert!(edges.len() > 50, "read only {} files", edges.len());
    let layered = ["broker", "runtime", "browser"];
    let bad: Vec<String> = circles(&edges)
        .into_iter()
        .filter(|c| {
            c.iter()
                .any(|m| m.first().is_some_and(|f| layered.contains(&f.as_str())))
        })
        .map(|c| {
            let members: BTreeSet<&Module> = c.iter().collect();
            let inner: Vec<String> = c
                .iter()
                .flat_map(|from| {
                    edges[from]
                        .iter()
                        .filter(|to| members.contains(to))
                        .map(move |to| format!("    {} -> {}", name(from), name(to)))
                })
                .collect();
            format!("circle of {} files:\n{}", c.len(), inner.join("\n"))
        })
        .collect();
    assert!(bad.is_empty(), "import circles:\n{}", bad.join("\n"));
}

#[test]
fn the_reader_sees_use_trees_inline_paths_and_not_comments() {
    let code = strip(
        "use super::{a::{B, C as D}, e};\n// use super::hidden;\nlet s = \"crate::x::y\";\nlet v = crate::f::g(super::h::I);\nlet c = 'x'; fn f<'a>() {}\nmod tests { use super::gone; }\n",
    );
    let code = without_inline_modules(&code);
    let mut found: Vec<String> = paths_in(&code).iter().map(|p| p.join("::")).collect();
    found.sort();
    assert_eq!(
        found,
        [
            "crate::f::g",
            "super::a::B",
            "super::a::C",
            "super::e",
            "super::h::I"
        ]
    );
    // A two-file circle is found; a chain is not.
    let m = |s: &str| vec![s.to_string()];
    let mut edges = BTreeMap::new();
    edges.insert(m("a"), BTreeSet::from([m("b")]));
    edges.insert(m("b"), BTreeSet::from([m("c")]));
    edges.insert(m("c"), BTreeSet::new());
    assert!(circles(&edges).is_empty());
    edges.insert(m("c"), BTreeSet::from([m("a")]));
    assert_eq!(circles(&edges), vec![vec![m("a"), m("b"), m("c")]]);
}
