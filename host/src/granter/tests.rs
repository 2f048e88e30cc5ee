//! Table tests of the granter: each policy source alone, then together.

use super::*;
use Capability::*;

fn removal(caps: &[&str], tools: &[&str]) -> Removal {
    let own = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Removal::parse(&own(caps), &own(tools)).expect("valid removal")
}

fn granter(caps: &[&str], tools: &[&str], level: PageToolLevel) -> Granter {
    Granter::new(removal(caps, tools), level)
}

const NONE: Grants = Grants {
    eval: false,
    page_consequential: false,
    state_load_user: false,
};
const EVAL: Grants = Grants {
    eval: true,
    page_consequential: false,
    state_load_user: false,
};
const ALL_GRANTS: Grants = Grants {
    eval: true,
    page_consequential: true,
    state_load_user: false,
};

#[test]
fn launch_policy_capabilities_and_single_tools() {
    let g = granter(
        &["navigation"],
        &["browser.tabs.close"],
        PageToolLevel::Write,
    );
    // (tool, capabilities, expected)
    let cases: &[(&str, &[Capability], Result<(), Denial>)] = &[
        ("browser.observe", &[PageRead], Ok(())),
        (
            "browser.navigate",
            &[PageRead, Navigation],
            Err(Denial::CapabilitiesDenied {
                tool: "browser.navigate".into(),
                capabilities: vec![Navigation],
            }),
        ),
        (
            "browser.tabs.close",
            &[TabsManage],
            Err(Denial::ToolRemoved {
                tool: "browser.tabs.close".into(),
            }),
        ),
        ("browser.tabs.open", &[TabsManage], Ok(())),
        ("browser.status", &[], Ok(())),
    ];
    for (name, caps, expected) in cases {
        assert_eq!(&g.tool(name, caps), expected, "{name}");
    }
    assert!(!g.links(Navigation));
    assert!(g.links(TabsManage));
}

#[test]
fn client_grants_follow_the_capabilities() {
    let g = Granter::default();
    let cases: &[(&[Capability], Grants, Result<(), Denial>)] = &[
        (&[PageRead, Input], NONE, Ok(())),
        (
            &[Script],
            NONE,
            Err(Denial::GrantMissing {
                grant: Grants::EVAL,
            }),
        ),
        (&[Script], EVAL, Ok(())),
        (&[], NONE, Ok(())),
    ];
    for (caps, grants, expected) in cases {
        assert_eq!(&g.client(caps, *grants), expected, "{caps:?} {grants:?}");
    }
    // The registry's grant names are the granter's.
    assert_eq!(crate::capabilities::grants(&[Script]), vec![Grants::EVAL]);
}

#[test]
fn a_removed_capability_wins_over_a_held_grant() {
    let g = granter(&["script", "state-load"], &[], PageToolLevel::Write);
    let denied = g.call("browser.eval", &[Script], ALL_GRANTS);
    assert!(matches!(denied, Err(Denial::CapabilitiesDenied { .. })));
    assert!(g.offered_grants().is_empty());
    let err = denied.map_err(|d| d.error()).unwrap_err();
    assert_eq!(err.code, Code::CapabilityDenied);
    assert!(err.message.contains("script"), "{}", err.message);
}

#[test]
fn offered_grants_follow_the_launch_policy() {
    let cases: &[(&[&str], PageToolLevel, &[&str])] = &[
        (
            &[],
            PageToolLevel::Write,
            &[Grants::EVAL, Grants::STATE_LOAD_USER],
        ),
        (
            &["state-load"],
            PageToolLevel::All,
            &[Grants::EVAL, Grants::PAGE_CONSEQUENTIAL],
        ),
        (
            &["page-tools", "state-load"],
            PageToolLevel::All,
            &[Grants::EVAL],
        ),
        (&["script", "state-load"], PageToolLevel::ReadOnly, &[]),
    ];
    for (deny, level, offered) in cases {
        assert_eq!(
            granter(deny, &[], *level).offered_grants(),
            offered.to_vec(),
            "{deny:?} {level:?}"
        );
    }
}

