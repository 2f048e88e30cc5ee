//! Clicking through the real input component against the scripted page:
//! instances made ahead, verified page changes, evidence, covered targets.

use super::*;

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
