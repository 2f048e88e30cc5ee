//! The CLI as a tool a user installs: `cargo install` into a temporary
//! root gives a working `bp`, the executable describes itself (version
//! JSON, completions, man page, the agents guide), `bp` runs the browser
//! commands itself and hands the rest to `browser-pilot`, and long waits
//! show progress on a terminal only.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic

mod support;

use serde_json::Value;
use std::process::{Command, Output};
use std::time::Duration;
use support::output_bounded as bounded;

/// Longest `cargo install` of the already built tree may take.
const INSTALL_LIMIT: Duration = Duration::from_secs(1200);

/// `bp ARGS` (no home of its own: commands that need no broker), bounded.
fn bp_run(bp: &std::path::Path, args: &[&str]) -> Output {
    let mut command = Command::new(bp);
    command.args(args);
    bounded(command, &format!("bp {args:?}"), support::RUN_LIMIT)
}

#[test]
fn cargo_install_gives_a_working_bp() {
    let root = std::env::temp_dir().join(format!("bp-install-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let repo = support::root();
    // The same target dir and profile as the test build, so the install
    // reuses what is built instead of building wasmtime again.
    let mut install = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    install
        .args(["install", "--debug", "--locked", "--offline", "--path"])
        .arg(repo.join("cli"))
        .arg("--root")
        .arg(&root)
        .arg("--target-dir")
        .arg(repo.join("target"))
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    let installed = bounded(install, "cargo install", INSTALL_LIMIT);
    assert!(
        installed.status.success(),
        "cargo install failed: {}",
        String::from_utf8_lossy(&installed.stderr)
    );
    let bp = root.join("bin/bp");
    let out = bp_run(&bp, &["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("browser-pilot 0."), "{text}");
    let out = bp_run(&bp, &["--version", "--json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["wit"], "browser-pilot:tools@0.1.0", "{v}");
    assert_eq!(v["protocol"]["max"], "1.1", "{v}");
    let comps = v["components"].as_array().unwrap();
    assert!(comps.iter().any(|c| c["name"] == "observe"), "{v}");
    assert!(
        comps
            .iter()
            .all(|c| c["sha256"].as_str().unwrap().len() == 64),
        "{v}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn completions_man_page_and_agents_guide_come_from_the_executable() {
    let bp = support::bp_exe();
    for shell in ["bash", "zsh", "fish"] {
        let out = bp_run(&bp, &["completions", shell]);
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("snapshot") && text.contains("connect"),
            "{shell}: {text}"
        );
    }
    let out = bp_run(&bp, &["completions", "tcsh"]);
    assert!(!out.status.success(), "an unknown shell must be refused");
    let man = bp_run(&bp, &["man"]);
    assert!(
        String::from_utf8_lossy(&man.stdout).contains(".TH"),
        "not roff"
    );
    let env = support::Env::new();
    let text = env.ok(&["help", "agents"]);
    assert!(
        text.contains("stale_ref") && text.contains("## Dialogs"),
        "{text}"
    );
    assert!(text.contains("## Page tools"), "{text}");
    assert!(
        !text.contains("<!--"),
        "markers must not be printed: {text}"
    );
    let (code, _) = env.err(&["help", "no-such-topic"]);
    assert_eq!(code, "invalid_argument");
}

#[test]
fn the_agents_guide_leaves_out_the_tools_the_policy_removes() {
    let mut env = support::Env::new();
    env.serve(&["--deny", "dialogs", "--deny", "page-tools"]);
    let text = env.ok(&["help", "agents"]);
    assert!(
        !text.contains("## Page tools") && !text.contains("bp page-tool "),
        "denied page tools still described: {text}"
    );
    assert!(
        !text.contains("## Dialogs"),
        "denied dialogs still described: {text}"
    );
    assert!(!text.contains("bp dialog accept"), "{text}");
    assert!(
        text.contains("## The loop") && text.contains("## Tabs and frames"),
        "{text}"
    );
}

#[test]
fn long_waits_show_progress_on_a_terminal_only() {
    let env = support::Env::new();
    env.launch();
    let url = env.url("slow?ms=2500");
    // A pseudo-terminal, as a person at a shell has.
    let cmd = format!("{} open '{url}'", support::bp_exe().display());
    let mut script = Command::new("script");
    script
        .args(["-qec", &cmd, "/dev/null"])
        .env("BROWSER_PILOT_HOME", &env.home);
    let out = bounded(script, "bp open under script", support::RUN_LIMIT);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("waiting for the page..."),
        "no progress line: {text:?}"
    );
    assert!(text.contains("Slow page"), "{text:?}");
    // Pipes and --json stay clean.
    let r = env.run(&["open", &url]);
    assert!(r.ok(), "{}", r.stderr());
    assert!(!r.stderr().contains("waiting"), "{}", r.stderr());
    assert!(!r.stdout().contains("waiting"), "{}", r.stdout());
}

/// `bp` runs the one-shot browser commands itself, and hands everything
/// else to the `browser-pilot` beside it: a copy of `bp` alone still
/// observes through a running broker, gives what `browser-pilot` gives, and
/// fails with a clear error for a command only `browser-pilot` runs.
/// Arguments that do not parse fail exactly as `browser-pilot` fails them.
#[test]
fn bp_runs_browser_commands_itself_and_hands_the_rest_on() {
    let env = support::Env::new();
    env.launch();
    env.open("form.html");
    let lonely = env.home.join("lonely");
    std::fs::create_dir_all(&lonely).unwrap();
    std::fs::copy(support::bp_exe(), lonely.join("bp")).unwrap();
    let full = support::bp_exe().with_file_name("browser-pilot");
    // The copy was written by this process: a child forked by another test
    // thread between the copy's open and close holds its write descriptor
    // until that child execs, and exec of the copy meanwhile fails with
    // ETXTBSY. That is a property of fork, not of `bp`; wait it out.
    let run = |exe: &std::path::Path, args: &[&str]| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let mut command = Command::new(exe);
            command.args(args).env("BROWSER_PILOT_HOME", &env.home);
            match support::io_output_within(command, None, support::RUN_LIMIT) {
                Err(e)
                    if e.kind() == std::io::ErrorKind::ExecutableFileBusy
                        && std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                other => break other.unwrap(),
            }
        }
    };
    let elements = |out: &std::process::Output| {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["elements"].clone()
    };
    let alone = elements(&run(&lonely.join("bp"), &["snapshot", "--json"]));
    assert!(
        alone
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e["name"] == "Sign in")),
        "{alone}"
    );
    assert_eq!(alone, elements(&run(&full, &["snapshot", "--json"])));

    // Only `browser-pilot` runs the broker's own commands; without it,
    // the error says which executable is missing (as JSON with --json).
    // A failed run whose error names the missing `browser-pilot`.
    let missing = |out: &std::process::Output, what: &str| {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success());
        assert!(
            err.contains(what)
                && err.contains("lonely/browser-pilot")
                && err.contains("(reason: executable_missing)"),
            "{err}"
        );
    };
    missing(
        &run(&lonely.join("bp"), &["broker", "status"]),
        "error[internal_error]: cannot run",
    );
    let out = run(&lonely.join("bp"), &["broker", "status", "--json"]);
    assert!(!out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "internal_error", "{v}");
    assert_eq!(v["error"]["context"]["reason"], "executable_missing", "{v}");
    // Beside it, the same command works through it.
    assert!(env.run(&["broker", "status"]).ok());
    // Nor can it start a broker: it says which executable is missing.
    let mut command = Command::new(lonely.join("bp"));
    command
        .arg("snapshot")
        .env("BROWSER_PILOT_HOME", env.home.join("no-broker"));
    let out = bounded(command, "the lonely bp snapshot", support::RUN_LIMIT);
    missing(&out, "cannot start the broker");

    for args in [
        &["snapshot", "--limit", "many"][..],
        &["no-such-command"],
        &[],
    ] {
        let (short, long) = (run(&support::bp_exe(), args), run(&full, args));
        assert_eq!(short.status.code(), long.status.code(), "{args:?}");
        assert_eq!(short.stderr, long.stderr, "{args:?}");
        assert_eq!(short.stdout, long.stdout, "{args:?}");
        assert!(!short.status.success(), "{args:?}");
    }
}

