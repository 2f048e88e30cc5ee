//! Tools the frames of a page declare for agents (WebMCP), as the CDP
//! `WebMCP` domain reports them. Each declared tool gets an opaque ref for
//! the document that declared it; a ref whose tool was unregistered, or
//! whose frame has since loaded another document, is remembered for a
//! while so a call through it is refused with the reason.

use super::{s, Registry, Signal, TargetState};
use serde_json::Value;
use std::collections::VecDeque;

/// Refs of gone tools remembered per target at most.
const MAX_GONE: usize = 256;
/// Declared tools recorded per target at most: a page that declares more
/// does not grow the broker (the listing returns fewer still).
const MAX_LIVE: usize = 512;
/// Longest description kept, in bytes (listings cut it much shorter).
const MAX_KEPT_DESCRIPTION: usize = 16 * 1024;

/// Whether the page's browser serves the `WebMCP` domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Support {
    /// `WebMCP.enable` has not answered (yet).
    #[default]
    Unknown,
    /// The domain is enabled on the page's session.
    On,
    /// `WebMCP.enable` was refused or never answered.
    Missing,
}

/// How the browser calls page tools (learned once per connection).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InvokePath {
    /// Not learned yet.
    #[default]
    Unknown,
    /// The domain's own `WebMCP.invokeTool` and `cancelInvocation`; this
    /// revision of the domain also reports the page's annotations.
    Domain,
    /// The domain only reports tools and invocations (Chromium 148): tools
    /// are called through the browser's invocation API
    /// (`navigator.modelContextTesting.executeTool`) from an isolated
    /// world, and annotations are not reported.
    Testing,
}

impl InvokePath {
    /// Whether the page's annotations reach the broker.
    pub fn reports_annotations(self) -> bool {
        self == InvokePath::Domain
    }
}

/// One tool a frame of the page declares.
#[derive(Debug, Clone)]
pub struct DeclaredTool {
    /// Opaque, per document: the same tool in the same document keeps it.
    pub tool_ref: String,
    pub name: String,
    /// Page content, kept up to `MAX_KEPT_DESCRIPTION` bytes here; bounded
    /// much shorter where it leaves the broker.
    pub description: String,
    pub input_schema: Value,
    pub annotations: Value,
    pub frame_id: String,
    /// Set for a declarative (`<form toolname>`) tool.
    pub backend_node_id: Option<i64>,
    /// The CDP session the frame reports on (the page's or an
    /// out-of-process frame's): invocations go there.
    pub session: String,
    /// The frame's document when the tool was declared.
    loader: Option<String>,
}

/// Why a ref no longer names a declared tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// The frame loaded another document (or went away).
    DocumentChanged,
    /// The page unregistered the tool.
    ToolRemoved,
    /// Never issued on this target (or forgotten).
    Unknown,
}

/// The declared tools of one target.
#[derive(Debug, Default)]
pub struct PageTools {
    pub support: Support,
    live: Vec<DeclaredTool>,
    gone: VecDeque<(String, Gone)>,
    /// Isolated worlds made for calls (the evidence's observer lives
    /// there), by (session, frame, document): reused while the document
    /// lasts, so a call does not make a world of its own.
    worlds: VecDeque<(World, i64)>,
}

/// Where an isolated world was made: session, frame and its document.
type World = (String, String, Option<String>);

/// Isolated worlds remembered per target.
const MAX_WORLDS: usize = 16;

impl PageTools {
    /// The session changed: what the old one reported is not trusted
    /// (`WebMCP.enable` on the new one replays what is still there).
    pub(super) fn session_replaced(&mut self) {
        for t in std::mem::take(&mut self.live) {
            self.forget(t.tool_ref, Gone::DocumentChanged);
        }
        self.support = Support::Unknown;
        self.worlds.clear();
    }

    fn forget(&mut self, tool_ref: String, why: Gone) {
        if self.gone.len() >= MAX_GONE {
            self.gone.pop_front();
        }
        self.gone.push_back((tool_ref, why));
    }
}

impl TargetState {
    /// The current document of `frame` (the main frame's, or a child's).
    fn frame_loader(&self, frame: &str) -> Option<Option<String>> {
        if self.main_frame.as_deref() == Some(frame) {
            return Some(self.loader.clone());
        }
        self.frames.get(frame).map(|f| f.loader.clone())
    }

