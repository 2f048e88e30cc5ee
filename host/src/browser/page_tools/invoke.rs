//! Calling a page-declared tool: `WebMCP.invokeTool` on the session that
//! renders the tool's frame, then its `WebMCP.toolResponded`. The call
//! waits as long as the command may (its deadline and a cancel drop the
//! wait, and dropping it sends `WebMCP.cancelInvocation`). What the page
//! did meanwhile is observed, not taken from the tool's answer: a new
//! main document, a dialog, a same-document navigation, and DOM changes
//! in the tool's frame seen by an observer in an isolated world the page
//! cannot reach.

use super::in_world;
use crate::browser::call::TargetCall;
use crate::browser::registry::PageToolPath;
use crate::cdp::{webmcp, Cdp};
use crate::error::{BpError, BpResult, Code, StaleReason};
use chromiumoxide::cdp::browser_protocol::page::{
    CreateIsolatedWorldParams, EventJavascriptDialogOpening, FrameId,
};
use serde_json::{json, Value};
use std::sync::Arc;

/// The isolated world the mutation observer lives in.
const WORLD: &str = "browser-pilot-page-tools";

/// Installs a mutation counter on the frame's document (once per world)
/// and resets it; the value is the counter's name.
const OBSERVE: &str = r#"(() => {
  const w = globalThis;
  if (!w.__bpMutations) {
    w.__bpMutations = { n: 0 };
    new MutationObserver(r => { w.__bpMutations.n += r.length; })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }
  w.__bpMutations.n = 0;
  return true;
})()"#;

/// Calls a tool through the browser's invocation API, with an abort
/// controller kept for a cancel. `%NAME%` and `%INPUT%` are JSON strings.
const EXECUTE: &str = r#"(() => {
  const c = new AbortController();
  globalThis.__bpPageToolAbort = c;
  navigator.modelContextTesting.executeTool(%NAME%, %INPUT%, { signal: c.signal }).catch(() => {});
  return true;
})()"#;

/// Aborts the invocation `EXECUTE` started.
const ABORT: &str = "globalThis.__bpPageToolAbort && globalThis.__bpPageToolAbort.abort()";

/// Reads the mutation counter.
const MUTATIONS: &str = "globalThis.__bpMutations ? globalThis.__bpMutations.n : -1";

/// How an invocation ended, and what the page did meanwhile.
#[derive(Debug, Clone, Default)]
pub struct Invocation {
    pub completed: bool,
    /// JSON text of the tool's output.
    pub output: String,
    pub error_message: Option<String>,
    pub navigated: bool,
    pub dialog_opened: bool,
    pub page_changed: bool,
}

/// Cancels the invocation in the page if the wait is dropped (deadline,
/// cancel) before the tool answered.
struct Pending {
    cdp: Cdp,
    session: String,
    invocation: Option<String>,
    /// The isolated world holding the call's abort controller (the
    /// browser's invocation API); `None` for the domain's own invoke.
    world: Option<i64>,
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let (Some(_), Some(ctx)) = (self.invocation.take(), self.world) {
            let abort = in_world(ABORT, ctx, false);
            let _ = self.cdp.send_typed_now(&abort, Some(&self.session));
            return;
        }
        if let Some(id) = self.invocation.take() {
            let cancel = webmcp::CancelInvocationParams { invocation_id: id };
            if let Ok(rx) = self.cdp.send_typed_now(&cancel, Some(&self.session)) {
                tokio::spawn(async move {
                    let wait = std::time::Duration::from_secs(2);
                    let _ = Cdp::reply_to::<webmcp::CancelInvocationParams>(rx, wait).await;
                });
            }
        }
    }
}

/// `feature_unavailable`: the browser has no way to call page tools.
fn no_invocation() -> BpError {
    BpError::new(
        Code::FeatureUnavailable,
        "this browser lists page tools but cannot call them (no WebMCP.invokeTool and no navigator.modelContextTesting)",
    )
    .with_context(json!({
        "feature": "WebMCP",
        "remediation": "start the browser with --enable-features=WebMCP,WebMCPTesting,DevToolsWebMCPSupport (browsers `bp connect --launch` starts have them)",
    }))
}

