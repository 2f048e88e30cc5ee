//! The artifact store: workspace-owned binary results (screenshots,
//! previews, PDFs, imported upload files) in an owner-only directory.
//! File access goes through a `cap-std` directory handle, so store code
//! cannot reach outside its root. Bytes never travel over the protocol:
//! clients get descriptors with opaque IDs and the protected file path.

use crate::error::{BpError, BpResult, Code};
use cap_std::fs::{Dir, OpenOptions, OpenOptionsExt};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Store limits (from the policy).
#[derive(Debug, Clone, Copy)]
pub struct ArtifactLimits {
    pub per_item: u64,
    pub per_workspace: u64,
    pub global: u64,
    pub ttl: Duration,
}

impl Default for ArtifactLimits {
    fn default() -> Self {
        Self {
            per_item: 64 << 20,
            per_workspace: 256 << 20,
            global: 1 << 30,
            ttl: Duration::from_secs(30 * 60),
        }
    }
}

/// What a new artifact is.
pub struct NewArtifact<'a> {
    pub workspace_id: &'a str,
    pub kind: &'static str,
    pub mime: &'a str,
    pub filename: Option<String>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub preview_of: Option<String>,
}

struct Entry {
    id: String,
    workspace_id: String,
    kind: &'static str,
    mime: String,
    bytes: u64,
    filename: Option<String>,
    width: Option<u32>,
    height: Option<u32>,
    created_ms: u64,
    /// `None` once retained.
    expires: Option<Instant>,
    preview_of: Option<String>,
    file: String,
    /// Where a download came from.
    source_url: Option<String>,
}

#[derive(Default)]
struct Inner {
    items: HashMap<String, Entry>,
    /// Expired ID -> owning workspace (ownership still applies).
    expired: HashMap<String, String>,
}

/// The broker's artifact store.
pub struct ArtifactStore {
    dir: Dir,
    root: PathBuf,
    limits: ArtifactLimits,
    inner: Mutex<Inner>,
}

fn unix_ms(offset: Duration) -> u64 {
    (SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        + offset)
        .as_millis() as u64
}

fn io_err(what: &str) -> impl Fn(std::io::Error) -> BpError + '_ {
    move |e| BpError::internal(format!("artifact store: {what}: {e}"))
}

