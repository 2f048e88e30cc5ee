//! The bench's CDP floor: the form workflow's steps as raw CDP commands on
//! one attached tab, with no broker. The in-process floor runs them on a
//! connection it keeps; the one-shot floor (`browser-pilot bench-floor`,
//! hidden) runs one step per process, as the one-shot CLI does: start,
//! connect to the browser, attach to the tab, take the step, exit.

use super::cdp::{eval, mouse};
use browser_pilot_host::cdp::Cdp;
use browser_pilot_host::{BpError, BpResult};
use chromiumoxide::cdp::browser_protocol::accessibility::GetFullAxTreeParams;
use chromiumoxide::cdp::browser_protocol::dom::{
    BackendNodeId, DescribeNodeParams, GetContentQuadsParams, ScrollIntoViewIfNeededParams,
};
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventType, InsertTextParams,
};
use chromiumoxide::cdp::browser_protocol::page::{self, EventLoadEventFired, NavigateParams};
use chromiumoxide::cdp::browser_protocol::target::{AttachToTargetParams, TargetId};
use chromiumoxide::cdp::js_protocol::runtime::{
    EvaluateParams, ReleaseObjectParams, RemoteObjectId,
};
use chromiumoxide::types::Command;
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
        self.cdp.send(&NavigateParams::new(url), self.s()).await?;
        while let Ok(ev) = events.recv().await {
            if ev.is::<EventLoadEventFired>() && ev.session_id.as_deref() == self.s() {
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
        let find = EvaluateParams::new(format!("document.querySelector({selector:?})"));
        let found = self.cdp.send_raw(&find, self.s()).await?;
        let object = found["result"]["objectId"]
            .as_str()
            .map(RemoteObjectId::new)
            .ok_or_else(|| BpError::internal(format!("nothing matches {selector}")))?;
        let describe = DescribeNodeParams {
            object_id: Some(object.clone()),
            ..DescribeNodeParams::default()
        };
        let node = self.cdp.send_raw(&describe, self.s()).await?;
        self.cdp
            .send(&ReleaseObjectParams::new(object), self.s())
            .await?;
        node["node"]["backendNodeId"]
            .as_i64()
            .ok_or_else(|| BpError::internal(format!("no node for {selector}")))
    }

    /// `expression` evaluated in the page, its value returned.
    pub async fn evaluate(&self, expression: &str) -> BpResult<Value> {
        self.cdp.send_raw(&eval(expression), self.s()).await
    }

    /// The page's whole accessibility tree.
    pub async fn observe(&self) -> BpResult<Value> {
        self.cdp
            .send_raw(&GetFullAxTreeParams::default(), self.s())
            .await
    }

    /// As `bp type --clear` types `text` into a text field: one page call
    /// focuses the field and selects what it holds (careful: and says
    /// whether focus landed there), then the text replaces it and, once
    /// that is answered, a key is released in the field (careful: the
    /// value read back once the release is answered).
    pub async fn type_name(&self, careful: bool, text: &str) -> BpResult<()> {
        let focus = eval(
            "(e => { e.focus(); e.select(); \
            return document.activeElement === e; })(document.getElementById('name'))",
        );
        self.cdp.send_raw(&focus, self.s()).await?;
        let value = eval("document.getElementById('name').value");
        self.cdp
            .send(&InsertTextParams::new(text), self.s())
            .await?;
        let mut release = DispatchKeyEventParams::new(DispatchKeyEventType::KeyUp);
        release.key = Some("Unidentified".into());
        release.code = Some(String::new());
        release.windows_virtual_key_code = Some(0);
        release.native_virtual_key_code = Some(0);
        release.modifiers = Some(0);
        self.input_then_read(&release, careful.then_some(value))
            .await
    }

    /// Send an input and, when given, a `Runtime.evaluate` once it is
    /// answered. As in `bp`, the read does not go out right behind the
    /// input: the browser process handles `Input.*` and passes it to the
    /// page on another channel, so a read sent with it can see the page
    /// before the input.
    async fn input_then_read<C: Command>(
        &self,
        input: &C,
        read: Option<EvaluateParams>,
    ) -> BpResult<()> {
        self.cdp.send_raw(input, self.s()).await?;
        if let Some(read) = read {
            self.cdp.send_raw(&read, self.s()).await?;
        }
        Ok(())
    }

    /// The centre of `node`'s first box, in viewport CSS pixels.
    pub async fn centre(&self, node: i64) -> BpResult<(f64, f64)> {
        let quads = GetContentQuadsParams {
            backend_node_id: Some(BackendNodeId::new(node)),
            ..GetContentQuadsParams::default()
        };
        let quads = self.cdp.send_raw(&quads, self.s()).await?;
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
        let into_view = ScrollIntoViewIfNeededParams {
            backend_node_id: Some(BackendNodeId::new(node)),
            ..ScrollIntoViewIfNeededParams::default()
        };
        cdp.send(&into_view, s).await?;
        let (x, y) = self.centre(node).await?;
        if careful {
            // Sent with the press, as `browser.click` does.
            let moved = mouse(DispatchMouseEventType::MouseMoved, x, y);
            let _moved = cdp.send_typed_now(&moved, s)?;
        }
        let pressed = mouse(DispatchMouseEventType::MousePressed, x, y);
        cdp.send(&pressed, s).await?;
        // Careful: the page is read once the release is answered.
        let page = careful.then(|| eval("[location.href, document.title]"));
        let released = mouse(DispatchMouseEventType::MouseReleased, x, y);
        self.input_then_read(&released, page).await
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
    let attach = AttachToTargetParams {
        target_id: TargetId::new(target),
        flatten: Some(true),
    };
    Ok(cdp.send(&attach, None).await?.session_id.into())
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
            cdp.send(&page::EnableParams::default(), Some(&session))
                .await?;
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
