//! The registry rows of the broker's own tools: the browser lifecycle and
//! the tab inventory. Their handlers are in `native/mod.rs`; the rows go into
//! the runtime's registry beside the component tools, so every tool is
//! listed, authorised and scoped the same way.

use crate::runtime::bindings::tool::{Cancellation, Idempotency};
use crate::runtime::capability::{Capability, Reach};
use crate::runtime::manifest::ToolInfo;
use serde_json::{json, Value};

/// Native tools that act on the connection itself, whatever its
/// generation.
pub fn generation_free(name: &str) -> bool {
    matches!(
        name,
        "browser.status" | "browser.connect" | "browser.disconnect"
    )
}

fn row(name: &str, description: &str, scope: Reach, mutates: bool, input: Value) -> ToolInfo {
    ToolInfo {
        name: name.to_string(),
        description: description.to_string(),
        input_schema: input,
        output_schema: json!({"type": "object"}),
        capabilities: Vec::new(),
        scope,
        mutates,
        idempotency: if mutates {
            Idempotency::NotIdempotent
        } else {
            Idempotency::Idempotent
        },
        cancellation: Cancellation::BeforeDispatch,
        sensitivity_input: Vec::new(),
        sensitivity_output: Vec::new(),
        artifact_kinds: Vec::new(),
        destructive: name == "browser.disconnect",
        open_world: name == "browser.connect",
    }
}

/// The rows, in the order `tools/list` gives them.
pub fn rows() -> Vec<ToolInfo> {
    let target = json!({"type": "object", "additionalProperties": false, "required": ["targetId"],
        "properties": {"targetId": {"type": "string"}}});
    let none = json!({"type": "object", "additionalProperties": false});
    vec![
        row(
            "browser.status",
            "Browser connection state.",
            Reach::Browser,
            false,
            none.clone(),
        ),
        row(
            "browser.connect",
            "Connect the broker to a browser: the one discovered browser with debugging on (no arguments), a discovered one by ID, a loopback DevTools endpoint, or a broker-launched Chromium.",
            Reach::Browser,
            true,
            json!({"type": "object", "additionalProperties": false, "properties": {
                "launch": {"type": "object", "additionalProperties": false, "properties": {
                    "headless": {"type": "boolean", "default": true}, "executable": {"type": "string"},
                    "profile": {"type": "string", "description": "a persistent profile kept between launches: `default` (in the platform data directory) or an absolute directory; one broker at a time"},
                    "windowSize": {"type": "object", "additionalProperties": false, "required": ["width", "height"],
                        "description": "the page area of its windows in CSS px (default 1280x800)",
                        "properties": {"width": {"type": "integer", "minimum": 1, "maximum": 10000},
                            "height": {"type": "integer", "minimum": 1, "maximum": 10000}}}}},
                "endpoint": {"type": "string", "description": "http:// or ws:// URL on 127.0.0.1, localhost or ::1"},
                "browser": {"type": "string", "description": "a candidate ID from browser.status; remembered as the preference"}}}),
        ),
        row(
            "browser.disconnect",
            "Close this workspace's managed tabs and the browser connection (a broker-launched browser exits). Refused with broker_in_use while other workspaces hold live leases, unless keepIfInUse (keep the connection for them) or force (end their work too).",
            Reach::Browser,
            true,
            json!({"type": "object", "additionalProperties": false, "properties": {
                "force": {"type": "boolean", "default": false},
                "keepIfInUse": {"type": "boolean", "default": false}}}),
        ),
        window_row(),
        takeover_row(),
        row(
            "browser.tabs.list",
            "Managed tabs and eligible user tabs, with opaque per-workspace IDs.",
            Reach::Workspace,
            false,
            none,
        ),
        row(
            "browser.tabs.acquire",
            "Take control of a listed tab for the calling lease.",
            Reach::Target,
            true,
            target.clone(),
        ),
        row(
            "browser.tabs.release",
            "Release the calling lease's control of a tab.",
            Reach::Target,
            true,
            target,
        ),
    ]
}

/// `browser.window`: capability `window`, so `--deny window` removes it.
fn window_row() -> ToolInfo {
    let mut r = row(
        "browser.window",
        "Read the state of the browser window holding the workspace's tab, or set it (minimized, normal, maximized) with Browser.setWindowBounds. The result is the window as the browser reports it afterwards (window.state), with applied: false when it did not take the state asked (a headless window may not).",
        Reach::Target,
        true,
        json!({"type": "object", "additionalProperties": false, "properties": {
            "targetId": {"type": "string"},
            "state": {"enum": ["minimized", "normal", "maximized"]}}}),
    );
    r.capabilities = vec![Capability::Window];
    r
}

/// `browser.takeover`: capability `window`; a cancel stops its wait.
fn takeover_row() -> ToolInfo {
    let mut r = row(
        "browser.takeover",
        "Hand the workspace's tab to a person (to sign in, solve a CAPTCHA): its window comes to the front, a takeover.requested event carries your reason, and the call waits until the person runs `bp takeover done`, the page reaches `until` (a URL glob or a text), or timeoutMs passes. The result's `ended` says which: done, until or timeout.",
        Reach::Target,
        true,
        json!({"type": "object", "additionalProperties": false, "required": ["reason"], "properties": {
            "targetId": {"type": "string"},
            "reason": {"type": "string", "maxLength": 500, "description": "what the person should do"},
            "until": {"type": "object", "additionalProperties": false, "minProperties": 1, "maxProperties": 1, "properties": {
                "url": {"type": "string", "description": "a glob over the whole URL; * matches any run of characters"},
                "text": {"type": "string", "description": "text the page shows when the person is done"}}},
            "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 600000, "default": 300000}}}),
    );
    r.capabilities = vec![Capability::Window];
    r.cancellation = Cancellation::Cooperative;
    r
}
