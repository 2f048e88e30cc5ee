//! The MCP side: an rmcp `ServerHandler` over one broker session. Tools
//! are the broker's, listed live (so a policy's removals are never
//! offered); a call runs as the session's workspace and lease, is
//! cancelled in the broker when the client cancels it, and reports
//! progress while it waits when the client gave a progress token.

use super::results;
use super::session::Session;
use super::tools::{self, EVENTS_TOOL, META, SESSION_TOOL};
use super::uploads;
use browser_pilot_host::granter::{Denial, Granter, Removal};
use browser_pilot_host::{BpError, BpResult};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Largest artifact `resources/read` returns.
const MAX_RESOURCE_BYTES: u64 = 16 << 20;
/// A call that waits longer than this reports progress (with a token).
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// What the command line asked of the server.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub full_size_images: bool,
    pub expose_resume_secret: bool,
    /// The session asked for `page.consequential`.
    pub consequential: bool,
    /// `--upload-root`s, canonical.
    pub upload_roots: Vec<std::path::PathBuf>,
    pub deny: Deny,
}

/// The tools this session leaves out on top of the broker's policy
/// (`--deny CAPABILITY`, `--deny-tool NAME`): not listed, and refused. The
/// host's granter judges them, with the same removal the broker's own
/// policy is made of.
#[derive(Clone, Debug, Default)]
pub struct Deny(Removal);

impl Deny {
    /// Names the broker does not list remove nothing, as in the broker's
    /// own policy; each is reported on stderr, since it is most likely a
    /// typo. Names that are not capabilities or tools are refused.
    pub fn new(capabilities: &[String], tools: &[String], listed: &[Value]) -> BpResult<Self> {
        for unknown in tools
            .iter()
            .filter(|t| !listed.iter().any(|l| l["name"] == t.as_str()))
        {
            eprintln!(
                "browser-pilot mcp: --deny-tool {unknown}: the broker offers no such tool, so it removes nothing"
            );
        }
        Ok(Self(Removal::parse(capabilities, tools)?))
    }

    /// The granter's answer for a broker `tools/list` entry.
    fn judge(&self, tool: &Value) -> Result<(), Denial> {
        let name = tool["name"].as_str().unwrap_or_default();
        let caps: Vec<&str> = tool["capabilities"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        Granter::narrowed(&self.0, name, &caps)
    }

    /// Whether a broker `tools/list` entry is offered.
    pub fn allows(&self, tool: &Value) -> bool {
        self.judge(tool).is_ok()
    }
}

pub struct Server {
    session: Arc<Session>,
    options: Options,
    instructions: String,
    /// MCP name -> broker name, as last listed.
    names: Mutex<HashMap<String, String>>,
    /// The broker's entries, as last listed (what `--deny` is judged on).
    listed: Mutex<Vec<Value>>,
}

/// An rmcp result from its JSON (the types are `non_exhaustive`). Every
/// result here is complete (`resultType`, which rmcp drops again for a
/// client of an older protocol revision).
fn from_json<T: DeserializeOwned>(mut v: Value) -> Result<T, McpError> {
    if let Some(obj) = v.as_object_mut() {
        obj.entry("resultType").or_insert(json!("complete"));
    }
    serde_json::from_value(v)
        .map_err(|e| McpError::internal_error(format!("building a reply: {e}"), None))
}

/// The `CallToolResult` of a result's JSON. The structured content (an
/// observation can be large) is moved in, not rebuilt.
fn call_result(mut out: Value) -> Result<CallToolResult, McpError> {
    let structured = out.get_mut("structuredContent").map(Value::take);
    if let Some(obj) = out.as_object_mut() {
        obj.remove("structuredContent");
    }
    let mut result: CallToolResult = from_json(out)?;
    result.structured_content = structured;
    Ok(result)
}

impl Server {
    /// `listed` is the broker's `tools/list` at the start: `--deny` is
    /// judged on it from the first call, listed or not.
    pub fn new(
        session: Arc<Session>,
        options: Options,
        instructions: String,
        listed: Vec<Value>,
    ) -> Self {
        Self {
            session,
            options,
            instructions,
            names: Mutex::new(name_map(&listed)),
            listed: Mutex::new(listed),
        }
    }

    /// The broker name of an MCP tool name. A name the broker did not list
    /// still maps, so the broker answers it (`capability_denied`).
    fn broker_name(&self, name: &str) -> String {
        self.names
            .lock()
            .ok()
            .and_then(|n| n.get(name).cloned())
            .unwrap_or_else(|| name.replace('_', "."))
    }

