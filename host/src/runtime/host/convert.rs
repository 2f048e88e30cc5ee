//! Conversions between the generated WIT types and the browser's domain
//! types, used only at the runtime edge (`host/target.rs`,
//! `host/workspace.rs`). Records are destructured and enums matched
//! variant by variant, without wildcards, so a field or variant added on
//! either side fails to compile here instead of being dropped silently.

use crate::browser::types as domain;
use crate::runtime::bindings::{input, navigation, page_read};
use crate::sanitize::invisible;

/// Convert every item of a list.
pub(in crate::runtime) fn all<T, U: From<T>>(items: Vec<T>) -> Vec<U> {
    items.into_iter().map(U::from).collect()
}

// ---- page-read -------------------------------------------------------------

impl From<domain::PageInfo> for page_read::PageInfo {
    fn from(p: domain::PageInfo) -> Self {
        let domain::PageInfo {
            url,
            title,
            document_generation,
            dialog_open,
        } = p;
        Self {
            url,
            title: invisible::clean(&title),
            document_generation,
            dialog_open,
        }
    }
}

impl From<domain::AxNode> for page_read::AxNode {
    fn from(n: domain::AxNode) -> Self {
        let domain::AxNode {
            handle,
            role,
            name,
            value,
            checked,
            disabled,
            protected,
            depth,
            expanded,
            focused,
            facts,
        } = n;
        // Names and values are page text: invisible characters never
        // reach an observation, its hints, or anything built from them.
        Self {
            handle,
            role,
            name: invisible::clean(&name),
            value: value.map(|v| invisible::clean(&v)),
            checked,
            disabled,
            protected,
            depth,
            expanded,
            focused,
            facts: facts.into(),
        }
    }
}

impl From<domain::NodeFacts> for page_read::NodeFacts {
    fn from(f: domain::NodeFacts) -> Self {
        let domain::NodeFacts {
            selected,
            pressed,
            required,
            invalid,
            level,
            href,
            options,
            more_options,
            scrollable,
        } = f;
        // Page text, like names: no invisible characters.
        Self {
            selected,
            pressed,
            required,
            invalid,
            level,
            href: href.map(|h| invisible::clean(&h)),
            options: options.iter().map(|o| invisible::clean(o)).collect(),
            more_options,
            scrollable,
        }
    }
}

impl From<domain::AxSnapshot> for page_read::AxSnapshot {
    fn from(s: domain::AxSnapshot) -> Self {
        let domain::AxSnapshot {
            info,
            nodes,
            depth_limited,
            node_limited,
        } = s;
        Self {
            info: info.into(),
            nodes: all(nodes),
            depth_limited,
            node_limited,
        }
    }
}

impl From<page_read::ObservedElement> for domain::ObservedElement {
    fn from(e: page_read::ObservedElement) -> Self {
        let page_read::ObservedElement { ref_, handle } = e;
        Self {
            reference: ref_,
            handle,
        }
    }
}

impl From<domain::NodeState> for page_read::NodeState {
    fn from(s: domain::NodeState) -> Self {
        let domain::NodeState {
            tag,
            input_type,
            value,
            value_length,
            checked,
            focused,
            editable,
            connected,
        } = s;
        Self {
            tag,
            input_type,
            value,
            value_length,
            checked,
            focused,
            editable,
            connected,
        }
    }
}

impl From<domain::PageText> for page_read::PageText {
    fn from(t: domain::PageText) -> Self {
        let domain::PageText {
            text,
            truncated,
            hidden,
        } = t;
        Self {
            text,
            truncated,
            hidden: hidden
                .into_iter()
                .map(|(reason, count)| page_read::HiddenText { reason, count })
                .collect(),
        }
    }
}

impl From<domain::FrameInfo> for page_read::FrameInfo {
    fn from(f: domain::FrameInfo) -> Self {
        let domain::FrameInfo {
            frame_id,
            url,
            name,
            parent_frame_id,
            selected,
        } = f;
        Self {
            frame_id,
            url,
            name,
            parent_frame_id,
            selected,
        }
    }
}

// ---- navigation ------------------------------------------------------------

impl From<domain::NavResult> for navigation::NavResult {
    fn from(r: domain::NavResult) -> Self {
        let domain::NavResult { url, title, status } = r;
        Self {
            url,
            title: invisible::clean(&title),
            status,
        }
    }
}

impl From<navigation::HistoryAction> for domain::HistoryAction {
    fn from(a: navigation::HistoryAction) -> Self {
        match a {
            navigation::HistoryAction::Back => Self::Back,
            navigation::HistoryAction::Forward => Self::Forward,
            navigation::HistoryAction::Reload => Self::Reload,
        }
    }
}

// ---- input -----------------------------------------------------------------

impl From<input::Point> for domain::Point {
    fn from(p: input::Point) -> Self {
        let input::Point { x, y } = p;
        Self { x, y }
    }
}

impl From<domain::Point> for input::Point {
    fn from(p: domain::Point) -> Self {
        let domain::Point { x, y } = p;
        Self { x, y }
    }
}

impl From<domain::Hit> for input::Hit {
    fn from(h: domain::Hit) -> Self {
        let domain::Hit {
            on_target,
            role,
            name,
            part,
        } = h;
        Self {
            on_target,
            role,
            name,
            part,
        }
    }
}

impl From<input::MouseButton> for domain::MouseButton {
    fn from(b: input::MouseButton) -> Self {
        match b {
            input::MouseButton::Left => Self::Left,
            input::MouseButton::Middle => Self::Middle,
            input::MouseButton::Right => Self::Right,
        }
    }
}

/// WIT flags are bit sets: a flag added to `modifiers` needs a field here.
impl From<input::Modifiers> for domain::Modifiers {
    fn from(m: input::Modifiers) -> Self {
        Self {
            alt: m.contains(input::Modifiers::ALT),
            ctrl: m.contains(input::Modifiers::CTRL),
            meta: m.contains(input::Modifiers::META),
            shift: m.contains(input::Modifiers::SHIFT),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::bindings::{network_modify, types};

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

    #[test]
    fn observed_names_values_and_titles_lose_invisible_characters() {
        let node = page_read::AxNode::from(domain::AxNode {
            name: "Pay\u{200b} now\u{e0049}".into(),
            value: Some("4\u{feff}2 👩\u{200d}💻".into()),
            handle: None,
            role: "button".into(),
            checked: None,
            disabled: false,
            protected: false,
            depth: 0,
            expanded: None,
            focused: false,
            facts: Default::default(),
        });
        assert_eq!(node.name, "Pay now");
        assert_eq!(node.value.as_deref(), Some("42 👩\u{200d}💻"));
    }

    #[test]
    fn artifact_kinds_keep_their_store_names() {
        for (kind, name) in [
            (types::ArtifactKind::Screenshot, "screenshot"),
            (types::ArtifactKind::Preview, "preview"),
            (types::ArtifactKind::Pdf, "pdf"),
        ] {
            assert_eq!(domain::ArtifactKind::from(kind).as_str(), name);
        }
    }
}
