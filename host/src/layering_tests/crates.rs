//! The other crates of the workspace: the development tools (bench, fuzz,
//! soak) import each other one way too, with no circle anywhere, and the
//! product crates (host, cli) hold none of them.

use super::{circles, graph, name};
use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

#[test]
fn the_devtools_crate_has_no_import_circles() {
    let root = std::env::var_os("BP_LAYERING_DEVTOOLS_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("devtools/src"));
    let edges = graph(&root);
    assert!(edges.len() > 15, "read only {} files", edges.len());
    let found: Vec<String> = circles(&edges)
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" -> "))
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_product_crates_hold_no_development_tools() {
    let ws = workspace();
    let kept_out = [
        "host/src/fuzz",
        "host/src/fuzz.rs",
        "cli/src/bench",
        "cli/src/bench.rs",
        "cli/src/fuzz.rs",
        "cli/src/fuzz_mcp.rs",
        "cli/src/soak.rs",
    ];
    let present: Vec<&str> = kept_out
        .into_iter()
        .filter(|p| ws.join(p).exists())
        .collect();
    assert!(
        present.is_empty(),
        "development tools in a product crate: {present:?}"
    );
}
