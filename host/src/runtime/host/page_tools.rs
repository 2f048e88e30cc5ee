//! The `page-tools` capability: a target capability whose imports reach
//! the call's tab through a [`TargetView`] (see `browser/page_tools/mod.rs`).

use crate::browser::page_tools as domain;
use crate::browser::page_tools::invoke;
use crate::error::BpResult;
use crate::runtime::bindings::page_tools::{self, Effect, Invocation, Listing, PageTool};
use crate::runtime::host::views::TargetView;

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

impl page_tools::Host for TargetView<'_> {
    async fn declared(&mut self, frame_id: Option<String>) -> BpResult<Listing> {
        let call = self.settled().await?;
        call.page_tools_declared(frame_id.as_deref())
            .await
            .map(|l| Listing {
                tools: l.tools.into_iter().map(Into::into).collect(),
                hidden_by_policy: l.hidden_by_policy,
                hidden_by_grant: l.hidden_by_grant,
            })
    }

    async fn lookup(&mut self, tool_ref: String) -> BpResult<PageTool> {
        self.settled()
            .await?
            .page_tool_lookup(&tool_ref)
            .map(Into::into)
    }

    async fn invoke(&mut self, tool_ref: String, input: String) -> BpResult<Invocation> {
        let call = self.settled().await?;
        call.invoke_page_tool(&tool_ref, &input)
            .await
            .map(Into::into)
    }
}
