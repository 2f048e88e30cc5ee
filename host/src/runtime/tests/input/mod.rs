//! Unit tests of the input family (`browser.click`, `browser.type`)
//! against a scripted page (see `testkit`): which evidence the component
//! derives from what it reads before and after, and when it refuses
//! (covered element, not editable, stale ref) without sending input.

use crate::browser::observe::proved_read::Proof;
use crate::cdp::Scripted;
use crate::error::{BpError, Code, StaleReason};
use crate::runtime::tests::testkit::{ax, TestEnv};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

const URL: &str = "http://t.test/";
/// The content quad every element reports: centre (60, 40).
const QUAD: [f64; 8] = [10.0, 20.0, 110.0, 20.0, 110.0, 60.0, 10.0, 60.0];

/// What the page does when input reaches it.
type Effect = Box<dyn Fn(&mut Page, &str, &Value) + Send>;

/// The scripted page: its facts, the live state of its elements, and what
/// input does to them.
struct Page {
    url: String,
    title: String,
    /// `Accessibility.getFullAXTree` nodes.
    ax: Vec<Value>,
    /// The `NODE_STATE` answer per backend node.
    nodes: HashMap<i64, Value>,
    /// Nodes no longer in the document (`connected: false`).
    disconnected: Vec<i64>,
    /// The accessibility node of an element covering every point.
    cover: Option<Value>,
    /// Params of every `Input.*` command, in order.
    input: Vec<(String, Value)>,
    /// (x, y) the hit test was asked about.
    hit_at: Option<(f64, f64)>,
    /// The node a page call focused (`input.focus-editable`).
    focused: Option<i64>,
    /// Editable nodes that cannot take focus (inert, say).
    unfocusable: Vec<i64>,
    /// Editable nodes whose content a page call cannot select (a number
    /// field whose text is not a number).
    unselectable: Vec<i64>,
    effect: Effect,
    /// `pointerup` events the page has dispatched (`js::POINTERUPS`).
    pointerups: u64,
    /// `keyup` events the page has dispatched (`js::KEYUPS_OF_THIS`).
    keyups: u64,
    /// Releases handled only once the next page command is answered, as
    /// when a read sent behind the release reaches the page first.
    release_lags: bool,
    lagging: u64,
}

#[derive(Clone)]
struct Fake(Arc<Mutex<Page>>);

impl Fake {
    fn new(nodes: &[(&str, &str, &str, i64, Value)]) -> Self {
        let children: Vec<String> = (0..nodes.len()).map(|i| format!("n{i}")).collect();
        let ids: Vec<&str> = children.iter().map(String::as_str).collect();
        let mut tree = vec![ax("root", "RootWebArea", "Form", 1, &ids)];
        let mut states = HashMap::new();
        for (i, (role, name, value, backend, state)) in nodes.iter().enumerate() {
            let mut node = ax(&children[i], role, name, *backend, &[]);
            if !value.is_empty() {
                node["value"] = json!({"type": "string", "value": value});
            }
            tree.push(node);
            states.insert(*backend, state.clone());
        }
        Self(Arc::new(Mutex::new(Page {
            url: URL.into(),
            title: "Form".into(),
            ax: tree,
            nodes: states,
            disconnected: Vec::new(),
            cover: None,
            input: Vec::new(),
            hit_at: None,
            focused: None,
            unfocusable: Vec::new(),
            unselectable: Vec::new(),
            effect: Box::new(|_, _, _| {}),
            pointerups: 0,
            keyups: 0,
            release_lags: false,
            lagging: 0,
        })))
    }

    fn page(&self) -> MutexGuard<'_, Page> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn on_input(self, effect: impl Fn(&mut Page, &str, &Value) + Send + 'static) -> Self {
        self.page().effect = Box::new(effect);
        self
    }

    fn script(&self) -> Scripted {
        let fake = self.clone();
        Arc::new(move |method: &str, _s: Option<&str>, p: &Value| {
            let mut page = fake.page();
            page.answer(method, p)
        })
    }

    /// The `type` of every `Input.dispatchMouseEvent`, and where it went.
    fn mouse(&self) -> Vec<(String, f64, f64)> {
        self.page()
            .input
            .iter()
            .filter(|(m, _)| m == "Input.dispatchMouseEvent")
            .map(|(_, p)| {
                let n = |k: &str| p[k].as_f64().unwrap_or(f64::NAN);
                (p["type"].as_str().unwrap_or("").to_string(), n("x"), n("y"))
            })
            .collect()
    }
}