/// The page state the evidence compares.
#[derive(PartialEq, Eq, Clone, Copy)]
struct Marks {
    doc_gen: u64,
    same_doc_navs: u64,
    dialog_open: bool,
}

impl TargetCall {
    fn marks(&self) -> Marks {
        self.registry
            .with(&self.raw_id, |t| Marks {
                doc_gen: t.doc_gen,
                same_doc_navs: t.same_doc_navs,
                dialog_open: t.dialog_open,
            })
            .unwrap_or(Marks {
                doc_gen: 0,
                same_doc_navs: 0,
                dialog_open: false,
            })
    }

    /// Invoke the tool `tool_ref` names with JSON `input` (an object, as
    /// the component validated it against the declared schema).
    pub async fn invoke_page_tool(&mut self, tool_ref: &str, input: &str) -> BpResult<Invocation> {
        let (tool, _) = self.declared_page_tool(tool_ref)?;
        let input: Value = serde_json::from_str(input)
            .map_err(|e| BpError::invalid(format!("the tool input is not JSON: {e}")))?;
        if self.doc().2 {
            return Err(crate::browser::call::dialog_open());
        }
        let session = tool.session.clone();
        let context = self.call_world(&session, &tool.frame_id).await;
        let before = self.marks();
        // Subscribed before the invoke, so its answer cannot be missed.
        let mut events = self.cdp.subscribe();
        if let Some(ctx) = context {
            // Not awaited: the page handles it before the invoke below.
            let _ = self
                .cdp
                .send_typed_now(&in_world(OBSERVE, ctx, true), Some(&session));
        }
        self.mark_dispatched();
        let path = self.registry.page_tool_path();
        let id = match (path, context) {
            (PageToolPath::Testing, Some(ctx)) => {
                self.execute_in_world(
                    &mut events,
                    &session,
                    ctx,
                    &tool.name,
                    &tool.frame_id,
                    &input,
                )
                .await?
            }
            (PageToolPath::Testing, None) => return Err(no_invocation()),
            _ => {
                self.invoke_through_browser(&session, &tool.name, &tool.frame_id, input)
                    .await?
            }
        };
        let mut pending = Pending {
            cdp: self.cdp.clone(),
            session: session.clone(),
            invocation: Some(id.clone()),
            world: (path == PageToolPath::Testing).then_some(context).flatten(),
        };
        let answer = self
            .responded(&mut events, &session, &id, tool_ref, before.dialog_open)
            .await;
        pending.invocation = None;
        let answer = answer?;
        let after = self.marks();
        let mutations = match context {
            Some(ctx) if after.doc_gen == before.doc_gen => self.mutations(&session, ctx).await,
            _ => 0,
        };
        invocation_of(&answer, &before, &after, mutations)
    }

    /// Start the tool through the browser's `WebMCP.invokeTool`: its
    /// invocation ID.
    async fn invoke_through_browser(
        &mut self,
        session: &str,
        name: &str,
        frame_id: &str,
        input: Value,
    ) -> BpResult<String> {
        let invoke = webmcp::InvokeToolParams {
            tool_name: name.to_string(),
            frame_id: frame_id.to_string(),
            input,
        };
        let reply = self.cdp.send(&invoke, Some(session)).await.map_err(|e| {
            // The page dropped the tool after the registry last
            // heard of it (Chromium 156: -32602 "Tool not found").
            if e.message.contains("Tool not found") {
                BpError::stale(StaleReason::ToolRemoved)
            } else {
                self.after_send(e)
            }
        })?;
        Ok(reply.invocation_id)
    }

