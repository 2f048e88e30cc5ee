//! Page-declared tools (WebMCP) of the call's tab: listing them as the
//! caller may see them, and resolving a tool ref. What a tool may do is
//! judged here, in the broker: the launch policy's `page-tools` level
//! and the client's `page.consequential` grant decide what is listed and
//! what is callable (invocation is in `page_tools/invoke.rs`).

pub mod hint;
pub mod invoke;

use crate::browser::call::TargetCall;
use crate::browser::caller::PageToolLevel;
use crate::browser::registry::{DeclaredTool, PageToolGone, PageToolSupport};
use crate::error::{BpError, BpResult, Code, StaleReason};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, ExecutionContextId};
use serde_json::{json, Value};
use std::time::Duration;

/// `Runtime.evaluate` of `expression` in the isolated world `ctx`
/// (`by_value`: the result as JSON). Sent with `send_raw`: a result is a
/// remote object, page data whose subtypes grow with each Chromium.
fn in_world(expression: impl Into<String>, ctx: i64, by_value: bool) -> EvaluateParams {
    let mut eval = EvaluateParams::new(expression);
    eval.context_id = Some(ExecutionContextId::new(ctx));
    eval.return_by_value = by_value.then_some(true);
    eval
}

/// How long a listing waits for `WebMCP.enable` to answer on a tab just
/// attached (a browser without the domain never answers).
const SUPPORT_WAIT: Duration = Duration::from_secs(4);

/// Whether the document interfaces carry the WebMCP page API.
const PAGE_API: &str =
    "'modelContext' in Document.prototype || 'modelContext' in Navigator.prototype";

pub use crate::granter::{Effect, Hidden};

impl Effect {
    /// `consequential` when the page marks it so, `read` when read-only,
    /// else `write` (a tool with no annotations is `write`); `unknown` when
    /// the browser does not report annotations at all (`reported` false).
    /// Chromium reports the page's `consequentialHint`/`readOnlyHint` as
    /// `consequential`/`readOnly`; the page-side names are read too.
    pub fn of(annotations: &Value, reported: bool) -> Self {
        if !reported {
            return Effect::Unknown;
        }
        let flag = |keys: &[&str]| keys.iter().any(|k| annotations[*k] == Value::Bool(true));
        if flag(&["consequential", "consequentialHint"]) {
            Effect::Consequential
        } else if flag(&["readOnly", "readOnlyHint"]) {
            Effect::Read
        } else {
            Effect::Write
        }
    }
}

/// One tool as a caller sees it.
#[derive(Debug, Clone)]
pub struct PageTool {
    pub tool_ref: String,
    pub name: String,
    pub description: String,
    /// JSON text.
    pub input_schema: String,
    pub effect: Effect,
    pub declarative: bool,
    pub untrusted_content: bool,
    /// Workspace-scoped frame ID.
    pub frame_id: String,
    pub origin: String,
}

/// The tools a caller may see, and how many it may not.
#[derive(Debug, Clone, Default)]
pub struct PageToolListing {
    pub tools: Vec<PageTool>,
    pub hidden_by_policy: u32,
    pub hidden_by_grant: u32,
}

/// The `feature_unavailable` error of a browser without the domain
/// (`domain_missing`) or whose pages lack the API (`page_api_off`).
fn unavailable(reason: &str) -> BpError {
    let why = match reason {
        "page_api_off" => "its pages have no WebMCP API",
        _ => "the DevTools WebMCP domain did not answer",
    };
    BpError::new(
        Code::FeatureUnavailable,
        format!("this browser does not serve page-declared tools ({why})"),
    )
    .with_context(json!({
        "feature": "WebMCP", "reason": reason,
        "remediation": "use a Chromium with WebMCP (156 or later) started with --enable-features=WebMCP,DevToolsWebMCPSupport; browsers `bp connect --launch` starts have it",
    }))
}

/// The `capability_denied` error for a tool the caller may not call.
pub fn refused(effect: Effect, why: Hidden, level: PageToolLevel) -> BpError {
    crate::granter::Denial::PageTool { effect, why, level }.error()
}