    /// After the connection changed: if the broker now lists other tools
    /// than the client was last given, say so (`tools/list_changed`).
    async fn tell_if_tools_changed(&self, ctx: &RequestContext<RoleServer>) {
        let Ok(now) = self.session.tools().await else {
            return;
        };
        let names = |l: &[Value]| -> Vec<String> {
            l.iter()
                .filter_map(|t| t["name"].as_str().map(str::to_string))
                .collect()
        };
        let before = self.listed.lock().map(|l| names(&l)).unwrap_or_default();
        if !before.is_empty() && before != names(&now) {
            if let Ok(mut last) = self.listed.lock() {
                *last = now;
            }
            let _ = ctx.peer.notify_tool_list_changed().await;
        }
    }

    /// Whether `--deny` leaves the broker tool `name` out, judged on its
    /// entry as the broker listed it at the start.
    fn judged(&self, name: &str) -> Result<(), Denial> {
        let entry = self
            .listed
            .lock()
            .ok()
            .and_then(|l| l.iter().find(|t| t["name"] == name).cloned());
        self.options
            .deny
            .judge(&entry.unwrap_or_else(|| json!({"name": name})))
    }

    fn session_info(&self) -> Value {
        let i = &self.session.info;
        let mut info = json!({"clientName": i.client_name, "protocolVersion": i.protocol_version,
            "workspaceId": i.workspace_id, "leaseId": i.lease_id, "leaseTtlMs": i.lease_ttl_ms,
            "eventCursor": i.event_cursor, "granted": i.granted,
            "adapterPid": std::process::id(), "bridgePid": std::process::id()});
        if self.options.expose_resume_secret {
            info["resumeSecret"] = json!(i.resume_secret);
        }
        info
    }

    async fn events(&self, args: &Value) -> Value {
        let limit = args["limit"].as_u64().unwrap_or(100);
        let cursor = args.get("cursor").filter(|c| !c.is_null()).cloned();
        match self.session.poll_events(cursor, limit).await {
            Ok(page) => results::plain(page),
            Err(e) => results::failure(&e, &Value::Null),
        }
    }

    /// Run a broker tool; the result as the JSON of a `CallToolResult`.
    async fn broker_call(
        &self,
        name: &str,
        args: Value,
        meta: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Value {
        let key = |k: &str| meta.get(format!("{META}{k}"));
        let command_id = key("commandId")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| self.session.new_command_id());
        let idempotency = key("idempotencyKey").and_then(Value::as_str);
        let deadline = key("deadlineMs").and_then(Value::as_u64);
        let progress = meta
            .get("progressToken")
            .cloned()
            .and_then(|t| serde_json::from_value::<ProgressToken>(t).ok())
            .map(|token| tokio::spawn(report_progress(ctx.clone(), token, name.to_string())));
        // The client gave up (a cancel, or rmcp dropping this request): the
        // broker stops the command at its current wait.
        let mut guard = CancelOnDrop {
            session: self.session.clone(),
            command_id: Some(command_id.clone()),
        };
        let call = self
            .session
            .call(name, args, &command_id, idempotency, deadline);
        tokio::pin!(call);
        let called = tokio::select! {
            called = &mut call => called,
            () = ctx.ct.cancelled() => {
                self.session.cancel(&command_id).await;
                call.await
            }
        };
        guard.command_id = None;
        if let Some(p) = progress {
            p.abort();
        }
        match called.result {
            Ok(result) => results::success(result, &called.command, self.options.full_size_images),
            Err(e) => results::failure(&e, &called.command),
        }
    }
}

/// Cancels its command in the broker if dropped while still armed.
struct CancelOnDrop {
    session: Arc<Session>,
    command_id: Option<String>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(id) = self.command_id.take() {
            let session = self.session.clone();
            tokio::spawn(async move { session.cancel(&id).await });
        }
    }
}

