//! Unit tests of `cookies-write`: a cookie goes out as the string call
//! sent it, and a bad `sameSite` is refused before anything is sent.

use super::write::cookie_param;
use crate::browser::types::Cookie;
use crate::error::Code;
use serde_json::json;

fn cookie(domain: &str, same_site: Option<&str>, expires: Option<f64>) -> Cookie {
    Cookie {
        name: "sid".into(),
        value: "v".into(),
        domain: domain.into(),
        path: "/".into(),
        expires,
        http_only: true,
        secure: false,
        same_site: same_site.map(str::to_string),
    }
}

fn sent(c: &Cookie) -> Option<serde_json::Value> {
    let param = cookie_param(c, "http://127.0.0.1:9/p").ok()?;
    serde_json::to_value(param).ok()
}

#[test]
fn a_cookie_without_a_domain_is_set_for_the_page_url() {
    assert_eq!(
        sent(&cookie("", None, None)),
        Some(
            json!({"name": "sid", "value": "v", "url": "http://127.0.0.1:9/p",
                    "path": "/", "secure": false, "httpOnly": true})
        )
    );
}

#[test]
fn a_domain_same_site_and_expiry_are_passed_on() {
    assert_eq!(
        sent(&cookie("a.test", Some("Lax"), Some(1.5e9))),
        Some(
            json!({"name": "sid", "value": "v", "domain": "a.test", "path": "/",
                    "secure": false, "httpOnly": true, "sameSite": "Lax", "expires": 1.5e9})
        )
    );
}

#[test]
fn an_unknown_same_site_is_refused_as_the_browser_refuses_it() {
    let err = cookie_param(&cookie("", Some("lax"), None), "http://x/").err();
    assert_eq!(err.map(|e| e.code), Some(Code::InvalidArgument));
}
