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
            "Runtime.callFunctionOn" => {
                let b = backend_of(&p["objectId"]);
                let f = p["functionDeclaration"].as_str().unwrap_or("");
                let state = || -> Result<Value, String> {
                    let mut state = self.nodes.get(&b).cloned().ok_or("no such node")?;
                    state["connected"] = json!(!self.disconnected.contains(&b));
                    // The settle observer has seen no mutation.
                    state["mutations"] = json!(0);
                    Ok(state)
                };
                if f.contains(") === this, keyups: ") {
                    // Confirming the focused element read last.
                    let same = p["objectId"] == "active-1" || self.focused == Some(b);
                    json!({"result": {"value": {"same": same, "keyups": self.keyups}}})
                } else if f.contains("HTMLElement.prototype.focus") {
                    // Revalidate, read, and focus only what is editable,
                    // in one call; the state is the one read before.
                    let state = state()?;
                    let (mut focus, mut selected) = (Value::Null, false);
                    if state["editable"] == true && state["connected"] == true {
                        focus = json!("none");
                        if !self.unfocusable.contains(&b) {
                            self.input.push(("focus()".into(), json!({"node": b})));
                            self.focused = Some(b);
                            focus = json!("self");
                            if p["arguments"][0]["value"] == true && !self.unselectable.contains(&b)
                            {
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
                }
            }
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
            m if m.starts_with("Input.") => {
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
            _ => json!({}),
        })
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

#[tokio::test]
async fn a_call_takes_the_instance_made_ahead_during_the_last() {
    // A runtime of this test's own: the shared one's counters move with
    // every test that runs meanwhile.
    let runtime = crate::runtime::tests::testkit::private_runtime();
    let fake = Fake::new(&[("button", "Next", "", 10, button())]);
    let env = TestEnv::new(URL, fake.script()).unwrap().on(runtime);
    assert_eq!(spares(runtime), (0, 0), "a fresh runtime made nothing yet");
    observe(&env).await;
    // The spare is made on this test's runtime while it waits.
    for _ in 0..500 {
        if spares(runtime).0 > 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    assert!(spares(runtime).0 > 0, "no instance was made ahead");
    assert_eq!(spares(runtime).1, 0, "taken before a second call");
    observe(&env).await;
    assert!(spares(runtime).1 > 0, "no call took an instance made ahead");
}

#[tokio::test]
async fn click_on_target_that_changes_the_page_is_verified() {
    click_that_changes_the_page(false, false).await;
    // A read that reaches the page before the release (the page's
    // pointerup count has not moved) is not taken, though the page
    // already shows the new URL: it is read again once the release is
    // answered.
    click_that_changes_the_page(true, false).await;
    // The same early read, back while the release is still unanswered
    // (as the browser answers once the page has handled it): it is sent
    // again at once, and that one, which proves the release, is taken.
    click_that_changes_the_page(true, true).await;
}

async fn click_that_changes_the_page(release_lags: bool, answered_late: bool) {
    let fake = Fake::new(&[("button", "Next", "", 10, button())]).on_input(|page, m, p| {
        if released(m, p) {
            page.url = "http://t.test/step-2".into();
        }
    });
    fake.page().release_lags = release_lags;
    let late = answered_late.then_some(std::time::Duration::from_millis(30));
    let env = TestEnv::answering_input_late(URL, fake.script(), late).unwrap();
    let obs = observe(&env).await;
    let out = env
        .target("browser.click", json!({"observationId": obs, "ref": 1}))
        .await
        .unwrap();
    assert_eq!(
        out,
        json!({
            "evidence": {"kind": "click", "status": "verified", "signals": ["url_changed"],
                         "route": "trusted_input", "trust": "trusted",
                         "settle": {"state": "settled", "requests": 0, "waitedMs": 0}},
            "hints": [],
        })
    );
    // Aimed at the centre of the element's box, after a hit test there.
    assert_eq!(fake.page().hit_at, Some((60.0, 40.0)));
    // The ref's live check also gives the before-read, the aim (the
    // button is in view and not covered) and the page's pointerup count;
    // the after-read goes out right behind the release, and is taken when
    // that count has moved on by one. The same read found the button
    // ready for input (enabled, nothing animating, not covered) and
    // installed the settle observer, so neither costs a call of its own;
    // the after-read saw that observer count no mutation, and no request
    // started, so settling costs no call either.
    let (read, mouse) = ("Runtime.callFunctionOn", "Input.dispatchMouseEvent");
    let mut expected = vec!["DOM.resolveNode", read, mouse, mouse, mouse, read];
    if release_lags {
        expected.push(read);
    }
    let case = format!("release lags: {release_lags}, answered late: {answered_late}");
    assert_eq!(sent(&env), expected, "{case}");
    // The press goes out behind the unanswered move; nothing goes out
    // behind the press (a read there could reach the page before it).
    assert_eq!(env.sent_behind("Input."), vec![1, 0, 1], "{case}");
    // (taken from a read sent with the release, read again once it was
    // answered, sent again before that)
    let counted = env.registry().readback_counts(Proof::Clicked);
    let expected = match (release_lags, answered_late) {
        (false, _) => [1, 0, 0],
        (true, false) => [0, 1, 0],
        (true, true) => [1, 0, 1],
    };
    assert_eq!(counted, expected, "{case}");
    assert_eq!(
        fake.mouse(),
        vec![
            ("mouseMoved".to_string(), 60.0, 40.0),
            ("mousePressed".to_string(), 60.0, 40.0),
            ("mouseReleased".to_string(), 60.0, 40.0),
        ]
    );
    let pressed = fake.page().input[1].1.clone();
    assert_eq!(pressed["button"], "left", "{pressed}");
    assert_eq!(pressed["clickCount"], 1, "{pressed}");
    // Scrolled, measured and hit-tested in one page call, before any
    // input: no separate scroll or box request for a main-frame node.
    let methods = env.methods();
    let at = |m: &str| methods.iter().position(|x| x == m).unwrap_or(usize::MAX);
    assert!(
        at("Runtime.callFunctionOn") < at("Input.dispatchMouseEvent"),
        "{methods:?}"
    );
    assert!(
        !methods
            .iter()
            .any(|m| m == "DOM.scrollIntoViewIfNeeded" || m == "DOM.getContentQuads"),
        "{methods:?}"
    );
}

#[tokio::test]
async fn click_evidence_follows_what_changed() {
    // (what, the page, expected status, expected signals)
    type Case = (&'static str, Fake, &'static str, Value);
    let cases: Vec<Case> = vec![
        (
            "checkbox that toggles",
            Fake::new(&[("checkbox", "Agree", "", 10, checkbox(false))]).on_input(|page, m, p| {
                if released(m, p) {
                    page.nodes.insert(10, checkbox(true));
                }
            }),
            "verified",
            json!(["checked_changed"]),
        ),
        (
            "checkbox that stays unchecked",
            Fake::new(&[("checkbox", "Agree", "", 10, checkbox(false))]),
            "mismatch",
            json!([]),
        ),
        (
            "checked checkbox that stays checked",
            Fake::new(&[("checkbox", "Agree", "", 10, checkbox(true))]),
            "mismatch",
            json!([]),
        ),
        (
            "button with no visible effect",
            Fake::new(&[("button", "Noop", "", 10, button())]),
            "unavailable",
            json!([]),
        ),
        (
            "button that retitles and removes itself",
            Fake::new(&[("button", "Close", "", 10, button())]).on_input(|page, m, p| {
                if released(m, p) {
                    page.title = "Closed".into();
                    page.nodes.remove(&10);
                }
            }),
            "verified",
            json!(["title_changed", "element_removed"]),
        ),
    ];
    for (what, fake, status, signals) in cases {
        let env = TestEnv::new(URL, fake.script()).unwrap();
        let obs = observe(&env).await;
        let out = env
            .target("browser.click", json!({"observationId": obs, "ref": 1}))
            .await
            .unwrap_or_else(|e| panic!("{what}: {e:?}"));
        assert_eq!(out["evidence"]["status"], status, "{what}: {out}");
        assert_eq!(out["evidence"]["signals"], signals, "{what}: {out}");
        assert_eq!(fake.mouse().len(), 3, "{what}");
    }
}

#[tokio::test]
async fn covered_element_is_refused_without_input() {
    let fake = Fake::new(&[("button", "Buy", "", 10, button())]);
    fake.page().cover = Some(ax("c", "dialog", "Cookie consent", 99, &[]));
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    let started = std::time::Instant::now();
    let e = err(env
        .target(
            "browser.click",
            json!({"observationId": obs, "ref": 1, "waitMs": 300}),
        )
        .await);
    // Refused once the wait ran out, not at once.
    let waited = started.elapsed();
    assert!(
        waited >= std::time::Duration::from_millis(300),
        "{waited:?}"
    );
    assert_eq!(e.code, Code::ActionNotVerified, "{e:?}");
    assert_eq!(
        e.context,
        Some(
            json!({"reason": "covered", "coveringRole": "dialog", "coveringName": "Cookie consent"})
        )
    );
    assert_eq!(
        e.message,
        "the element is covered by dialog \"Cookie consent\""
    );
    assert_eq!(e.to_json()["code"], "action_not_verified");
    // The hit test ran, and nothing was clicked.
    assert_eq!(fake.page().hit_at, Some((60.0, 40.0)));
    let methods = env.methods();
    assert!(
        methods
            .iter()
            .any(|m| m == "Accessibility.getPartialAXTree"),
        "{methods:?}"
    );
    let input = fake.page().input.clone();
    assert!(input.is_empty(), "{input:?}");
    assert_eq!(input_sent(&env), Vec::<String>::new());
}

/// A page with one text field (backend node 20) whose value becomes
/// whatever text is inserted.
fn typing_page(label: &str, kind: &'static str, value: &str) -> Fake {
    Fake::new(&[("textbox", label, "", 20, field(kind, value))]).on_input(move |page, m, p| {
        if m == "Input.insertText" {
            let text = p["text"].as_str().unwrap_or("");
            page.nodes.insert(20, field(kind, text));
        }
    })
}

const SECRET: &str = "hunter2-Sekr1t!";

#[tokio::test]
async fn type_reads_the_value_back_for_evidence() {
    let fake = typing_page("Email", "email", "");
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    let out = env
        .target(
            "browser.type",
            json!({"observationId": obs, "ref": 1, "text": "ada@example.test"}),
        )
        .await
        .unwrap();
    assert_eq!(
        out,
        json!({
            "evidence": {"kind": "type", "status": "verified", "signals": ["value_matches"],
                         "route": "trusted_input", "trust": "trusted",
                         "settle": {"state": "settled", "requests": 0, "waitedMs": 0}},
            "hints": [],
        })
    );
    // Focused by the page call that revalidated the ref, then the text
    // inserted once, as one command, and a key released (naming no key),
    // as typing ends for a person: pages that read on keyup see the text.
    let released = ["focus()", "Input.insertText", "Input.dispatchKeyEvent"];
    assert_eq!(page_input(&fake), released);
    assert_eq!(fake.page().input[0].1, json!({"node": 20}));
    assert_eq!(fake.page().input[1].1, json!({"text": "ada@example.test"}));
    assert_eq!(fake.page().input[2].1["type"], "keyUp");
    assert_eq!(fake.page().input[2].1["key"], "Unidentified");
}

#[tokio::test]
async fn typing_reads_each_fact_once_as_each_input_is_answered() {
    for cleared_by_keys in [false, true] {
        let fake = typing_page("Name", "text", "old");
        if cleared_by_keys {
            fake.page().unselectable.push(20);
        }
        let env = TestEnv::new(URL, fake.script()).unwrap();
        let obs = observe(&env).await;
        let out = env
            .target(
                "browser.type",
                json!({"observationId": obs, "ref": 1, "text": "Ada", "clear": true}),
            )
            .await
            .unwrap();
        assert_eq!(out["evidence"]["status"], "verified", "{out}");
        // The ref's live check also serves as the before-read, focuses
        // the field, says focus landed there (so the first focus check is
        // no round trip) and selects the old value, which the text then
        // replaces. Where the content cannot be selected that way (a
        // number field whose text is not a number), Control+A and
        // Backspace do it, each key's focus check sent when the key is
        // answered, except the second key's: the first key's focus check
        // read the page's keyup count, so the second's goes out with its
        // release and is taken when that count has moved on
        // (`observe/proved_read.rs`). The text is answered, then a key released;
        // the read-back goes out with the release when
        // the field was focused and read just before it (taken here: it
        // shows the text, `input/typed_readback.rs`), else when the text is
        // answered. Nothing is sent twice.
        let (read, key) = ("Runtime.callFunctionOn", "Input.dispatchKeyEvent");
        let mut expected = vec!["DOM.resolveNode", read];
        if cleared_by_keys {
            expected.extend([key, key, read, key, key, read]);
        }
        // The read-back also saw that the settle observer (installed by
        // the focusing call) counted no mutation: settling sends nothing.
        expected.extend(["Input.insertText", key, read]);
        assert_eq!(sent(&env), expected, "cleared by keys: {cleared_by_keys}");
        // A read goes behind the second key's release only (none
        // behind a press); one goes behind the text only when nothing
        // changed the field since it was read.
        let inputs = env.sent_behind("Input.");
        let mut behind = vec![0; inputs.len()];
        if cleared_by_keys {
            behind[3] = 1;
        } else {
            behind[inputs.len() - 1] = 1;
        }
        assert_eq!(inputs, behind, "cleared by keys: {cleared_by_keys}");
        // (taken from a read sent with a key's release, read again, sent
        // again early)
        let keyed = env.registry().readback_counts(Proof::Keyed);
        let expected = if cleared_by_keys {
            [1, 0, 0]
        } else {
            [0, 0, 0]
        };
        assert_eq!(keyed, expected, "cleared by keys: {cleared_by_keys}");
        let selected = page_input(&fake).contains(&"select()".to_string());
        assert_eq!(
            selected, !cleared_by_keys,
            "cleared by keys: {cleared_by_keys}"
        );
    }
}

#[tokio::test]
async fn type_into_a_password_field_checks_only_the_length() {
    for (changes, status, signals) in [
        (true, "verified", json!(["value_matches"])),
        (false, "mismatch", json!(["value_differs"])),
    ] {
        // The accessibility tree shows a protected value as bullets.
        let fake = Fake::new(&[("textbox", "Password", "••••", 21, field("password", ""))])
            .on_input(move |page, m, p| {
                if m == "Input.insertText" && changes {
                    let text = p["text"].as_str().unwrap_or("");
                    page.nodes.insert(21, field("password", text));
                }
            });
        let env = TestEnv::new(URL, fake.script()).unwrap();
        let observed = env.target("browser.observe", json!({})).await.unwrap();
        assert_eq!(
            observed["elements"],
            json!([{"ref": 1, "role": "textbox", "name": "Password"}]),
            "a protected value is not shown"
        );
        let obs = observed["observationId"].as_str().unwrap();
        env.clear_methods();
        let out = env
            .target(
                "browser.type",
                json!({"observationId": obs, "ref": 1, "text": SECRET}),
            )
            .await
            .unwrap();
        assert_eq!(out["evidence"]["status"], status, "{out}");
        assert_eq!(out["evidence"]["signals"], signals, "{out}");
        assert!(!out.to_string().contains(SECRET), "{out}");
        assert!(!out.to_string().contains("hunter2"), "{out}");
        // The secret went to the browser exactly once: the key released
        // after it names none of its characters.
        let released = ["focus()", "Input.insertText", "Input.dispatchKeyEvent"];
        assert_eq!(page_input(&fake), released);
        assert_eq!(fake.page().input[2].1["key"], "Unidentified");
    }
}

#[tokio::test]
async fn type_refuses_a_field_that_is_not_editable() {
    let fake = Fake::new(&[("button", "Send", "", 10, button())]);
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    let e = err(env
        .target(
            "browser.type",
            json!({"observationId": obs, "ref": 1, "text": SECRET}),
        )
        .await);
    assert_eq!(e.code, Code::ActionNotVerified);
    assert_eq!(e.context, Some(json!({"reason": "not_editable"})));
    assert!(!format!("{e:?}").contains(SECRET));
    assert_eq!(input_sent(&env), Vec::<String>::new());
    assert_eq!(page_input(&fake), Vec::<String>::new(), "not focused");
}

/// An editable field that cannot take focus (made inert after it was
/// observed): the page's `focus()` changes nothing, the browser's own
/// refuses, and no key or text goes to whatever had focus.
#[tokio::test]
async fn type_into_a_field_that_cannot_take_focus_sends_no_text() {
    let fake = typing_page("Name", "text", "");
    fake.page().unfocusable.push(20);
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    let e = err(env
        .target(
            "browser.type",
            json!({"observationId": obs, "ref": 1, "text": SECRET, "clear": true}),
        )
        .await);
    assert_eq!(e.code, Code::ActionNotVerified, "{e:?}");
    assert_eq!(e.context, Some(json!({"reason": "browser_refused"})));
    assert!(!format!("{e:?}").contains(SECRET));
    assert_eq!(page_input(&fake), Vec::<String>::new());
    assert_eq!(input_sent(&env), vec!["DOM.focus"]);
    // The page handles `DOM.focus` itself, in order: the focus check went
    // out right behind it.
    assert_eq!(env.sent_behind("DOM.focus"), vec![1]);
}

#[tokio::test]
async fn stale_refs_are_refused_before_any_input() {
    let fake = Fake::new(&[
        ("button", "Next", "", 10, button()),
        ("textbox", "Name", "", 20, field("text", "")),
    ]);
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    // An unknown observation, and a ref the observation does not have: the
    // same deliberately vague answer, before anything reaches the browser.
    for input in [
        json!({"observationId": "obs_0000000000000000", "ref": 1}),
        json!({"observationId": obs, "ref": 3}),
    ] {
        for (tool, mut args) in [("browser.click", input.clone()), ("browser.type", input)] {
            if tool == "browser.type" {
                args["text"] = json!("x");
            }
            let e = err(env.target(tool, args.clone()).await);
            assert_eq!(e.code, Code::StaleRef, "{tool} {args}");
            assert_eq!(e.stale, Some(StaleReason::NotFound), "{tool} {args}");
            assert_eq!(e.context, None, "{tool} {args}");
            assert_eq!(env.methods(), Vec::<String>::new(), "{tool} {args}");
        }
    }
    // The node is gone from the document although the observation is current.
    fake.page().disconnected.push(10);
    let e = err(env
        .target("browser.click", json!({"observationId": obs, "ref": 1}))
        .await);
    assert_eq!(e.code, Code::StaleRef);
    assert_eq!(e.context, Some(json!({"reason": "document_replaced"})));
    assert_eq!(input_sent(&env), Vec::<String>::new());
    // A new document: the whole observation is stale.
    env.clear_methods();
    env.commit_new_document();
    for (tool, args) in [
        ("browser.click", json!({"observationId": obs, "ref": 1})),
        (
            "browser.type",
            json!({"observationId": obs, "ref": 2, "text": "x"}),
        ),
    ] {
        let e = err(env.target(tool, args).await);
        assert_eq!(e.code, Code::StaleRef, "{tool}");
        assert_eq!(e.context, Some(json!({"reason": "navigation"})), "{tool}");
    }
    assert_eq!(sent(&env), Vec::<String>::new());
    assert!(fake.page().input.is_empty());
}

/// A field that already held the text, and that typing did not change,
/// proves nothing: the result is a mismatch, not a success.
#[tokio::test]
async fn type_into_a_field_that_already_held_the_text_is_not_verified() {
    let fake = Fake::new(&[(
        "textbox",
        "Email",
        "",
        20,
        field("email", "ada@example.test"),
    )]);
    let env = TestEnv::new(URL, fake.script()).unwrap();
    let obs = observe(&env).await;
    let out = env
        .target(
            "browser.type",
            json!({"observationId": obs, "ref": 1, "text": "ada@example.test"}),
        )
        .await
        .unwrap();
    assert_eq!(out["evidence"]["status"], "mismatch", "{out}");
    assert_eq!(
        out["evidence"]["signals"],
        json!(["value_differs"]),
        "{out}"
    );
}
