//! Observing a large page (2,000 rows, about 20k accessibility nodes) reads
//! only what the limit needs, yet keeps the observation's meaning: document
//! order, open shadow roots, hidden elements left out, truncation with its
//! reason, refs that act on the right node and go stale on navigation.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{find_ref, Env};

#[test]
fn large_page_observation_is_bounded_ordered_and_actionable() {
    let env = Env::new();
    env.launch();
    env.open("large.html");

    // The default limit: the first 50 in document order, cut with a reason.
    let obs = env.snapshot(None);
    let elements = obs["elements"].as_array().unwrap();
    assert_eq!(elements.len(), 50, "{obs}");
    assert_eq!(obs["truncated"], true, "{obs}");
    assert_eq!(
        obs["truncationReasons"],
        serde_json::json!(["element_limit"]),
        "{obs}"
    );
    let first: Vec<(String, String)> = elements[..6]
        .iter()
        .map(|e| {
            (
                e["role"].as_str().unwrap().to_string(),
                e["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expect = [
        ("searchbox", "Search orders"),
        ("button", "Shadow action"),
        ("checkbox", "Select 0"),
        ("link", "Details 0"),
        ("textbox", "Note 0"),
        ("button", "Ship 0"),
    ];
    for (got, want) in first.iter().zip(expect) {
        assert_eq!((got.0.as_str(), got.1.as_str()), want, "{obs}");
    }
    assert!(!obs.to_string().contains("Hidden button"), "{obs}");

    // Everything: 2 + 4 per row, nothing cut.
    let all = env.snapshot(Some(10_000));
    let count = all["elements"].as_array().unwrap().len();
    assert_eq!(count, 2 + 4 * 2000, "elements");
    assert_eq!(all["truncated"], false);
    assert_eq!(all["elements"][count - 1]["name"], "Ship 1999");

    // A ref deep in the page acts on its own row, and one in the shadow root
    // on the shadow button.
    let ship = find_ref(&all, "button", "Ship 1777");
    let clicked = env.json(&["click", &ship]);
    assert_eq!(clicked["evidence"]["status"], "verified", "{clicked}");
    assert!(env.ok(&["read"]).contains("Shipped 1777"));
    let obs = env.snapshot(None);
    let shadow = find_ref(&obs, "button", "Shadow action");
    env.ok(&["click", &shadow]);
    assert!(env.ok(&["read"]).contains("Shadow clicked"));

    // After navigation the old refs are stale, with the reason.
    let obs_id = obs["observationId"].as_str().unwrap().to_string();
    env.ok(&["open", &env.url("form.html")]);
    let input = format!("{{\"observationId\": \"{obs_id}\", \"ref\": {shadow}}}");
    let (code, run) = env.err(&["tool", "call", "browser.click", "--input", &input, "--json"]);
    assert_eq!(code, "stale_ref");
    assert!(
        run.stderr().contains("reason: navigation"),
        "{}",
        run.stderr()
    );
}

/// Observed elements whose node an earlier observation had identified.
fn identified(env: &Env) -> u64 {
    env.status()["browser"]["elementsDescribed"]["alreadyIdentified"]
        .as_u64()
        .expect("alreadyIdentified")
}

/// Observed elements whose node ID came in the page walk's own answer
/// (no `DOM.describeNode` each).
fn id_with_walk(env: &Env) -> u64 {
    env.status()["browser"]["elementsDescribed"]["idWithWalk"]
        .as_u64()
        .expect("idWithWalk")
}

/// Page walks sent as source (making the walk agent) and calls of an
/// agent, since the browser connected.
fn walks(env: &Env) -> (u64, u64) {
    let status = env.status();
    let w = &status["browser"]["pageWalks"];
    (
        w["bySource"].as_u64().expect("bySource"),
        w["byAgent"].as_u64().expect("byAgent"),
    )
}

#[test]
fn observing_again_matches_known_elements_and_sees_what_changed() {
    let env = Env::new();
    env.launch();
    env.open("large.html");
    let (source, agent) = walks(&env);
    let globals = "Object.getOwnPropertyNames(window).join()";
    let before = env.ok(&["eval", globals]);
    let with_walk = id_with_walk(&env);
    let first = env.snapshot(None);
    // The first walk of a document is sent as source and makes the agent.
    assert_eq!(walks(&env), (source + 1, agent), "{}", env.status());
    // Its answer carried the node IDs of the plain rows' controls.
    assert!(id_with_walk(&env) - with_walk >= 40, "{}", env.status());
    let start = identified(&env);
    let again = env.snapshot(None);
    assert_eq!(described_elements(&again), described_elements(&first));
    assert_eq!(again["truncated"], true, "{again}");
    assert!(identified(&env) - start >= 50, "{}", env.status());
    // Observing again calls the agent; the page has no name for it.
    assert_eq!(walks(&env), (source + 1, agent + 1), "{}", env.status());
    assert_eq!(env.ok(&["eval", globals]), before);

    // A control added at the top and one removed: the next observation
    // shows both changes, and the new control's ref acts on it.
    env.ok(&[
        "eval",
        "document.body.prepend(Object.assign(document.createElement('button'), \
         {textContent: 'Fresh top', onclick() { this.textContent = 'Fresh clicked'; }})); \
         document.querySelector('input[type=search]').remove(); 1",
    ]);
    let changed = env.snapshot(None);
    let names: Vec<&str> = changed["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names[..3],
        ["Fresh top", "Shadow action", "Select 0"],
        "{changed}"
    );
    assert!(!names.contains(&"Search orders"), "{changed}");
    assert_eq!(names.len(), 50, "{changed}");
    let fresh = find_ref(&changed, "button", "Fresh top");
    env.ok(&["click", &fresh]);
    // A known row's ref from the same observation acts on its own row.
    let ship = find_ref(&changed, "button", "Ship 3");
    env.ok(&["click", &ship]);
    assert!(env.ok(&["read"]).contains("Shipped 3"));
    let last = env.snapshot(None);
    assert_eq!(last["elements"][0]["name"], "Fresh clicked", "{last}");
    // Each of those walks answered with a new list, which carried the
    // agent into its own object group: none was made again.
    assert_eq!(walks(&env), (source + 1, agent + 3), "{}", env.status());

    // Another document: nothing carries over, the agent included.
    env.open("large.html");
    let before = identified(&env);
    let with_walk = id_with_walk(&env);
    let reloaded = env.snapshot(None);
    assert_eq!(identified(&env), before);
    assert!(id_with_walk(&env) - with_walk >= 40, "{}", env.status());
    assert_eq!(described_elements(&reloaded), described_elements(&first));
    assert_eq!(walks(&env), (source + 2, agent + 3), "{}", env.status());
}

/// Elements described by the page, and by Chromium's accessibility tree,
/// since the browser connected.
fn described(env: &Env) -> (u64, u64) {
    let status = env.status();
    let d = &status["browser"]["elementsDescribed"];
    (
        d["byPage"].as_u64().expect("byPage"),
        d["byAccessibility"].as_u64().expect("byAccessibility"),
    )
}

/// What an observation says of each element, refs left out (they differ
/// between two observations). The options of a closed `<select>` are left
/// out too: the full tree lists them, the page walk (rightly) does not, as
/// they cannot be clicked until the list opens.
fn described_elements(obs: &serde_json::Value) -> Vec<serde_json::Value> {
    obs["elements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["role"] != "option")
        .map(|e| {
            let mut e = e.clone();
            e.as_object_mut().unwrap().remove("ref");
            e
        })
        .collect()
}

#[test]
fn elements_the_page_describes_read_as_the_full_accessibility_tree_reads_them() {
    let env = Env::new();
    env.launch();
    env.open("names.html");
    let start = described(&env);
    let fast = env.snapshot(Some(500));
    // Observed again, the elements already identified are matched in the
    // page (no node reads), and the observation says the same.
    let again = env.snapshot(Some(500));
    assert_eq!(described_elements(&again), described_elements(&fast));
    assert!(identified(&env) >= 40, "{}", env.status());
    let mid = described(&env);
    // Both routes were taken: plain markup by the page, the rest (roles,
    // images, generated or transformed text, aria-* states, the focused
    // field, ...) by Chromium.
    assert!(mid.0 - start.0 >= 25, "by page: {start:?} -> {mid:?}");
    assert!(
        mid.1 - start.1 >= 15,
        "by accessibility: {start:?} -> {mid:?}"
    );

    // The same markup with a child frame is read through the full tree.
    env.open("names.html?framed=1");
    let full = env.snapshot(Some(500));
    assert_eq!(described(&env), mid, "the framed page took the full tree");

    let (fast, full) = (described_elements(&fast), described_elements(&full));
    assert!(fast.len() >= 40, "{fast:?}");
    for (i, (a, b)) in fast.iter().zip(&full).enumerate() {
        assert_eq!(a, b, "element {i}: page-described vs full tree");
    }
    assert_eq!(fast.len(), full.len());
    // Spot checks that the comparison covers what matters.
    let find = |name: &str| fast.iter().find(|e| e["name"] == name).cloned();
    assert_eq!(find("Check mixed").unwrap()["checked"], "mixed", "{fast:?}");
    assert!(find("Hidden from accessibility").is_none(), "{fast:?}");
    assert!(find("Password").unwrap().get("value").is_none(), "{fast:?}");
    assert!(find("Slotted link").is_some() && find("Shadow label").is_some());
}

#[test]
fn a_known_element_that_stops_counting_leaves_the_next_observation_whole() {
    let env = Env::new();
    env.launch();
    env.open("large.html");
    let names = |obs: &serde_json::Value| -> Vec<String> {
        obs["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap().to_string())
            .collect()
    };
    let first = env.snapshot(Some(3));
    assert_eq!(
        names(&first),
        ["Search orders", "Shadow action", "Select 0"]
    );
    // The search field counted last time; now Chromium ignores it.
    env.ok(&[
        "eval",
        "document.querySelector('input[type=search]').setAttribute('aria-hidden', 'true'); 1",
    ]);
    let second = env.snapshot(Some(3));
    assert_eq!(names(&second), ["Shadow action", "Select 0", "Details 0"]);
    assert_eq!(second["truncated"], true, "{second}");
    // Its refs are read through objects the broker still holds.
    let resolved = |env: &Env| env.status()["browser"]["refsResolved"].clone();
    let before = resolved(&env);
    let select = find_ref(&second, "checkbox", "Select 0");
    env.ok(&["click", &select]);
    let after = resolved(&env);
    assert_eq!(
        after["byHeldObject"],
        before["byHeldObject"].as_u64().unwrap() + 1
    );
    assert_eq!(after["byBackendNode"], before["byBackendNode"]);
    let third = env.snapshot(Some(3));
    assert_eq!(names(&third), names(&second));
    assert_eq!(third["elements"][1]["checked"], "true", "{third}");
}

#[test]
fn a_page_setter_never_sees_or_replaces_the_walk_agent() {
    let env = Env::new();
    env.launch();
    env.open("form.html");
    // A page that watches every array for an `agent` property.
    env.ok(&[
        "eval",
        "Object.defineProperty(Array.prototype, 'agent', {configurable: true, \
         get() { return undefined; }, set(v) { window.caught = v; }}); 1",
    ]);
    let first = env.snapshot(None);
    let again = env.snapshot(None);
    assert_eq!(described_elements(&again), described_elements(&first));
    let (source, agent) = walks(&env);
    assert_eq!((source, agent), (1, 1), "{}", env.status());
    assert_eq!(
        env.ok(&["eval", "typeof window.caught"]).trim(),
        "\"undefined\""
    );
    let name = find_ref(&again, "textbox", "Name");
    env.ok(&["type", &name, "Ada"]);
}
