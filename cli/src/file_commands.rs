//! `bp screenshot`, `bp pdf`, `bp upload`, `bp artifact`: commands that
//! move files between the broker's artifact store and the caller's disk.
//! Each returns the protocol result and its line for humans.

use crate::args::ArtifactCommand;
use crate::session::Session;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// `path` made absolute against the current directory (the broker does
/// not share our working directory).
pub(crate) fn absolute(path: PathBuf) -> BpResult<PathBuf> {
    if path.is_absolute() {
        return Ok(path);
    }
    std::env::current_dir()
        .map(|d| d.join(path))
        .map_err(|e| BpError::internal(format!("current directory: {e}")))
}

async fn export(s: &mut Session, artifact: &Value, path: &Path) -> BpResult<Value> {
    s.request(
        "artifacts/export",
        json!({"artifactId": artifact, "path": path}),
    )
    .await
}

pub(crate) async fn screenshot(
    s: &mut Session,
    path: Option<PathBuf>,
    full_page: bool,
) -> BpResult<(Value, String)> {
    let v = s
        .tool("browser.screenshot", json!({"fullPage": full_page}))
        .await?;
    let path = absolute(path.unwrap_or_else(|| {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        PathBuf::from(format!("screenshot-{}.png", t.as_millis()))
    }))?;
    export(s, &v["artifact"]["artifactId"], &path).await?;
    let a = &v["artifact"];
    let mut line = format!(
        "saved {} ({}x{}, {} bytes)",
        path.display(),
        a["width"],
        a["height"],
        a["bytes"]
    );
    if let Some(p) = v.get("preview") {
        line.push_str(&format!(
            "\npreview artifact {} ({}x{})",
            p["artifactId"].as_str().unwrap_or(""),
            p["width"],
            p["height"]
        ));
    }
    Ok((v, line))
}

pub(crate) async fn pdf(s: &mut Session, path: PathBuf) -> BpResult<(Value, String)> {
    let path = absolute(path)?;
    let v = s.tool("browser.pdf", json!({})).await?;
    export(s, &v["artifact"]["artifactId"], &path).await?;
    let line = format!(
        "saved {} ({} bytes)",
        path.display(),
        v["artifact"]["bytes"]
    );
    Ok((v, line))
}

pub(crate) async fn upload(
    s: &mut Session,
    reference: &str,
    r: u64,
    paths: Vec<PathBuf>,
) -> BpResult<(Value, String)> {
    let paths: Vec<PathBuf> = paths.into_iter().map(absolute).collect::<BpResult<_>>()?;
    let ids = s.ids().await?;
    let mut artifacts = Vec::with_capacity(paths.len());
    for path in paths {
        let imported = s
            .request(
                "artifacts/import",
                json!({"workspaceId": ids.0, "leaseId": ids.1, "path": path}),
            )
            .await?;
        artifacts.push(imported["artifactId"].clone());
    }
    let args = json!({"ref": r, "artifactIds": artifacts});
    let v = match s.tool("browser.upload", args).await {
        Ok(v) => v,
        Err(e) => {
            // A refused upload leaves nothing behind in the store.
            for id in &artifacts {
                let _ = s
                    .request("artifacts/release", json!({"artifactId": id}))
                    .await;
            }
            return Err(e);
        }
    };
    let e = &v["evidence"];
    let mut line = format!(
        "uploaded to [{reference}]: {} ({} file(s))",
        e["status"].as_str().unwrap_or(""),
        e["fileCount"]
    );
    if e["via"] == "file_chooser" {
        line.push_str(" through its file chooser");
    }
    Ok((v, line))
}

pub(crate) async fn artifact(
    s: &mut Session,
    command: ArtifactCommand,
) -> BpResult<(Value, String)> {
    match command {
        ArtifactCommand::Export { id, path } => {
            let path = absolute(path)?;
            let v = export(s, &json!(id), &path).await?;
            let line = format!("saved {} ({} bytes)", path.display(), v["bytes"]);
            Ok((v, line))
        }
        ArtifactCommand::Release { id } => {
            let v = s
                .request("artifacts/release", json!({"artifactId": id}))
                .await?;
            Ok((v, "released".to_string()))
        }
    }
}