/// Progress notifications every second while a call waits.
async fn report_progress(ctx: RequestContext<RoleServer>, token: ProgressToken, tool: String) {
    let started = Instant::now();
    loop {
        tokio::time::sleep(PROGRESS_EVERY).await;
        let waited = started.elapsed().as_secs_f64();
        let mut note = ProgressNotificationParam::new(token.clone(), waited);
        note.message = Some(format!("{tool}: {waited:.0} s"));
        if ctx.peer.notify_progress(note).await.is_err() {
            return;
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let config = json!({
            "protocolVersion": rmcp::model::ProtocolVersion::default(),
            "capabilities": {"tools": {"listChanged": true}, "resources": {}},
            "serverInfo": {"name": "browser-pilot", "title": "Browser Pilot",
                           "version": browser_pilot_host::broker::VERSION},
            "instructions": self.instructions,
        });
        serde_json::from_value(config).unwrap_or_else(|_| {
            ServerConfig::new(Default::default()).with_instructions(self.instructions.clone())
        })
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let listed = self.session.tools().await.map_err(|e| {
            McpError::internal_error(format!("error[{}]: {}", e.code.as_str(), e.message), None)
        })?;
        if let Ok(mut known) = self.names.lock() {
            *known = name_map(&listed);
        }
        let deny = &self.options.deny;
        let mut all: Vec<Value> = listed
            .iter()
            .filter(|t| deny.allows(t))
            .map(|t| {
                let mut entry = tools::to_mcp(t, self.options.consequential);
                if t["name"] == "browser.upload" {
                    entry["inputSchema"] = uploads::mcp_schema(&entry["inputSchema"]);
                }
                entry
            })
            .collect();
        if let Ok(mut last) = self.listed.lock() {
            *last = listed;
        }
        all.extend(tools::session_tools());
        from_json(json!({"tools": all}))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.map(Value::Object).unwrap_or(json!({}));
        let mut meta = serde_json::to_value(&request.meta).unwrap_or(Value::Null);
        if !meta.is_object() {
            meta = serde_json::to_value(&context.meta).unwrap_or(json!({}));
        }
        let out = match request.name.as_ref() {
            SESSION_TOOL => results::plain(self.session_info()),
            EVENTS_TOOL => self.events(&args).await,
            name => {
                let broker = self.broker_name(name);
                let judged = std::iter::once(broker.as_str())
                    .chain(Granter::nested_calls(&broker, &args).iter().copied())
                    .try_for_each(|name| self.judged(name));
                let args = match judged {
                    Err(denial) => Err(denial.error()),
                    Ok(()) if broker == "browser.upload" => {
                        let roots = &self.options.upload_roots;
                        uploads::import_paths(&self.session, &context, roots, args).await
                    }
                    Ok(()) => Ok((args, Vec::new())),
                };
                match args {
                    Err(e) => results::failure(&e, &Value::Null),
                    Ok((args, imported)) => {
                        let out = self.broker_call(&broker, args, &meta, &context).await;
                        if out["isError"] == true {
                            // A failed upload keeps nothing it imported.
                            uploads::release(&self.session, &imported).await;
                        }
                        if broker == "browser.connect" || broker == "browser.disconnect" {
                            self.tell_if_tools_changed(&context).await;
                        }
                        out
                    }
                }
            }
        };
        Ok(call_result(out)?.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        // Artifacts are reached by the links in tool results, not listed.
        from_json(json!({"resources": []}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let Some(id) = request.uri.strip_prefix("bp-artifact://") else {
            return Err(McpError::resource_not_found(
                format!("no such resource {}", request.uri),
                None,
            ));
        };
        let descriptor = self
            .session
            .link
            .request("artifacts/get", json!({"artifactId": id}))
            .await
            .map_err(|e| not_found(&request.uri, &e))?;
        let bytes = descriptor["bytes"].as_u64().unwrap_or(0);
        if bytes > MAX_RESOURCE_BYTES {
            return Err(McpError::invalid_params(
                format!("error[result_too_large]: the artifact holds {bytes} bytes; resources/read serves up to {MAX_RESOURCE_BYTES}"),
                None,
            ));
        }
        let path = descriptor["path"].as_str().unwrap_or_default();
        let data = std::fs::read(path)
            .map_err(|e| McpError::internal_error(format!("reading the artifact: {e}"), None))?;
        use base64::Engine as _;
        let blob = base64::engine::general_purpose::STANDARD.encode(&data);
        let result: ReadResourceResult = from_json(json!({"contents": [
            {"uri": request.uri, "mimeType": descriptor["mime"], "blob": blob}]}))?;
        Ok(result.into())
    }
}

/// MCP name -> broker name for a broker `tools/list`.
fn name_map(listed: &[Value]) -> HashMap<String, String> {
    listed
        .iter()
        .filter_map(|t| t["name"].as_str())
        .map(|n| (tools::mcp_name(n), n.to_string()))
        .collect()
}

fn not_found(uri: &str, e: &BpError) -> McpError {
    McpError::resource_not_found(
        format!("error[{}]: {} ({uri})", e.code.as_str(), e.message),
        Some(e.to_json()),
    )
}