    /// Move the tools whose frame has another document now to the gone
    /// list; returns their refs.
    /// Drop the tools of documents that are gone: their refs and
    /// annotations.
    fn purge_tools(&mut self) -> Vec<(String, Value)> {
        let (keep, stale): (Vec<_>, Vec<_>) = std::mem::take(&mut self.page_tools.live)
            .into_iter()
            .partition(|t| self.frame_loader(&t.frame_id) == Some(t.loader.clone()));
        self.page_tools.live = keep;
        let gone: Vec<(String, Value)> = stale
            .into_iter()
            .map(|t| (t.tool_ref, t.annotations))
            .collect();
        for (r, _) in &gone {
            self.page_tools.forget(r.clone(), Gone::DocumentChanged);
        }
        gone
    }
}

impl Registry {
    /// How this connection's browser calls page tools.
    pub fn page_tool_path(&self) -> InvokePath {
        *self
            .page_tool_path
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    pub fn set_page_tool_path(&self, path: InvokePath) {
        *self
            .page_tool_path
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = path;
    }

    /// Whether this browser serves page tools, for `broker/status` and
    /// `bp doctor`: `domain` is `on` once `WebMCP.enable` answered on some
    /// attached tab, `off` when it was refused on every one that asked,
    /// `unknown` before any answer; `invoke` is how tools are called.
    pub fn page_tool_service(&self) -> (&'static str, &'static str) {
        let supports: Vec<Support> = {
            let inner = self.lock();
            inner
                .targets
                .values()
                .filter(|t| !t.closed && t.session.is_some())
                .map(|t| t.page_tools.support)
                .collect()
        };
        let domain = if self.page_tool_api() == Some(false) {
            "off"
        } else if supports.contains(&Support::On) {
            "on"
        } else if !supports.is_empty() && supports.iter().all(|s| *s == Support::Missing) {
            "off"
        } else {
            "unknown"
        };
        let invoke = match self.page_tool_path() {
            InvokePath::Unknown => "unknown",
            InvokePath::Domain => "domain",
            InvokePath::Testing => "testing",
        };
        (domain, invoke)
    }

    /// The isolated world made earlier in `frame`'s current document on
    /// `session` of `raw`, if any.
    pub fn page_tool_world(&self, raw: &str, session: &str, frame: &str) -> Option<i64> {
        self.with(raw, |t| {
            let loader = t.frame_loader(frame)?;
            t.page_tools
                .worlds
                .iter()
                .find(|((s, f, l), _)| s == session && f == frame && *l == loader)
                .map(|(_, ctx)| *ctx)
        })
        .flatten()
    }

    /// Remember world `ctx`, made in `frame`'s current document.
    pub fn keep_page_tool_world(&self, raw: &str, session: &str, frame: &str, ctx: i64) {
        self.update(raw, |t| {
            let Some(loader) = t.frame_loader(frame) else {
                return;
            };
            let worlds = &mut t.page_tools.worlds;
            worlds.retain(|((s, f, _), _)| !(s == session && f == frame));
            if worlds.len() >= MAX_WORLDS {
                worlds.pop_front();
            }
            worlds.push_back(((session.to_string(), frame.to_string(), loader), ctx));
        });
    }

    /// World `ctx` did not answer as expected: make another next time.
    pub fn drop_page_tool_world(&self, raw: &str, ctx: i64) {
        self.update(raw, |t| t.page_tools.worlds.retain(|(_, c)| *c != ctx));
    }

    /// Whether pages of this browser can declare tools, once read.
    pub fn page_tool_api(&self) -> Option<bool> {
        *self.page_tool_api.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub fn set_page_tool_api(&self, present: bool) {
        *self.page_tool_api.lock().unwrap_or_else(|p| p.into_inner()) = Some(present);
    }

    /// `WebMCP.enable` answered (`true`) or was refused / timed out.
    pub fn set_page_tool_support(&self, raw: &str, on: bool) {
        self.update(raw, |t| {
            t.page_tools.support = if on { Support::On } else { Support::Missing }
        });
    }

    /// `WebMCP.toolsAdded` on `session` of `raw`.
    pub(super) fn page_tools_added(&self, raw: String, session: &str, p: &Value) {
        let mut added = Vec::new();
        let mut removed = Vec::new();
        self.update(&raw, |t| {
            removed = t.purge_tools();
            for tool in p["tools"].as_array().into_iter().flatten() {
                let (Some(name), Some(frame_id)) = (s(tool, "name"), s(tool, "frameId")) else {
                    continue;
                };
                let Some(loader) = t.frame_loader(&frame_id) else {
                    continue;
                };
                // Reported again for the same document (a replay, or a
                // second session reporting the frame): it keeps its ref.
                let known = t
                    .page_tools
                    .live
                    .iter()
                    .position(|d| d.name == name && d.frame_id == frame_id)
                    .map(|i| t.page_tools.live.remove(i));
                if known.is_none() && t.page_tools.live.len() >= MAX_LIVE {
                    tracing::debug!(
                        "{raw}: more than {MAX_LIVE} page tools; the rest are not recorded"
                    );
                    continue;
                }
                let annotations = tool.get("annotations").cloned().unwrap_or(Value::Null);
                let tool_ref = match known {
                    Some(old) => old.tool_ref,
                    None => {
                        let r = crate::ids::new_id("pt");
                        added.push((r.clone(), annotations.clone()));
                        r
                    }
                };
                let mut description = s(tool, "description").unwrap_or_default();
                description.truncate(description.floor_char_boundary(MAX_KEPT_DESCRIPTION));
                let declared = DeclaredTool {
                    tool_ref,
                    name,
                    description,
                    input_schema: schema_of(&tool["inputSchema"]),
                    annotations,
                    frame_id,
                    backend_node_id: tool["backendNodeId"].as_i64(),
                    session: session.to_string(),
                    loader,
                };
                t.page_tools.live.push(declared);
            }
        });
        self.page_tools_changed(raw, added, removed);
    }

    /// `WebMCP.toolsRemoved` of `raw`.
    pub(super) fn page_tools_removed(&self, raw: String, p: &Value) {
        let mut removed = Vec::new();
        self.update(&raw, |t| {
            removed = t.purge_tools();
            for tool in p["tools"].as_array().into_iter().flatten() {
                let name = s(tool, "name").or_else(|| tool.as_str().map(str::to_string));
                let frame = s(tool, "frameId");
                let hit = t.page_tools.live.iter().position(|d| {
                    Some(&d.name) == name.as_ref()
                        && frame.as_ref().is_none_or(|f| *f == d.frame_id)
                });
                if let Some(i) = hit {
                    let old = t.page_tools.live.remove(i);
                    t.page_tools.forget(old.tool_ref.clone(), Gone::ToolRemoved);
                    removed.push((old.tool_ref, old.annotations));
                }
            }
        });
        self.page_tools_changed(raw, Vec::new(), removed);
    }

    /// Signal tools that came and went, each with its effect (so that the
    /// event shows only what a caller may see).
    fn page_tools_changed(
        &self,
        raw: String,
        added: Vec<(String, Value)>,
        removed: Vec<(String, Value)>,
    ) {
        if added.is_empty() && removed.is_empty() {
            return;
        }
        self.signal(Signal::PageTools {
            raw,
            added,
            removed,
            annotations_reported: self.page_tool_path().reports_annotations(),
        });
    }

    /// Whether `raw`'s browser serves WebMCP, and the tools its frames
    /// declare now.
    pub fn page_tools(&self, raw: &str) -> (Support, Vec<DeclaredTool>) {
        let mut out = (Support::Unknown, Vec::new());
        let mut removed = Vec::new();
        self.update(raw, |t| {
            removed = t.purge_tools();
            out = (t.page_tools.support, t.page_tools.live.clone());
        });
        self.page_tools_changed(raw.to_string(), Vec::new(), removed);
        out
    }

    /// The tool `tool_ref` names on `raw` now, or why it names none.
    pub fn page_tool(&self, raw: &str, tool_ref: &str) -> Result<DeclaredTool, Gone> {
        let (_, live) = self.page_tools(raw);
        if let Some(t) = live.into_iter().find(|t| t.tool_ref == tool_ref) {
            return Ok(t);
        }
        let why = self.with(raw, |t| {
            t.page_tools
                .gone
                .iter()
                .rev()
                .find(|(r, _)| r == tool_ref)
                .map(|(_, why)| *why)
        });
        Err(why.flatten().unwrap_or(Gone::Unknown))
    }
}

/// A declared input schema: Chromium sends it as JSON text or as an
/// object. Only an absent one means "no schema" (any input). Anything
/// else is kept as declared: a text that is not JSON, `false` or a number
/// is then refused by the component's schema check (fail closed), never
/// read as "no schema".
fn schema_of(v: &Value) -> Value {
    match v {
        Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| v.clone()),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::schema_of;
    use serde_json::{json, Value};

    #[test]
    fn only_an_absent_schema_means_no_schema() {
        assert_eq!(schema_of(&Value::Null), Value::Null);
        assert_eq!(
            schema_of(&json!("{\"type\":\"object\"}")),
            json!({"type": "object"})
        );
        // Kept as declared, for the component to refuse: never "any input".
        assert_eq!(schema_of(&json!("{not json")), json!("{not json"));
        assert_eq!(schema_of(&json!(false)), json!(false));
        assert_eq!(schema_of(&json!(7)), json!(7));
    }
}