impl ArtifactStore {
    /// Open the store at `root`, removing whatever a previous broker left
    /// (artifacts never outlive the broker that made them).
    pub fn open(root: &Path, limits: ArtifactLimits) -> BpResult<Self> {
        if root.exists() {
            std::fs::remove_dir_all(root).map_err(io_err("removing stale artifacts"))?;
        }
        crate::system::paths::ensure_private_dir(root)?;
        let dir = Dir::open_ambient_dir(root, cap_std::ambient_authority())
            .map_err(io_err("opening the store"))?;
        Ok(Self {
            dir,
            root: root.to_path_buf(),
            limits,
            inner: Mutex::default(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn descriptor(&self, e: &Entry) -> Value {
        let mut v = json!({
            "artifactId": e.id,
            "kind": e.kind,
            "mime": e.mime,
            "bytes": e.bytes,
            "sensitivity": match e.kind {
                "user_file" => "user_file",
                "download" => "browser_data",
                "state" => "secret",
                _ => "page_capture",
            },"createdAt": e.created_ms,
            "expiresAt": e.expires.map(|t| unix_ms(t.saturating_duration_since(Instant::now()))),
            "path": self.root.join(&e.file),
        });
        for (k, val) in [
            ("filename", e.filename.clone().map(Value::from)),
            ("previewOf", e.preview_of.clone().map(Value::from)),
            ("sourceUrl", e.source_url.clone().map(Value::from)),
        ] {
            if let Some(val) = val {
                v[k] = val;
            }
        }
        if let (Some(w), Some(h)) = (e.width, e.height) {
            v["width"] = json!(w);
            v["height"] = json!(h);
        }
        if e.kind == "user_file" {
            v["use"] = json!("upload_input");
        }
        v
    }

    fn check_quota(&self, inner: &Inner, workspace_id: &str, size: u64) -> BpResult<()> {
        let too_large = |what: &str, limit: u64| {
            Err(BpError::new(
                Code::ResultTooLarge,
                format!("{what} artifact quota of {limit} bytes would be exceeded"),
            )
            .with_context(json!({"quota": what, "limitBytes": limit, "bytes": size})))
        };
        if size > self.limits.per_item {
            return too_large("per-item", self.limits.per_item);
        }
        let ws: u64 = inner
            .items
            .values()
            .filter(|e| e.workspace_id == workspace_id)
            .map(|e| e.bytes)
            .sum();
        if ws + size > self.limits.per_workspace {
            return too_large("per-workspace", self.limits.per_workspace);
        }
        let all: u64 = inner.items.values().map(|e| e.bytes).sum();
        if all + size > self.limits.global {
            return too_large("global", self.limits.global);
        }
        Ok(())
    }

    /// Store `data`; returns the descriptor.
    pub fn create(&self, a: NewArtifact<'_>, data: &[u8]) -> BpResult<Value> {
        let mut inner = self.lock();
        self.check_quota(&inner, a.workspace_id, data.len() as u64)?;
        let id = crate::ids::new_id("art");
        // Imported files keep their basename (the page sees it on upload)
        // inside a private per-artifact directory.
        let file = match (&a.filename, a.kind) {
            (Some(name), "user_file" | "download") => {
                self.dir
                    .create_dir(&id)
                    .map_err(io_err("creating a directory"))?;
                self.dir
                    .set_permissions(
                        &id,
                        cap_std::fs::Permissions::from_std(std::fs::Permissions::from_mode(0o700)),
                    )
                    .map_err(io_err("protecting a directory"))?;
                format!("{id}/{name}")
            }
            _ => format!("{id}{}", extension(a.mime)),
        };
        if let Err(e) = self.write_new(&file, data) {
            // Nothing half-written stays behind, and nothing was counted.
            self.remove_files(&file);
            return Err(write_error(e, data.len() as u64));
        }
        let entry = Entry {
            id: id.clone(),
            workspace_id: a.workspace_id.to_string(),
            kind: a.kind,
            mime: a.mime.to_string(),
            bytes: data.len() as u64,
            filename: a.filename,
            width: a.width,
            height: a.height,
            created_ms: unix_ms(Duration::ZERO),
            expires: Some(Instant::now() + self.limits.ttl),
            preview_of: a.preview_of,
            file,
            source_url: None,
        };
        let d = self.descriptor(&entry);
        inner.items.insert(id, entry);
        Ok(d)
    }

    /// Copy a local file into the store as a `user_file` upload artifact.
    pub fn import(&self, workspace_id: &str, source: &Path) -> BpResult<Value> {
        if !source.is_absolute() {
            return Err(BpError::invalid("`path` must be absolute"));
        }
        let meta = std::fs::metadata(source)
            .map_err(|e| BpError::invalid(format!("cannot read {}: {e}", source.display())))?;
        if !meta.is_file() {
            return Err(BpError::invalid(format!(
                "{} is not a regular file",
                source.display()
            )));
        }
        self.check_quota(&self.lock(), workspace_id, meta.len())?;
        let data = std::fs::read(source)
            .map_err(|e| BpError::invalid(format!("cannot read {}: {e}", source.display())))?;
        let filename = source
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| !n.is_empty() && *n != "." && *n != ".." && !n.contains('/'))
            .ok_or_else(|| BpError::invalid("the file name must be valid UTF-8"))?
            .to_string();
        let new = NewArtifact {
            workspace_id,
            kind: "user_file",
            mime: "application/octet-stream",
            filename: Some(filename),
            width: None,
            height: None,
            preview_of: None,
        };
        self.create(new, &data)
    }

    fn find<'a>(
        &self,
        inner: &'a mut Inner,
        id: &str,
        owns: &dyn Fn(&str) -> bool,
    ) -> BpResult<&'a mut Entry> {
        let expired = inner.expired.get(id).is_some_and(|ws| owns(ws));
        match inner.items.get_mut(id) {
            Some(e) if owns(&e.workspace_id) => {
                if e.expires.is_some_and(|t| t <= Instant::now()) {
                    return Err(BpError::new(
                        Code::ArtifactExpired,
                        "the artifact has expired",
                    ));
                }
                Ok(e)
            }
            None if expired => Err(BpError::new(
                Code::ArtifactExpired,
                "the artifact has expired",
            )),
            _ => Err(BpError::new(
                Code::ArtifactNotFound,
                "no such artifact for this client",
            )),
        }
    }

    /// The descriptor, if a workspace `owns` accepts holds it.
    pub fn get(&self, id: &str, owns: &dyn Fn(&str) -> bool) -> BpResult<Value> {
        let mut inner = self.lock();
        let e = self.find(&mut inner, id, owns)?;
        Ok(self.descriptor(e))
    }

    /// Record the URL a download came from.
    pub fn set_source(&self, id: &str, url: &str) {
        if let Some(e) = self.lock().items.get_mut(id) {
            e.source_url = Some(url.to_string());
        }
    }

    /// The descriptors of a workspace's live artifacts, oldest first.
    pub fn list(&self, workspace_id: &str) -> Vec<Value> {
        let inner = self.lock();
        let now = Instant::now();
        let mut live: Vec<&Entry> = inner
            .items
            .values()
            .filter(|e| e.workspace_id == workspace_id)
            .filter(|e| e.expires.is_none_or(|t| t > now))
            .collect();
        live.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        live.into_iter().map(|e| self.descriptor(e)).collect()
    }

    /// Keep the artifact until released (no TTL).
    pub fn retain(&self, id: &str, owns: &dyn Fn(&str) -> bool) -> BpResult<Value> {
        let mut inner = self.lock();
        let e = self.find(&mut inner, id, owns)?;
        e.expires = None;
        Ok(self.descriptor(e))
    }

    /// Delete the artifact.
    pub fn release(&self, id: &str, owns: &dyn Fn(&str) -> bool) -> BpResult<()> {
        let mut inner = self.lock();
        let file = self.find(&mut inner, id, owns)?.file.clone();
        inner.items.remove(id);
        self.remove_files(&file);
        Ok(())
    }

    /// Copy the artifact to a caller-chosen absolute path (mode 0600).
    pub fn export(&self, id: &str, owns: &dyn Fn(&str) -> bool, dest: &Path) -> BpResult<Value> {
        if !dest.is_absolute() {
            return Err(BpError::invalid("`path` must be absolute"));
        }
        let file = {
            let mut inner = self.lock();
            self.find(&mut inner, id, owns)?.file.clone()
        };
        let data = self.dir.read(&file).map_err(io_err("reading"))?;
        let mut out = std::fs::OpenOptions::new();
        // Never follow a symlink at the destination; the copy is 0600 even
        // when it replaces an existing file.
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            std::os::unix::fs::OpenOptionsExt::mode(
                out.write(true).create(true).truncate(true),
                0o600,
            ),
            libc::O_NOFOLLOW,
        );
        let mut f = out
            .open(dest)
            .map_err(|e| BpError::invalid(format!("cannot write {}: {e}", dest.display())))?;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(|e| BpError::invalid(format!("cannot protect {}: {e}", dest.display())))?;
        f.write_all(&data)
            .map_err(|e| BpError::invalid(format!("cannot write {}: {e}", dest.display())))?;
        Ok(json!({"path": dest, "bytes": data.len()}))
    }

