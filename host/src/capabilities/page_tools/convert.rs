//! Conversions of `page-tools` from the broker's domain types to WIT; the
//! page's words (a tool's name and description) lose their invisible
//! characters here.

use crate::browser::page_tools as domain;
use crate::browser::page_tools::invoke;
use crate::wit::page_tools::{Effect, Invocation, Listing, PageTool};

impl From<domain::Effect> for Effect {
    fn from(e: domain::Effect) -> Self {
        match e {
            domain::Effect::Read => Effect::Read,
            domain::Effect::Write => Effect::Write,
            domain::Effect::Consequential => Effect::Consequential,
            domain::Effect::Unknown => Effect::Unknown,
        }
    }
}

impl From<domain::PageTool> for PageTool {
    fn from(t: domain::PageTool) -> Self {
        PageTool {
            tool_ref: t.tool_ref,
            // The page's words: invisible characters never pass.
            name: crate::sanitize::invisible::clean(&t.name),
            description: crate::sanitize::invisible::clean(&t.description),
            input_schema: t.input_schema,
            effect: t.effect.into(),
            declarative: t.declarative,
            untrusted_content: t.untrusted_content,
            frame_id: t.frame_id,
            origin: t.origin,
        }
    }
}

impl From<invoke::Invocation> for Invocation {
    fn from(i: invoke::Invocation) -> Self {
        Invocation {
            completed: i.completed,
            output: i.output,
            error_message: i.error_message,
            navigated: i.navigated,
            dialog_opened: i.dialog_opened,
            page_changed: i.page_changed,
        }
    }
}

impl From<domain::PageToolListing> for Listing {
    fn from(l: domain::PageToolListing) -> Self {
        Listing {
            tools: l.tools.into_iter().map(Into::into).collect(),
            hidden_by_policy: l.hidden_by_policy,
            hidden_by_grant: l.hidden_by_grant,
        }
    }
}