    /// Start the tool through the browser's invocation API in the isolated
    /// world `ctx`, and learn its invocation ID from `WebMCP.toolInvoked`.
    async fn execute_in_world(
        &self,
        events: &mut tokio::sync::broadcast::Receiver<Arc<crate::cdp::CdpEvent>>,
        session: &str,
        ctx: i64,
        name: &str,
        frame: &str,
        input: &Value,
    ) -> BpResult<String> {
        let input_text = input.to_string();
        let expression = EXECUTE
            .replace("%NAME%", &json!(name).to_string())
            .replace("%INPUT%", &json!(input_text).to_string());
        // Raw: an evaluation's result is page data (see `in_world`).
        let reply = self
            .cdp
            .send_raw(&in_world(expression, ctx, true), Some(session))
            .await
            .map_err(|e| self.after_send(e))?;
        if reply.get("exceptionDetails").is_some() {
            return Err(no_invocation());
        }
        // The browser announces the call before the evaluation returns;
        // the broadcast kept it for this receiver.
        let until = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
        loop {
            let ev =
                match tokio::time::timeout_at(until, events.recv()).await {
                    Ok(Ok(ev)) => ev,
                    Ok(Err(tokio::sync::broadcast::error::RecvError::Lagged(_))) => continue,
                    _ => return Err(BpError::new(
                        Code::UnknownOutcome,
                        "the browser did not report the page tool's invocation; it may have run",
                    )
                    .with_context(json!({"action": "page_tool", "reason": "not_reported"}))),
                };
            if ev.session_id.as_deref() != Some(session) {
                continue;
            }
            if let Some(invoked) = ev.parse::<webmcp::EventToolInvoked>() {
                if invoked.tool_name == name && invoked.frame_id == frame {
                    return Ok(invoked.invocation_id);
                }
            }
        }
    }

    /// The isolated world of the tool's frame for this document: the one
    /// an earlier call made, or a new one.
    async fn call_world(&self, session: &str, frame: &str) -> Option<i64> {
        if let Some(ctx) = self.registry.page_tool_world(&self.raw_id, session, frame) {
            return Some(ctx);
        }
        let ctx = self.isolated_world(session, frame).await?;
        self.registry
            .keep_page_tool_world(&self.raw_id, session, frame, ctx);
        Some(ctx)
    }

    /// An isolated world in the tool's frame, for the observer (`None`
    /// when the page does not give one: then only the other evidence).
    pub(in crate::browser) async fn isolated_world(
        &self,
        session: &str,
        frame: &str,
    ) -> Option<i64> {
        let world = CreateIsolatedWorldParams {
            frame_id: FrameId::new(frame),
            world_name: Some(WORLD.into()),
            grant_univeral_access: None,
        };
        let reply = self.cdp.send(&world, Some(session)).await.ok()?;
        Some(*reply.execution_context_id.inner())
    }

    /// DOM mutations the observer counted since the invoke.
    async fn mutations(&self, session: &str, ctx: i64) -> i64 {
        match self
            .cdp
            .send_raw(&in_world(MUTATIONS, ctx, true), Some(session))
            .await
        {
            Ok(v) if v["result"]["value"].as_i64().is_some_and(|n| n >= 0) => {
                v["result"]["value"].as_i64().unwrap_or(0)
            }
            // The world is gone or was never set up: nothing observed, and
            // the next call makes a new one.
            _ => {
                self.registry.drop_page_tool_world(&self.raw_id, ctx);
                0
            }
        }
    }

    /// An error after the invoke was sent: the page may have run it.
    fn after_send(&self, e: BpError) -> BpError {
        if e.code == Code::InvalidArgument || e.code == Code::StaleRef {
            return e;
        }
        let closed = self
            .registry
            .with(&self.raw_id, |t| t.closed)
            .unwrap_or(true);
        if closed || self.cdp.is_closed() || e.code == Code::BrowserDisconnected {
            let reason = if closed {
                "target_closed"
            } else {
                "browser_disconnected"
            };
            return BpError::new(
                Code::UnknownOutcome,
                "the tab or browser went away after the page tool was invoked; it may have run",
            )
            .with_context(json!({"action": "page_tool", "reason": reason}));
        }
        e
    }

