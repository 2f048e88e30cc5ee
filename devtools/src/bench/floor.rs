//! The bench's CDP floor: the form workflow's steps as raw CDP commands on
//! one attached tab, with no broker. The in-process floor runs them on a
//! connection it keeps; the one-shot floor (`browser-pilot bench-floor`,
//! hidden) runs one step per process, as the one-shot CLI does: start,
//! connect to the browser, attach to the tab, take the step, exit.

use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::{BpError, BpResult};
use serde_json::{json, Value};
use std::sync::Arc;

/// One attached tab.
pub(crate) struct FloorTab<'a> {
    pub cdp: &'a Cdp,
    pub session: &'a str,
}

impl FloorTab<'_> {
    fn s(&self) -> Option<&str> {
        Some(self.session)
    }

    /// Load `url` and wait for the load event (`Page` must be enabled).
    pub async fn navigate(&self, url: &str) -> BpResult<()> {
        let mut events = self.cdp.subscribe();
        self.cdp
            .call("Page.navigate", self.s(), json!({"url": url}))
            .await?;
        while let Ok(ev) = events.recv().await {
            if ev.method == "Page.loadEventFired" && ev.session_id.as_deref() == self.s() {
                return Ok(());
            }
        }
        Err(BpError::internal("the floor's connection closed"))
    }

    /// The backend node of the element with `id`.
    pub async fn backend_of(&self, id: &str) -> BpResult<i64> {
        self.backend_of_selector(&format!("#{id}")).await
    }

    /// The backend node of the first element `selector` matches.
    pub async fn backend_of_selector(&self, selector: &str) -> BpResult<i64> {
        let found = self
            .cdp
            .call(
                "Runtime.evaluate",
                self.s(),
                json!({"expression": format!("document.querySelector({selector:?})")}),
            )
            .await?;
        let object = found["result"]["objectId"]
            .as_str()
            .ok_or_else(|| BpError::internal(format!("nothing matches {selector}")))?;
        let node = self
            .cdp
            .call("DOM.describeNode", self.s(), json!({"objectId": object}))
            .await?;
        self.cdp
            .call(
                "Runtime.releaseObject",
                self.s(),
                json!({"objectId": object}),
            )
            .await?;
        node["node"]["backendNodeId"]
            .as_i64()
            .ok_or_else(|| BpError::internal(format!("no node for {selector}")))
    }

    /// `expression` evaluated in the page, its value returned.
    pub async fn evaluate(&self, expression: &str) -> BpResult<Value> {
        self.cdp
            .call(
                "Runtime.evaluate",
                self.s(),
                json!({"expression": expression, "returnByValue": true}),
            )
            .await
    }

    /// The page's whole accessibility tree.
    pub async fn observe(&self) -> BpResult<Value> {
        self.cdp
            .call("Accessibility.getFullAXTree", self.s(), json!({}))
            .await
    }

    /// As `bp type --clear` types `text` into a text field: one page call
    /// focuses the field and selects what it holds (careful: and says
    /// whether focus landed there), then the text replaces it and, once
    /// that is answered, a key is released in the field (careful: the
    /// value read back once the release is answered).
    pub async fn type_name(&self, careful: bool, text: &str) -> BpResult<()> {
        let focus = json!({"expression": "(e => { e.focus(); e.select(); \
            return document.activeElement === e; })(document.getElementById('name'))",
            "returnByValue": true});
        self.cdp.call("Runtime.evaluate", self.s(), focus).await?;
        let value =
            json!({"expression": "document.getElementById('name').value", "returnByValue": true});
        let text = json!({"text": text});
        self.cdp.call("Input.insertText", self.s(), text).await?;
        let release = json!({"type": "keyUp", "key": "Unidentified", "code": "",
            "windowsVirtualKeyCode": 0, "nativeVirtualKeyCode": 0, "modifiers": 0});
        self.input_then_read("Input.dispatchKeyEvent", release, careful.then_some(value))
            .await
    }

    /// Send an input and, when given, a `Runtime.evaluate` once it is
    /// answered. As in `bp`, the read does not go out right behind the
    /// input: the browser process handles `Input.*` and passes it to the
    /// page on another channel, so a read sent with it can see the page
    /// before the input.
    async fn input_then_read(
        &self,
        method: &str,
        params: Value,
        read: Option<Value>,
    ) -> BpResult<()> {
        self.cdp.call(method, self.s(), params).await?;
        if let Some(read) = read {
            self.cdp.call("Runtime.evaluate", self.s(), read).await?;
        }
        Ok(())
    }

    /// The centre of `node`'s first box, in viewport CSS pixels.
    pub async fn centre(&self, node: i64) -> BpResult<(f64, f64)> {
        let quads = self
            .cdp
            .call(
                "DOM.getContentQuads",
                self.s(),
                json!({"backendNodeId": node}),
            )
            .await?;
        let q: Vec<f64> = quads["quads"][0]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_f64)
            .collect();
        let (Some(x0), Some(y0), Some(x2), Some(y2)) = (q.first(), q.get(1), q.get(4), q.get(5))
        else {
            return Err(BpError::internal("the element has no box"));
        };
        Ok(((x0 + x2) / 2.0, (y0 + y2) / 2.0))
    }

    /// Scroll the node into view and press and release at its centre
    /// (`careful`: moving the pointer there first, and reading the page
    /// after).
    pub async fn click(&self, node: i64, careful: bool) -> BpResult<()> {
        let (cdp, s) = (self.cdp, self.s());
        cdp.call(
            "DOM.scrollIntoViewIfNeeded",
            s,
            json!({"backendNodeId": node}),
        )
        .await?;
        let (x, y) = self.centre(node).await?;
        if careful {
            // Sent with the press, as `browser.click` does.
            let _moved = cdp.send_now(
                "Input.dispatchMouseEvent",
                s,
                json!({"type": "mouseMoved", "x": x, "y": y}),
            )?;
        }
        let ev =
            |kind: &str| json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
        cdp.call("Input.dispatchMouseEvent", s, ev("mousePressed"))
            .await?;
        // Careful: the page is read once the release is answered.
        let page = careful.then(
            || json!({"expression": "[location.href, document.title]", "returnByValue": true}),
        );
        self.input_then_read("Input.dispatchMouseEvent", ev("mouseReleased"), page)
            .await
    }
}

