//! Conversions of `page-read` between the generated WIT types and the
//! browser's domain types. Records are destructured and enums matched
//! variant by variant, without wildcards, so a field or variant added on
//! either side fails to compile here instead of being dropped silently.
//! Page text (names, values, titles, link targets) loses its invisible
//! characters here.

use crate::browser::types as domain;
use crate::sanitize::invisible;
use crate::wit::page_read;
use crate::wit::typed::all;

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
