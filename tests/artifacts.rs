//! Artifacts: screenshots, previews, PDFs, uploads, quotas, expiry,
//! ownership and file permissions, against real Chromium.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::{json, Value};
use std::os::unix::fs::MetadataExt;
use support::bridge::{two_clients, Bridge, Session};
use support::{find_ref, root, Env};

/// (width, height, distinct colours among sampled pixels)
fn inspect_png(path: &std::path::Path) -> (u32, u32, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(path).expect("open png"));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png data");
    let step = info.line_size / info.width as usize;
    let mut colours = std::collections::HashSet::new();
    for px in buf[..info.buffer_size()].chunks(step).step_by(7) {
        colours.insert(px.to_vec());
    }
    (info.width, info.height, colours.len())
}

fn mode(p: &std::path::Path) -> u32 {
    std::fs::metadata(p).map(|m| m.mode() & 0o777).unwrap_or(0)
}

#[test]
fn screenshots_previews_and_pdf() {
    let env = Env::new();
    env.launch();
    env.open("form.html");
    let out = env.home.join("shot.png");
    let shot = env.json(&["screenshot", out.to_str().unwrap()]);
    let a = &shot["artifact"];
    assert_eq!(a["kind"], "screenshot");
    assert_eq!(a["mime"], "image/png");
    assert!(
        shot.get("preview").is_none(),
        "a viewport shot needs no preview: {shot}"
    );
    let (w, h, colours) = inspect_png(&out);
    assert_eq!(
        (json!(w), json!(h)),
        (a["width"].clone(), a["height"].clone())
    );
    assert!(w >= 300 && h >= 200, "{w}x{h}");
    assert!(
        colours > 3,
        "the screenshot looks blank ({colours} colours)"
    );
    // The stored copy is protected; the export is what the user asked for.
    let stored = std::path::PathBuf::from(a["path"].as_str().unwrap());
    assert_eq!(mode(&stored), 0o600);
    assert_eq!(mode(stored.parent().unwrap()), 0o700);
    assert_eq!(
        std::fs::read(&stored).unwrap(),
        std::fs::read(&out).unwrap()
    );

    env.open("long.html");
    let full = env.json(&[
        "screenshot",
        env.home.join("full.png").to_str().unwrap(),
        "--full-page",
    ]);
    let (orig, preview) = (&full["artifact"], &full["preview"]);
    assert!(orig["height"].as_u64().unwrap() > 5_000, "{full}");
    assert_eq!(preview["kind"], "preview");
    assert_eq!(preview["previewOf"], orig["artifactId"]);
    let (pw, ph, pc) = inspect_png(std::path::Path::new(preview["path"].as_str().unwrap()));
    assert!(pw <= 1280 && ph <= 1280, "preview {pw}x{ph} is not bounded");
    assert!(pc > 1, "the preview looks blank");

    let pdf_path = env.home.join("page.pdf");
    env.ok(&["pdf", pdf_path.to_str().unwrap()]);
    let pdf = std::fs::read(&pdf_path).unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
    assert!(
        pdf.windows(5).rev().take(64).any(|w| w == b"%%EOF"),
        "truncated PDF"
    );

    // No base64 anywhere in the protocol results.
    assert!(
        !shot.to_string().contains("iVBOR"),
        "PNG bytes leaked into the result"
    );
}

#[test]
fn uploads_only_take_imported_files() {
    let env = Env::new();
    env.launch();
    env.open("upload.html");
    let obs = env.snapshot(None);
    let input = find_ref(&obs, "button", "Attachment");
    let file = env.home.join("notes-2026.txt");
    std::fs::write(&file, "hello").unwrap();
    let up = env.json(&["upload", &input, file.to_str().unwrap()]);
    assert_eq!(up["evidence"]["status"], "verified", "{up}");
    assert_eq!(up["evidence"]["fileCount"], 1);
    assert!(
        !up.to_string().contains(env.home.to_str().unwrap()),
        "the source path leaked: {up}"
    );
    assert!(env.ok(&["read"]).contains("Selected: notes-2026.txt"));

    // A screenshot artifact is not upload authorisation; neither is a path.
    let shot = env.json(&["screenshot", env.home.join("s.png").to_str().unwrap()]);
    let obs = env.snapshot(None);
    let input = find_ref(&obs, "button", "Attachment")
        .parse::<u32>()
        .unwrap();
    for id in [
        shot["artifact"]["artifactId"].as_str().unwrap().to_string(),
        file.display().to_string(),
    ] {
        let args = json!({"ref": input, "artifactIds": [id]}).to_string();
        let (code, run) = env.err(&["tool", "call", "browser.upload", "--input", &args]);
        assert_eq!(code, "invalid_argument", "{}", run.stderr());
    }
    let (code, _) = env.err(&["upload", &input.to_string(), "/nonexistent/file.txt"]);
    assert_eq!(code, "invalid_argument");
}

