//! Misbehaving components fail their own call; the broker keeps serving.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;
use support::{components_dir, root, Env};

#[test]
fn looping_and_allocating_components_fail_alone() {
    let mut env = Env::new();
    let policy = root().join("fixtures/policies/tight-limits.toml");
    let dir = components_dir();
    env.serve(&[
        "--policy",
        policy.to_str().unwrap_or_default(),
        "--components",
        dir.to_str().unwrap_or_default(),
    ]);
    env.launch();
    env.open("form.html");

    let started = std::time::Instant::now();
    let (code, run) = env.err(&["tool", "call", "fixture.loop", "--json"]);
    assert_eq!(code, "internal_error", "{}", run.stderr());
    let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(
        err["error"]["context"]["reason"],
        "deadline",
        "{}",
        run.stdout()
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(15));

    let (code, run) = env.err(&["tool", "call", "fixture.alloc", "--json"]);
    assert_eq!(code, "internal_error", "{}", run.stderr());
    let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(
        err["error"]["context"]["reason"],
        "memory",
        "{}",
        run.stdout()
    );

    // Same broker, still serving real work.
    let status = env.status();
    let obs = env.snapshot(None);
    assert!(obs["elements"].as_array().is_some_and(|e| !e.is_empty()));
    assert_eq!(env.status()["pid"], status["pid"]);
}
