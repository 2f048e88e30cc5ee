//! Typing through the real input component against the scripted page:
//! the read-back, password fields, fields that cannot take focus or text,
//! and refs that went stale before any input.

use super::*;

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