/// Cargo runs only the test files `cli/Cargo.toml` lists: a new file in
/// `tests/` that is not listed would silently never run.
#[test]
fn every_test_file_is_registered() {
    let root = support::root();
    let manifest = std::fs::read_to_string(root.join("cli/Cargo.toml")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests")).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.ends_with(".rs") && !manifest.contains(&format!("path = \"../tests/{name}\"")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not in cli/Cargo.toml [[test]]: {missing:?}"
    );
}

/// The evidence commands as a user types them: `bp fuzz` runs and reports
/// what it checked; `bp soak` without fixture pages is refused with a
/// stable code before it starts anything.
#[test]
fn fuzz_reports_its_run_and_soak_refuses_a_missing_fixture_dir() {
    let env = support::Env::new();
    let report = env.json(&["fuzz", "--inputs", "300", "--seed", "7"]);
    assert_eq!(report["inputs"], 300, "{report}");
    assert!(
        report["replies"].as_u64().is_some_and(|n| n > 300),
        "{report}"
    );
    assert_eq!(report["failures"], serde_json::json!([]), "{report}");
    let (code, run) = env.err(&["soak", "--fixtures", "/nonexistent-fixtures"]);
    assert_eq!(code, "invalid_argument", "{}", run.stderr());
    assert!(run.stderr().contains("form.html"), "{}", run.stderr());
}