/// The origin of `url` (`scheme://host[:port]`), or the URL's scheme
/// alone for opaque ones (`about:`, `data:`).
fn origin_of(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
            let host = host.rsplit('@').next().unwrap_or(host);
            format!("{scheme}://{host}")
        }
        None => url.split(':').next().unwrap_or_default().to_string() + ":",
    }
}

impl TargetCall {
    /// Wait (bounded) until the tab's session says whether the browser
    /// serves WebMCP; `feature_unavailable` when it does not.
    async fn page_tools_supported(&self) -> BpResult<()> {
        let support = |call: &TargetCall| {
            call.registry
                .with(&call.raw_id, |t| t.page_tools.support)
                .unwrap_or_default()
        };
        let mut rx = self
            .registry
            .watch(&self.raw_id)
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        let until = tokio::time::Instant::now() + SUPPORT_WAIT;
        loop {
            match support(self) {
                PageToolSupport::On => return self.page_api_present().await,
                PageToolSupport::Missing => return Err(unavailable("domain_missing")),
                PageToolSupport::Unknown => {}
            }
            match tokio::time::timeout_at(until, rx.changed()).await {
                Ok(Ok(())) => {}
                _ => return Err(unavailable("domain_missing")),
            }
        }
    }

    /// Whether pages of this browser can declare tools at all: Chromium
    /// 156 answers `WebMCP.enable` also when the page API is off (started
    /// without `--enable-features=WebMCP`). Read once per connection from
    /// the pristine prototypes of an isolated world, never from the
    /// page's own script. A probe that cannot run decides nothing.
    async fn page_api_present(&self) -> BpResult<()> {
        if let Some(known) = self.registry.page_tool_api() {
            return if known {
                Ok(())
            } else {
                Err(unavailable("page_api_off"))
            };
        }
        let Some(frame) = self
            .registry
            .with(&self.raw_id, |t| t.main_frame.clone())
            .flatten()
        else {
            return Ok(());
        };
        let Some(ctx) = self.isolated_world(&self.session, &frame).await else {
            return Ok(());
        };
        let reply = self
            .cdp
            .send_raw(&in_world(PAGE_API, ctx, true), Some(&self.session))
            .await;
        match reply.ok().and_then(|r| r["result"]["value"].as_bool()) {
            Some(present) => {
                self.registry.set_page_tool_api(present);
                if present {
                    Ok(())
                } else {
                    Err(unavailable("page_api_off"))
                }
            }
            None => Ok(()),
        }
    }

    /// The caller's view of one declared tool.
    fn page_tool_view(&self, t: &DeclaredTool) -> PageTool {
        let ws = &self.caller.workspace_id;
        let url = self
            .registry
            .with(&self.raw_id, |s| {
                if s.main_frame.as_deref() == Some(t.frame_id.as_str()) {
                    Some(s.url.clone())
                } else {
                    s.frames.get(&t.frame_id).map(|f| f.url.clone())
                }
            })
            .flatten()
            .unwrap_or_default();
        let schema = match &t.input_schema {
            Value::Null => "{}".to_string(),
            v => v.to_string(),
        };
        PageTool {
            tool_ref: t.tool_ref.clone(),
            name: t.name.clone(),
            description: t.description.clone(),
            input_schema: schema,
            effect: Effect::of(
                &t.annotations,
                self.registry.page_tool_path().reports_annotations(),
            ),
            declarative: t.backend_node_id.is_some(),
            untrusted_content: t.annotations["untrustedContent"] == Value::Bool(true)
                || t.annotations["untrustedContentHint"] == Value::Bool(true),
            frame_id: self.frames.public_id(ws, &self.raw_id, &t.frame_id),
            origin: origin_of(&url),
        }
    }

