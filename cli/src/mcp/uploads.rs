//! Files in from an MCP client: `browser_upload` with `paths`. Each path
//! is canonicalised and must lie under an upload root (`--upload-root`,
//! or a root the client declares through MCP `roots`), then imported as
//! an artifact of the session's workspace (`artifacts/import`) before the
//! broker's `browser.upload` runs on the artifact IDs. A path that escapes
//! the roots (`..`, a symlink) is refused before anything is imported.

use super::session::Session;
use browser_pilot_host::{BpError, BpResult, Code};
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long the client may take to answer `roots/list`.
const ROOTS_WAIT: Duration = Duration::from_secs(5);
/// Most paths one call takes (as many as `artifactIds`).
const MAX_PATHS: usize = 32;

/// `--upload-root DIR`s, canonicalised; one that does not exist or is
/// not a directory is `invalid_argument` at the start.
pub fn roots_from_args(dirs: &[PathBuf]) -> BpResult<Vec<PathBuf>> {
    dirs.iter()
        .map(|d| {
            let bad = |why: String| {
                BpError::invalid(format!("--upload-root {}: {why}", d.display()))
                    .with_context(json!({"uploadRoot": d}))
            };
            let canonical = std::fs::canonicalize(d).map_err(|e| bad(e.to_string()))?;
            if !canonical.is_dir() {
                return Err(bad("not a directory".into()));
            }
            Ok(canonical)
        })
        .collect()
}

/// The `browser_upload` input schema as MCP offers it: `paths` beside
/// `artifactIds`, one of the two required.
pub fn mcp_schema(schema: &Value) -> Value {
    let mut s = schema.clone();
    if let Some(props) = s["properties"].as_object_mut() {
        props.insert(
            "paths".into(),
            json!({"type": "array", "minItems": 1, "maxItems": MAX_PATHS,
                   "items": {"type": "string"},
                   "description": "Absolute paths of files under an upload root (--upload-root, or the client's MCP roots); imported, then set on the input. Instead of artifactIds."}),
        );
    }
    if let Some(req) = s["required"].as_array_mut() {
        req.retain(|r| r != "artifactIds");
    }
    s
}

