//! The crate's files import each other one way: no circles through
//! `broker/`, `runtime/` or `browser/`. Every `use crate::`/`use super::`
//! tree and every inline `crate::x::`/`super::x::` path in code (comments
//! and strings blanked) is an edge from its file to the module file it
//! names; an edge to one of the file's own ancestor modules follows the
//! module tree, not an import, and is left out, as are inline test modules.
//! A path to an item that a module re-exports (`pub use`) is also an edge
//! to the module that defines it, so a circle closed through a re-export
//! is found (glob re-exports are not followed).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod crates;
mod reader;
mod sizes;

use reader::{paths_in, reexports, strip, without_inline_modules};

type Module = Vec<String>;

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

/// The longest module prefix of `path` seen from module `here`, with the
/// segments after it (the item it names, if any).
fn resolve(
    path: &[String],
    here: &Module,
    mods: &BTreeMap<Module, PathBuf>,
) -> Option<(Module, Vec<String>)> {
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
    let mut best = mods
        .contains_key(&base)
        .then(|| (base.clone(), rest.to_vec()));
    for (i, seg) in rest.iter().enumerate() {
        base.push(seg.clone());
        if mods.contains_key(&base) {
            best = Some((base.clone(), rest[i + 1..].to_vec()));
        } else {
            break;
        }
    }
    best
}

/// What each module re-exports: name -> the path it stands for.
type Reexports = BTreeMap<Module, BTreeMap<String, Vec<String>>>;

/// The module that defines the item `rest` names in `module`, following
/// `pub use` re-exports (through several modules, at most 16 hops); the
/// module itself when it defines the item or re-exports it by a glob.
fn defining(
    module: Module,
    rest: &[String],
    reexp: &Reexports,
    mods: &BTreeMap<Module, PathBuf>,
) -> Module {
    let (mut module, mut rest) = (module, rest.to_vec());
    for _ in 0..16 {
        let Some(target) = rest
            .first()
            .and_then(|name| reexp.get(&module).and_then(|r| r.get(name)))
        else {
            break;
        };
        let Some((next, inner)) = resolve(target, &module, mods) else {
            break;
        };
        if next == module && inner == rest[..1] {
            break; // `pub use self::x` of an item defined here
        }
        rest = inner.into_iter().chain(rest.into_iter().skip(1)).collect();
        module = next;
    }
    module
}

/// The import graph of the crate at `root` (ancestor edges left out). A
/// path to an item a module re-exports is also an edge to the module that
/// defines it: a circle closed through a `pub use` is a circle.
fn graph(root: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let mods = modules(root);
    let code: BTreeMap<&Module, String> = mods
        .iter()
        .map(|(m, file)| {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            (m, without_inline_modules(&strip(&text)))
        })
        .collect();
    let reexp: Reexports = code
        .iter()
        .map(|(m, c)| ((*m).clone(), reexports(c).into_iter().collect()))
        .collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (here, code) in &code {
        let targets = edges.entry((*here).clone()).or_default();
        for path in paths_in(code) {
            let Some((to, rest)) = resolve(&path, here, &mods) else {
                continue;
            };
            let real = defining(to.clone(), &rest, &reexp, &mods);
            for to in [to, real] {
                // An ancestor (or the file itself) is the module tree.
                if !here.starts_with(&to) {
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

/// The imports a direction rule forbids in `edges`: the tab layer, the
/// WIT bindings, the granter, the capability registry and the browser
/// operations never reach up
/// into the runtime or the broker; a capability folder never imports
/// another capability's.
fn wrong_way(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let top = |m: &Module| m.first().cloned().unwrap_or_default();
    let capability = |m: &Module| match m.as_slice() {
        [first, cap, ..] if first == "capabilities" => Some(cap.clone()),
        _ => None,
    };
    let low = ["tab", "wit", "granter", "capabilities", "browser"];
    let mut bad = Vec::new();
    for (from, tos) in edges {
        for to in tos {
            let up = low.contains(&top(from).as_str())
                && matches!(top(to).as_str(), "runtime" | "broker");
            let across = matches!((capability(from), capability(to)), (Some(a), Some(b)) if a != b);
            if up || across {
                bad.push(format!("    {} -> {}", name(from), name(to)));
            }
        }
    }
    bad
}

#[test]
fn lower_layers_never_import_upward_and_capabilities_never_each_other() {
    let root = std::env::var_os("BP_LAYERING_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let bad = wrong_way(&graph(&root));
    assert!(bad.is_empty(), "wrong-way imports:\n{}", bad.join("\n"));
}

#[test]
fn a_planted_wrong_way_import_is_found() {
    let m = |p: &str| -> Module { p.split('/').map(str::to_string).collect() };
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    edges.insert(m("tab"), [m("browser/call")].into());
    edges.insert(
        m("capabilities/page_wait/poll"),
        [m("tab"), m("wit")].into(),
    );
    assert!(wrong_way(&edges).is_empty());
    edges.insert(m("tab"), [m("runtime/views")].into());
    edges.insert(
        m("capabilities/page_wait/host"),
        [m("capabilities/page_tools/view")].into(),
    );
    edges.insert(m("granter"), [m("broker/state")].into());
    let bad = wrong_way(&edges);
    assert_eq!(bad.len(), 3, "{bad:?}");
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

#[test]
fn circles_closed_through_pub_use_reexports_are_found() {
    let found = reader::reexports(&strip(
        "pub use inner::Thing;\npub(crate) use crate::c::{Y, Z as W};\nuse crate::d::Private;\npub use e::*;\n",
    ));
    let named: Vec<String> = found
        .iter()
        .map(|(n, p)| format!("{n}={}", p.join("::")))
        .collect();
    assert_eq!(
        named,
        [
            "Thing=inner::Thing",
            "Y=crate::c::Y",
            "W=crate::c::Z",
            "*=e::*"
        ]
    );
    // a -> b::Thing (defined in b/inner) -> a, and d/inner -> super::Y
    // (defined in c) -> d/inner: each closed only through a re-export.
    let root = std::env::temp_dir().join(format!("bp-layering-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let files = [
        ("lib.rs", "mod a; mod b; mod c; mod d;"),
        ("a.rs", "use crate::b::Thing; pub struct Other;"),
        ("b/mod.rs", "mod inner; pub use inner::Thing;"),
        ("b/inner.rs", "use crate::a::Other; pub struct Thing;"),
        (
            "c.rs",
            "pub struct Y; fn f() -> crate::d::inner::Z { todo!() }",
        ),
        ("d/mod.rs", "mod inner; pub use crate::c::Y;"),
        ("d/inner.rs", "use super::Y; pub struct Z;"),
    ];
    for (path, text) in files {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap_or(&root)).unwrap_or_default();
        std::fs::write(&file, text).unwrap_or_default();
    }
    let found = circles(&graph(&root));
    let _ = std::fs::remove_dir_all(&root);
    let m = |s: &str| -> Module { s.split('/').map(str::to_string).collect() };
    let mut found = found;
    found.sort();
    assert_eq!(
        found,
        vec![vec![m("a"), m("b/inner")], vec![m("c"), m("d/inner")]],
        "{found:?}"
    );
}
