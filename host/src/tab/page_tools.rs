//! The tab's page-declared tools, for the `page-tools` capability (the
//! operations are `browser/page_tools/`).

use super::Tab;
use crate::browser::page_tools::invoke::Invocation;
use crate::browser::page_tools::{PageTool, PageToolListing};
use crate::error::BpResult;

impl Tab<'_> {
    /// The tools the page declares (in one frame, or all).
    pub async fn page_tools_declared(&mut self, frame: Option<&str>) -> BpResult<PageToolListing> {
        self.call.page_tools_declared(frame).await
    }

    /// One declared tool by its ref.
    pub fn page_tool_lookup(&self, tool_ref: &str) -> BpResult<PageTool> {
        self.call.page_tool_lookup(tool_ref)
    }

    /// Invoke a declared tool with JSON `input`.
    pub async fn invoke_page_tool(&mut self, tool_ref: &str, input: &str) -> BpResult<Invocation> {
        self.call.invoke_page_tool(tool_ref, input).await
    }
}