/// The path of a `file://` root URI (percent escapes decoded); other
/// schemes give none.
fn path_of_uri(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

/// The roots the client declares (when it has the `roots` capability),
/// canonicalised; roots that do not resolve are left out.
#[allow(deprecated)] // MCP roots: deprecated by SEP-2577, still what clients send.
async fn client_roots(ctx: &RequestContext<RoleServer>) -> Vec<PathBuf> {
    let declares = ctx
        .peer
        .peer_info()
        .is_some_and(|i| i.capabilities.roots.is_some());
    if !declares {
        return Vec::new();
    }
    let listed = tokio::time::timeout(ROOTS_WAIT, ctx.peer.list_roots()).await;
    let Ok(Ok(listed)) = listed else {
        return Vec::new();
    };
    listed
        .roots
        .iter()
        .filter_map(|r| path_of_uri(&r.uri))
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .filter(|p| p.is_dir())
        .collect()
}

fn outside(path: &str, reason: &str, message: String) -> BpError {
    BpError::new(Code::CapabilityDenied, message)
        .with_context(json!({"reason": reason, "path": path}))
}

/// One path, canonicalised and checked against `roots`.
pub fn resolve(path: &str, roots: &[PathBuf]) -> BpResult<PathBuf> {
    let given = Path::new(path);
    if !given.is_absolute() {
        return Err(BpError::invalid(format!("`paths`: {path} is not absolute"))
            .with_context(json!({"path": path})));
    }
    if roots.is_empty() {
        return Err(outside(
            path,
            "no_upload_roots",
            "no upload root: start bp mcp with --upload-root DIR, or declare MCP roots".into(),
        ));
    }
    let canonical = std::fs::canonicalize(given).map_err(|e| {
        BpError::invalid(format!("`paths`: cannot read {path}: {e}"))
            .with_context(json!({"path": path}))
    })?;
    if !roots.iter().any(|r| canonical.starts_with(r)) {
        return Err(outside(
            path,
            "outside_upload_roots",
            format!("{path} resolves outside the upload roots"),
        ));
    }
    if !canonical.is_file() {
        return Err(
            BpError::invalid(format!("`paths`: {path} is not a regular file"))
                .with_context(json!({"path": path})),
        );
    }
    Ok(canonical)
}

/// `browser.upload`'s arguments with `paths` replaced by the IDs of the
/// imported files, and those IDs. Every path is checked before any is
/// imported.
pub async fn import_paths(
    session: &Session,
    ctx: &RequestContext<RoleServer>,
    cli_roots: &[PathBuf],
    mut args: Value,
) -> BpResult<(Value, Vec<Value>)> {
    let Some(paths) = args.as_object_mut().and_then(|o| o.remove("paths")) else {
        return Ok((args, Vec::new()));
    };
    if args.get("artifactIds").is_some() {
        return Err(BpError::invalid("give `paths` or `artifactIds`, not both"));
    }
    let list: Vec<&str> = paths
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let count = paths.as_array().map_or(0, Vec::len);
    if list.is_empty() || list.len() != count || count > MAX_PATHS {
        return Err(BpError::invalid(format!(
            "`paths` must hold 1 to {MAX_PATHS} strings"
        )));
    }
    let mut roots = cli_roots.to_vec();
    roots.extend(client_roots(ctx).await);
    let resolved: Vec<PathBuf> = list
        .iter()
        .map(|p| resolve(p, &roots))
        .collect::<BpResult<_>>()?;
    let mut ids = Vec::with_capacity(resolved.len());
    for path in resolved {
        let imported = session
            .link
            .request(
                "artifacts/import",
                json!({"workspaceId": session.info.workspace_id,
                       "leaseId": session.info.lease_id, "path": path}),
            )
            .await?;
        ids.push(imported["artifactId"].clone());
    }
    args["artifactIds"] = Value::Array(ids.clone());
    Ok((args, ids))
}

/// Release what [`import_paths`] imported for an upload that failed.
pub async fn release(session: &Session, ids: &[Value]) {
    for id in ids {
        let params = json!({"artifactId": id});
        if let Err(e) = session.link.request("artifacts/release", params).await {
            tracing::debug!("release of {id}: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            path_of_uri("file:///tmp/a%20b"),
            Some(PathBuf::from("/tmp/a b"))
        );
        assert_eq!(path_of_uri("file://localhost/x"), Some(PathBuf::from("/x")));
        assert_eq!(path_of_uri("https://example.com/x"), None);
        assert_eq!(path_of_uri("file://other/x"), None);
    }

    #[test]
    fn paths_stay_under_their_roots() {
        let base = std::env::temp_dir().join(format!("bp-roots-{}", std::process::id()));
        let root = base.join("root");
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("in.txt"), "in").unwrap();
        std::fs::write(base.join("out.txt"), "out").unwrap();
        std::os::unix::fs::symlink(base.join("out.txt"), root.join("link.txt")).unwrap();
        let roots = roots_from_args(std::slice::from_ref(&root)).unwrap();
        let p = |s: &Path| s.display().to_string();
        assert!(resolve(&p(&root.join("in.txt")), &roots).is_ok());
        for escape in [root.join("../out.txt"), root.join("link.txt")] {
            let e = resolve(&p(&escape), &roots).unwrap_err();
            assert_eq!(e.code, Code::CapabilityDenied, "{escape:?}");
        }
        assert_eq!(
            resolve("rel.txt", &roots).unwrap_err().code,
            Code::InvalidArgument
        );
        let e = resolve(&p(&root.join("in.txt")), &[]).unwrap_err();
        assert_eq!(e.context.unwrap()["reason"], "no_upload_roots");
        assert!(roots_from_args(&[base.join("missing")]).is_err());
        let _ = std::fs::remove_dir_all(&base);
    }
}
