//! Per-workspace frame identities and the selected frame of each target.
//! Raw CDP frame IDs never leave the broker: each workspace sees opaque
//! IDs of its own.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

#[derive(Default)]
struct Book {
    /// The selected child frame (`None`: the main frame).
    selected: Option<String>,
    by_public: HashMap<String, String>,
    by_raw: HashMap<String, String>,
    next: u32,
}

/// Frame IDs and selections, keyed by (workspace, raw target).
#[derive(Default)]
pub struct FrameBook {
    inner: Mutex<HashMap<(String, String), Book>>,
}

impl FrameBook {
    fn lock(&self) -> MutexGuard<'_, HashMap<(String, String), Book>> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn key(ws: &str, target: &str) -> (String, String) {
        (ws.to_string(), target.to_string())
    }

    /// The workspace's opaque ID for a raw frame, assigned on first sight.
    pub fn public_id(&self, ws: &str, target: &str, raw_frame: &str) -> String {
        let mut inner = self.lock();
        let book = inner.entry(Self::key(ws, target)).or_default();
        if let Some(id) = book.by_raw.get(raw_frame) {
            return id.clone();
        }
        book.next += 1;
        let id = format!("f{}-{}", book.next, crate::ids::random_hex(3));
        book.by_public.insert(id.clone(), raw_frame.to_string());
        book.by_raw.insert(raw_frame.to_string(), id.clone());
        id
    }

    /// The raw frame behind a public ID of this workspace and target.
    pub fn raw_id(&self, ws: &str, target: &str, public: &str) -> Option<String> {
        self.lock()
            .get(&Self::key(ws, target))
            .and_then(|b| b.by_public.get(public).cloned())
    }

    /// The selected child frame, if any.
    pub fn selected(&self, ws: &str, target: &str) -> Option<String> {
        self.lock()
            .get(&Self::key(ws, target))
            .and_then(|b| b.selected.clone())
    }

    /// Select a child frame (`None`: back to the main frame).
    pub fn select(&self, ws: &str, target: &str, raw_frame: Option<String>) {
        self.lock()
            .entry(Self::key(ws, target))
            .or_default()
            .selected = raw_frame;
    }

    /// A frame detached: clear every selection of it. Returns the
    /// workspaces whose selection was cleared, with their frame ID.
    pub fn detached(&self, target: &str, raw_frame: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for ((ws, t), book) in self.lock().iter_mut() {
            if t == target && book.selected.as_deref() == Some(raw_frame) {
                book.selected = None;
                let public = book.by_raw.get(raw_frame).cloned().unwrap_or_default();
                out.push((ws.clone(), public));
            }
        }
        out
    }

    /// Forget every frame mapping and selection (a new connection).
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Forget a workspace's frames.
    pub fn remove_workspace(&self, ws: &str) {
        self.lock().retain(|(w, _), _| w != ws);
    }
}
