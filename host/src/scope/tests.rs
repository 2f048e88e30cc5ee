use super::{OriginPattern, Scope, Verdict};

fn scope(list: &[&str]) -> Scope {
    Scope::parse_list(list).unwrap().unwrap()
}

#[test]
fn patterns_parse_or_are_refused() {
    let cases: &[(&str, Option<&str>)] = &[
        ("http://127.0.0.1:8123", Some("http://127.0.0.1:8123")),
        ("http://127.0.0.1:8123/", Some("http://127.0.0.1:8123")),
        ("HTTPS://Example.COM", Some("https://example.com")),
        ("https://example.com:443", Some("https://example.com")),
        ("https://*.example.com", Some("https://*.example.com")),
        (
            "http://*.example.com:8080",
            Some("http://*.example.com:8080"),
        ),
        ("http://[::1]:9000", Some("http://[::1]:9000")),
        (
            "https://bücher.example",
            Some("https://xn--bcher-kva.example"),
        ),
        ("example.com", None),
        ("ftp://example.com", None),
        ("file:///tmp", None),
        ("https://example.com/path", None),
        ("https://example.com?q=1", None),
        ("https://user@example.com", None),
        ("https://*", None),
        ("https://*.", None),
        ("https://a.*.example.com", None),
        ("https://*example.com", None),
        ("https://*.127.0.0.1", None),
        ("http://127.0.0.1:99999", None),
        ("http://", None),
        ("", None),
    ];
    for (text, want) in cases {
        let got = OriginPattern::parse(text).map(|p| p.to_string());
        match (want, got) {
            (Some(w), Ok(g)) => assert_eq!(&g, w, "{text}"),
            (None, Err(e)) => assert_eq!(e.code.as_str(), "invalid_argument", "{text}"),
            (w, g) => panic!("{text}: wanted {w:?}, got {g:?}"),
        }
    }
}

#[test]
fn urls_are_judged_by_origin() {
    let s = scope(&["http://127.0.0.1:8123", "https://*.example.com"]);
    let allowed = [
        "http://127.0.0.1:8123/",
        "http://127.0.0.1:8123/a/b?c#d",
        "https://a.example.com/x",
        "https://a.b.example.com:443/",
        "https://A.Example.com/",
        "about:blank",
        "about:srcdoc",
        "data:text/html,hi",
        "blob:http://127.0.0.1:8123/5f0c-uuid",
    ];
    for url in allowed {
        assert_eq!(s.judge(url), Verdict::Allowed, "{url}");
    }
    let refused = [
        ("http://127.0.0.1:8124/", "http://127.0.0.1:8124"),
        ("https://127.0.0.1:8123/", "https://127.0.0.1:8123"),
        ("http://localhost:8123/", "http://localhost:8123"),
        ("https://example.com/", "https://example.com"),
        ("https://badexample.com/", "https://badexample.com"),
        ("http://a.example.com/", "http://a.example.com"),
        ("https://a.example.com:8443/", "https://a.example.com:8443"),
        (
            "https://example.com.evil.test/",
            "https://example.com.evil.test",
        ),
        ("http://127.0.0.1:8123@evil.test/", "http://evil.test"),
        ("blob:http://127.0.0.1:9/x", "http://127.0.0.1:9"),
        ("file:///etc/passwd", "file:"),
        ("ftp://127.0.0.1:8123/", "ftp:"),
        ("chrome://settings", "chrome:"),
        ("about:version", "about:"),
        ("javascript:alert(1)", "javascript:"),
    ];
    for (url, origin) in refused {
        assert_eq!(s.judge(url), Verdict::Refused(origin.into()), "{url}");
    }
}

#[test]
fn redirect_hops_are_judged_each_on_its_own() {
    // Every hop of a redirect chain is a request of its own; the first
    // hop out of scope is refused, whatever came before.
    let s = scope(&["http://127.0.0.1:8123"]);
    let chain = [
        "http://127.0.0.1:8123/start",
        "http://127.0.0.1:8123/hop",
        "http://127.0.0.1:9000/out",
    ];
    let verdicts: Vec<bool> = chain
        .iter()
        .map(|u| s.judge(u) == Verdict::Allowed)
        .collect();
    assert_eq!(verdicts, [true, true, false]);
}

#[test]
fn a_workspace_list_may_only_narrow_the_launch_list() {
    let launch = scope(&["http://127.0.0.1:8123", "https://*.example.com"]);
    let ok = [
        vec!["http://127.0.0.1:8123"],
        vec!["https://a.example.com"],
        vec!["https://*.a.example.com", "https://b.example.com"],
        vec!["https://*.example.com"],
    ];
    for own in ok {
        let narrowed = Scope::narrow(Some(&launch), scope(&own));
        assert!(narrowed.is_ok(), "{own:?}");
    }
    let wider = [
        vec!["http://127.0.0.1:8124"],
        vec!["https://example.com"],
        vec!["http://a.example.com"],
        vec!["https://*.com"],
        vec!["http://127.0.0.1:8123", "https://other.test"],
    ];
    for own in wider {
        let e = Scope::narrow(Some(&launch), scope(&own)).unwrap_err();
        assert_eq!(e.code.as_str(), "capability_denied", "{own:?}");
        assert_eq!(e.context.unwrap()["reason"], "scope_widened");
    }
    // Without a launch list, any list stands.
    assert!(Scope::narrow(None, scope(&["https://other.test"])).is_ok());
}

#[test]
fn an_empty_list_is_no_scope_and_a_bad_entry_spoils_the_list() {
    assert_eq!(Scope::parse_list::<&str>(&[]).unwrap(), None);
    let e = Scope::parse_list(&["http://127.0.0.1:1", "nope"]).unwrap_err();
    assert_eq!(e.code.as_str(), "invalid_argument");
}