#[test]
fn the_agents_guide_leaves_out_single_commands_whose_tools_are_removed() {
    let mut env = support::Env::new();
    env.serve(&[
        "--deny-tool",
        "browser.tabs.close",
        "--deny-tool",
        "browser.pdf",
    ]);
    let text = env.ok(&["help", "agents"]);
    assert!(
        !text.contains("bp close"),
        "bp close still described: {text}"
    );
    assert!(!text.contains("bp pdf"), "bp pdf still described: {text}");
    assert!(!text.contains("<!--"), "a marker was left: {text}");
    // The rest of those sections stays.
    for kept in [
        "bp tab t1-20dadb",
        "bp frame ID",
        "bp screenshot",
        "bp upload REF FILE...",
    ] {
        assert!(text.contains(kept), "{kept} missing: {text}");
    }
}

#[test]
fn bp_mcp_print_config_passes_every_flag_on() {
    let env = support::Env::new();
    let flags = [
        "--launch",
        "--headless",
        "--deny",
        "navigation",
        "--deny-tool",
        "browser.tabs.close",
        "--allow-eval",
        "--client-name",
        "my agent",
        "--lease-ttl-ms",
        "30000",
        "--upload-root",
        "/tmp",
        "--full-size-images",
    ];
    let with = |host: &str| {
        let mut args = vec!["mcp", "--print-config", host];
        args.extend(flags);
        env.ok(&args)
    };
    let expected: Vec<&str> = std::iter::once("mcp").chain(flags).collect();
    // Claude Code: one shell line, the name with a space quoted.
    let line = with("claude");
    let (head, tail) = line
        .trim_end()
        .split_once(" -- ")
        .unwrap_or_else(|| panic!("{line}"));
    assert_eq!(head, "claude mcp add browser-pilot");
    let (exe, rest) = tail.split_once(' ').unwrap();
    assert!(
        std::path::Path::new(exe).is_absolute() && std::path::Path::new(exe).exists(),
        "{exe}"
    );
    assert_eq!(
        rest,
        "mcp --launch --headless --deny navigation --deny-tool browser.tabs.close \
         --allow-eval --client-name 'my agent' --lease-ttl-ms 30000 --upload-root /tmp --full-size-images"
    );
    // Cursor and VS Code: JSON with the same command and arguments.
    for (host, key) in [("cursor", "mcpServers"), ("vscode", "servers")] {
        let v: Value = serde_json::from_str(&with(host)).unwrap();
        let server = &v[key]["browser-pilot"];
        assert_eq!(server["command"], exe, "{host}: {v}");
        assert_eq!(server["args"], serde_json::json!(expected), "{host}: {v}");
    }
    // Codex: a TOML table whose arrays are JSON strings.
    let codex = with("codex");
    assert!(
        codex.starts_with("[mcp_servers.browser-pilot]\n"),
        "{codex}"
    );
    assert!(codex.contains(&format!("command = {}", serde_json::json!(exe))));
    assert!(
        codex.contains(&format!("args = {}", serde_json::json!(expected)).replace(",", ", ")),
        "{codex}"
    );
    // With no flags: just `mcp`.
    let bare = env.ok(&["mcp", "--print-config", "claude"]);
    assert!(bare.trim_end().ends_with(" mcp"), "{bare}");
}

/// `bp fuzz` and `bp fuzz --mcp` name their seed first (on stderr, so
/// `--json` stays clean), so a failure found with a random seed can be
/// replayed.
#[test]
fn fuzz_runs_print_their_seed_first() {
    let bp = support::bp_exe();
    for (args, want) in [
        (
            &["fuzz", "--inputs", "20", "--seed", "777"][..],
            "fuzz: seed 777 (replay: bp fuzz --seed 777)",
        ),
        (
            &["fuzz", "--mcp", "--inputs", "5", "--seed", "778", "--json"],
            "fuzz --mcp: seed 778 (replay: bp fuzz --mcp --seed 778)",
        ),
    ] {
        let out = bp_run(&bp, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert_eq!(err.lines().next(), Some(want), "{args:?}: {err}");
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("seed"),
            "{args:?}"
        );
    }
}
