//! Unit tests of the pure part of a select: looking options up, the
//! refusals and their bounded page data, and the read-back verdict.

use super::native::check;
use super::plan::{self, Opt, LISTED_LABELS};
use crate::error::Code;
use crate::wit::page_select::{Chosen, MatchBy};
use serde_json::json;

fn opts(labels: &[&str]) -> Vec<Opt> {
    labels
        .iter()
        .map(|l| Opt {
            label: (*l).to_string(),
            value: Some(l.to_lowercase()),
            disabled: *l == "Mars",
            selected: false,
        })
        .collect()
}

fn want(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| (*s).to_string()).collect()
}

#[test]
fn options_are_found_by_label_or_value_each_once() {
    let o = opts(&["Portugal", "Spain", "France"]);
    let found = plan::find(
        &o,
        3,
        MatchBy::Label,
        &want(&["Spain", " portugal ", "Spain"]),
    );
    assert_eq!(found.expect("all exist"), vec![1, 0]);
    let found = plan::find(&o, 3, MatchBy::Value, &want(&["france"]));
    assert_eq!(found.expect("by value"), vec![2]);
    // By value, a label is not a value.
    assert!(plan::find(&o, 3, MatchBy::Value, &want(&["France"])).is_err());
}

#[test]
fn an_unknown_option_lists_a_bounded_number_of_the_labels_as_page_data() {
    let many: Vec<String> = (0..50).map(|n| format!("Option {n}\u{200b}")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    let o = opts(&refs);
    let err = plan::find(&o, 50, MatchBy::Label, &want(&["Atlantis"])).expect_err("unknown");
    assert_eq!(err.code, Code::InvalidArgument);
    assert!(plan::is_unknown_option(&err));
    let ctx = err.context.clone().expect("context");
    let listed = ctx["pageData"]["options"].as_array().expect("options");
    assert_eq!(listed.len(), LISTED_LABELS);
    assert_eq!(
        listed[0]["label"], "Option 0",
        "cleaned of invisible characters"
    );
    assert_eq!(ctx["optionCount"], 50);
    assert_eq!(ctx["missing"], json!(["Atlantis"]));
    assert!(
        !err.message.contains("Option 0"),
        "page data stays out of the words"
    );
}

#[test]
fn refusals_come_before_anything_is_set() {
    let o = opts(&["Earth", "Mars"]);
    let info = json!({"disabled": false, "total": 2});
    let two = check(&info, &o, false, MatchBy::Label, &want(&["Earth", "Mars"]));
    assert_eq!(two.expect_err("one choice").code, Code::InvalidArgument);
    let err = check(&info, &o, true, MatchBy::Label, &want(&["Mars"])).expect_err("disabled");
    assert_eq!(err.code, Code::ActionNotVerified);
    assert_eq!(err.context.expect("ctx")["reason"], "disabled");
    let hidden = json!({"hidden": true, "total": 2});
    let err = check(&hidden, &o, false, MatchBy::Label, &want(&["Earth"])).expect_err("hidden");
    assert_eq!(err.context.expect("ctx")["reason"], "not_visible");
    let off = json!({"disabled": true, "total": 2});
    let err = check(&off, &o, false, MatchBy::Label, &want(&["Earth"])).expect_err("disabled");
    assert_eq!(err.code, Code::ActionNotVerified);
    assert_eq!(
        check(&info, &o, true, MatchBy::Label, &want(&["Earth"])).ok(),
        Some(vec![0])
    );
}

#[test]
fn the_verdict_needs_every_wanted_option_and_for_one_choice_nothing_else() {
    let c = |l: &str| Chosen {
        label: l.to_string(),
        value: None,
    };
    assert!(plan::matches(&[c("A")], &[c("A")], false));
    assert!(!plan::matches(&[c("A")], &[c("A"), c("B")], false));
    assert!(plan::matches(&[c("A")], &[c("A"), c("B")], true));
    assert!(!plan::matches(&[c("A"), c("C")], &[c("A"), c("B")], true));
    assert!(!plan::matches(&[c("A")], &[], false));
}

#[test]
fn try_select_reports_unknown_options_as_the_same_page_data() {
    let o = opts(&["Earth", "Venus"]);
    let err = plan::find(&o, 2, MatchBy::Label, &want(&["Pluto"])).expect_err("unknown");
    let u = plan::unknown_options(&err).expect("an unknown-option outcome");
    assert_eq!(u.missing, vec!["Pluto".to_string()]);
    assert_eq!(u.total, 2);
    assert_eq!(u.options.len(), 2);
    assert_eq!(u.options[1].label, "Venus");
    assert_eq!(u.options[1].value.as_deref(), Some("venus"));
    assert!(plan::unknown_options(&plan::one_only(2)).is_none());
}
