//! The WIT `Host` impl of `page-tools`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::page_tools::{self, Invocation, Listing, PageTool};

impl page_tools::Host for TabView<'_> {
    async fn declared(&mut self, frame_id: Option<String>) -> BpResult<Listing> {
        let tab = self.settled().await?;
        let listing = tab.page_tools_declared(frame_id.as_deref()).await;
        listing.map(Into::into)
    }

    async fn lookup(&mut self, tool_ref: String) -> BpResult<PageTool> {
        self.settled()
            .await?
            .page_tool_lookup(&tool_ref)
            .map(Into::into)
    }

    async fn invoke(&mut self, tool_ref: String, input: String) -> BpResult<Invocation> {
        let tab = self.settled().await?;
        let invoked = tab.invoke_page_tool(&tool_ref, &input).await;
        invoked.map(Into::into)
    }
}