fn backend_of(object: &Value) -> i64 {
    object
        .as_str()
        .and_then(|o| o.strip_prefix("obj-"))
        .and_then(|b| b.parse().ok())
        .unwrap_or(-1)
}

impl Page {
    fn answer(&mut self, method: &str, p: &Value) -> Result<Value, String> {
        let answer = self.answer_now(method, p);
        if !method.starts_with("Input.") {
            self.pointerups += std::mem::take(&mut self.lagging);
        }
        answer
    }

    fn answer_now(&mut self, method: &str, p: &Value) -> Result<Value, String> {
        Ok(match method {
            "Runtime.evaluate" => {
                let expr = p["expression"].as_str().unwrap_or("");
                if expr.contains("location.href") {
                    json!({"result": {"value": [self.url, self.title, 200]}})
                } else if expr.contains("activeElement") {
                    // The typed-into field keeps focus throughout.
                    json!({"result": {"type": "object", "objectId": "active-1"}})
                } else {
                    json!({"result": {"value": 0}})
                }
            }
            "Accessibility.getFullAXTree" => json!({"nodes": self.ax}),
            "DOM.resolveNode" => {
                let b = p["backendNodeId"].as_i64().unwrap_or(-1);
                json!({"object": {"type": "object", "objectId": format!("obj-{b}")}})
            }
            "DOM.describeNode" => json!({"node": {"backendNodeId": 21, "nodeName": "INPUT"}}),
            "Runtime.callFunctionOn" => self.call_function(p)?,
            "Accessibility.getPartialAXTree" if p["objectId"] == "cover-1" => {
                json!({"nodes": [self.cover.clone().unwrap_or(Value::Null)]})
            }
            "DOM.getContentQuads" => json!({"quads": [QUAD]}),
            "DOM.focus"
                if self
                    .unfocusable
                    .contains(&p["backendNodeId"].as_i64().unwrap_or(-1)) =>
            {
                return Err("Element is not focusable".into())
            }
            m if m.starts_with("Input.") => self.input_event(m, p),
            _ => json!({}),
        })
    }

    /// A page function called on a node (`Runtime.callFunctionOn`), told
    /// apart by what its source contains.
    fn call_function(&mut self, p: &Value) -> Result<Value, String> {
        let b = backend_of(&p["objectId"]);
        let f = p["functionDeclaration"].as_str().unwrap_or("");
        let state = || -> Result<Value, String> {
            let mut state = self.nodes.get(&b).cloned().ok_or("no such node")?;
            state["connected"] = json!(!self.disconnected.contains(&b));
            // The settle observer has seen no mutation.
            state["mutations"] = json!(0);
            Ok(state)
        };
        Ok(if f.contains(") === this, keyups: ") {
            // Confirming the focused element read last.
            let same = p["objectId"] == "active-1" || self.focused == Some(b);
            json!({"result": {"value": {"same": same, "keyups": self.keyups}}})
        } else if f.contains("HTMLElement.prototype.focus") {
            self.focus_call(b, p, state()?)
        } else if f.contains("isPassword") && f.contains("facts:") {
            // Node state and page facts in one call; revalidating
            // a ref also says where a click would aim, unless the
            // element is covered.
            let facts = json!([self.url, self.title, 200]);
            let mut value =
                json!({"state": state()?, "facts": facts, "pointerups": self.pointerups});
            if f.contains(", aim,") && self.cover.is_none() {
                self.hit_at = Some((60.0, 40.0));
                value["aim"] = json!({"x": 60.0, "y": 40.0});
            }
            json!({"result": {"value": value}})
        } else if f.contains("isPassword") {
            json!({"result": {"value": state()?}})
        } else if f.contains("async function(needHit") {
            // The actionability check: ready where a click would
            // aim, unless something covers the element.
            self.hit_at = Some((60.0, 40.0));
            let value = match self.cover {
                Some(_) => json!({"reason": "covered", "x": 60.0, "y": 40.0}),
                None => {
                    json!({"x": 60.0, "y": 40.0, "part": null, "pointerups": self.pointerups})
                }
            };
            json!({"result": {"value": value}})
        } else if f.contains("getClientRects") {
            // The one-call aim: the centre of the box, and whether
            // something else is hit there.
            self.hit_at = Some((60.0, 40.0));
            json!({"result": {"value": {"x": 60.0, "y": 40.0, "covered": self.cover.is_some(),
                                        "pointerups": self.pointerups}}})
        } else if f.contains("elementFromPoint") {
            let at = |i: usize| p["arguments"][i]["value"].as_f64().unwrap_or(f64::NAN);
            self.hit_at = Some((at(0), at(1)));
            match self.cover {
                Some(_) => json!({"result": {"type": "object", "objectId": "cover-1"}}),
                None => {
                    json!({"result": {"type": "object", "subtype": "null", "value": null}})
                }
            }
        } else {
            return Err(format!("unscripted function {f}"));
        })
    }

