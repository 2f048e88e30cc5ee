//! Ownership refusals, IPv6 loopback, relative profile paths and one
//! check against the real system.

use super::*;

#[test]
fn ownership_refusals() {
    let f = Fake::new();
    let p = f.profile("own", Some(&format!("9333\n{WS}\n")));
    let udd = format!("--user-data-dir={}", p.display());
    f.proc(
        900,
        UID,
        1,
        CHROMIUM,
        &[&udd, "--remote-debugging-port=9333"],
    );
    f.socket(900, 3, 9001);
    f.proc(901, UID, 1, "/usr/bin/python3", &["fake_devtools.py"]);
    f.socket(901, 4, 9002);
    let other = f.profile("other", None);
    f.proc(
        902,
        UID,
        1,
        CHROME,
        &[
            &format!("--user-data-dir={}", other.display()),
            "--remote-debugging-port=9444",
        ],
    );
    f.socket(902, 3, 9003);
    f.tcp(&format!(
        "{}{}{}{}",
        v4_row(9333, UID, 9001),
        v4_row(9334, UID, 9002),
        v4_row(9444, UID, 9003),
        v4_row(9555, 0, 9004)
    ));
    f.tcp6(&v6_row(9666, UID, 9005));

    let e = prove_endpoint(&f.env, 9334, None).unwrap_err();
    assert_eq!(reason(&e), "endpoint_not_browser");
    assert_eq!(e.context.as_ref().unwrap()["port"], 9334);
    assert_eq!(e.message, "port 9334 is held by python3 (pid 901), not a Chromium-family browser; refusing to connect");

    let e = prove_endpoint(&f.env, 9999, None).unwrap_err();
    assert_eq!(reason(&e), "endpoint_not_listening");
    assert_eq!(
        reason(&prove_endpoint(&f.env, 9555, None).unwrap_err()),
        "endpoint_other_user"
    );
    assert_eq!(
        reason(&prove_endpoint(&f.env, 9666, None).unwrap_err()),
        "endpoint_owner_unknown"
    );

    // A different browser on the port the candidate advertised.
    let ours = discover_in(&f.env)
        .into_iter()
        .find(|c| c.pid == Some(900))
        .unwrap();
    let e = prove_endpoint(&f.env, 9444, Some(&ours)).unwrap_err();
    assert_eq!(reason(&e), "endpoint_profile_mismatch");
    let mut same_pid = ours.clone();
    same_pid.pid = None;
    same_pid.user_data_dir = other.join("..").join("own");
    assert_eq!(
        prove_endpoint(&f.env, 9333, Some(&same_pid)).unwrap().pid,
        900
    );
    same_pid.user_data_dir = other.clone();
    let e = prove_endpoint(&f.env, 9333, Some(&same_pid)).unwrap_err();
    assert_eq!(reason(&e), "endpoint_profile_mismatch");
    assert!(e.message.contains("refusing to connect"), "{}", e.message);
}

#[test]
fn ipv6_loopback_listener() {
    let f = Fake::new();
    let p = f.profile("v6", Some(&format!("9777\n{WS}\n")));
    f.proc(
        1000,
        UID,
        1,
        "/opt/brave.com/brave/brave",
        &[&format!("--user-data-dir={}", p.display())],
    );
    f.socket(1000, 11, 4242);
    f.tcp6(&v6_row(9777, UID, 4242));
    let c = one(&f);
    assert_eq!(c.product, "brave");
    assert!(c.viable());
    assert_eq!(c.authorization, Authorization::MayPrompt);
    let o = prove_endpoint(&f.env, 9777, Some(&c)).unwrap();
    assert_eq!(o.listen_addr.to_string(), "::1");
    assert_eq!(o.user_data_dir.as_deref(), Some(p.as_path()));
}

#[test]
fn real_system() {
    let t = std::time::Instant::now();
    let all = discover();
    let took = t.elapsed();
    for c in &all {
        assert!(c.id.starts_with(&format!("{}-{}-", c.product, c.channel)));
        assert_eq!(c.running, c.pid.is_some());
        assert!(
            c.viable() || c.remediation.is_some() || c.broker_owned,
            "{c:?}"
        );
    }
    eprintln!("discover(): {} candidates in {took:?}", all.len());
    for c in &all {
        eprintln!("  {}", c.to_json());
        // A browser found with debugging on proves its own endpoint (unless
        // it exited in between).
        if let (true, Some(port)) = (c.running && !c.broker_owned, c.endpoint_port()) {
            match prove_endpoint(&Env::system(), port, Some(c)) {
                Ok(o) => assert_eq!(o.pid, c.pid.unwrap()),
                Err(e) => assert!(
                    ["endpoint_not_listening", "endpoint_owner_unknown"]
                        .contains(&reason(&e).as_str()),
                    "{e}"
                ),
            }
        }
    }

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let e = prove_endpoint(&Env::system(), port, None).unwrap_err();
    assert_eq!(reason(&e), "endpoint_not_browser", "{e}");
    assert!(
        e.message.contains(&format!("(pid {})", std::process::id())),
        "{}",
        e.message
    );
    drop(listener);
    let e = prove_endpoint(&Env::system(), port, None).unwrap_err();
    assert_eq!(reason(&e), "endpoint_not_listening", "{e}");
}

#[test]
fn relative_user_data_dir_resolves_against_cwd() {
    let f = Fake::new();
    let p = f.profile("rel", Some(&format!("9888\n{WS}\n")));
    f.proc(
        1100,
        UID,
        1,
        CHROME,
        &["--user-data-dir=./rel", "--remote-debugging-port=9888"],
    );
    f.socket(1100, 3, 1101);
    f.tcp(&v4_row(9888, UID, 1101));
    let c = one(&f);
    assert!(same_dir(&c.user_data_dir, &p), "{:?}", c.user_data_dir);
    assert_eq!(
        c.ws_url("127.0.0.1").unwrap(),
        format!("ws://127.0.0.1:9888{WS}")
    );
    let o = prove_endpoint(&f.env, 9888, Some(&c)).unwrap();
    assert!(same_dir(o.user_data_dir.as_deref().unwrap(), &p));
}