    /// An upload artifact of `workspace_id`: `(filename, bytes, path)`.
    pub fn upload_file(&self, workspace_id: &str, id: &str) -> BpResult<(String, u64, PathBuf)> {
        let mut inner = self.lock();
        let e = self
            .find(&mut inner, id, &|ws| ws == workspace_id)
            .map_err(|_| {
                BpError::invalid(format!(
                    "`{id}` is not an upload artifact of this workspace; import the file first"
                ))
            })?;
        if e.kind != "user_file" {
            return Err(BpError::invalid(format!(
                "`{id}` is a {} artifact; only files imported with artifacts/import can be uploaded",
                e.kind
            )));
        }
        Ok((
            e.filename.clone().unwrap_or_default(),
            e.bytes,
            self.root.join(&e.file),
        ))
    }

    /// The bytes of a saved state of `workspace_id`: a `state` artifact,
    /// or a `user_file` imported to be loaded as one (`bp state load`).
    pub fn state_bytes(&self, workspace_id: &str, id: &str) -> BpResult<Vec<u8>> {
        let file = {
            let mut inner = self.lock();
            let e = self.find(&mut inner, id, &|ws| ws == workspace_id)?;
            if !matches!(e.kind, "state" | "user_file") {
                return Err(BpError::invalid(format!(
                    "`{id}` is a {} artifact, not a saved state",
                    e.kind
                )));
            }
            e.file.clone()
        };
        self.dir.read(&file).map_err(io_err("reading"))
    }