/// A broker with the small-artifacts policy and two clients; client A has
/// `page` open in a managed tab.
fn small_artifacts_clients(page: &str) -> (Env, Bridge, Session, Bridge, Session) {
    let mut env = Env::new();
    let policy = root().join("fixtures/policies/small-artifacts.toml");
    env.serve(&["--policy", policy.to_str().unwrap()]);
    env.launch();
    let (mut a, sa, b, sb) = two_clients(&env, 60_000);
    a.tool_ok(&sa, "browser.tabs.open", json!({"url": env.url(page)}));
    (env, a, sa, b, sb)
}

#[test]
fn artifacts_belong_to_their_workspace_and_expire() {
    let (env, mut a, sa, mut b, sb) = small_artifacts_clients("form.html");
    let shot = a.tool_ok(&sa, "browser.screenshot", json!({}));
    let id = shot["artifact"]["artifactId"].as_str().unwrap().to_string();
    let path = std::path::PathBuf::from(shot["artifact"]["path"].as_str().unwrap());

    // Another client can neither see, export nor release it.
    for (method, extra) in [
        ("artifacts/get", json!({})),
        ("artifacts/export", json!({"path": env.home.join("x.png")})),
        ("artifacts/release", json!({})),
    ] {
        let mut params = json!({"artifactId": id});
        params
            .as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        assert_eq!(
            b.call_err(method, params)["code"],
            "artifact_not_found",
            "{method}"
        );
    }
    assert!(path.exists());
    assert_eq!(
        a.call("artifacts/get", json!({"artifactId": id}))["artifactId"],
        id.as_str()
    );

    // Quota: the policy allows 1 MB per artifact.
    let big = env.home.join("big.bin");
    std::fs::write(&big, vec![7u8; 2 << 20]).unwrap();
    let refused = a.call_err(
        "artifacts/import",
        json!({"workspaceId": sa.workspace, "leaseId": sa.lease, "path": big}),
    );
    assert_eq!(refused["code"], "result_too_large", "{refused}");
    let rel = a.call_err(
        "artifacts/import",
        json!({"workspaceId": sa.workspace, "leaseId": sa.lease, "path": "relative.txt"}),
    );
    assert_eq!(rel["code"], "invalid_argument");

    // TTL: two seconds, then it is gone (file included).
    let kept = a.tool_ok(&sa, "browser.screenshot", json!({}));
    let kept_id = kept["artifact"]["artifactId"].as_str().unwrap().to_string();
    a.call("artifacts/retain", json!({"artifactId": kept_id}));
    let expires = a.call("artifacts/get", json!({"artifactId": id}))["expiresAt"]
        .as_u64()
        .expect("an expiry");
    // Wait for the expiry itself (file included), not a guessed time.
    support::poll_until(support::POLL_LIMIT, "the artifact to expire", || {
        let got = a.send("artifacts/get", json!({"artifactId": id}));
        let got = a.wait(got);
        got["error"]["data"]["code"] == "artifact_expired" && !path.exists()
    });
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    assert!(now >= expires, "expired at {now}, before its {expires}");
    assert_eq!(
        a.call("artifacts/get", json!({"artifactId": kept_id}))["expiresAt"],
        serde_json::Value::Null
    );

    // Releasing the workspace removes its artifacts.
    let kept_path = std::path::PathBuf::from(kept["artifact"]["path"].as_str().unwrap());
    assert!(kept_path.exists());
    a.call("workspaces/release", json!({"workspaceId": sa.workspace}));
    assert!(
        !kept_path.exists(),
        "workspace release left an artifact file"
    );
    b.call("leases/release", json!({"leaseId": sb.lease}));
}