    /// Revalidate, read, and focus only what is editable, in one call;
    /// the state is the one read before.
    fn focus_call(&mut self, b: i64, p: &Value, state: Value) -> Value {
        let (mut focus, mut selected) = (Value::Null, false);
        if state["editable"] == true && state["connected"] == true {
            focus = json!("none");
            if !self.unfocusable.contains(&b) {
                self.input.push(("focus()".into(), json!({"node": b})));
                self.focused = Some(b);
                focus = json!("self");
                if p["arguments"][0]["value"] == true && !self.unselectable.contains(&b) {
                    self.input.push(("select()".into(), json!({"node": b})));
                    selected = true;
                }
            }
        }
        // Read again once focused; this fake's focus changes
        // nothing else.
        let mut focused = Value::Null;
        if !focus.is_null() {
            focused = state.clone();
            focused["focused"] = json!(focus == "self");
        }
        json!({"result": {"value": {"state": state, "focus": focus,
                                    "selected": selected, "focused": focused}}})
    }

    /// An input event: recorded, counted, and given its scripted effect.
    fn input_event(&mut self, m: &str, p: &Value) -> Value {
        self.input.push((m.to_string(), p.clone()));
        if m == "Input.dispatchKeyEvent" && p["type"] == "keyUp" {
            self.keyups += 1;
        }
        if released(m, p) {
            match self.release_lags {
                true => self.lagging += 1,
                false => self.pointerups += 1,
            }
        }
        let effect = std::mem::replace(&mut self.effect, Box::new(|_, _, _| {}));
        effect(self, m, p);
        self.effect = effect;
        json!({})
    }
}

/// `NODE_STATE` of a button, a checkbox, a text field.
fn button() -> Value {
    json!({"tag": "button", "inputType": null, "value": null, "valueLength": 0, "checked": null,
           "focused": false, "editable": false, "connected": true})
}

fn checkbox(checked: bool) -> Value {
    json!({"tag": "input", "inputType": "checkbox", "value": "on", "valueLength": 2,
           "checked": checked, "focused": false, "editable": false, "connected": true})
}

/// A text field; a password field's value is withheld (`null`), only its
/// length is read.
fn field(kind: &str, value: &str) -> Value {
    let shown = if kind == "password" {
        Value::Null
    } else {
        json!(value)
    };
    json!({"tag": "input", "inputType": kind, "value": shown,
           "valueLength": value.encode_utf16().count(), "checked": null,
           "focused": false, "editable": true, "connected": true})
}

fn released(m: &str, p: &Value) -> bool {
    m == "Input.dispatchMouseEvent" && p["type"] == "mouseReleased"
}

/// Observe, then forget the methods the observation sent.
async fn observe(env: &TestEnv) -> String {
    let obs = env.target("browser.observe", json!({})).await.unwrap();
    env.clear_methods();
    obs["observationId"].as_str().unwrap().to_string()
}

fn err(r: crate::error::BpResult<Value>) -> BpError {
    match r {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(e) => e,
    }
}

/// What this call sent: without the release of an earlier call's remote
/// objects, which the host does in the background when a call ends.
fn sent(env: &TestEnv) -> Vec<String> {
    env.methods()
        .into_iter()
        .filter(|m| m != "Runtime.releaseObjectGroup")
        .collect()
}

/// What reached the page as input, focus by a page call included.
fn page_input(fake: &Fake) -> Vec<String> {
    fake.page().input.iter().map(|(m, _)| m.clone()).collect()
}

fn input_sent(env: &TestEnv) -> Vec<String> {
    env.methods()
        .into_iter()
        .filter(|m| m.starts_with("Input.") || m == "DOM.focus")
        .collect()
}

/// (made, taken) instances made ahead on `runtime`.
fn spares(runtime: &crate::runtime::Runtime) -> (u64, u64) {
    let counts = &runtime.describe()["instancesMadeAhead"];
    (
        counts["made"].as_u64().unwrap_or_default(),
        counts["taken"].as_u64().unwrap_or_default(),
    )
}

mod click;
mod typing;
