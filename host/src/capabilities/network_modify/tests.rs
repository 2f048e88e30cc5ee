//! Unit tests of `network-modify`'s conversions.

use crate::browser::types as domain;
use crate::wit::network_modify;

#[test]
fn rule_actions_round_trip() {
    let mock = domain::RuleAction::Mock(domain::MockResponse {
        status: 418,
        headers: vec![domain::Header {
            name: "x-a".into(),
            value: "1".into(),
        }],
        body: "tea".into(),
    });
    for action in [
        domain::RuleAction::Block,
        mock,
        domain::RuleAction::Headers(Vec::new()),
    ] {
        let wit: network_modify::RuleAction = action.clone().into();
        assert_eq!(domain::RuleAction::from(wit), action);
    }
}
