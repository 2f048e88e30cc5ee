//! Files in from MCP, through the real `bp mcp` over stdio on real
//! Chromium: `browser_upload` takes paths under an `--upload-root` and
//! under the roots the client declares (answered to the server's
//! `roots/list`); a path that escapes them through `..` or a symlink is
//! refused with a stable code and nothing is imported (nor kept by an
//! upload that fails after its import); an upload root
//! that does not exist stops `bp mcp` at its start.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::json;
use std::path::Path;
use support::mcp::Mcp;
use support::{find_ref, Env};

/// Files in the store's artifact directory (imports make one each).
fn stored(home: &Path) -> usize {
    support::walk(&home.join("artifacts"))
        .into_iter()
        .filter(|p| p.is_file())
        .count()
}

fn write(path: &Path, text: &str) -> String {
    std::fs::write(path, text).unwrap();
    path.display().to_string()
}

#[test]
fn bp_mcp_uploads_paths_under_its_roots_only() {
    let env = Env::new();
    let cli_root = env.home.join("cli-root");
    let client_root = env.home.join("client root");
    for d in [&cli_root, &client_root] {
        std::fs::create_dir_all(d).unwrap();
    }
    let inside = write(&cli_root.join("inside.txt"), "in");
    let declared = write(&client_root.join("declared.txt"), "in too");
    let secret = write(&env.home.join("secret.txt"), "not for the page");
    std::os::unix::fs::symlink(&secret, cli_root.join("link.txt")).unwrap();
    let root_arg = cli_root.display().to_string();
    let mut mcp = Mcp::start(
        &env,
        &["--launch", "--headless", "--upload-root", &root_arg],
        vec![client_root.clone()],
    );
    let tools = mcp.request("tools/list", json!({}));
    let upload = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "browser_upload")
        .cloned()
        .unwrap_or_else(|| panic!("no browser_upload in {tools}"));
    assert!(
        upload["inputSchema"]["properties"]["paths"].is_object(),
        "{upload}"
    );
    mcp.call("browser_tabs_open", json!({"url": env.url("upload.html")}));

    let upload_paths = |mcp: &mut Mcp, paths: &[&str]| {
        let obs = mcp.call("browser_observe", json!({}));
        let input: u64 = find_ref(&obs, "button", "Attachment").parse().unwrap();
        mcp.call(
            "browser_upload",
            json!({"observationId": obs["observationId"], "ref": input, "paths": paths}),
        )
    };
    // Under the --upload-root, and under the client's declared root.
    let v = upload_paths(&mut mcp, &[&inside, &declared]);
    assert_eq!(v["evidence"]["status"], "verified", "{v}");
    assert_eq!(
        v["evidence"]["names"],
        json!(["inside.txt", "declared.txt"]),
        "{v}"
    );
    let read = mcp.call("browser_read", json!({}));
    assert!(
        read.to_string()
            .contains("Selected: inside.txt, declared.txt"),
        "{read}"
    );

    // Out through `..`, out through a symlink, and a good path beside a
    // bad one: refused, nothing imported.
    let before = stored(&env.home);
    let dotdot = format!("{root_arg}/../secret.txt");
    let link = format!("{root_arg}/link.txt");
    for paths in [
        vec![dotdot.as_str()],
        vec![link.as_str()],
        vec![inside.as_str(), link.as_str()],
    ] {
        let v = upload_paths(&mut mcp, &paths);
        assert_eq!(v["error"]["code"], "capability_denied", "{paths:?}: {v}");
        assert_eq!(
            v["error"]["context"]["reason"], "outside_upload_roots",
            "{v}"
        );
    }
    assert_eq!(stored(&env.home), before, "a refused path was imported");
    let read = mcp.call("browser_read", json!({}));
    assert!(!read.to_string().contains("secret"), "{read}");

    // An upload that fails after the import (a button that opens no file
    // chooser) keeps nothing it imported.
    mcp.call(
        "browser_navigate",
        json!({"url": env.url("styled-upload.html")}),
    );
    let obs = mcp.call("browser_observe", json!({}));
    let nothing: u64 = find_ref(&obs, "button", "Does nothing").parse().unwrap();
    let v = mcp.call(
        "browser_upload",
        json!({"observationId": obs["observationId"], "ref": nothing, "paths": [inside]}),
    );
    assert_eq!(v["error"]["code"], "action_not_verified", "{v}");
    assert_eq!(stored(&env.home), before, "a failed upload kept its import");
}

#[test]
fn an_upload_root_that_does_not_exist_stops_bp_mcp() {
    let env = Env::new();
    let missing = env.home.join("no-such-dir");
    let (code, run) = env.err(&["mcp", "--upload-root", missing.to_str().unwrap()]);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
    assert!(run.stderr().contains("--upload-root"), "{}", run.stderr());
}