#[test]
fn page_tool_effects_against_level_and_grant() {
    use Effect::{Consequential, Read, Unknown};
    use PageToolLevel::{All, ReadOnly};
    let (w, wl) = (Effect::Write, PageToolLevel::Write);
    // (level, grants, effect, expected)
    let cases: &[(PageToolLevel, Grants, Effect, Result<(), Hidden>)] = &[
        (ReadOnly, NONE, Read, Ok(())),
        (ReadOnly, NONE, w, Err(Hidden::Policy)),
        (wl, NONE, w, Ok(())),
        (wl, ALL_GRANTS, Consequential, Err(Hidden::Policy)),
        (All, NONE, Consequential, Err(Hidden::Grant)),
        (All, NONE, Unknown, Err(Hidden::Grant)),
        (All, ALL_GRANTS, Consequential, Ok(())),
        (All, ALL_GRANTS, Unknown, Ok(())),
    ];
    for (level, grants, effect, expected) in cases {
        let g = granter(&[], &[], *level);
        let got = g.page_tool(*effect, *grants).map_err(|d| match d {
            Denial::PageTool { why, .. } => why,
            other => panic!("unexpected {other:?}"),
        });
        assert_eq!(&got, expected, "{level:?} {grants:?} {effect:?}");
    }
    let err = granter(&[], &[], wl)
        .page_tool(Consequential, NONE)
        .map_err(|d| d.error())
        .unwrap_err();
    assert_eq!(err.context.as_ref().unwrap()["reason"], "policy");
}

#[test]
fn tab_control_is_exclusive() {
    assert_eq!(Granter::control(None, "l1"), Ok(()));
    assert_eq!(Granter::control(Some("l1"), "l1"), Ok(()));
    let busy = Granter::control(Some("l2"), "l1").map_err(|d| d.error());
    assert_eq!(busy.unwrap_err().code, Code::TargetBusy);
}

#[test]
fn an_mcp_session_narrows_with_the_same_removal() {
    let session = removal(&["navigation"], &["browser.tabs.close"]);
    let cases: &[(&str, &[&str], bool)] = &[
        ("browser.observe", &["page-read"], true),
        ("browser.navigate", &["page-read", "navigation"], false),
        ("browser.tabs.close", &["tabs-manage"], false),
        ("browser.tabs.open", &["tabs-manage"], true),
        // A capability the registry does not know is the broker's to judge.
        ("x.y", &["teleport"], true),
    ];
    for (name, caps, offered) in cases {
        assert_eq!(
            Granter::narrowed(&session, name, caps).is_ok(),
            *offered,
            "{name}"
        );
    }
    // The broker's launch policy with the same removal agrees.
    let launch = Granter::new(session.clone(), PageToolLevel::Write);
    assert!(launch
        .tool("browser.navigate", &[PageRead, Navigation])
        .is_err());
    assert!(launch.tool("browser.tabs.open", &[TabsManage]).is_ok());
}

#[test]
fn opening_a_tab_with_a_url_is_also_a_navigation() {
    let url = serde_json::json!({"url": "http://127.0.0.1/"});
    assert_eq!(
        Granter::nested_calls("browser.tabs.open", &url),
        &["browser.navigate"]
    );
    assert!(Granter::nested_calls("browser.tabs.open", &serde_json::json!({})).is_empty());
    assert!(Granter::nested_calls("browser.click", &url).is_empty());
}

#[test]
fn bad_names_are_refused() {
    let bad = Removal::parse(&["teleport".into()], &[]).unwrap_err();
    assert!(
        bad.message.contains("unknown capability"),
        "{}",
        bad.message
    );
    let bad = Removal::parse(&[], &["tabs".into()]).unwrap_err();
    assert!(bad.message.contains("not a tool name"), "{}", bad.message);
}

#[test]
fn a_saved_state_goes_into_the_users_browser_only_with_its_grant() {
    let user = Grants::from_names(&[Grants::STATE_LOAD_USER]);
    assert!(user.has(Grants::STATE_LOAD_USER));
    assert_eq!(Granter::state_load(true, NONE), Ok(()));
    assert_eq!(Granter::state_load(false, user), Ok(()));
    let refused = Granter::state_load(false, NONE);
    assert_eq!(refused, Err(Denial::UserBrowserState));
    let err = refused.map_err(|d| d.error()).unwrap_err();
    assert_eq!(err.code, Code::CapabilityDenied);
    assert!(err.message.contains("state.load-user"), "{}", err.message);
}