/// The backend node of the first accessibility node with `role` and `name`.
pub(crate) fn ax_node(tree: &Value, role: &str, name: &str) -> BpResult<i64> {
    tree["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|n| n["role"]["value"] == role && n["name"]["value"] == name)
        .and_then(|n| n["backendDOMNodeId"].as_i64())
        .ok_or_else(|| BpError::internal(format!("no {role} {name}")))
}

/// Attach to `target` on the connection: its flat session.
pub(crate) async fn attach(cdp: &Cdp, target: &str) -> BpResult<String> {
    let attached = cdp
        .call(
            "Target.attachToTarget",
            None,
            json!({"targetId": target, "flatten": true}),
        )
        .await?;
    attached["sessionId"]
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| BpError::internal("attach returned no session"))
}

/// One step of the one-shot floor, in a process of its own: connect to
/// the browser at `ws_url`, attach to `target`, take `step` (checking as
/// `bp` does), print what the next steps need as JSON. `arg` is the URL
/// to open or the button's backend node to click.
pub async fn one_step(ws_url: &str, target: &str, step: &str, arg: Option<&str>) -> BpResult<()> {
    let cdp = Cdp::connect(ws_url, Arc::new(|_| {})).await?;
    let session = attach(&cdp, target).await?;
    let tab = FloorTab {
        cdp: &cdp,
        session: &session,
    };
    let needed = || BpError::invalid(format!("bench-floor {step} needs an argument"));
    let out = match step {
        "navigate" => {
            cdp.call("Page.enable", Some(&session), json!({})).await?;
            tab.navigate(arg.ok_or_else(needed)?).await?;
            json!({})
        }
        "observe" => {
            let tree = tab.observe().await?;
            json!({"button": ax_node(&tree, "button", "Sign in")?})
        }
        "type" => {
            tab.type_name(true, "Ada").await?;
            json!({})
        }
        "click" => {
            let node = arg
                .and_then(|a| a.parse().ok())
                .ok_or_else(|| BpError::invalid("bench-floor click needs a backend node"))?;
            tab.click(node, true).await?;
            json!({})
        }
        other => return Err(BpError::invalid(format!("no floor step `{other}`"))),
    };
    cdp.close();
    println!("{out}");
    Ok(())
}