    /// Wait for `WebMCP.toolResponded` of invocation `id`. A dialog the
    /// tool opens (`dialog_before` is whether one was open already) ends
    /// the wait: the page is blocked on it, so no answer comes until the
    /// agent answers the dialog.
    async fn responded(
        &self,
        events: &mut tokio::sync::broadcast::Receiver<Arc<crate::cdp::CdpEvent>>,
        session: &str,
        id: &str,
        tool_ref: &str,
        dialog_before: bool,
    ) -> BpResult<Value> {
        use tokio::sync::broadcast::error::RecvError;
        let mut watch = self
            .registry
            .watch(&self.raw_id)
            .ok_or_else(|| BpError::stale(StaleReason::TargetClosed))?;
        loop {
            tokio::select! {
                ev = events.recv() => match ev {
                    Ok(ev) if ev.session_id.as_deref() == Some(session)
                        && ev.parse::<webmcp::EventToolResponded>()
                            .is_some_and(|r| r.invocation_id == id) => return Ok(ev.params.clone()),
                    Ok(ev) if ev.is::<EventJavascriptDialogOpening>()
                        && !dialog_before
                        && ev.session_id.as_deref() == Some(session) => return Err(dialog_opened()),
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => {}
                    Err(RecvError::Closed) => return Err(self.after_send(BpError::disconnected())),
                },
                changed = watch.changed() => {
                    if changed.is_err() || self.check().is_err() {
                        return Err(self.after_send(BpError::disconnected()));
                    }
                    if !dialog_before && self.marks().dialog_open {
                        return Err(dialog_opened());
                    }
                    // The frame left the document the tool ran in: its
                    // answer will not come.
                    if let Err(crate::browser::registry::PageToolGone::DocumentChanged) =
                        self.registry.page_tool(&self.raw_id, tool_ref)
                    {
                        return Err(BpError::new(
                            Code::UnknownOutcome,
                            "the page tool's frame loaded another document while the tool ran; it may have acted",
                        )
                        .with_context(json!({"action": "page_tool", "reason": "document_changed"})));
                    }
                }
            }
        }
    }
}

/// The answer to a call whose tool opened a dialog: the page is blocked on
/// it, so the tool's own answer waits for the agent.
fn dialog_opened() -> BpError {
    BpError::new(
        Code::UnknownOutcome,
        "the page tool opened a dialog and waits on it; answer the dialog (browser.dialogs.list), then list the page's tools again",
    )
    .with_context(json!({"action": "page_tool", "reason": "dialog_opened", "signals": ["dialog_opened"]}))
}

/// What an answered invocation did: its status and output, and what it
/// changed, from the marks before and after.
fn invocation_of(
    answer: &Value,
    before: &Marks,
    after: &Marks,
    mutations: i64,
) -> BpResult<Invocation> {
    let status = answer["status"].as_str().unwrap_or_default();
    let error_text = answer["errorText"].as_str().filter(|t| !t.is_empty());
    if status == "Error" && error_text.is_some_and(|t| t.starts_with("Tool not found")) {
        return Err(BpError::stale(StaleReason::ToolRemoved));
    }
    // A thrown error's first line (`Error: message`), without its stack.
    let thrown = answer["exception"]["description"]
        .as_str()
        .and_then(|d| d.lines().next())
        .map(str::to_string);
    let output = match &answer["output"] {
        Value::Null => "null".to_string(),
        v => v.to_string(),
    };
    Ok(Invocation {
        completed: status == "Success" || status == "Completed",
        output,
        error_message: match status {
            "Canceled" => Some("the invocation was canceled".to_string()),
            _ => error_text.map(str::to_string).or(thrown),
        },
        navigated: after.doc_gen != before.doc_gen,
        dialog_opened: after.dialog_open && !before.dialog_open,
        page_changed: mutations > 0 || after.same_doc_navs != before.same_doc_navs,
    })
}
