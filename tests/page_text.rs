//! What `bp read` gives an agent is what a person sees, on real Chromium:
//! text hidden from a person (off screen, transparent, clipped, sub-pixel,
//! faded out, visibility hidden) is left out and counted, invisible
//! characters never pass (an emoji joined with zero-width joiners stays
//! whole), and form fields read as the values they show, never a
//! password's.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use serde_json::Value;
use support::Env;

const HIDDEN: [&str; 6] = [
    "Offscreen sentence",
    "Transparent sentence",
    "Clipped sentence",
    "Clippath sentence",
    "Subpixel sentence",
    "Opacity sentence",
];

fn text(v: &Value) -> String {
    v["text"].as_str().unwrap_or_default().to_string()
}

/// The ref of the first text box whose name starts with `label`.
fn field(obs: &Value, label: &str) -> String {
    obs["elements"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|e| {
            e["role"] == "textbox" && e["name"].as_str().is_some_and(|n| n.starts_with(label))
        })
        .map(|e| e["ref"].to_string())
        .unwrap_or_else(|| panic!("no field {label} in {obs}"))
}

fn reason(v: &Value, name: &str) -> u64 {
    v["hiddenText"]["reasons"][name].as_u64().unwrap_or(0)
}

#[test]
fn read_gives_what_a_person_sees_and_counts_the_rest() {
    let env = Env::new();
    env.launch();
    env.open("hidden-text.html");
    let v = env.json(&["read"]);
    let t = text(&v);
    for visible in [
        "Visible heading",
        "Visible sentence one.",
        "Footer sentence far below.",
        "Smuggled paragraph ends here.",
        "Coder: 👩\u{200d}💻 and family 👨\u{200d}👩\u{200d}👧 done.",
    ] {
        assert!(t.contains(visible), "{visible:?} missing from {t:?}");
    }
    for hidden in HIDDEN.iter().chain(&["Invisible sentence"]) {
        assert!(!t.contains(hidden), "{hidden:?} passed in {t:?}");
    }
    assert!(
        !t.chars()
            .any(|c| matches!(c, '\u{200b}' | '\u{e0000}'..='\u{e007f}')),
        "invisible characters passed: {t:?}"
    );
    // Counted, by reason: the six hidden sentences, the visibility-hidden
    // one, and the 15 tag characters and 2 zero-width spaces.
    assert_eq!(reason(&v, "offscreen"), 1, "{v}");
    assert_eq!(reason(&v, "clipped"), 2, "{v}");
    assert_eq!(reason(&v, "tiny"), 2, "{v}");
    assert_eq!(reason(&v, "transparent"), 1, "{v}");
    assert_eq!(reason(&v, "visibility_hidden"), 1, "{v}");
    assert_eq!(reason(&v, "invisible_chars"), 17, "{v}");
    assert_eq!(v["hiddenText"]["count"], 7 + 17, "{v}");

    // Asked for, the hidden text comes back, still without invisible
    // characters; text mode says what was left out on stderr.
    let all = env.json(&["read", "--include-hidden"]);
    let t = text(&all);
    for hidden in HIDDEN {
        assert!(t.contains(hidden), "{hidden:?} missing from {t:?}");
    }
    assert!(t.contains("Visible sentence one."), "{t:?}");
    assert_eq!(all["hiddenText"], v["hiddenText"], "{all}");
    let run = env.run(&["read"]);
    assert!(run.ok(), "{}", run.stderr());
    assert!(
        run.stderr().contains("hidden text left out: 24")
            && run.stderr().contains("--include-hidden"),
        "{}",
        run.stderr()
    );
    assert!(!run.stdout().contains("Offscreen sentence"));
}

#[test]
fn read_shows_field_values_but_never_passwords() {
    let env = Env::new();
    env.launch();
    env.open("read-fields.html");
    let obs = env.snapshot(None);
    let name = field(&obs, "Name");
    env.ok(&["type", &name, "typed-live-value", "--clear"]);

    let v = env.json(&["read"]);
    let t = text(&v);
    assert!(t.contains("typed-live-value"), "{t:?}");
    assert!(!t.contains("attribute-value"), "{t:?}");
    assert!(t.contains("Generated output line 1\nline 2"), "{t:?}");
    assert!(!t.contains("hunter2-password"), "{t:?}");
    assert!(!t.contains("hidden-token-value"), "{t:?}");
    // A long value is cut, and says so.
    assert!(t.contains("[… 6000 more characters]"), "{t:?}");
    assert!(!t.contains(&"L".repeat(4001)), "a field was not cut");

    // `bp read REF` of a read-only output textarea gives its value.
    let out = field(&obs, "Output");
    let v = env.json(&["read", &out]);
    assert_eq!(text(&v), "Generated output line 1\nline 2", "{v}");
    let secret = field(&obs, "Secret");
    let v = env.json(&["read", &secret]);
    assert_eq!(text(&v), "", "{v}");
}