    /// Create `file` (0600) holding exactly `data`, synced to disk.
    fn write_new(&self, file: &str, data: &[u8]) -> std::io::Result<()> {
        let mut f = self.dir.open_with(
            file,
            OpenOptions::new().write(true).create_new(true).mode(0o600),
        )?;
        f.write_all(data)?;
        f.sync_all()
    }

    fn remove_files(&self, file: &str) {
        let _ = self.dir.remove_file(file);
        if let Some((dir, _)) = file.split_once('/') {
            let _ = self.dir.remove_dir(dir);
        }
    }

    /// Delete expired artifacts.
    pub fn sweep(&self) {
        let now = Instant::now();
        let mut inner = self.lock();
        let gone: Vec<String> = inner
            .items
            .values()
            .filter(|e| e.expires.is_some_and(|t| t <= now))
            .map(|e| e.id.clone())
            .collect();
        for id in gone {
            if let Some(e) = inner.items.remove(&id) {
                self.remove_files(&e.file);
                inner.expired.insert(id, e.workspace_id);
            }
        }
    }

    /// Delete every artifact of a released workspace.
    pub fn remove_workspace(&self, workspace_id: &str) {
        let mut inner = self.lock();
        inner.expired.retain(|_, ws| ws != workspace_id);
        let gone: Vec<String> = inner
            .items
            .values()
            .filter(|e| e.workspace_id == workspace_id)
            .map(|e| e.id.clone())
            .collect();
        for id in gone {
            if let Some(e) = inner.items.remove(&id) {
                self.remove_files(&e.file);
            }
        }
    }
}

/// A failed artifact write. When the disk (or a file size limit or disk
/// quota) has no room, that is `result_too_large`, like a store quota:
/// the artifact does not fit. Anything else is unexpected.
fn write_error(e: std::io::Error, bytes: u64) -> BpError {
    match e.raw_os_error() {
        Some(libc::ENOSPC | libc::EFBIG | libc::EDQUOT) => BpError::new(
            Code::ResultTooLarge,
            format!("the disk has no room for this artifact of {bytes} bytes ({e})"),
        )
        .with_context(json!({"quota": "disk", "bytes": bytes})),
        _ => io_err("writing")(e),
    }
}

fn extension(mime: &str) -> &'static str {
    match mime {
        "image/png" => ".png",
        "application/pdf" => ".pdf",
        _ => ".bin",
    }
}