#[test]
fn reference_adapter_turns_a_screenshot_into_an_image_block() {
    let env = Env::new();
    let out = std::process::Command::new("python3")
        .arg(root().join("examples/adapter.py"))
        .args([
            "--bp",
            support::bp_exe().to_str().unwrap(),
            "--url",
            &env.url("form.html"),
            "--launch",
        ])
        .env("BROWSER_PILOT_HOME", &env.home)
        .output()
        .expect("run the adapter");
    assert!(
        out.status.success(),
        "adapter failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON line");
    assert_eq!(v["ok"], true);
    assert_eq!(v["mediaType"], "image/png");
    assert!(v["base64Length"].as_u64().unwrap() > 1000, "{v}");
    assert!(
        !line.contains("iVBOR"),
        "the adapter must not print image data"
    );
}

/// Observe, then click the link named `name`; returns the observation.
fn click_link(a: &mut Bridge, s: &Session, name: &str) -> Value {
    let obs = a.tool_ok(s, "browser.observe", json!({}));
    let link = find_ref(&obs, "link", name).parse::<u32>().unwrap();
    a.tool_ok(
        s,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": link}),
    );
    obs
}

#[test]
fn downloads_become_workspace_artifacts_before_their_event() {
    let (env, mut a, sa, mut b, sb) = small_artifacts_clients("upload.html");
    let obs = click_link(&mut a, &sa, "Download report");
    let event = a.wait_event(&sa.workspace, &sa.cursor, "download");
    assert_eq!(event["payload"]["state"], "completed", "{event}");
    assert!(
        event["payload"].get("path").is_none(),
        "events never carry paths: {event}"
    );
    let id = event["payload"]["artifactId"].as_str().unwrap().to_string();
    let d = a.call("artifacts/get", json!({"artifactId": id}));
    assert_eq!(d["kind"], "download");
    assert_eq!(d["filename"], "report.txt");
    assert_eq!(
        std::fs::read_to_string(d["path"].as_str().unwrap()).unwrap(),
        "quarterly report 42\n"
    );
    assert_eq!(
        b.call_err("artifacts/get", json!({"artifactId": id}))["code"],
        "artifact_not_found"
    );
    // Staging is private and emptied once the artifact exists.
    let staging = env.home.join("downloads");
    assert_eq!(mode(&staging), 0o700);
    let leftovers: Vec<_> = support::walk(&staging)
        .into_iter()
        .filter(|p| p.is_file())
        .collect();
    assert!(leftovers.is_empty(), "staged files left: {leftovers:?}");

    // Over the 1 MB per-item quota: bounded metadata, no artifact, no path.
    let big = find_ref(&obs, "link", "Download big file")
        .parse::<u32>()
        .unwrap();
    let cursor = a.call("workspaces/get", json!({"workspaceId": sa.workspace}))["eventCursor"]
        .as_str()
        .unwrap()
        .to_string();
    let obs = a.tool_ok(&sa, "browser.observe", json!({}));
    a.tool_ok(
        &sa,
        "browser.click",
        json!({"observationId": obs["observationId"], "ref": big}),
    );
    let event = a.wait_event(&sa.workspace, &cursor, "download");
    assert_eq!(event["payload"]["state"], "oversized", "{event}");
    assert!(
        event["payload"].get("artifactId").is_none() && event["payload"].get("path").is_none(),
        "{event}"
    );
    b.call("leases/release", json!({"leaseId": sb.lease}));
}

/// A download past its per-item bound is cancelled while it transfers, not
/// once it is complete: the 8 MiB body trickles out over 60 s, and the
/// `oversized` event must come long before that (`wait_event` gives up
/// after 30 s). Nothing of it stays in staging.
#[test]
fn a_download_past_its_bound_is_cancelled_while_it_transfers() {
    let (env, mut a, sa, mut b, sb) = small_artifacts_clients("busy.html");
    click_link(&mut a, &sa, "Download slowly");
    let event = a.wait_event(&sa.workspace, &sa.cursor, "download");
    let p = &event["payload"];
    assert_eq!(p["state"], "oversized", "{event}");
    assert_eq!(p["error"]["code"], "result_too_large", "{event}");
    assert_eq!(p["error"]["context"]["quota"], "per-item", "{event}");
    assert_eq!(p["error"]["context"]["limitBytes"], 1 << 20, "{event}");
    assert!(p.get("artifactId").is_none(), "{event}");
    let staging = env.home.join("downloads");
    support::poll_until(support::POLL_LIMIT, "staging to be empty", || {
        support::walk(&staging).into_iter().all(|f| !f.is_file())
    });
    b.call("leases/release", json!({"leaseId": sb.lease}));
}
