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
    // The loop and alloc fixtures are stopped by this policy's limits, not
    // the defaults: the broker must be running with them.
    let limits = env.status()["runtime"]["limits"].clone();
    assert_eq!(limits["callTimeoutMs"], 2000, "{limits}");
    assert_eq!(limits["memoryMb"], 32, "{limits}");

    let (code, run) = env.err(&["tool", "call", "fixture.loop", "--json"]);
    assert_eq!(code, "internal_error", "{}", run.stderr());
    let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap_or_default();
    assert_eq!(
        err["error"]["context"]["reason"],
        "deadline",
        "{}",
        run.stdout()
    );

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

/// Components that hand the host what no well-behaved one would (results
/// too large to parse, results that are not JSON, JSON nested past any
/// parser's depth, a guest stack overflow) fail their own call with a
/// stable code and a reason; the broker keeps serving.
#[test]
fn hostile_component_results_are_contained_per_call() {
    let mut env = Env::new();
    let dir = components_dir();
    env.serve(&["--components", dir.to_str().unwrap_or_default()]);
    env.launch();
    env.open("form.html");
    let pid = env.status()["pid"].clone();
    for (tool, code, reason) in [
        ("fixture.huge_string", "result_too_large", None),
        ("fixture.huge_list", "result_too_large", None),
        (
            "fixture.not_json",
            "internal_error",
            Some("malformed_result"),
        ),
        ("fixture.deep", "internal_error", Some("malformed_result")),
        ("fixture.recurse", "internal_error", Some("trap")),
    ] {
        let (got, run) = env.err(&["tool", "call", tool, "--json"]);
        assert_eq!(got, code, "{tool}: {}", run.stdout());
        let err: serde_json::Value = serde_json::from_str(run.stdout().trim()).unwrap();
        if let Some(reason) = reason {
            assert_eq!(err["error"]["context"]["reason"], reason, "{tool}: {err}");
        }
        // The same broker answers the next call, and real work goes on.
        assert_eq!(env.status()["pid"], pid, "{tool} took the broker down");
    }
    // Nothing a component keeps survives its call: each call runs in an
    // instance never used before, also when it was made ahead of the call
    // (the hostile calls above left this component one).
    let taken = |env: &Env| env.status()["runtime"]["instancesMadeAhead"]["taken"].as_u64();
    let before = taken(&env).expect("broker/status counts spares taken");
    for _ in 0..4 {
        let out = env.json(&["tool", "call", "fixture.calls"]);
        assert_eq!(out, 1, "{out}");
    }
    let after = taken(&env).unwrap_or_default();
    assert!(
        after > before,
        "no call took an instance made ahead ({before} -> {after})"
    );
    let obs = env.snapshot(None);
    assert!(obs["elements"].as_array().is_some_and(|e| !e.is_empty()));
}