    /// The tools the tab's frames (or one frame, by public ID) declare
    /// now, as this caller may see them.
    pub async fn page_tools_declared(&mut self, frame: Option<&str>) -> BpResult<PageToolListing> {
        self.check()?;
        self.page_tools_supported().await?;
        let raw_frame = match frame {
            None => None,
            Some(public) => Some(
                self.frames
                    .raw_id(&self.caller.workspace_id, &self.raw_id, public)
                    .ok_or_else(|| {
                        BpError::invalid(format!(
                            "no frame `{public}` in this tab; see browser.frames.list"
                        ))
                    })?,
            ),
        };
        let (_, declared) = self.registry.page_tools(&self.raw_id);
        let mut out = PageToolListing::default();
        for t in declared
            .iter()
            .filter(|t| raw_frame.as_ref().is_none_or(|f| *f == t.frame_id))
        {
            let view = self.page_tool_view(t);
            match self.caller.page_tools.admits(view.effect) {
                Ok(()) => out.tools.push(view),
                Err(Hidden::Policy) => out.hidden_by_policy += 1,
                Err(Hidden::Grant) => out.hidden_by_grant += 1,
            }
        }
        Ok(out)
    }

    /// The declared tool `tool_ref` names now, if this caller may call it.
    pub(in crate::browser) fn declared_page_tool(
        &self,
        tool_ref: &str,
    ) -> BpResult<(DeclaredTool, PageTool)> {
        self.check()?;
        let declared = self
            .registry
            .page_tool(&self.raw_id, tool_ref)
            .map_err(|gone| {
                BpError::stale(match gone {
                    PageToolGone::DocumentChanged => StaleReason::DocumentChanged,
                    PageToolGone::ToolRemoved => StaleReason::ToolRemoved,
                    PageToolGone::Unknown => StaleReason::NotFound,
                })
            })?;
        let view = self.page_tool_view(&declared);
        let access = self.caller.page_tools;
        access
            .admits(view.effect)
            .map_err(|why| refused(view.effect, why, access.level))?;
        Ok((declared, view))
    }

    /// `lookup`: the tool a ref names, as this caller sees it.
    pub fn page_tool_lookup(&self, tool_ref: &str) -> BpResult<PageTool> {
        self.declared_page_tool(tool_ref).map(|(_, v)| v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::granter::PageToolAccess;

    #[test]
    fn the_effect_comes_from_the_annotations() {
        assert_eq!(Effect::of(&Value::Null, true), Effect::Write);
        assert_eq!(
            Effect::of(&json!({"readOnlyHint": true}), true),
            Effect::Read
        );
        assert_eq!(Effect::of(&json!({"readOnly": true}), true), Effect::Read);
        assert_eq!(
            Effect::of(&json!({"readOnly": true, "consequential": true}), true),
            Effect::Consequential
        );
        assert_eq!(Effect::of(&json!({"readOnly": "yes"}), true), Effect::Write);
        assert_eq!(
            Effect::of(&json!({"consequentialHint": true}), true),
            Effect::Consequential
        );
        // Not a WebMCP annotation: the browser drops it, and so do we.
        assert_eq!(
            Effect::of(&json!({"destructiveHint": true}), true),
            Effect::Write
        );
        assert_eq!(
            Effect::of(&json!({"readOnly": true}), false),
            Effect::Unknown
        );
    }

    #[test]
    fn access_follows_the_level_and_the_grant() {
        let at = |level, granted| PageToolAccess {
            level,
            consequential_granted: granted,
        };
        use PageToolLevel::*;
        assert_eq!(at(ReadOnly, true).admits(Effect::Read), Ok(()));
        assert_eq!(
            at(ReadOnly, true).admits(Effect::Write),
            Err(Hidden::Policy)
        );
        assert_eq!(at(Write, true).admits(Effect::Write), Ok(()));
        assert_eq!(
            at(Write, true).admits(Effect::Consequential),
            Err(Hidden::Policy)
        );
        assert_eq!(
            at(All, false).admits(Effect::Consequential),
            Err(Hidden::Grant)
        );
        assert_eq!(at(All, true).admits(Effect::Consequential), Ok(()));
        assert_eq!(at(Write, true).admits(Effect::Unknown), Err(Hidden::Policy));
        assert_eq!(at(All, false).admits(Effect::Unknown), Err(Hidden::Grant));
        assert_eq!(at(All, true).admits(Effect::Unknown), Ok(()));
    }

    #[test]
    fn origins_drop_path_and_credentials() {
        assert_eq!(
            origin_of("http://u:p@127.0.0.1:8080/a?b#c"),
            "http://127.0.0.1:8080"
        );
        assert_eq!(origin_of("about:blank"), "about:");
    }
}
