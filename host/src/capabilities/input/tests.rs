//! Unit tests of `input`'s conversions.

use crate::browser::types as domain;
use crate::wit::input;

#[test]
fn modifiers_map_flag_by_flag() {
    let m = input::Modifiers::CTRL | input::Modifiers::SHIFT;
    assert_eq!(
        domain::Modifiers::from(m),
        domain::Modifiers {
            alt: false,
            ctrl: true,
            meta: false,
            shift: true,
        }
    );
    assert_eq!(
        domain::Modifiers::from(input::Modifiers::empty()),
        domain::Modifiers::default()
    );
}

#[test]
fn settle_modes_map_one_to_one() {
    for (wit, mode) in [
        (input::SettleMode::None, domain::SettleMode::None),
        (input::SettleMode::Dom, domain::SettleMode::Dom),
        (input::SettleMode::Network, domain::SettleMode::Network),
    ] {
        assert_eq!(domain::SettleMode::from(wit), mode);
    }
}
